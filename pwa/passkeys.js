// Passkeys: "Keep your player with a passkey" (Settings, and offered once after a finished game)
// and "Sign in with a passkey" on the welcome screen. The server's options and the browser's
// answers travel as WebAuthn's JSON (parse*OptionsFromJSON, PublicKeyCredential.toJSON).
import { t, language } from "./i18n.js";
import { api, ApiError, setPlayer } from "./api.js";
import { h, handleError, showError, deviceLabel, sayDone, clearError } from "./ui.js";

const OFFERED_KEY = "poyta.passkeyOffered";

export function passkeysSupported() {
  return !!(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON
    && PublicKeyCredential.parseRequestOptionsFromJSON);
}

// A passkey that was not used (cancelled, timed out, none here) or not accepted: said plainly.
function refusal(error) {
  if (error instanceof DOMException && error.name === "NotAllowedError") showError(t("passkeys.cancelled"));
  else if (error instanceof ApiError && error.status === 422) showError(t("passkeys.refused"));
  else handleError(error);
}

async function addPasskey() {
  const options = await api.passkeyRegistrationOptions();
  const credential = await navigator.credentials.create(
    { publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  return api.registerPasskey(credential.toJSON(), deviceLabel());
}

function addButton(onAdded) {
  const button = h("button", { type: "button", class: "primary big", onclick: async () => {
    button.disabled = true;
    try { onAdded(await addPasskey()); } catch (error) { refusal(error); } finally { button.disabled = false; }
  } }, t("passkeys.add"));
  return button;
}

// ---------------------------------------------------------------- Settings
export function passkeysSection() {
  const section = h("section", { "aria-labelledby": "s-passkeys" },
    h("h2", { id: "s-passkeys", text: t("passkeys.title") }), h("p", { text: t("passkeys.text") }));
  if (!passkeysSupported()) { section.append(h("p", { class: "muted", text: t("passkeys.unsupported") })); return section; }
  const list = h("ul", { class: "device-list", "aria-label": t("passkeys.title") });
  const note = h("p", { class: "muted", role: "status" });
  section.append(list, addButton(() => { sayDone(note, t("passkeys.added")); loadPasskeys(list); }), note);
  loadPasskeys(list);
  return section;
}

async function loadPasskeys(list) {
  let passkeys;
  try { passkeys = await api.passkeys(); } catch (error) { handleError(error); return; }
  if (!passkeys.length) { list.replaceChildren(h("li", { class: "muted", text: t("passkeys.none") })); return; }
  list.replaceChildren(...passkeys.map((passkey) => passkeyItem(list, passkey)));
}

function passkeyItem(list, passkey) {
  const created = new Date(passkey.created).toLocaleDateString(language());
  const item = h("li", {},
    h("span", {}, passkey.name, h("small", { text: ` ${t("passkeys.created", { date: created })}` })),
    h("span", { class: "actions" },
      h("button", { type: "button", "aria-label": t("passkeys.renameLabel", { name: passkey.name }),
        onclick: () => item.replaceWith(renameForm(list, passkey)) }, t("passkeys.rename")),
      h("button", { type: "button", "aria-label": t("passkeys.removeLabel", { name: passkey.name }),
        onclick: async () => {
          try { await api.removePasskey(passkey.id); loadPasskeys(list); } catch (error) { handleError(error); }
        } }, t("passkeys.remove"))));
  return item;
}

function renameForm(list, passkey) {
  const input = h("input", { id: "passkey-name", type: "text", value: passkey.name, maxlength: 60, required: true });
  const form = h("form", { onsubmit: async (event) => {
    event.preventDefault();
    try { await api.renamePasskey(passkey.id, input.value.trim()); loadPasskeys(list); } catch (error) { handleError(error); }
  } }, h("label", { for: "passkey-name", text: t("passkeys.name") }), input,
  h("button", { type: "submit", class: "primary" }, t("passkeys.save")));
  setTimeout(() => input.focus());
  return h("li", {}, form);
}

// ---------------------------------------------------------------- after a finished game
let offered = null; // the offer's panel (null inside: nothing to offer), asked once a page load

// Into a finished game's result: the same panel each time the result is drawn again.
export function offerPasskey(outcome) {
  offered ??= passkeyOffer();
  offered.then((panel) => { if (panel && outcome.isConnected) outcome.append(panel); });
}

// Offered once a device, to a player with no passkey yet.
async function passkeyOffer() {
  if (!passkeysSupported() || localStorage.getItem(OFFERED_KEY)) return null;
  let passkeys;
  try { passkeys = await api.passkeys(); } catch { return null; }
  localStorage.setItem(OFFERED_KEY, "1");
  if (passkeys.length) return null;
  const panel = h("div", { class: "card-panel passkey-offer" }, h("p", { text: t("passkeys.offer") }));
  panel.append(addButton(() => { clearError(); panel.replaceChildren(h("p", { role: "status", text: t("passkeys.added") })); }));
  return panel;
}

// ---------------------------------------------------------------- the welcome screen
// The player of the passkey this device offers, signed in here: `onSignedIn(player)`.
export function passkeySignIn(onSignedIn) {
  if (!passkeysSupported()) return document.createDocumentFragment();
  const button = h("button", { type: "button", class: "big", onclick: async () => {
    button.disabled = true;
    try {
      const options = await api.passkeySignInOptions();
      const credential = await navigator.credentials.get(
        { publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
      onSignedIn(setPlayer(await api.signInWithPasskey(credential.toJSON(), deviceLabel())));
    } catch (error) { refusal(error); button.disabled = false; }
  } }, t("passkeys.signIn"));
  return h("div", { class: "card-panel" }, h("p", { text: t("passkeys.signInText") }), button);
}
