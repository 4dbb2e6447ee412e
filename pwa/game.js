// The game page: long-polled view, status line, stand-in notices, seats with deadlines,
// invite links, the game's renderer (behind the confirm-before-play wrapper), result with
// rematch and replay links, and the game log.
import { t, listNames, botLevel } from "./i18n.js";
import { api, me, OfflineError } from "./api.js";
import { keep, kept, holdMove, heldMove, dropMove } from "./keep.js";
import { h, morph, staleNote, nameTag, shortNames, showError, clearError, announce, handleError, typeInfo, setTitle, setPage,
  timeLeftNode, shareBox } from "./ui.js";
import { startPolling } from "./poll.js";
import { refreshInbox } from "./inbox.js";
import { confirmBeforePlay, confirmIrreversible, stopConfirming, revealStep } from "./settings.js";
import { describeEvent, loadModule } from "./renderers.js";
import { openHowTo } from "./howto.js";
import { tableTalk, resignButton, leaveButton } from "./table.js";
import { seatClockBadges, dayLeftNote, chooseAheadBox } from "./clock.js";
import { profileLink, ratingChangeCell } from "./profile.js";
import { offerPasskey } from "./passkeys.js";

const seenKey = (id) => `poyta.seen.${id}`;

export async function gamePage(id, page) {
  const state = { view: null, module: null, busy: false, lastEvent: null, log: [], pending: null, asOf: null };
  let showing = Promise.resolve(); // views are shown one after the other
  let logQueue = Promise.resolve(); // one events request at a time, so each event is added once
  const heading = h("h1", { text: t("loading") });
  const tools = h("div", { class: "game-tools" });
  const statusLine = h("p", { class: "status-line", id: "status-line", tabindex: "-1" });
  // The status, your score and the time left stay at the top while the hand or the log is read.
  const barFacts = h("p", { class: "bar-facts" });
  const tableBar = h("div", { class: "table-bar", id: "table-bar" }, statusLine, barFacts);
  const notices = h("div", { class: "notices" });
  const staleBox = h("div");
  const heldBox = h("div");
  const invite = h("div");
  const outcome = h("div");
  const area = h("section", { class: "game-area", "aria-label": "" });
  const seats = h("section", { "aria-labelledby": "seats-title", class: "seats" });
  const log = h("section", { "aria-labelledby": "log-title", class: "log" });
  const rulesLink = h("p", { class: "rules-link" });
  const talkBox = h("div");
  const resignBox = h("div");
  const confirmBar = h("div", { class: "confirm-bar", role: "group", "aria-label": t("confirm.title"), hidden: true });
  const missedBox = h("div", { class: "notice", role: "note", hidden: true });
  const nameTip = h("p", { class: "name-tip", role: "status", hidden: true });
  const dayLeftBox = h("div");
  const aheadBox = h("div");
  setPage("", h("div", { class: "game-head" }, heading, tools), staleBox, tableBar, dayLeftBox, heldBox, notices, missedBox, invite, outcome,
    area, aheadBox, seats, talkBox, log, resignBox, rulesLink, confirmBar, nameTip);
  // What is scrolled into view (the hand, a focused card) lands below the bar, not under it.
  const barSpace = new ResizeObserver(() => {
    document.documentElement.style.scrollPaddingTop = `${tableBar.offsetHeight + 8}px`;
  });
  barSpace.observe(tableBar);
  // A short name on the table shows the full one when tapped (screen readers hear it in full).
  let tipTimer = null;
  area.addEventListener("click", (event) => {
    const tag = event.target.closest("[data-full-name]");
    if (!tag) return;
    nameTip.textContent = tag.dataset.fullName;
    nameTip.hidden = false;
    clearTimeout(tipTimer);
    tipTimer = setTimeout(() => { nameTip.hidden = true; }, 2500);
  });

  let drawn = null; // the view and module the table was last drawn from
  // ui: what a renderer keeps for this page (a panel open, cards picked), gone with the page;
  // redraw() draws the table again after the renderer changed it.
  const ctx = {
    t,
    ui: {},
    redraw() { if (drawn) renderArea(drawn.view, drawn.mod); },
    get yourSeat() { return state.view ? state.view.your_seat : null; },
    get busy() { return state.busy; },
    seatName(seat) {
      const s = state.view && state.view.seats[seat];
      if (!s) return `#${seat + 1}`;
      if (seat === state.view.your_seat) return t("game.youName");
      return botSeatName(s) || s.name || t("game.open");
    },
    // A name that fits under a card at 8 players; tapping it shows the full name.
    nameTag(seat) {
      const names = state.view ? state.view.seats.map((s) => ctx.seatName(s.seat)) : [];
      return nameTag(ctx.seatName(seat), shortNames(names)[seat]);
    },
  };

  // Offline, the game as it was last seen (marked as not current) until the network answers.
  const viewKey = `game.${me().id}.${id}`;
  const saved = kept(viewKey);
  if (saved) { state.asOf = saved.at; show(saved.data); }
  const poller = startPolling({
    load: (etag, wait, signal) => api.game(id, etag, wait, signal),
    show: async (view) => { await show(view, false, true); flushHeld(); },
    every: 40000,
    onGone: (error) => showError(error.message),
  });
  window.addEventListener("online", flushHeld);
  let talk = null;
  page.stop = () => {
    poller.stop(); cancelPending(); window.removeEventListener("online", flushHeld);
    document.removeEventListener("focusin", forgetHandFocus);
    barSpace.disconnect();
    document.documentElement.style.scrollPaddingTop = "";
    if (talk) talk.stop();
  };
  page.pollNow = poller.now;
  showHeld();

  // ------------------------------------------------------------ acting
  async function send(action) {
    if (state.busy) throw new Error("busy");
    state.busy = true;
    keepFocusInHand();
    area.setAttribute("aria-busy", "true");
    area.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    clearError();
    const label = lastLabel;
    if (label) {
      statusLine.textContent = t("game.sending", { what: label });
      statusLine.classList.remove("yours");
    }
    try {
      const view = await api.act(id, action);
      state.busy = false;
      await show(view, false, true);
      return view;
    } catch (error) {
      state.busy = false;
      if (error instanceof OfflineError && state.view) {
        // Held, with the version it was made on, and sent when the network is back.
        holdMove(id, { action, version: state.view.version, label });
        showHeld();
        handleError(error);
        await show(state.view, true);
        return null;
      }
      handleError(error);
      if (state.view) await show(state.view, true);
      throw error;
    } finally {
      state.busy = false;
      area.removeAttribute("aria-busy");
      // Whatever happened, the others may have moved too; the inbox count changed.
      poller.now();
      refreshInbox();
    }
  }

  // With confirm-before-play on, the first tap only selects: a second tap on the same
  // control, or Confirm, sends it. The tapped control is remembered from the click itself.
  let tapped = null;
  let lastLabel = "";
  area.addEventListener("click", (event) => {
    tapped = event.target.closest("button");
    lastLabel = tapped ? spokenName(tapped) : "";
  }, true);
  function act(action) {
    // Moves that cannot be undone (closing the stock, declaring) are confirmed by default.
    const final = state.module && state.module.irreversible && state.module.irreversible(action)
      && confirmIrreversible();
    const asked = !final && confirmBeforePlay(state.module, action);
    if (!final && !asked) return send(action);
    const key = actionKey(action);
    if (state.pending && state.pending.key === key) return confirmPending();
    cancelPending();
    const label = tapped ? spokenName(tapped) : "";
    const focusKey = tapped ? tapped.dataset.focusKey : null;
    tapped = null;
    return new Promise((resolve, reject) => {
      state.pending = { key, action, focusKey, resolve, reject };
      markPending();
      const question = t(final ? "confirm.final" : "confirm.ask", { what: label });
      confirmBar.replaceChildren(
        h("p", { id: "confirm-text", text: question }),
        h("div", { class: "button-row" },
          h("button", { type: "button", class: "primary", onclick: confirmPending }, t("confirm.yes")),
          h("button", { type: "button", onclick: cancelPending }, t("confirm.no"))),
        asked ? h("button", { type: "button", class: "link", onclick: () => { stopConfirming(); confirmPending(); } },
          t("confirm.stopAsking")) : null);
      confirmBar.hidden = false;
      announce(question);
    });
  }
  function actionKey(action) {
    return JSON.stringify(Object.keys(action).sort().map((name) => [name, action[name]]));
  }
  function markPending() {
    area.querySelectorAll(".pending").forEach((b) => b.classList.remove("pending"));
    const key = state.pending && state.pending.focusKey;
    const button = key && area.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
    if (button) button.classList.add("pending");
  }
  function confirmPending() {
    const pending = state.pending;
    if (!pending) return Promise.resolve();
    state.pending = null;
    confirmBar.hidden = true;
    const sent = send(pending.action);
    sent.then(pending.resolve, pending.reject);
    return sent;
  }
  function cancelPending() {
    const pending = state.pending;
    if (!pending) return;
    state.pending = null;
    confirmBar.hidden = true;
    confirmBar.replaceChildren();
    markPending();
    pending.reject(new Error("cancelled"));
  }

  // ------------------------------------------------------------ showing a view
  // Views are shown one after the other: a paced reveal finishes before the next view starts.
  // `current`: the view comes from the server now (not kept from an earlier visit).
  function show(view, force = false, current = false) {
    showing = showing.then(() => showNow(view, force, current)).catch(handleError);
    return showing;
  }

  async function showNow(view, force, current) {
    const prev = state.view;
    if (current) {
      keep(viewKey, view);
      if (state.asOf) { state.asOf = null; staleBox.replaceChildren(); }
    }
    if (!force && prev && view.version < prev.version) return; // a slow, older answer
    if (!force && prev && JSON.stringify(prev) === JSON.stringify(view)) return;
    state.view = view;
    staleBox.replaceChildren(...(state.asOf ? [staleNote(state.asOf)] : []));
    // Another player's move keeps a card awaiting confirmation, as long as it stays legal.
    if (state.pending && !view.legal_actions.some((a) => actionKey(a) === state.pending.key)) {
      cancelPending();
    }
    const mod = await loadModule(view.type);
    state.module = mod;
    const info = await typeInfo(view.type);
    setTitle(view.title);
    heading.textContent = view.title;
    if (!tools.childElementCount) {
      tools.append(h("button", { type: "button", "aria-haspopup": "dialog",
        onclick: () => openHowTo({ type: view.type, title: view.title, gameId: view.id }) }, t("game.howto")));
    }
    // What happened between the last view and this one: the lines of the game log with their
    // versions, and the reveal built from them. The log is fetched after the view, so it may
    // already hold later moves; those belong to the next view and are revealed with it.
    const { first } = await (logQueue = logQueue.then(() => updateLog()));
    const between = prev && !first && !force ? linesBetween(prev, view) : [];
    if (prev && !first && !force && mod && mod.stages && revealStep()) await reveal(prev, view, between.map((line) => line.event), mod);

    const status = statusText(view, mod, ctx);
    statusLine.textContent = status;
    statusLine.classList.toggle("yours", isYourTurn(view));
    renderBarFacts(barFacts, view);
    // The time left is said once: the note of your day only when the bar says another time.
    const dayLeft = isYourTurn(view) ? dayLeftNote(view, barFacts.querySelector(".time-left")) : null;
    dayLeftBox.replaceChildren(...(dayLeft ? [dayLeft] : []));
    const cardLabel = (card) => (mod && mod.cardLabel ? mod.cardLabel(card, ctx) : String(card));
    chooseAheadBox(view, cardLabel).then((box) => {
      if (state.view === view) aheadBox.replaceChildren(...(box ? [box] : []));
    });

    renderNotices(notices, view, ctx, show);
    renderInvites(invite, view);
    renderSeats(seats, view, mod, ctx);
    renderOutcome(outcome, view, info);
    if (!talk && view.status !== "waiting") {
      talk = tableTalk(view.id, view.your_seat);
      talkBox.replaceChildren(talk.element);
      tools.prepend(talk.unread);
    }
    const mine = view.your_seat !== null ? view.seats[view.your_seat] : null;
    if (view.status === "waiting" && mine) {
      resignBox.replaceChildren(leaveButton(view, () => { refreshInbox(); location.hash = "#/"; }));
    } else {
      resignBox.replaceChildren(...(view.status === "active" && mine && !mine.resigned
        ? [resignButton(view, (resigned) => show(resigned, false, true))] : []));
    }
    rulesLink.replaceChildren(h("a", { href: `#/rules/${encodeURIComponent(view.type)}/${encodeURIComponent(view.id)}` },
      t("game.rules", { title: view.title })));
    renderArea(view, mod);

    // Announce what happened: the game log's new lines, then the status.
    const said = between.map((line) => line.text);
    if (prev === null) announce(status);
    else announce([...said, status].join(". "));
  }

  // Other seats' moves one at a time (a completed trick a while longer), then the summary of
  // a finished round or deal until the player goes on. A tap on the table hurries it along.
  let lastStepAt = 0;
  async function reveal(prev, view, events, mod) {
    const stages = mod.stages(prev, view, events, ctx);
    const summary = mod.summary ? mod.summary(prev, view, ctx) : null;
    // A long absence is told by the log, not replayed card by card.
    if ((!stages.length && !summary) || stages.length > 12) return;
    let hurry = false;
    const onTap = () => { hurry = true; };
    area.addEventListener("click", onTap);
    area.dataset.revealing = "true";
    // The status line tells what the table shows meanwhile, not the turn still to come.
    const tell = (event) => { if (event) statusLine.textContent = describeEvent(mod, event, namedAsThen(event)); };
    tell(events[0]);
    statusLine.classList.remove("yours");
    try {
      for (const stage of stages) {
        // Cards that came in separate answers keep the pace too.
        if (!hurry) await pause(lastStepAt + revealStep() - Date.now());
        renderArea(stage.view, mod);
        tell(stage.event);
        lastStepAt = Date.now();
        if (stage.card !== null) {
          const card = area.querySelector(`[data-part="table"] [data-card="${CSS.escape(String(stage.card))}"]`);
          if (card) card.classList.add("arrived");
        }
        if (stage.done && !hurry) await pause(revealStep() * 3);
      }
      if (!hurry) await pause(lastStepAt + revealStep() - Date.now());
      if (summary && view.status !== "finished") {
        const title = summary.querySelector("h2, h3");
        if (title) statusLine.textContent = title.textContent;
        await showSummary(summary);
      }
    } finally {
      area.removeEventListener("click", onTap);
      delete area.dataset.revealing;
    }
  }

  // The round's or deal's result in a sheet over the table; the next one starts when closed.
  function showSummary(content) {
    return new Promise((resolve) => {
      const go = h("button", { type: "button", class: "primary big" }, t("game.continue"));
      const dialog = h("dialog", { class: "sheet summary", "aria-labelledby": "summary-title" },
        h("div", { class: "sheet-body" }, content, go));
      const heading = dialog.querySelector("h2");
      if (heading) heading.id = "summary-title";
      go.addEventListener("click", () => dialog.close());
      dialog.addEventListener("close", () => { dialog.remove(); resolve(); });
      document.body.append(dialog);
      dialog.showModal();
      go.focus();
    });
  }

  // A card played from the keyboard leaves the hand: the focus goes to the card beside it (the
  // next, else the one before), or waits on the hand until a card there can be played again,
  // rather than falling to the top of the page. Anything else the player focuses meanwhile wins.
  let handFocus = null; // the focus keys to try, nearest first
  function keepFocusInHand() {
    const card = document.activeElement;
    const hand = card && card.closest && card.closest('[data-part="hand"]');
    if (!hand || !area.contains(hand)) return;
    const keys = [...hand.querySelectorAll("[data-focus-key]")].map((node) => node.dataset.focusKey);
    const at = keys.indexOf(card.dataset.focusKey);
    handFocus = at < 0 ? [] : [...keys.slice(at + 1), ...keys.slice(0, at).reverse()];
    hand.tabIndex = -1;
    hand.focus({ preventScroll: true });
  }
  function forgetHandFocus(event) {
    if (handFocus && !event.target.closest('[data-part="hand"]')) handFocus = null;
  }
  document.addEventListener("focusin", forgetHandFocus);
  function refocusHand() {
    const hand = area.querySelector('[data-part="hand"]');
    if (!hand) { handFocus = null; return; }
    const enabled = (key) => hand.querySelector(`[data-focus-key="${CSS.escape(key)}"]:not([disabled])`);
    const card = handFocus.map(enabled).find(Boolean) || hand.querySelector("button:not([disabled])");
    if (card) { handFocus = null; card.focus({ preventScroll: true }); return; }
    hand.tabIndex = -1;
    if (!hand.contains(document.activeElement)) hand.focus({ preventScroll: true });
  }

  function renderArea(view, mod) {
    drawn = { view, mod };
    const focusKey = area.contains(document.activeElement) && document.activeElement.dataset
      ? document.activeElement.dataset.focusKey : null;
    const hadFocus = area.contains(document.activeElement) && !handFocus;
    let content;
    if (view.status === "waiting" && view.your_seat === null) {
      content = h("p", {}, h("button", { type: "button", class: "primary big", onclick: async () => {
        try { await show(await api.join(view.id)); refreshInbox(); } catch (e) { handleError(e); }
      } }, t("game.join")));
    } else if (mod && mod.render) {
      content = mod.render(view, act, ctx);
    } else {
      content = h("p", { text: t("game.noRenderer") });
    }
    area.setAttribute("aria-label", view.title);
    // The hand keeps the focus it holds while no card there can be played.
    const hand = handFocus && content.querySelector && content.querySelector('[data-part="hand"]');
    if (hand) hand.tabIndex = -1;
    morph(area, content);
    markScrolling(area);
    markPending();
    if (handFocus) refocusHand();
    else if (hadFocus) {
      const again = focusKey && area.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]:not([disabled])`);
      const fallback = area.querySelector("button:not([disabled])") || area.querySelector("[tabindex='-1']");
      (again || fallback || statusLine).focus({ preventScroll: true });
    }
  }

  // ------------------------------------------------------------ game log
  // The log's lines of the moves from one view to the next. By version, not by position: a
  // changed secret choice keeps its place in the log with the version of the change.
  function linesBetween(prev, view) {
    return state.log.filter(({ event }) => event.version > prev.version && event.version <= view.version);
  }

  // A resigned seat is named by its stand-in bot from the resignation on; the lines up to it
  // (the resignation's own too) keep the player's name.
  const resignedAt = {};
  function namedAsThen(event) {
    return Object.create(ctx, { seatName: { value: (seat) => {
      const s = state.view && state.view.seats[seat];
      const before = resignedAt[seat] === undefined || event.number <= resignedAt[seat];
      return s && s.resigned && before && seat !== state.view.your_seat ? s.name : ctx.seatName(seat);
    } } });
  }

  // Fetches the events after the last one known; returns them with their lines, and whether
  // they are the first fetched (the story so far, not news).
  async function updateLog() {
    const first = state.lastEvent === null;
    let answer;
    try {
      answer = await api.events(id, state.lastEvent || 0);
    } catch {
      return { fresh: [], first: true }; // the log is a nicety: the view is shown all the same
    }
    if (!answer.events.length && !first) return { fresh: [], first };
    const seen = parseInt(localStorage.getItem(seenKey(id)) || "0", 10);
    // Two views shown in quick succession may fetch the same events: keep each once.
    const fresh = answer.events.filter((event) => state.lastEvent === null || event.number > state.lastEvent)
      .map((event) => {
        if (event.type === "resigned" && !event.ends_game) resignedAt[event.seat] = event.number;
        return { event, text: describeEvent(state.module, event, namedAsThen(event)) };
      });
    state.log = [...state.log, ...fresh];
    state.lastEvent = Math.max(state.lastEvent || 0, answer.last);
    localStorage.setItem(seenKey(id), String(answer.last));
    // Time-outs while the player was away become notices until dismissed.
    const missed = fresh.filter(({ event }) => event.number > seen && event.type === "timeout");
    if (missed.length) addTimeoutNotices(missed.map((line) => line.text));
    renderLog(fresh);
    return { fresh, first };
  }

  // ------------------------------------------------------------ moves held while offline
  let flushing = false;
  async function flushHeld() {
    const held = heldMove(id);
    if (!held || flushing || state.busy) return;
    flushing = true;
    try {
      const view = await api.act(id, held.action, held.version);
      dropMove(id);
      showHeld();
      announce(t("held.sent", { what: held.label }));
      await show(view, false, true);
    } catch (error) {
      if (error instanceof OfflineError) return; // still offline: keep it
      dropMove(id);
      showHeld(t(error.status === 409 ? "held.stale" : "held.refused", { what: held.label, why: error.message }));
    } finally {
      flushing = false;
    }
  }
  // The held move (with a way to drop it), or what became of it.
  function showHeld(outcome = null) {
    const held = heldMove(id);
    if (!held && !outcome) { heldBox.replaceChildren(); return; }
    const text = held ? t("held.waiting", { what: held.label }) : outcome;
    heldBox.replaceChildren(h("div", { class: `notice${held ? "" : " warn"}`, role: "status" }, h("p", { text }),
      h("button", { type: "button", class: "link", onclick: () => { dropMove(id); heldBox.replaceChildren(); } },
        t(held ? "held.cancel" : "dismiss"))));
  }
  // One notice box, with the latest few time-outs, until dismissed.
  let missedLines = [];
  function addTimeoutNotices(texts) {
    missedLines = [...missedLines, ...texts].slice(-3);
    missedBox.replaceChildren(h("ul", {}, missedLines.map((text) => h("li", { text }))),
      h("button", { type: "button", class: "link", onclick: () => { missedLines = []; missedBox.hidden = true; } }, t("dismiss")));
    missedBox.hidden = false;
  }
  // The whole log, oldest first and numbered one by one (the events only others may see are
  // not the player's lines), in a box that scrolls; it follows the newest line unless the
  // player scrolled back to read.
  function renderLog(fresh) {
    let list = log.querySelector(".log-lines");
    if (!list) {
      log.replaceChildren(h("h2", { id: "log-title", text: t("log.title") }));
      if (!state.log.length) { log.append(h("p", { class: "muted", text: t("log.empty") })); return; }
      list = h("ol", { class: "log-lines" });
      log.append(h("div", { class: "log-box", tabindex: "0", role: "region", "aria-labelledby": "log-title" }, list));
      fresh = state.log;
    }
    const box = list.parentElement;
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    list.append(...fresh.map(({ text }) => h("li", { text })));
    if (atEnd) box.scrollTop = box.scrollHeight;
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A score sheet wider than the phone says so: a hint under it and a shadow on its fixed
// columns, so that the columns under them are seen to go on.
function markScrolling(root) {
  for (const wrap of root.querySelectorAll(".table-wrap")) {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    wrap.classList.toggle("scrolls", scrolls);
    if (scrolls) wrap.after(h("p", { class: "scroll-hint muted", text: t("game.scrollHint") }));
  }
}

// A control's name as a screen reader says it: its label, else its text without the parts
// hidden from assistive technology (a card's face beside its spoken name).
function spokenName(control) {
  const label = control.getAttribute("aria-label");
  if (label) return label;
  const copy = control.cloneNode(true);
  copy.querySelectorAll('[aria-hidden="true"]').forEach((part) => part.remove());
  return copy.textContent.trim();
}

// The level of the bot that plays a resigned seat to the end (a stand-in after time-outs is
// only keeping the seat warm: it stays its player's).
function standinFor(seat) {
  return seat.resigned && seat.standin ? seat.standin_level : null;
}

// "Bot 3 (easy)" for a bot's seat and for a resigned seat's bot; null for a player's.
function botSeatName(seat) {
  const level = seat.bot || standinFor(seat);
  return level ? t("game.botName", { n: seat.seat + 1, level: botLevel(level) }) : null;
}

function isYourTurn(view) {
  return view.status === "active" && view.your_seat !== null && (view.to_act || []).includes(view.your_seat)
    && !view.seats[view.your_seat].standin;
}

function statusText(view, mod, ctx) {
  if (view.status === "waiting") {
    // A seat kept for a named player (a challenge, a rematch) waits for them by name.
    const kept = view.seats.filter((seat) => !seat.joined && seat.name).map((seat) => seat.name);
    const open = view.seats.some((seat) => !seat.joined && !seat.name);
    return kept.length && !open ? t("game.waitingFor", { names: listNames(kept) }) : t("game.waitingPlayers");
  }
  if (view.status === "finished") return t("game.finished");
  if (isYourTurn(view)) return (mod && mod.status && mod.status(view, ctx)) || t("game.yourTurn");
  const names = (view.to_act || []).map((s) => ctx.seatName(s));
  const waiting = names.length ? t("game.waitingFor", { names: listNames(names) }) : "";
  return view.your_seat === null ? `${t("game.spectator")} ${waiting}` : waiting;
}

// The sticky bar's second part: your score and the time the seat to act has left.
function renderBarFacts(box, view) {
  const mine = view.your_seat !== null ? view.seats[view.your_seat] : null;
  const acting = view.status === "active"
    ? view.seats.find((seat) => (view.to_act || []).includes(seat.seat) && seat.deadline) : null;
  box.replaceChildren(...[
    mine && view.status !== "waiting" ? h("span", { class: "bar-score", text: t("game.score", { score: mine.score ?? 0 }) }) : null,
    acting ? h("span", { class: "bar-time" }, timeLeftNode(acting.deadline)) : null,
  ].filter(Boolean));
  box.hidden = !box.childElementCount;
}

// Your seat played by a stand-in bot: say so, and offer it back.
function renderNotices(box, view, ctx, show) {
  const mine = view.your_seat !== null ? view.seats[view.your_seat] : null;
  if (!mine || !mine.standin || view.status === "finished") { box.replaceChildren(); return; }
  if (mine.resigned) {
    box.replaceChildren(h("div", { class: "notice", role: "note" }, h("p", { text: t("game.resignedYou") })));
    return;
  }
  const button = h("button", { type: "button", class: "primary big", onclick: async () => {
    button.disabled = true;
    try { await show(await api.takeBack(view.id)); refreshInbox(); } catch (e) { handleError(e); button.disabled = false; }
  } }, t("game.takeBack"));
  box.replaceChildren(h("div", { class: "notice warn", role: "note" }, h("p", { text: t("game.standinYou") }), button));
}

function renderInvites(box, view) {
  // A seat kept for a named player is theirs: their invitation is in their inbox, not a link.
  const invites = (view.invites || []).filter((invite) => !view.seats[invite.seat].name);
  const key = invites.map((i) => i.code).join(",");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!invites.length) { box.replaceChildren(); return; }
  box.replaceChildren(h("section", { class: "card-panel invite", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title", text: t("game.invite") }), h("p", { text: t("game.inviteText") }),
    invites.map((invite) => shareBox({
      id: `invite-${invite.seat}`,
      label: t("game.inviteLink", { n: invite.seat + 1 }),
      link: `${location.origin}/#/invite/${encodeURIComponent(invite.code)}`,
      title: t("game.shareTitle", { title: view.title }),
      text: t("invite.shareText", { host: view.seats[0].name, title: view.title }),
    }))));
}

