// 6 nimmt! renderer: rows with the last turn under them, the turn's revealed cards, hand, cards
// played, penalties.
// Contract: see ../README.md. view.table and the events: their JSON Schema in rules/sixnimmt/shapes.py.
import { t, tn, addLanguages, seatLine } from "../../i18n.js";
import { h, on, addStyles, styleText } from "../../ui.js";
import { step, between } from "../../pacing.js";
import strings from "./strings.js";

addLanguages(strings);

export function bullheads(card) {
  if (card === 55) return 7;
  if (card % 11 === 0) return 5;
  if (card % 10 === 0) return 3;
  if (card % 10 === 5) return 2;
  return 1;
}
const sum = (cards) => cards.reduce((total, card) => total + bullheads(card), 0);
const heads = (n) => tn("sixnimmt.bullheads", n);

// The game's styles, its folder's style.css (the shell's stylesheet names no game), the card
// colours by bullheads too.
const STYLE = await styleText(new URL("./style.css", import.meta.url));

// The face of a card: its number and one mark per bullhead (decorative; names carry the meaning).
function face(card, extra = "", tag = null) {
  const n = bullheads(card);
  return h("span", { class: `nc b${n} ${extra}`, "aria-hidden": "true", "data-card": tag },
    h("span", { class: "nc-num", text: String(card) }),
    h("span", { class: "nc-heads" }, Array.from({ length: n }, () => h("i"))));
}

function playButton(card, action, act, label) {
  const button = h("button", { type: "button", class: "nc-button", "aria-label": label,
    "data-focus-key": `${action.type}-${card}`, disabled: !action.enabled });
  button.append(face(card));
  if (action.enabled) {
    on(button, "click", () => {
      act(action.payload).catch(() => {});
    });
  }
  return button;
}

