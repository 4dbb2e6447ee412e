// Around the table: short messages and quick reactions between the game's players (shown as
// text, never as markup; muteable per game), resigning the seat to a bot, and leaving a game
// before it starts.
import { t, tn } from "./i18n.js";
import { api, ApiError, OfflineError, isAbort } from "./api.js";
import { h, handleError, handleTextError, announce } from "./ui.js";
import { confirmIrreversible } from "./settings.js";

const CHAT_WAIT = 25; // s a look for new messages waits for one (the server answers at once when one is said)
const CHAT_RETRY = 5000; // ms before looking again after a failed look (offline)
const LENGTH = 200;
const REACTIONS = ["reaction.gg", "reaction.wellPlayed", "reaction.oops", "reaction.thanks", "reaction.nice"];
const muteKey = (id) => `poyta.mute.${id}`;

// The chat section of a game page, and the mark counting the others' messages not yet seen
// (for the top of the page: a tap goes to them); returns {element, unread, stop()}.
export function tableTalk(gameId, yourSeat) {
  const state = { last: 0, muted: localStorage.getItem(muteKey(gameId)) === "1", timer: null, stopped: false,
    unseen: 0, inView: false, looking: null, caughtUp: false };
  const list = h("ol", { class: "chat-lines" });
  const box = h("div", { class: "chat-box", tabindex: "0", role: "region", "aria-label": t("chat.messages") }, list);
  const input = h("input", { id: "chat-text", type: "text", maxlength: LENGTH, autocomplete: "off", enterkeyhint: "send" });
  const send = async (text) => {
    try {
      const message = await api.say(gameId, text);
      input.value = "";
      add([message]);
    } catch (error) { handleTextError(error, "chat.refused"); }
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
    h("div", { class: "field check chat-mute" }, mute, h("label", { for: "chat-mute", text: t("chat.mute") })));

  const unread = h("button", { type: "button", class: "unread", hidden: true, onclick: () => {
    element.scrollIntoView({ behavior: "smooth", block: "center" });
    input.focus({ preventScroll: true });
  } });
  const showUnread = () => {
    if (state.inView) state.unseen = 0;
    unread.hidden = !state.unseen;
    unread.textContent = tn("chat.unread", state.unseen);
  };
  new IntersectionObserver((entries) => {
    state.inView = entries.some((entry) => entry.isIntersecting);
    showUnread();
  }).observe(box);

  function add(messages) {
    const fresh = messages.filter((m) => m.number > state.last);
    if (!fresh.length) return;
    state.last = fresh[fresh.length - 1].number;
    // The story so far is not news; what the others say from now on is, until it is seen.
    if (state.caughtUp && !state.muted) state.unseen += fresh.filter((m) => m.seat !== yourSeat).length;
    showUnread();
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
  // One look at a time, each waiting for the next message: it arrives as fast as a move.
  async function look() {
    clearTimeout(state.timer);
    if (state.stopped || state.looking) return;
    state.looking = new AbortController();
    let again = 0;
    try {
      add((await api.chat(gameId, state.last, state.caughtUp ? CHAT_WAIT : 0, state.looking.signal)).messages);
      state.caughtUp = true;
    } catch (error) {
      if (isAbort(error) || (error instanceof ApiError && error.status === 403)) return; // stopped, or not ours to read
      again = error instanceof OfflineError || error instanceof ApiError ? CHAT_RETRY : 0;
    } finally {
      state.looking = null;
    }
    if (!state.stopped) state.timer = setTimeout(look, again);
  }
  look();
  return { element, unread, look, stop() {
    state.stopped = true;
    clearTimeout(state.timer);
    if (state.looking) state.looking.abort();
  } };
}

// "Resign": a two-player game ends, the other player winning; in a larger one a bot plays the
// seat to the end. Asked first unless the player turned that off.
export function resignButton(view, onResigned) {
  const button = h("button", { type: "button", class: "danger" }, t("resign.button"));
  const other = view.seats.length === 2 ? view.seats.find((seat) => seat.seat !== view.your_seat) : null;
  const question = other ? t("resign.askEnds", { name: other.name }) : t("resign.ask");
  button.addEventListener("click", async () => {
    if (confirmIrreversible() && !(await ask(question, t("resign.yes")))) return;
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
