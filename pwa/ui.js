// Shared pieces of the shell: DOM helper, alert/offline/live regions, cached game types.
import { t } from "./i18n.js";
import { api, OfflineError } from "./api.js";

// ---------------------------------------------------------------- small DOM helpers
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

export const $ = (id) => document.getElementById(id);
export const main = () => $("main");

export function showError(message) {
  const box = $("messages");
  box.replaceChildren(h("p", { class: "error" }, message,
    h("button", { type: "button", class: "link", "aria-label": t("dismiss"), onclick: () => box.replaceChildren() }, "×")));
}
export function clearError() { $("messages").replaceChildren(); }

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
  setOffline(false);
  showError(error.message || String(error));
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


export function setPage(title, ...children) {
  document.title = title ? `${title} · ${t("app.name")}` : t("app.name");
  main().replaceChildren(...children);
}
