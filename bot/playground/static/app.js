"use strict";
// The page: who is playing, where (a server's channel, the group DM, the bot's DM), the messages (live over a
// WebSocket), the command box, the bot's state.
const {drawMessage, spokenText, el, names, EPHEMERAL, LOADING} = window.Markup;
const {readLine, problems, suggestions, optionHint} = window.CommandBox;

const view = {people: [], places: [], commands: [], languages: [], locale: "en-US", messages: new Map(), bot: {name: "rollkeeper", state: "starting"},
  me: null, place: 0, items: [], active: -1, autocompleteFor: ""};
const $ = id => document.getElementById(id);

async function api(path, body) {
  const response = await fetch(path, {method: body ? "POST" : "GET", headers: {"Content-Type": "application/json"},
    body: body ? JSON.stringify(body) : undefined});
  const answer = await response.json().catch(() => ({error: `${response.status} ${response.statusText}`}));
  if (!response.ok) throw new Error(answer.error || "refused");
  return answer;
}

function person() { return view.people.find(someone => someone.id === view.me); }

// The place shown, and its channel for the person playing (the bot's DM is each person's own).
function place() { return view.places[view.place]; }
function channelId() { return place().channels[view.me]; }
const SIGNS = {text: "#", group: "@", dm: "@"};
function placeLabel(where) { return where.kind === "text" ? `#${where.name}` : where.kind === "dm" ? `@${where.name}` : where.name; }

function visible(message) {
  if (message.channel_id !== channelId()) return false;
  if (!(message.flags & EPHEMERAL)) return true;
  const meta = message.interaction_metadata;
  return !!meta && !!meta.user && meta.user.id === view.me;
}

function drawAll() {
  const box = $("messages"), pinned = atBottom();
  box.replaceChildren(...[...view.messages.values()].filter(visible)
    .map(message => drawMessage(message, view.people, view.bot, press)));
  if (pinned) toBottom();
}

function atBottom() {
  // Whether the newest message is in sight (in the message list, or on a phone in the page).
  const box = $("messages"), page = document.scrollingElement;
  const scrolls = box.scrollHeight > box.clientHeight + 1;
  return scrolls ? box.scrollHeight - box.scrollTop - box.clientHeight < 80
    : page.scrollHeight - page.scrollTop - page.clientHeight < 80;
}

function toBottom() {
  // The message list scrolls on a wide screen, the whole page on a phone's (see style.css).
  $("messages").scrollTop = $("messages").scrollHeight;
  document.scrollingElement.scrollTop = document.scrollingElement.scrollHeight;
}

function drawOne(message) {
  const old = document.getElementById(`m-${message.id}`);
  if (!visible(message)) { if (old) old.remove(); return; }
  const fresh = drawMessage(message, view.people, view.bot, press);
  const pinned = atBottom();
  if (old) old.replaceWith(fresh); else $("messages").append(fresh);
  if (!old || pinned) toBottom();
}

function announce(text) { $("announcer").textContent = text; }

function notice(text) {
  // Discord shows an interaction that failed as a private line under the box; so does the page.
  const line = el("div", {class: "message ephemeral notice"}, el("div", {class: "message-main"},
    el("span", {class: "avatar bot", "aria-hidden": "true", text: "⚠"}),
    el("div", {class: "message-text"}, el("div", {class: "content failed", text}),
      el("div", {class: "ephemeral-note"}, "Only you can see this"))));
  $("messages").append(line);
  toBottom();
  announce(text);
}

async function press(message, customId, values) {
  try {
    await api("/api/press", {user: view.me, message: message.id, custom_id: customId, values});
  } catch (error) {
    notice(error.message.includes("offline") ? "This interaction failed (the bot is offline)" : error.message);
  }
}

function drawBot() {
  const labels = {online: "online", starting: "starting…", stopped: "offline"};
  $("bot-state").textContent = `${view.bot.name}: ${labels[view.bot.state] || view.bot.state}`;
  $("bot-dot").className = "dot " + view.bot.state;
}

function drawPeople() {
  $("who").replaceChildren(...view.people.map(someone => el("option", {value: someone.id, selected: someone.id === view.me},
    someone.display + (someone.game_master ? " (game master)" : ""))));
  const me = person();
  $("me-avatar").style.background = me.colour;
  $("me-avatar").textContent = me.display[0];
}

function drawLanguages() {
  $("language").replaceChildren(...view.languages.map(language => el("option",
    {value: language.locale, lang: language.locale, selected: language.locale === view.locale}, language.name)));
}

