// Settings (name, language, confirm-before-play, turn notifications, the player's clock in
// clock.js, passkeys in passkeys.js, devices with sign-in links, your data: its export and
// deleting the account) and the "sign in on this device" page that such a link opens.
import { t, language, setLanguage, LANGUAGES } from "./i18n.js";
import { api, me, setPlayer, forgetPlayer } from "./api.js";
import { h, handleError, handleTextError, setPage, showWho, shareBox, deviceLabel, sayDone } from "./ui.js";
import qrcode from "./vendor/qrcode-generator.js";
import { clockSections } from "./clock.js";
import { passkeysSection } from "./passkeys.js";

const CONFIRM_KEY = "poyta.confirm";
const PUSH_KEY = "poyta.push"; // this device's push subscription id at the server

const CONFIRM_FINAL_KEY = "poyta.confirmFinal";

const PACE_KEY = "poyta.pace";
// Milliseconds between other seats' cards: "normal", "fast", or 0 for all at once.
const PACES = { normal: 550, fast: 250, 0: 0 };
export function revealStep() { return PACES[localStorage.getItem(PACE_KEY)] ?? PACES.normal; }

// Whether `action` waits for a second tap. The player's choice ("1": every move, "0": none) once
// made; before that (a new player) a card put on the table for good, as in a trick game, is
// confirmed, while a secret choice that can still be changed (6 nimmt!) is not.
export function confirmBeforePlay(mod = null, action = null) {
  const chosen = localStorage.getItem(CONFIRM_KEY);
  if (chosen !== null) return chosen === "1";
  return !!(mod && mod.playsForGood && action && mod.playsForGood(action));
}
export function stopConfirming() { localStorage.setItem(CONFIRM_KEY, "0"); }
// On unless the player turned it off.
export function confirmIrreversible() { return localStorage.getItem(CONFIRM_FINAL_KEY) !== "0"; }

export async function settingsPage() {
  setPage(t("settings.title"), h("h1", { text: t("settings.title") }),
    nameSection(), languageSection(), playSection(), notificationSection(), clockSections(), passkeysSection(), devicesSection(), dataSection());
}

function nameSection() {
  const input = h("input", { id: "my-name", type: "text", value: me().name, maxlength: 40, required: true, autocomplete: "nickname" });
  const note = h("p", { class: "muted", role: "status" });
  const form = h("form", { class: "card-panel", onsubmit: async (event) => {
    event.preventDefault();
    try {
      await api.rename(input.value.trim());
      showWho();
      sayDone(note, t("settings.nameSaved"));
    } catch (error) { handleTextError(error, "name.refused"); }
  } }, h("div", { class: "field" }, h("label", { for: "my-name", text: t("settings.name") }), input),
  h("button", { type: "submit", class: "primary" }, t("settings.save")), note);
  return h("section", { "aria-labelledby": "s-name" }, h("h2", { id: "s-name", text: t("settings.you") }), form);
}

function languageSection() {
  const select = h("select", { id: "language", onchange: () => { setLanguage(select.value); location.reload(); } },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name)));
  return h("section", { "aria-labelledby": "s-lang" }, h("h2", { id: "s-lang", text: t("settings.language") }),
    h("div", { class: "field" }, h("label", { for: "language", text: t("settings.languageLabel") }), select));
}

function playSection() {
  const box = h("input", { type: "checkbox", id: "confirm-play", checked: localStorage.getItem(CONFIRM_KEY) !== "0",
    onchange: () => localStorage.setItem(CONFIRM_KEY, box.checked ? "1" : "0") });
  const final = h("input", { type: "checkbox", id: "confirm-final", checked: confirmIrreversible(),
    onchange: () => localStorage.setItem(CONFIRM_FINAL_KEY, final.checked ? "1" : "0") });
  const pace = h("select", { id: "reveal-pace", onchange: () => localStorage.setItem(PACE_KEY, pace.value) },
    Object.keys(PACES).map((key) => h("option", { value: key, selected: PACES[key] === revealStep() }, t(`settings.pace.${key}`))));
  return h("section", { "aria-labelledby": "s-play" }, h("h2", { id: "s-play", text: t("settings.play") }),
    h("div", { class: "field" }, h("label", { for: "reveal-pace", text: t("settings.pace") }), pace),
    h("div", { class: "field check" }, final, h("label", { for: "confirm-final", text: t("settings.confirmFinal") })),
    h("div", { class: "field check" }, box, h("label", { for: "confirm-play", text: t("settings.confirm") })));
}