function renderSeats(section, view, mod, ctx) {
  const list = h("ul", { class: "seat-list" });
  for (const seat of view.seats) {
    const acting = view.status === "active" && (view.to_act || []).includes(seat.seat);
    const level = seat.bot || standinFor(seat);
    const kind = level ? t("game.bot", { level: botLevel(level) })
      : (seat.joined ? t("game.human") : t(seat.name ? "game.invited" : "game.open"));
    const note = mod && mod.seatNote ? mod.seatNote(view, seat.seat, ctx) : "";
    list.append(h("li", { class: `seat${acting ? " acting" : ""}${seat.seat === view.your_seat ? " mine" : ""}` },
      h("span", { class: "seat-name" }, standinFor(seat) ? botSeatName(seat) : profileLink(seat, seat.bot ? ctx.seatName(seat.seat) : seat.name),
        seat.seat === view.your_seat ? h("span", { class: "tag" }, ` (${t("game.you")})`) : null),
      h("span", { class: "seat-kind", text: kind }),
      h("span", { class: "seat-score", text: t("game.score", { score: seat.score ?? 0 }) }),
      acting ? h("span", { class: "badge", text: t("game.toAct") }) : null,
      acting && seat.deadline ? h("span", { class: "deadline" }, timeLeftNode(seat.deadline)) : null,
      ...seatClockBadges(seat),
      seat.resigned ? h("span", { class: "badge warn", text: t("game.resignedBy", { name: seat.name }) })
        : (seat.standin ? h("span", { class: "badge warn", text: t("game.standin") }) : null),
      note ? h("span", { class: "badge ok", text: note }) : null));
  }
  section.replaceChildren(h("h2", { id: "seats-title", text: t("game.seats") }), list);
  if (view.pace && view.pace !== "none") section.append(h("p", { class: "muted", text: t("game.pace", { pace: t(`pace.${view.pace}`) }) }));
}

