(() => {
"use strict";
// Drawing Discord messages as Discord's client does: embeds, components, attachments, flags.
const EPHEMERAL = 1 << 6, LOADING = 1 << 7;
const BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"};

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Discord's Markdown, the part the bot uses: **bold**, *italic* / _italic_, __underline__, ~~strike~~, `code`,
// > quotes and line breaks. The text is never parsed as HTML.
function markdown(text) {
  const container = el("span", {class: "md"});
  const lines = String(text || "").split("\n");
  lines.forEach((line, index) => {
    let target = container;
    if (line.startsWith("> ")) {
      target = el("span", {class: "quote"});
      container.append(target);
      line = line.slice(2);
    } else if (line.startsWith("-# ")) {
      target = el("span", {class: "subtext"});
      container.append(target);
      line = line.slice(3);
    }
    inline(line, target);
    if (index < lines.length - 1 && target === container) container.append(el("br"));
  });
  return container;
}

const INLINE = /(<@!?\d+>|<#\d+>|<t:\d+(?::\w)?>|\*\*[^*]+\*\*|__[^_]+__|~~[^~]+~~|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_|\|\|[^|]+\|\|)/;

const names = new Map();  // user and channel ids -> names, for mentions (set by the page)

function mention(part) {
  const found = /^<(@!?|#|t:)(\d+)/.exec(part);
  if (!found) return null;
  if (found[1] === "t:") return el("time", {class: "mention-time", text: new Date(Number(found[2]) * 1000).toLocaleString()});
  const sign = found[1] === "#" ? "#" : "@";
  return el("span", {class: "mention", text: sign + (names.get(found[2]) || "unknown")});
}

function inline(text, target) {
  for (const part of text.split(INLINE)) {
    if (!part) continue;
    const mentioned = mention(part);
    if (mentioned) { target.append(mentioned); continue; }
    const wrap = [["**", "strong"], ["__", "u"], ["~~", "s"], ["||", "span"], ["`", "code"], ["*", "em"], ["_", "em"]]
      .find(([mark]) => part.length > 2 * mark.length && part.startsWith(mark) && part.endsWith(mark));
    if (!wrap) { target.append(document.createTextNode(part)); continue; }
    const [mark, tag] = wrap;
    const inner = part.slice(mark.length, part.length - mark.length);
    const node = el(tag, tag === "span" ? {class: "spoiler"} : {});
    if (tag === "code") node.textContent = inner; else inline(inner, node);
    target.append(node);
  }
}

function timeText(iso) {
  const when = new Date(iso), clock = when.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
  return when.toDateString() === new Date().toDateString() ? `Today at ${clock}` : `${when.toLocaleDateString()} ${clock}`;
}

function colour(value) {
  return value === undefined || value === null ? null : "#" + Number(value).toString(16).padStart(6, "0");
}

function drawEmbed(embed) {
  const bar = colour(embed.color);
  const fields = [];
  let row = [];
  for (const field of embed.fields || []) {
    if (field.inline && row.length < 3) { row.push(field); continue; }
    if (row.length) { fields.push(row); row = []; }
    if (field.inline) row.push(field); else fields.push([field]);
  }
  if (row.length) fields.push(row);
  const footerBits = [embed.footer && embed.footer.text, embed.timestamp && timeText(embed.timestamp)].filter(Boolean);
  return el("article", {class: "embed", style: bar ? `border-left-color:${bar}` : null},
    embed.author && embed.author.name ? el("div", {class: "embed-author", text: embed.author.name}) : null,
    embed.title ? el("div", {class: "embed-title"}, markdown(embed.title)) : null,
    embed.description ? el("div", {class: "embed-description"}, markdown(embed.description)) : null,
    fields.length ? el("div", {class: "embed-fields"}, fields.map(cells => el("div", {class: `embed-row cells-${cells.length}`},
      cells.map(field => el("div", {class: "embed-field" + (field.inline ? " inline" : "")},
        el("div", {class: "field-name"}, markdown(field.name)),
        el("div", {class: "field-value"}, markdown(field.value))))))) : null,
    footerBits.length ? el("div", {class: "embed-footer", text: footerBits.join(" • ")}) : null);
}

function emojiText(emoji) {
  return emoji && emoji.name && !emoji.id ? emoji.name + " " : "";
}

function drawComponent(component, message, act) {
  if (component.type === 1) {
    return el("div", {class: "action-row"}, (component.components || []).map(child => drawComponent(child, message, act)));
  }
  if (component.type === 2) {
    const style = BUTTON_STYLES[component.style] || "secondary";
    const label = emojiText(component.emoji) + (component.label || "");
    if (component.style === 5) {
      return el("a", {class: `button ${style}`, href: component.url, target: "_blank", rel: "noopener"}, label, " ↗");
    }
    return el("button", {type: "button", class: `button ${style}`, disabled: !!component.disabled,
      onclick: () => act(message, component.custom_id, null)}, label);
  }
  if ([3, 5, 6, 7, 8].includes(component.type)) {
    const many = (component.max_values || 1) > 1;
    const select = el("select", {class: "select", disabled: !!component.disabled, multiple: many || null,
      "aria-label": component.placeholder || "Make a selection"});
    if (!many) select.append(el("option", {value: "", disabled: true, selected: true, text: component.placeholder || "Make a selection"}));
    for (const option of component.options || []) {
      select.append(el("option", {value: option.value, title: option.description || null, selected: !many && option.default || null},
        emojiText(option.emoji) + option.label + (option.description ? " — " + option.description : "")));
    }
    const send = () => act(message, component.custom_id, Array.from(select.selectedOptions).map(option => option.value));
    if (!many) { select.addEventListener("change", send); return el("div", {class: "select-row"}, select); }
    return el("div", {class: "select-row"}, select, el("button", {type: "button", class: "button secondary", onclick: send}, "Choose"));
  }
  return null;
}

function drawMessage(message, people, bot, act) {
  const meta = message.interaction_metadata;
  const who = meta && meta.user && people.find(person => person.id === meta.user.id);
  const ephemeral = message.flags & EPHEMERAL;
  const loading = message.flags & LOADING;
  const header = el("div", {class: "message-header"},
    el("span", {class: "author", text: bot.name}), el("span", {class: "app-tag", text: "APP"}),
    el("time", {datetime: message.timestamp, text: timeText(message.timestamp)}));
  const used = meta && who ? el("div", {class: "used"},
    el("span", {class: "avatar tiny", style: `background:${who.colour}`, "aria-hidden": "true", text: who.display[0]}),
    el("span", {class: "used-name", text: who.display}),
    meta.name ? ` used /${meta.name}` : " clicked a button") : null;
  const body = el("div", {class: "message-body"},
    loading ? el("div", {class: "thinking"}, `${bot.name} is thinking`, el("span", {class: "dots", "aria-hidden": "true", text: "…"})) : null,
    message.content ? el("div", {class: "content"}, markdown(message.content),
      message.edited_timestamp ? el("span", {class: "edited", text: " (edited)"}) : null) : null,
    (message.embeds || []).map(drawEmbed),
    !message.content && message.edited_timestamp ? el("span", {class: "edited", text: "(edited)"}) : null,
    (message.attachments || []).map(file => el("a", {class: "attachment", href: `/files/${file.id}/${encodeURIComponent(file.filename)}`,
      download: file.filename}, el("span", {class: "file-icon", "aria-hidden": "true", text: "📄"}),
      el("span", {class: "file-name", text: file.filename}), el("span", {class: "file-size", text: ` ${file.size} bytes`}))),
    (message.components || []).map(component => drawComponent(component, message, act)),
    ephemeral ? el("div", {class: "ephemeral-note"}, el("span", {"aria-hidden": "true", text: "👁 "}), "Only you can see this") : null);
  return el("div", {class: "message" + (ephemeral ? " ephemeral" : ""), id: `m-${message.id}`, "data-id": message.id},
    used,
    el("div", {class: "message-main"},
      el("span", {class: "avatar bot", "aria-hidden": "true", text: "🎲"}),
      el("div", {class: "message-text"}, header, body)));
}

function spokenText(message) {
  const parts = [message.content];
  for (const embed of message.embeds || []) parts.push(embed.title, embed.description);
  return parts.filter(Boolean).join(". ").replace(/<[@#]!?(\d+)>/g, (_, id) => names.get(id) || "someone")
    .replace(/[*_`~|]/g, "").slice(0, 300);
}

window.Markup = {drawMessage, spokenText, el, names, EPHEMERAL, LOADING};
})();
