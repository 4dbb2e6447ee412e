// Shared pieces of the shell: DOM helper, alert/offline/live regions, cached game types.
import { t } from "./i18n.js";
import { api, me, forgetPlayer, ApiError, OfflineError } from "./api.js";
import morphdom from "./vendor/morphdom.js";

// ---------------------------------------------------------------- small DOM helpers
// A node's handlers by event type. `on` listens once per type and calls the node's current
// handler, so that `morph` can hand a kept node the handlers of the node drawn in its place.
const handlers = new WeakMap();
export function on(node, type, handler) {
  let own = handlers.get(node);
  if (!own) { own = {}; handlers.set(node, own); }
  if (!(type in own)) node.addEventListener(type, (event) => { const current = handlers.get(node)[type]; if (current) current.call(node, event); });
  own[type] = handler;
  return node;
}

// Draws `content` into `container` by changing only what differs, so the element under a
// finger survives a poll's answer and a tap that straddles it still lands. Elements are the
// same element when they share an id, a data-key or a data-focus-key (else by place and tag).
export function morph(container, content) {
  const next = document.createElement(container.tagName);
  next.append(content);
  morphdom(container, next, {
    childrenOnly: true,
    getNodeKey: (node) => (node.nodeType === Node.ELEMENT_NODE
      ? node.id || node.dataset.key || node.dataset.focusKey || undefined : undefined),
    onBeforeElUpdated(kept, drawn) {
      const theirs = handlers.get(drawn) || {};
      for (const type of Object.keys(handlers.get(kept) || {})) if (!(type in theirs)) on(kept, type, null);
      for (const [type, handler] of Object.entries(theirs)) on(kept, type, handler);
      return true;
    },
  });
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) on(node, key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

export const $ = (id) => document.getElementById(id);

// A game module's own styles, added to the page once: the shell's styles.css names no game.
// A game keeps them in its folder's style.css, read once when its module loads (styleText), so
// they are in the page before its first table is measured.
export async function styleText(url) {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  return answer.text();
}
export function addStyles(id, css) {
  if (!$(id)) document.head.append(h("style", { id, text: css }));
}
export const main = () => $("main");

export function showWho() {
  const player = me();
  $("who").textContent = player ? t("me.you", { name: player.name }) : "";
}

export function showError(message) {
  const box = $("messages");
  box.replaceChildren(h("p", { class: "error" }, message,
    h("button", { type: "button", class: "link", "aria-label": t("dismiss"), onclick: () => box.replaceChildren() }, "×")));
}
export function clearError() { $("messages").replaceChildren(); }

// A success said in `note` (a role=status element): an error left from an earlier try goes.
export function sayDone(note, text) {
  clearError();
  note.textContent = text;
}

export function setOffline(offline) {
  const bar = $("offline");
  const was = !bar.hidden;
  if (offline && !was) { bar.textContent = t("offline"); bar.hidden = false; }
  if (!offline && was) { bar.hidden = true; bar.textContent = ""; }
}

let lastAnnouncement = "";
export function announce(text) {
  if (!text || text === lastAnnouncement) return;
  lastAnnouncement = text;
  const region = $("announcer");
  region.textContent = "";
  // A fresh text node after a tick makes screen readers notice the change.
  setTimeout(() => { region.textContent = text; }, 50);
}

export function handleError(error) {
  if (error instanceof OfflineError) { setOffline(true); return; }
  if (error instanceof ApiError && error.status === 401 && me()) {
    // This device was signed out (or the server forgot us): start afresh as a new player.
    forgetPlayer();
    location.replace("/#/");
    location.reload();
    return;
  }
  setOffline(false);
  showError(error.message || String(error));
}

// Text the server will not show to others (a name, a message: invisible, blank or direction-
// changing characters, a name like a bot's) is refused with 422: said in the player's language.
export function handleTextError(error, refusedKey) {
  if (error instanceof ApiError && error.status === 422) {
    setOffline(false);
    showError(t(refusedKey));
    return;
  }
  handleError(error);
}

// A label to recognise this device by in the list: browser and system, as far as known.
export function deviceLabel() {
  const ua = navigator.userAgent;
  const system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Mac/.test(ua) ? "macOS"
    : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : "";
  const browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge" : /Chrom/.test(ua) ? "Chrome"
    : /Safari\//.test(ua) ? "Safari" : t("devices.browser");
  return system ? `${browser}, ${system}` : browser;
}

// ---------------------------------------------------------------- game types (cached)
let typesPromise = null;
export function gameTypes() {
  if (!typesPromise) typesPromise = api.types().catch((e) => { typesPromise = null; throw e; });
  return typesPromise;
}
export async function typeInfo(type) {
  try { return (await gameTypes()).find((x) => x.type === type) || null; } catch { return null; }
}


// ---------------------------------------------------------------- page title and app badge
let pageTitle = "";
let turnCount = 0;

function showTitle() {
  const base = pageTitle ? `${pageTitle} · ${t("app.name")}` : t("app.name");
  document.title = turnCount ? `(${turnCount}) ${base}` : base;
}

export function setTitle(title) {
  pageTitle = title;
  showTitle();
}

// How many games wait for the player: "(2) Pöytä" and the installed app's badge.
export function setTurnCount(count) {
  turnCount = count;
  showTitle();
  if (count && navigator.setAppBadge) navigator.setAppBadge(count).catch(() => {});
  else if (!count && navigator.clearAppBadge) navigator.clearAppBadge().catch(() => {});
}

// Children left out (null, undefined, false) are not drawn, as in h().
export function setPage(title, ...children) {
  setTitle(title);
  main().replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

// Names short enough for a table of 8: bots lose their level ("Bot 4"), long names keep their
// first word, plus the next word's initial when two seats would otherwise look the same.
const SHORT = 8;
export function shortNames(names) {
  const full = names.map((name) => name.replace(/\s*\(.*\)$/, ""));
  const first = full.map((name) => (name.length <= SHORT ? name : name.split(/\s+/)[0]));
  return first.map((name, seat) => {
    const clash = first.some((other, i) => i !== seat && other === name);
    const words = full[seat].split(/\s+/);
    let short = clash && words[1] ? `${name} ${words[1][0]}.` : name;
    if (short.length > SHORT + 2) short = `${short.slice(0, SHORT - 1)}.`;
    return short;
  });
}

// A short name on the table; the game page shows the full one when it is tapped.
export function nameTag(full, short = full) {
  return h("span", { class: "short-name", "aria-hidden": "true", "data-full-name": full, text: short });
}

// What the phone kept from an earlier visit, shown while offline: say it is not current.
// The clock time, with the day when it was not today: a weekday beside a time reads as a date
// in Finnish ("ti 22.03"), so the words around them ("klo") come from the catalogue.
export function staleNote(at) {
  const when = new Date(at);
  const lang = document.documentElement.lang;
  const time = when.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  const today = when.toDateString() === new Date().toDateString();
  const text = today ? t("offline.asOf", { time })
    : t("offline.asOfDay", { time, day: when.toLocaleDateString(lang, { weekday: "short", day: "numeric", month: "numeric" }) });
  return h("p", { class: "stale-note", role: "note", text });
}

// ---------------------------------------------------------------- time left
// "12 h left": coarse on purpose, a turn lasts minutes to days.
export function timeLeft(iso, now = Date.now()) {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (seconds <= 0) return t("time.up");
  if (seconds < 90) return t("time.seconds", { n: seconds });
  if (seconds < 90 * 60) return t("time.minutes", { n: Math.round(seconds / 60) });
  if (seconds < 48 * 3600) return t("time.hours", { n: Math.round(seconds / 3600) });
  return t("time.days", { n: Math.round(seconds / 86400) });
}

// A <span> that keeps its "… left" text current (see refreshTimes).
export function timeLeftNode(iso) {
  return h("span", { class: "time-left", "data-deadline": iso, text: timeLeft(iso) });
}

export function refreshTimes(root = document) {
  for (const node of root.querySelectorAll("[data-deadline]")) node.textContent = timeLeft(node.dataset.deadline);
}
setInterval(() => refreshTimes(), 10000);

// ---------------------------------------------------------------- share or copy a link
// Phones share through the system sheet (Web Share API); elsewhere the link is copied.
export function shareBox({ id, label, link, title, text }) {
  const input = h("input", { id, type: "text", readonly: true, value: link, onfocus: (e) => e.target.select() });
  const note = h("span", { class: "muted", role: "status" });
  const buttons = h("div", { class: "button-row" });
  if (navigator.share) {
    buttons.append(h("button", { type: "button", class: "primary", onclick: () =>
      navigator.share({ title, text, url: link }).catch(() => {}) }, t("share.share")));
  }
  buttons.append(h("button", { type: "button", onclick: async () => {
    try { await navigator.clipboard.writeText(link); } catch { input.select(); document.execCommand("copy"); }
    sayDone(note, t("share.copied"));
  } }, t("share.copy")));
  // A group named by the label, so "Copy" is unambiguous when several links are shown.
  return h("div", { class: "share", role: "group", "aria-labelledby": `${id}-label` },
    h("label", { for: id, id: `${id}-label`, text: label }), input, buttons, note);
}