function renderOutcome(box, view, info) {
  if (view.status !== "finished" || !view.outcome) { box.replaceChildren(); return; }
  const scores = view.outcome.scores || view.seats.map((s) => s.score);
  const winners = view.outcome.winners || [];
  const lower = info ? info.lower_score_wins : false;
  // Once recorded, the server's places: they put a seat that resigned or timed out last.
  const places = view.results ? Object.fromEntries(view.results.seats.map((r) => [r.seat, r.place])) : null;
  const order = view.seats.map((s) => s.seat).sort((a, b) => places ? places[a] - places[b]
    : (lower ? scores[a] - scores[b] : scores[b] - scores[a]));
  const rows = [];
  let rank = 0;
  order.forEach((seat, i) => {
    if (places) rank = places[seat];
    else if (i === 0 || scores[seat] !== scores[order[i - 1]]) rank = i + 1;
    rows.push(h("tr", { class: winners.includes(seat) ? "winner" : "" },
      h("td", { text: String(rank) }), h("th", { scope: "row" },
        standinFor(view.seats[seat]) ? botSeatName(view.seats[seat])
          : profileLink(view.seats[seat], botSeatName(view.seats[seat]) || view.seats[seat].name),
        view.seats[seat].resigned ? ` (${t("game.resignedBy", { name: view.seats[seat].name })})` : "",
        seat === view.your_seat ? ` (${t("game.you")})` : ""),
      ratingChangeCell(view, seat), h("td", { text: String(scores[seat]) })));
  });
  const names = winners.map((s) => botSeatName(view.seats[s]) || view.seats[s].name);
  const resigned = view.outcome.resigned;
  box.replaceChildren(h("section", { class: "card-panel outcome", "aria-labelledby": "outcome-title" },
    h("h2", { id: "outcome-title", text: t("game.outcome") }),
    resigned === undefined ? null : h("p", { class: "resigned-end", text: resigned === view.your_seat
      ? t("game.resignedEndedYou") : t("game.resignedEnded", { name: view.seats[resigned].name }) }),
    h("p", { class: "winners", text: winners.includes(view.your_seat) ? `${t("game.youWon")} ${t("game.winners", { names: listNames(names) })}` : t("game.winners", { names: listNames(names) }) }),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("game.rank") }),
      h("th", { scope: "col", text: t("game.player") }), h("th", { scope: "col", text: t("profile.change") }),
      h("th", { scope: "col", text: t("game.points") }))),
    h("tbody", {}, rows)),
    afterGame(view)));
  if (view.your_seat !== null) offerPasskey(box.firstChild);
}

// Rematch (or the link to it once someone asked), the replay and the review.
function afterGame(view) {
  const links = h("div", { class: "button-row after-game" });
  if (view.rematch) {
    // Joining takes the seat the rematch keeps for this player; already seated players just open it.
    links.append(h("a", { class: "button primary", href: `#/join/${encodeURIComponent(view.rematch)}` }, t("game.openRematch")));
  } else if (view.your_seat !== null) {
    const button = h("button", { type: "button", class: "primary", onclick: async () => {
      button.disabled = true;
      try {
        const next = await api.rematch(view.id);
        refreshInbox();
        location.hash = `#/game/${encodeURIComponent(next.id)}`;
      } catch (e) { handleError(e); button.disabled = false; }
    } }, t("game.rematch"));
    links.append(button);
  }
  links.append(h("a", { class: "button", href: `#/replay/${encodeURIComponent(view.id)}` }, t("game.replay")));
  if (view.your_seat !== null || view.public) {
    links.append(h("a", { class: "button", href: `#/review/${encodeURIComponent(view.id)}` }, t("game.review")));
  }
  return links;
}
