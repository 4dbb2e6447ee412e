// "How to play": a sheet over the table with a game's rules written for players
// (games/<type>/howto.js, in every language), closed back to the table; the full rules page is
// one link away.
import { t, language } from "./i18n.js";
import { h } from "./ui.js";
import { renderMarkdown } from "./markdown.js";

export async function openHowTo({ type, title, gameId }) {
  const opener = document.activeElement;
  let texts;
  try { texts = (await import(`./games/${type}/howto.js`)).default; } catch { texts = null; }
  const close = h("button", { type: "button", class: "sheet-close", "aria-label": t("howto.close") }, "×");
  const rules = gameId ? `#/rules/${encodeURIComponent(type)}/${encodeURIComponent(gameId)}` : `#/rules/${encodeURIComponent(type)}`;
  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "howto-title" },
    h("div", { class: "sheet-head" }, h("h2", { id: "howto-title", text: t("howto.title", { title }) }), close),
    h("div", { class: "sheet-body" },
      texts ? renderMarkdown(texts[language()] || texts.en) : h("p", { text: t("howto.missing") }),
      h("p", {}, h("a", { href: rules, onclick: () => dialog.close() }, t("howto.fullRules")))));
  close.addEventListener("click", () => dialog.close());
  // A tap on the dimmed table around the sheet closes it too.
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (opener && opener.isConnected) opener.focus({ preventScroll: true });
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