// ---------------------------------------------------------------- turn notifications
function pushUnavailable() {
  if (!("serviceWorker" in navigator)) return t("push.noWorker");
  if (!("Notification" in window) || !("PushManager" in window)) return t("push.unsupported");
  if (Notification.permission === "denied") return t("push.denied");
  return null;
}

function notificationSection() {
  const section = h("section", { "aria-labelledby": "s-push" }, h("h2", { id: "s-push", text: t("push.title") }));
  const why = pushUnavailable();
  if (why) { section.append(h("p", { class: "muted", text: why })); return section; }
  const note = h("p", { class: "muted", role: "status" });
  const box = h("input", { type: "checkbox", id: "push-on", checked: !!localStorage.getItem(PUSH_KEY) });
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      if (box.checked) await subscribePush(); else await unsubscribePush();
      sayDone(note, t(box.checked ? "push.on" : "push.off"));
    } catch (error) {
      box.checked = !box.checked;
      note.textContent = pushUnavailable() || "";
      handleError(error);
    } finally { box.disabled = false; }
  });
  section.append(h("div", { class: "field check" }, box, h("label", { for: "push-on", text: t("push.label") })), note);
  return section;
}

// PushManager wants the VAPID key as bytes; the server gives it base64url-encoded.
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

async function subscribePush() {
  if (await Notification.requestPermission() !== "granted") throw new Error(t("push.denied"));
  const registration = await navigator.serviceWorker.ready;
  const { public_key: key } = await api.pushKey();
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  const { id } = await api.subscribe(subscription.toJSON());
  localStorage.setItem(PUSH_KEY, id);
}

async function unsubscribePush() {
  const id = localStorage.getItem(PUSH_KEY);
  if (id) await api.unsubscribe(id);
  localStorage.removeItem(PUSH_KEY);
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (subscription) await subscription.unsubscribe();
}

// ---------------------------------------------------------------- devices and sign-in links
function devicesSection() {
  const list = h("ul", { class: "device-list" });
  const linkBox = h("div");
  const section = h("section", { "aria-labelledby": "s-devices" }, h("h2", { id: "s-devices", text: t("devices.title") }),
    h("p", { text: t("devices.text") }), list,
    h("button", { type: "button", class: "primary big", onclick: () => makeLink(linkBox) }, t("devices.makeLink")), linkBox);
  loadDevices(list);
  return section;
}

// The server names the device a player started on "first device"; the others as they were named.
const deviceName = (label) => (label === "first device" ? t("devices.first") : label);

async function loadDevices(list) {
  let devices;
  try { devices = await api.devices(); } catch (error) { handleError(error); return; }
  list.replaceChildren(...devices.map((device) => h("li", {},
    h("span", {}, deviceName(device.label), h("small", { text: ` ${new Date(device.created).toLocaleDateString(language())}` }),
      device.current ? h("strong", { text: ` (${t("devices.this")})` }) : null),
    device.current ? null : h("button", { type: "button", "aria-label": t("devices.revokeLabel", { label: deviceName(device.label) }),
      onclick: async () => {
        try { await api.revokeDevice(device.id); loadDevices(list); } catch (error) { handleError(error); }
      } }, t("devices.revoke")))));
}

