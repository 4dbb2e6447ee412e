// The first visit (and a first invite link): ask the player's name before creating the identity,
// so friends see a name they know rather than "Player 6822"; or bring the player back with a
// passkey.
import { t } from "./i18n.js";
import { register } from "./api.js";
import { h, setPage, handleTextError, setOffline } from "./ui.js";
import { passkeySignIn } from "./passkeys.js";

// Resolves once the player is registered under the name they typed. `preview`: what the
// invite link offers, shown above the name; `befriended`: a friend link brought the player,
// `friend` the name of its player (null when unknown).
export function askName({ invited = false, befriended = false, friend = null, preview = null } = {}) {
  return new Promise((resolve) => {
    const input = h("input", { id: "first-name", type: "text", maxlength: 40, required: true,
      autocomplete: "nickname", autocapitalize: "words", enterkeyhint: "go" });
    const submit = h("button", { type: "submit", class: "primary big" }, t("welcome.start"));
    const form = h("form", { class: "card-panel", onsubmit: async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) { input.focus(); return; }
      submit.disabled = true;
      try {
        const player = await register(name);
        setOffline(false);
        resolve(player);
      } catch (error) {
        handleTextError(error, "name.refused");
        submit.disabled = false;
      }
    } },
    h("div", { class: "field" }, h("label", { for: "first-name", text: t("welcome.name") }),
      h("small", { class: "muted", id: "first-name-help", text: t("welcome.nameHelp") }), input),
    submit);
    input.setAttribute("aria-describedby", "first-name-help");
    const [title, text] = invited ? ["welcome.invited", "welcome.invitedText"]
      : befriended ? [friend ? "welcome.befriendedBy" : "welcome.befriended", "welcome.befriendedText"]
        : ["welcome.title", "welcome.text"];
    setPage(t("welcome.title"), h("h1", { text: t(title, { name: friend }) }), preview, h("p", { text: t(text) }), form,
      passkeySignIn(resolve));
    input.focus();
  });
}