export function render(view, act, ctx) {
  addStyles("sixnimmt-style", STYLE);
  const table = view.table || {};
  const legal = view.legal_actions || [];
  const playable = new Set(legal.filter((a) => a.type === "play").map((a) => a.card));
  const draftable = new Set(legal.filter((a) => a.type === "draft").map((a) => a.card));
  const takeable = new Set(legal.filter((a) => a.type === "take_row").map((a) => a.row));
  const name = (seat) => ctx.seatName(seat);
  const root = h("div", { class: "sixnimmt" });

  root.append(h("p", { class: "round-info" }, h("span", { class: "round-turn", text: t("sixnimmt.roundTurn", { round: table.round, turn: table.turn }) }),
    " · ", h("small", { "aria-hidden": "true", text: t("sixnimmt.threshold", { n: table.threshold }) }),
    h("span", { class: "visually-hidden", text: t("sixnimmt.thresholdLong", { n: table.threshold }) })));

  // Draft display.
  if (table.draft_display) {
    const waiting = table.draft_turn !== null && table.draft_turn !== view.your_seat
      ? h("p", { class: "muted", text: t("sixnimmt.draftWait", { name: name(table.draft_turn) }) }) : null;
    root.append(h("section", { class: "block", "aria-labelledby": "sn-draft" },
      h("h2", { id: "sn-draft", text: t("sixnimmt.draft") }), waiting,
      h("div", { class: "nc-grid" }, table.draft_display.map((card) => playButton(card,
        { type: "draft", enabled: draftable.has(card), payload: { type: "draft", card } }, act,
        t(draftable.has(card) ? "sixnimmt.draftCard" : "sixnimmt.card", { card, heads: heads(bullheads(card)) }))))));
  }

  // The four rows; the cards placed on the last turn marked where they went.
  const lastTurnCards = new Set((table.last_turn || []).map((p) => p.card));
  const rows = h("ol", { class: "rows" });
  (table.rows || []).forEach((row, index) => {
    const total = table.row_bullheads ? table.row_bullheads[index] : sum(row);
    const words = { row: index + 1, cards: row.length ? row.join(", ") : t("sixnimmt.empty"), heads: heads(total) };
    const slots = h("span", { class: "row-cards", "aria-hidden": "true" },
      row.map((card) => face(card, lastTurnCards.has(card) ? "just" : "", card)),
      Array.from({ length: Math.max(0, 5 - row.length) }, () => h("span", { class: "nc slot" })),
      h("span", { class: "nc slot sixth", text: "6" }));
    const label = h("span", { class: "row-label", "aria-hidden": "true" },
      h("span", { text: String(index + 1) }), h("span", { class: "row-sum" }, String(total), h("i", { class: "bull" })));
    if (takeable.has(index)) {
      // The name comes from hidden text (the visible marks are aria-hidden), so it reads in full.
      const button = h("button", { type: "button", class: "row take", "data-focus-key": `row-${index}` },
        h("span", { class: "visually-hidden", text: t("sixnimmt.takeRow", words) }), label, slots);
      on(button, "click", () => { act({ type: "take_row", row: index }).catch(() => {}); });
      rows.append(h("li", {}, button));
    } else {
      rows.append(h("li", {}, h("div", { class: "row" }, label, slots,
        h("span", { class: "visually-hidden", text: t("sixnimmt.row", words) }))));
    }
  });
  // During a draft the rows are still empty: nothing to show.
  if ((table.rows || []).some((row) => row.length)) root.append(h("section", { class: "block", "data-part": "table", "aria-labelledby": "sn-rows" },
    h("h2", { id: "sn-rows", class: "visually-hidden", text: t("sixnimmt.rowsTitle") }), rows,
    justHappened(table.last_turn || [], ctx)));

  // The turn's revealed cards (while someone chooses a row).
  if (table.revealed) {
    const chooser = table.row_chooser;
    const low = table.revealed[0];
    root.append(h("section", { class: "block", "aria-labelledby": "sn-revealed" },
      h("h2", { id: "sn-revealed", text: t("sixnimmt.revealed") }),
      chooser !== null && chooser !== view.your_seat
        ? h("p", { text: t("sixnimmt.chooser", { name: name(chooser), card: low ? low.card : "" }) }) : null,
      h("ul", { class: "played" }, table.revealed.map((entry) => h("li", {},
        face(entry.card), h("span", { text: `${name(entry.seat)}: ${entry.card}` }))))));
  }

  // My hand.
  const hand = view.hand || [];
  if (view.your_seat !== null && view.your_seat !== undefined && view.status !== "finished") {
    // A chosen card may be replaced until the last player has chosen (the rules then still
    // list play actions for this seat): a tap on another card swaps it.
    const chosen = table.my_choice;
    const playLabel = chosen ? "sixnimmt.change" : "sixnimmt.play";
    root.append(h("section", { class: "block hand", "aria-labelledby": "sn-hand" },
      h("h2", { id: "sn-hand", text: t("sixnimmt.hand") }),
      chosen ? h("p", { class: "chosen" }, face(chosen, "picked"),
        t(playable.size ? "sixnimmt.youChoseChange" : "sixnimmt.youChose", { card: chosen })) : null,
      hand.length ? h("div", { class: "nc-grid", "data-part": "hand" }, hand.map((card) => playButton(card,
        { type: "play", enabled: playable.has(card), payload: { type: "play", card } }, act,
        t(playable.has(card) ? playLabel : "sixnimmt.card", { card, heads: heads(bullheads(card)) }))))
        : h("p", { class: "muted", text: t("sixnimmt.handEmpty") })));
  }

  if (table.played && table.played.length) root.append(cardsPlayed(table.played, ctx));

  root.append(penalties(view, table, name));
  return root;
}

// The last turn in one line under the rows, where the player looks after choosing a card: who
// placed what where and who took a row, so nothing the others did happens below the hand.
function justHappened(placements, ctx) {
  if (!placements.length) return null;
  const what = placements.map((p) => (p.took && p.took.length
    ? seatLine("sixnimmt.ev.took", p.seat, ctx, { card: p.card, row: p.row + 1, heads: heads(sum(p.took)) })
    : seatLine("sixnimmt.ev.placed", p.seat, ctx, { card: p.card, row: p.row + 1 })));
  return h("p", { class: "sn-just" }, h("strong", { text: `${t("sixnimmt.lastTurn")}: ` }), what.join("; "));
}