async function makeLink(box) {
  let code;
  try { code = await api.signinCode(); } catch (error) { handleError(error); return; }
  // The code travels in the fragment: it never reaches a server log.
  const link = `${location.origin}/#/signin/${encodeURIComponent(code.code)}`;
  box.replaceChildren(h("div", { class: "card-panel signin-link" },
    h("p", { text: t("devices.linkText", { minutes: Math.round(code.expires_in / 60) }) }),
    qrSvg(link, t("devices.qr")),
    shareBox({ id: "signin-link", label: t("devices.link"), link, title: t("devices.shareTitle") })));
}

// The QR code as SVG nodes (no innerHTML), dark on a light quiet zone in both colour schemes.
function qrSvg(text, label) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const count = qr.getModuleCount();
  let d = "";
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) if (qr.isDark(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
  }
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${count + 8} ${count + 8}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("class", "qr");
  const background = document.createElementNS(ns, "rect");
  background.setAttribute("width", "100%");
  background.setAttribute("height", "100%");
  background.setAttribute("fill", "#fff");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(background, path);
  return svg;
}

// ---------------------------------------------------------------- your data
function dataSection() {
  const note = h("p", { class: "muted", role: "status" });
  const download = h("button", { type: "button", id: "export-data", onclick: async () => {
    download.disabled = true;
    try {
      const file = URL.createObjectURL(await api.exportData());
      const link = h("a", { href: file, download: "poyta-my-data.jsonl" });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(file), 60000);
      sayDone(note, t("data.exported"));
    } catch (error) { handleError(error); } finally { download.disabled = false; }
  } }, t("data.export"));
  const confirmBox = h("div");
  const ask = h("button", { type: "button", id: "delete-account", class: "danger", "aria-expanded": "false",
    onclick: () => {
      ask.setAttribute("aria-expanded", "true");
      confirmBox.replaceChildren(deletionConfirm(() => { ask.setAttribute("aria-expanded", "false"); confirmBox.replaceChildren(); ask.focus(); }));
      confirmBox.querySelector("button").focus();
    } }, t("data.delete"));
  return h("section", { "aria-labelledby": "s-data" }, h("h2", { id: "s-data", text: t("data.title") }),
    h("p", { text: t("data.exportText") }), download, note,
    h("p", { text: t("data.deleteText") }), ask, confirmBox);
}

// The step that asks once more: what goes and what stays, then "Delete for good" or Cancel.
function deletionConfirm(cancel) {
  const sure = h("button", { type: "button", id: "delete-for-good", class: "danger", onclick: async () => {
    sure.disabled = true;
    try {
      await api.deleteAccount(me().id);
      forgetPlayer();
      location.replace("/#/");
      location.reload();
    } catch (error) { sure.disabled = false; handleError(error); }
  } }, t("data.deleteForGood"));
  return h("div", { class: "card-panel", role: "group", "aria-labelledby": "delete-ask" },
    h("p", { id: "delete-ask", text: t("data.deleteAsk", { name: me().name }) }),
    h("ul", {}, ...["data.deleteGames", "data.deleteGone", "data.deleteKept"].map((key) => h("li", { text: t(key) }))),
    sure, h("button", { type: "button", onclick: cancel }, t("data.cancel")));
}

export async function signinPage(code) {
  const label = h("input", { id: "device-label", type: "text", value: deviceLabel(), maxlength: 60, required: true });
  const submit = h("button", { type: "submit", class: "primary big" }, t("signin.button"));
  const form = h("form", { class: "card-panel", onsubmit: async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      setPlayer(await api.signIn(code, label.value.trim()));
      // A fresh start under the new identity, without the used code in the address or history.
      location.replace("/#/");
      location.reload();
    } catch (error) { handleError(error); submit.disabled = false; }
  } }, h("p", { text: t("signin.text") }),
  me() ? h("p", { class: "muted", text: t("signin.replaces", { name: me().name }) }) : null,
  h("div", { class: "field" }, h("label", { for: "device-label", text: t("signin.label") }), label), submit);
  setPage(t("signin.title"), h("h1", { text: t("signin.title") }), form);
}