async function speak(locale) {
  // The table's language: every player's Discord client and the server's locale (the bot's cards follow it).
  try {
    view.locale = (await api("/api/language", {locale})).locale;
  } catch (error) {
    notice(error.message);
  }
  drawLanguages(); refresh();
}

function drawPlaces() {
  // The sidebar: each server's channels, then the direct messages, picked like a channel.
  const sections = [...new Set(view.places.map(where => where.section))];
  $("places").replaceChildren(...sections.map(section => el("div", {class: "place-section"},
    el("h2", {class: "section", text: section}),
    el("ul", {class: "channels"}, ...view.places.map((where, index) => [where, index]).filter(([where]) => where.section === section)
      .map(([where, index]) => el("li", {}, el("button", {type: "button", class: "channel-link", title: where.about,
        "aria-current": index === view.place ? "page" : null, onclick: () => go(index)},
        el("span", {"aria-hidden": "true", text: SIGNS[where.kind] + " "}), where.name)))))));
  const here = place();
  $("server-name").textContent = here.section;
  $("channel-sign").textContent = SIGNS[here.kind];
  $("channel-name").textContent = here.name;
  $("topic").textContent = here.about;
  $("box").placeholder = `Message ${placeLabel(here)}`;
  $("box-label").textContent = `Message ${placeLabel(here)}`;
}

function go(index) { view.place = index; drawPlaces(); drawAll(); refresh(); }

// -- the command box ----------------------------------------------------------------------------------------

function setError(text) { $("error").textContent = text || ""; }

function showSuggestions(items, heading) {
  view.items = items; view.active = -1;
  const list = $("suggestions");
  list.replaceChildren(...(heading ? [el("li", {class: "heading", role: "presentation", text: heading})] : []),
    ...items.map((item, index) => el("li", {role: "option", id: `s-${index}`, class: "suggestion", "aria-selected": "false",
      onmousedown: event => { event.preventDefault(); accept(index); }},
      el("span", {class: "s-label", text: item.label}), el("span", {class: "s-detail", text: item.detail || ""}))));
  list.hidden = items.length === 0;
  $("box").setAttribute("aria-expanded", String(items.length > 0));
  $("box").removeAttribute("aria-activedescendant");
}

function highlight(index) {
  view.active = index;
  [...$("suggestions").querySelectorAll(".suggestion")].forEach((item, position) => item.setAttribute("aria-selected", String(position === index)));
  if (index >= 0) $("box").setAttribute("aria-activedescendant", `s-${index}`);
}

function accept(index) {
  const item = view.items[index];
  if (!item) return;
  const box = $("box");
  const state = readLine(box.value, commandsForMe());
  box.value = box.value.slice(0, box.value.length - state.partial.length) + item.insert;
  box.focus();
  refresh();
}

function commandsForMe() {
  // Those Discord's client offers this person here: the place's contexts and installs, the person's permissions.
  const offered = place().offered[view.me] || [];
  return view.commands.filter(command => offered.includes(command.name));
}

let autocompleteTimer = null;

function refresh() {
  const line = $("box").value;
  setError("");
  $("hint").hidden = true;
  if (!line.startsWith("/")) { showSuggestions([]); return; }
  const state = readLine(line, commandsForMe());
  const heading = state.command ? "/" + [state.command.name, ...state.path].join(" ") : "Commands of " + view.bot.name;
  const channels = view.places.filter(where => where.kind === "text" && where.section === place().section)
    .map(where => ({id: where.channels[view.me], name: where.name}));
  showSuggestions(suggestions(state, commandsForMe(), view.people, channels, view.locale), heading);
  if (state.typing === "value" && state.focused) {
    $("hint").textContent = optionHint(state.focused, view.locale);
    $("hint").hidden = false;
    const trouble = problems({...state, definitions: [state.focused], options: {[state.focused.name]: state.partial}})
      .filter(text => !text.endsWith("required"));
    if (state.partial && trouble.length) setError(trouble[0]);
    if (state.focused.autocomplete) {
      clearTimeout(autocompleteTimer);
      autocompleteTimer = setTimeout(() => askBot(line, state.focused.name), 150);
    }
  }
}

async function askBot(line, focused) {
  try {
    const answer = await api("/api/autocomplete", {user: view.me, channel: channelId(), line, focused});
    if ($("box").value !== line) return;
    showSuggestions(answer.choices.map(choice => ({label: choice.name, detail: "", insert: String(choice.value) + " "})),
      `${focused}: suggested by ${view.bot.name}`);
  } catch (error) {
    if ($("box").value === line) setError(error.message);
  }
}

