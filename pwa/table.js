// Around the table: short messages and quick reactions between the game's players (shown as
// text, never as markup; muteable per game), resigning the seat to a bot, and leaving a game
// before it starts.
import { t } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { h, handleError, announce } from "./ui.js";
import { confirmIrreversible } from "./settings.js";

const CHAT_EVERY = 10000; // ms between looks for new messages while the page is open
const LENGTH = 200;
const REACTIONS = ["reaction.gg", "reaction.wellPlayed", "reaction.oops", "reaction.thanks", "reaction.thumbs"];
const muteKey = (id) => `poyta.mute.${id}`;

// The chat section of a game page; returns {element, stop()}.
export function tableTalk(gameId, yourSeat) {
  const state = { last: 0, muted: localStorage.getItem(muteKey(gameId)) === "1", timer: null, stopped: false };
  const list = h("ol", { class: "chat-lines" });
  const box = h("div", { class: "chat-box", tabindex: "0", role: "region", "aria-label": t("chat.messages") }, list);
  const input = h("input", { id: "chat-text", type: "text", maxlength: LENGTH, autocomplete: "off", enterkeyhint: "send" });
  const send = async (text) => {
    try {
      const message = await api.say(gameId, text);
      input.value = "";
      add([message]);
    } catch (error) { handleError(error); }
  };
  const form = h("form", { class: "chat-form", onsubmit: (event) => {
    event.preventDefault();
    if (input.value.trim()) send(input.value);
  } }, h("label", { for: "chat-text", class: "visually-hidden", text: t("chat.label") }), input,
  h("button", { type: "submit" }, t("chat.send")));
  const reactions = h("div", { class: "button-row chat-reactions", role: "group", "aria-label": t("chat.reactions") },
    REACTIONS.map((key) => h("button", { type: "button", onclick: () => send(t(key)) }, t(key))));
  const mute = h("input", { type: "checkbox", id: "chat-mute", checked: state.muted, onchange: () => {
    state.muted = mute.checked;
    localStorage.setItem(muteKey(gameId), state.muted ? "1" : "0");
    list.querySelectorAll(".theirs").forEach((line) => { line.hidden = state.muted; });
  } });
  const element = h("section", { class: "chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title", text: t("chat.title") }), box,
    yourSeat === null ? null : [reactions, form],
    h("div", { class: "field check" }, mute, h("label", { for: "chat-mute", text: t("chat.mute") })));

  function add(messages) {
    const fresh = messages.filter((m) => m.number > state.last);
    if (!fresh.length) return;
    state.last = fresh[fresh.length - 1].number;
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    list.append(...fresh.map((m) => {
      const theirs = m.seat !== yourSeat;
      return h("li", { class: theirs ? "theirs" : "mine", hidden: theirs && state.muted },
        h("strong", { text: `${theirs ? m.name : t("game.youName")}: ` }), h("span", { text: m.text }));
    }));
    if (atEnd) box.scrollTop = box.scrollHeight;
    const heard = fresh.filter((m) => m.seat !== yourSeat);
    if (heard.length && !state.muted && state.last) announce(heard.map((m) => `${m.name}: ${m.text}`).join(". "));
  }
  async function look() {
    clearTimeout(state.timer);
    if (state.stopped) return;
    try {
      add((await api.chat(gameId, state.last)).messages);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return; // not ours to read
    }
    if (!state.stopped) state.timer = setTimeout(look, CHAT_EVERY);
  }
  look();
  return { element, look, stop() { state.stopped = true; clearTimeout(state.timer); } };
}

// "Resign": a bot plays the seat to the end. Asked first unless the player turned that off.
export function resignButton(view, onResigned) {
  const button = h("button", { type: "button", class: "danger" }, t("resign.button"));
  button.addEventListener("click", async () => {
    if (confirmIrreversible() && !(await ask(t("resign.ask"), t("resign.yes")))) return;
    button.disabled = true;
    try { onResigned(await api.resign(view.id)); } catch (error) { handleError(error); button.disabled = false; }
  });
  return h("p", { class: "resign" }, button);
}

// "Leave" a game still waiting for players: the seat opens again (the last player deletes the
// game). Asked first unless the player turned that off.
export function leaveButton(view, onLeft) {
  const button = h("button", { type: "button", class: "danger" }, t("leave.button"));
  button.addEventListener("click", async () => {
    const alone = view.seats.every((seat) => seat.seat === view.your_seat || seat.bot || !seat.joined);
    if (confirmIrreversible() && !(await ask(t(alone ? "leave.askLast" : "leave.ask"), t("leave.yes")))) return;
    button.disabled = true;
    try { await api.leave(view.id); onLeft(); } catch (error) { handleError(error); button.disabled = false; }
  });
  return h("p", { class: "resign" }, button);
}

// A yes/no question in a small sheet; resolves true for yes.
function ask(question, yesLabel) {
  return new Promise((resolve) => {
    let answer = false;
    const yes = h("button", { type: "button", class: "primary danger" }, yesLabel);
    const no = h("button", { type: "button" }, t("confirm.no"));
    const dialog = h("dialog", { class: "sheet", "aria-labelledby": "ask-title" },
      h("div", { class: "sheet-body" }, h("h2", { id: "ask-title", text: question }),
        h("div", { class: "button-row" }, yes, no)));
    yes.addEventListener("click", () => { answer = true; dialog.close(); });
    no.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  });
}
