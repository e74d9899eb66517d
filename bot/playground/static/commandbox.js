(() => {
"use strict";
// The message box as Discord's client has it for slash commands: "/" lists the synced commands, then
// subcommands, then options (required first) with their descriptions, choices, the bot's autocomplete; a whole
// line typed out is read the same way. What Discord's client would refuse is refused here, before the bot sees it.
const SUBCOMMAND = 1, GROUP = 2, STRING = 3, INTEGER = 4, BOOLEAN = 5, USER = 6, CHANNEL = 7, NUMBER = 10;
const KIND_NAMES = {3: "text", 4: "whole number", 5: "True or False", 6: "member", 7: "channel", 8: "role", 9: "mentionable", 10: "number", 11: "file"};

// What the line says so far: the command, subcommand path, leaf option definitions, typed options, and what is
// being typed at the end (a command name, a subcommand, an option name, or an option's value).
function readLine(line, commands) {
  const text = line.replace(/^\//, "");
  const words = text.split(" ");
  const state = {command: null, path: [], definitions: [], options: {}, typing: "command", partial: words[0], focused: null};
  if (words.length === 1) return state;
  state.command = commands.find(command => command.name === words[0].toLowerCase());
  if (!state.command) { state.typing = "unknown"; return state; }
  let definitions = state.command.options || [], index = 1;
  while (definitions.some(option => option.type === SUBCOMMAND || option.type === GROUP)) {
    if (index === words.length - 1) { state.typing = "subcommand"; state.partial = words[index]; state.definitions = definitions; return state; }
    const chosen = definitions.find(option => option.name === words[index].toLowerCase());
    if (!chosen) { state.typing = "unknown"; return state; }
    state.path.push(chosen.name);
    definitions = chosen.options || [];
    index += 1;
  }
  state.definitions = definitions;
  const rest = words.slice(index).join(" ");
  const names = definitions.map(option => option.name).sort((a, b) => b.length - a.length)
    .map(name => name.replace(/[-]/g, "\\-"));
  const marks = names.length ? [...rest.matchAll(new RegExp(`(?:^|\\s)(${names.join("|")}):`, "g"))] : [];
  marks.forEach((mark, position) => {
    const end = position + 1 < marks.length ? marks[position + 1].index : rest.length;
    state.options[mark[1]] = rest.slice(mark.index + mark[0].length, end);
  });
  const last = marks[marks.length - 1];
  const lastValue = last ? state.options[last[1]] : "";
  const beforeMarks = last ? "" : rest;
  if (last && !/\s$/.test(lastValue)) {
    state.typing = "value"; state.focused = definitions.find(option => option.name === last[1]); state.partial = lastValue;
  } else {
    state.typing = "option"; state.partial = (last ? lastValue.split(" ").pop() : beforeMarks.split(" ").pop()) || "";
  }
  for (const key of Object.keys(state.options)) state.options[key] = state.options[key].trim();
  return state;
}

// Discord's client refuses these before sending: a required option left out, a value that is not a number or
// outside the option's range, text too short or too long, a choice that is not offered.
function problems(state) {
  if (!state.command) return [state.typing === "command" ? "Pick a command from the list" : "There is no such command"];
  const found = [];
  const hasSubcommands = state.definitions.some(option => option.type === SUBCOMMAND || option.type === GROUP);
  if (hasSubcommands) return [`/${state.command.name} needs a subcommand`];
  for (const option of state.definitions) {
    const value = state.options[option.name];
    if (value === undefined || value === "") {
      if (option.required) found.push(`${option.name}: this option is required`);
      continue;
    }
    if (option.choices && option.choices.length) {
      const ok = option.choices.some(choice => [String(choice.value), choice.name].map(s => s.toLowerCase()).includes(value.toLowerCase()));
      if (!ok) found.push(`${option.name}: pick one of ${option.choices.map(choice => choice.name).join(", ")}`);
      continue;
    }
    if (option.type === INTEGER || option.type === NUMBER) {
      const number = Number(value);
      if (!/^-?\d+(\.\d+)?$/.test(value) || (option.type === INTEGER && !Number.isInteger(number))) {
        found.push(`${option.name}: input a valid ${option.type === INTEGER ? "integer" : "number"}`);
      } else if ((option.min_value !== undefined && number < option.min_value) || (option.max_value !== undefined && number > option.max_value)) {
        found.push(`${option.name}: the value must be between ${option.min_value ?? "-∞"} and ${option.max_value ?? "∞"}`);
      }
    } else if (option.type === STRING) {
      if (option.min_length !== undefined && value.length < option.min_length) found.push(`${option.name}: at least ${option.min_length} characters`);
      if (option.max_length !== undefined && value.length > option.max_length) found.push(`${option.name}: at most ${option.max_length} characters`);
    } else if (option.type === BOOLEAN && !["true", "false"].includes(value.toLowerCase())) {
      found.push(`${option.name}: pick True or False`);
    }
  }
  return found;
}

// A description as Discord's client shows it: in the player's language when the bot synced a translation.
function described(item, locale) {
  return (item.description_localizations || {})[locale] || item.description;
}

// A choice's label likewise (its value, what the line carries, is the same in every language).
function named(choice, locale) {
  return (choice.name_localizations || {})[locale] || choice.name;
}

function optionHint(option, locale) {
  const bits = [KIND_NAMES[option.type] || "value"];
  if (option.min_value !== undefined || option.max_value !== undefined) bits.push(`${option.min_value ?? "…"}–${option.max_value ?? "…"}`);
  if (option.min_length !== undefined || option.max_length !== undefined) bits.push(`${option.min_length ?? 0}–${option.max_length ?? "…"} characters`);
  return `${option.name}: ${described(option, locale)} (${bits.join(", ")}${option.required ? ", required" : ""})`;
}

// Suggestions for the state: [{label, detail, insert}] where insert replaces the partial word being typed.
function suggestions(state, commands, people, channels, locale) {
  const starts = item => item.toLowerCase().startsWith(state.partial.toLowerCase());
  if (state.typing === "command") {
    return commands.filter(command => starts(command.name)).sort((a, b) => a.name.localeCompare(b.name))
      .map(command => ({label: "/" + command.name, detail: described(command, locale), insert: command.name + " "}));
  }
  if (state.typing === "subcommand") {
    return state.definitions.filter(option => starts(option.name))
      .map(option => ({label: option.name, detail: described(option, locale), insert: option.name + " "}));
  }
  if (state.typing === "option") {
    return state.definitions.filter(option => !(option.name in state.options) && starts(option.name))
      .sort((a, b) => Number(!!b.required) - Number(!!a.required))
      .map(option => ({label: option.name + (option.required ? " *" : ""), detail: described(option, locale) + (option.required ? " (required)" : ""), insert: option.name + ":"}));
  }
  if (state.typing === "value" && state.focused) {
    const option = state.focused;
    if (option.choices && option.choices.length) {
      return option.choices.filter(choice => named(choice, locale).toLowerCase().includes(state.partial.toLowerCase()) || String(choice.value).toLowerCase().startsWith(state.partial.toLowerCase()))
        .map(choice => ({label: named(choice, locale), detail: "", insert: String(choice.value) + " "}));
    }
    if (option.type === BOOLEAN) return ["True", "False"].filter(starts).map(name => ({label: name, detail: "", insert: name + " "}));
    if (option.type === USER) return people.filter(person => starts(person.name)).map(person => ({label: person.display, detail: "@" + person.name, insert: person.name + " "}));
    if (option.type === CHANNEL) return channels.filter(channel => starts(channel.name)).map(channel => ({label: "#" + channel.name, detail: "", insert: channel.name + " "}));
  }
  return [];
}

window.CommandBox = {readLine, problems, suggestions, optionHint};
})();