// Who placed what on the last turn, and who took which row: `id` names its heading.
function lastTurn(placements, name, id) {
  return h("section", { class: "block", "aria-labelledby": id },
    h("h2", { id, text: t("sixnimmt.lastTurn") }),
    h("ul", { class: "played" }, placements.map((p) => {
      const took = p.took && p.took.length;
      const key = !took ? "sixnimmt.placed" : (p.card > p.took[p.took.length - 1] ? "sixnimmt.tookSixth" : "sixnimmt.tookLow");
      return h("li", { class: took ? "took" : "" }, face(p.card),
        h("span", { text: t(key, { name: name(p.seat), card: p.card, row: p.row + 1,
          cards: took ? p.took.join(", ") : "", heads: heads(took ? sum(p.took) : 0) }) }));
    })));
}

// Every card played this round, by number, so a player sees at a glance which are gone. Whether
// the list is open is the page's UI state (ctx.ui), kept across every new view.
function cardsPlayed(played, ctx) {
  const n = played.length;
  const playedOpen = Boolean(ctx.ui.playedOpen);
  const byNumber = [...played].sort((a, b) => a.card - b.card);
  const panel = h("div", { id: "sn-played-cards", hidden: !playedOpen },
    h("p", { class: "muted", text: t("sixnimmt.playedNote") }),
    h("ul", { class: "sn-played-cards" }, byNumber.map((p) => h("li", {}, face(p.card),
      ctx.nameTag(p.seat),
      h("span", { class: "visually-hidden", text: t("sixnimmt.playedBy", { card: p.card, name: ctx.seatName(p.seat), turn: p.turn }) })))));
  const label = () => t(playedOpen ? "sixnimmt.hidePlayed" : "sixnimmt.showPlayed", { n });
  const toggle = h("button", { type: "button", "aria-expanded": String(playedOpen), "aria-controls": "sn-played-cards",
    "data-focus-key": "cards-played", text: label() });
  on(toggle, "click", () => { ctx.ui.playedOpen = !playedOpen; ctx.redraw(); });
  return h("section", { class: "block sn-played" }, toggle, panel);
}

function penalties(view, table, name) {
  const history = table.round_scores || [];
  const round = table.round_penalties || [];
  const counts = table.taken_counts || [];
  const head = h("tr", {}, h("th", { scope: "col", text: t("sixnimmt.player") }),
    // Rounds by number alone (the heading says they are rounds), so more of them fit a phone.
    history.map((_, i) => h("th", { scope: "col" }, h("span", { class: "visually-hidden", text: `${t("sixnimmt.round")} ` }),
      String(i + 1))),
    view.status === "finished" ? null : h("th", { scope: "col", text: t("sixnimmt.thisRound") }),
    view.status === "finished" ? null : h("th", { scope: "col", text: t("sixnimmt.taken") }),
    h("th", { scope: "col", text: t("sixnimmt.total") }));
  const body = view.seats.map((seat) => h("tr", { class: seat.seat === view.your_seat ? "mine" : "" },
    h("th", { scope: "row", text: name(seat.seat) }),
    history.map((scores) => h("td", { text: String(scores[seat.seat]) })),
    view.status === "finished" ? null : h("td", { text: String(round[seat.seat] ?? 0) }),
    view.status === "finished" ? null : h("td", { text: String(counts[seat.seat] ?? 0) }),
    h("td", { class: "total", text: String(seat.score ?? (view.scores || [])[seat.seat] ?? 0) })));
  return h("section", { class: "block" },
    h("h2", { id: "sn-pen", text: t("sixnimmt.penalties") }),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "sn-pen" },
      h("table", { class: "penalties sheet" }, h("thead", {}, head), h("tbody", {}, body))));
}