async function send() {
  const box = $("box"), line = box.value.trim();
  if (!line) return;
  if (!line.startsWith("/")) {
    setError(`${view.bot.name} answers slash commands only: type / to see them`);
    return;
  }
  const state = readLine(line + " ", commandsForMe());
  const found = problems(state);
  if (found.length) { setError(found.join("; ")); return; }
  try {
    await api("/api/command", {user: view.me, channel: channelId(), line});
    box.value = "";
    showSuggestions([]);
    $("hint").hidden = true;
  } catch (error) {
    setError(error.message);
  }
}

function keys(event) {
  const open = !$("suggestions").hidden && view.items.length;
  if (event.key === "ArrowDown" && open) { event.preventDefault(); highlight((view.active + 1) % view.items.length); }
  else if (event.key === "ArrowUp" && open) { event.preventDefault(); highlight((view.active - 1 + view.items.length) % view.items.length); }
  else if (event.key === "Tab" && open) { event.preventDefault(); accept(view.active >= 0 ? view.active : 0); }
  else if (event.key === "Escape") { showSuggestions([]); }
  else if (event.key === "Enter") {
    event.preventDefault();
    if (open && view.active >= 0) accept(view.active); else send();
  }
}

// -- live updates ---------------------------------------------------------------------------------------------

function listen() {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/live`);
  socket.onmessage = event => {
    const change = JSON.parse(event.data);
    if (change.type === "message") {
      const message = change.message, before = view.messages.get(message.id);
      if (change.change === "delete") { view.messages.delete(message.id); document.getElementById(`m-${message.id}`)?.remove(); return; }
      view.messages.set(message.id, message);
      drawOne(message);
      const shownNow = !(message.flags & LOADING) && (!before || before.flags & LOADING);
      if (visible(message) && (shownNow || change.change === "update")) announce(`${view.bot.name}${change.change === "update" && !shownNow ? " (edited)" : ""}: ${spokenText(message)}`);
      else if (visible(message) && message.flags & LOADING) announce(`${view.bot.name} is thinking…`);
    } else if (change.type === "locale") {
      view.locale = change.locale;
      drawLanguages();
    } else if (change.type === "bot") {
      view.bot.state = change.state;
      drawBot();
      if (change.state === "online") load(false);
    } else if (change.type === "failed" && change.user === view.me && change.channel === channelId()) {
      notice("This interaction failed");
    }
  };
  socket.onclose = () => setTimeout(listen, 1000);
}

async function load(first) {
  const state = await api("/api/state");
  Object.assign(view, {people: state.people, places: state.places, commands: state.commands,
    languages: state.languages, locale: state.locale});
  view.bot = state.bot;
  for (const someone of state.people) names.set(someone.id, someone.display);
  for (const where of state.places) for (const id of Object.values(where.channels)) names.set(id, where.name);
  names.set(state.bot.id, state.bot.name);
  if (first) {
    view.me = view.me || state.people[0].id;
    for (const message of state.messages) if (!view.messages.has(message.id)) view.messages.set(message.id, message);
  }
  drawPeople(); drawLanguages(); drawPlaces(); drawBot(); if (first) drawAll();
}

async function restart(kill) {
  view.bot.state = "starting"; drawBot();
  try { await api("/api/restart", {kill}); } catch (error) { notice(error.message); }
}

function theme() {
  const light = document.body.classList.toggle("light");
  document.body.classList.toggle("dark", !light);
  $("theme").setAttribute("aria-pressed", String(light));
  $("theme").textContent = "Light theme";
}

document.addEventListener("DOMContentLoaded", async () => {
  if (window.matchMedia && window.matchMedia("(prefers-color-scheme: light)").matches) theme();
  $("box").addEventListener("input", refresh);
  $("box").addEventListener("keydown", keys);
  $("box").addEventListener("blur", () => setTimeout(() => showSuggestions([]), 150));
  $("composer").addEventListener("submit", event => { event.preventDefault(); send(); });
  $("who").addEventListener("change", () => { view.me = $("who").value; drawPeople(); drawPlaces(); drawAll(); refresh(); });
  $("language").addEventListener("change", () => speak($("language").value));
  $("restart").addEventListener("click", () => restart(false));
  $("kill").addEventListener("click", () => restart(true));
  $("theme").addEventListener("click", theme);
  listen();
  await load(true);
  document.body.dataset.ready = "yes";
});