// The paced reveal: the turn's cards shown, then placed one at a time, lowest first.
export function stages(prev, view, events) {
  const stages = [];
  let rows = ((prev.table || {}).rows || []).map((row) => [...row]);
  let revealed = null;
  const now = () => between(prev, { rows, revealed, row_bullheads: null, row_chooser: null, last_turn: null });
  for (const event of events) {
    if (event.type === "revealed") {
      revealed = event.cards;
      stages.push(step(now()));
    } else if (event.type === "placed" && revealed) {
      rows = rows.map((row, index) => (index !== event.row ? row
        : (event.took && event.took.length ? [event.card] : [...row, event.card])));
      stages.push(step(now(), event.card, event.took && event.took.length > 0));
    } else if (event.type === "round_over" || event.type === "game_over") {
      break;
    }
  }
  return stages;
}

// Between two rounds: each player's bullheads of the round and in all, before the next deal.
export function summary(prev, view, ctx) {
  const table = view.table || {};
  const history = table.round_scores || [];
  if (table.round === (prev.table || {}).round || !history.length) return null;
  const round = history[history.length - 1];
  // The round's last turn first (the new round's view still holds it): who took what on it.
  const last = table.last_turn && table.last_turn.length ? lastTurn(table.last_turn, (seat) => ctx.seatName(seat), "sn-summary-last") : null;
  return h("section", { class: "sixnimmt" },
    h("h2", { text: t("sixnimmt.ev.roundOver", { round: history.length }) }), last,
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("sixnimmt.player") }),
      h("th", { scope: "col", text: t("sixnimmt.roundN", { n: history.length }) }),
      h("th", { scope: "col", text: t("sixnimmt.total") }))),
    h("tbody", {}, view.seats.map((seat) => h("tr", {}, h("th", { scope: "row", text: ctx.seatName(seat.seat) }),
      h("td", { text: heads(round[seat.seat]) }), h("td", { text: String(seat.score ?? 0) }))))));
}

export function status(view) {
  const table = view.table || {};
  if (view.phase === "take_row") {
    const mine = (table.revealed || []).find((e) => e.seat === view.your_seat);
    return t("sixnimmt.statusTakeRow", { card: mine ? mine.card : "" });
  }
  if (view.phase === "draft") return t("sixnimmt.statusDraft");
  return t("sixnimmt.statusChoose");
}

export function seatNote(view, seat) {
  const table = view.table || {};
  return view.phase === "choose" && table.chosen && table.chosen[seat] ? t("sixnimmt.hasChosen") : "";
}

// One line of the game log per event (the events are described in rules/sixnimmt/shapes.py).
export function describeEvent(event, ctx) {
  switch (event.type) {
    case "drafted": return seatLine("sixnimmt.ev.drafted", event.seat, ctx, { card: event.card });
    case "chose": return seatLine(`sixnimmt.ev.${event.changed ? "changed" : "chose"}`, event.seat, ctx);
    case "revealed": return t("sixnimmt.ev.revealed", {
      cards: event.cards.map((entry) => `${ctx.seatName(entry.seat)} ${entry.card}`).join(", ") });
    case "row_choice": return seatLine("sixnimmt.mustTake", event.seat, ctx);
    case "placed": return event.took && event.took.length
      ? seatLine("sixnimmt.ev.took", event.seat, ctx, { card: event.card, row: event.row + 1, heads: heads(sum(event.took)) })
      : seatLine("sixnimmt.ev.placed", event.seat, ctx, { card: event.card, row: event.row + 1 });
    case "round_over": return t("sixnimmt.ev.roundOver", { round: event.round });
    case "dealt": return t("sixnimmt.ev.dealt", { round: event.round });
    case "game_over": return t("sixnimmt.ev.gameOver");
    default: return null;
  }
}

// A move in words, for the replay: rows are counted from 1, as the table shows them.
export function actionLabel(action) {
  switch (action.type) {
    case "play": return t("sixnimmt.act.play", { card: action.card });
    case "take_row": return t("sixnimmt.act.takeRow", { row: action.row + 1 });
    case "draft": return t("sixnimmt.act.draft", { card: action.card });
    default: return null;
  }
}
