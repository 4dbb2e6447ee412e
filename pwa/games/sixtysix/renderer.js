// Sixty-six renderer: trump and stock, the trick, actions, hand, sides, last trick and hand result.
// Contract: see ../README.md. view.table and the events: their JSON Schema in rules/sixtysix/shapes.py.
import { t, tn, addLanguages, seatLine } from "../../i18n.js";
import { h, on, addStyles, styleText } from "../../ui.js";
import { tricksStages, between } from "../../pacing.js";
import strings from "./strings.js";

addLanguages(strings);

// A new game as people play it: two players, the classic rules (with their 24-card deck).
export const newGame = { players: 2, options: { preset: "classic", deck: 24 } };

// The deck is a choice only for two players under the rules as written (rules/sixtysix):
// classic with two players uses 24 cards; three players use 32 and four two decks of 24, so
// the form asks nothing then (the server's option stays 32).
export function fitOptions(form, players) {
  const { preset, deck } = form.elements;
  if (!preset || !deck) return;
  const classic = JSON.parse(preset.value) === "classic";
  deck.closest(".field").hidden = players !== 2;
  deck.disabled = players !== 2 || classic;
  if (players !== 2) deck.value = JSON.stringify(32);
  else if (classic) deck.value = JSON.stringify(24);
}

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
// The server's reasons (rules/sixtysix/game.py) are English sentences: translate the known ones.
const REASONS = {
  "correct declaration": "correct",
  "false declaration: each opposing side scores what it would have won": "false",
  "correct declaration against the closer: the closer's opponents score": "againstCloser",
  "the closer's side reached the target with the last trick": "closerLast",
  "the cards ran out after closing: the closer's opponents score": "closedOut",
  "the cards ran out: the side with the most card points scores": "mostPoints",
  "the cards ran out and no side reached the target: 1 point carries over": "carry",
};

const rankOf = (card) => card.slice(0, -1);
const suitOf = (card) => card.slice(-1);
const suitName = (suit) => t(`sixtysix.suit.${suit}`);
export const cardName = (card) => t("sixtysix.card", { rank: t(`sixtysix.rank.${rankOf(card)}`), suit: suitName(suitOf(card)) });

// The game's styles, its folder's style.css (the shell's stylesheet names no game).
const STYLE = await styleText(new URL("./style.css", import.meta.url));

// A card's face: rank letter and suit symbol (shape, not only colour); the name is said elsewhere.
function face(card) {
  const suit = suitOf(card);
  return h("span", { class: `sx-card${suit === "H" || suit === "D" ? " sx-red" : ""}`, "aria-hidden": "true" },
    h("span", { class: "sx-rank", text: rankOf(card) }), h("span", { class: "sx-suit", text: SYMBOL[suit] }));
}

function sides(table) {
  const members = [];
  (table.side_of || []).forEach((side, seat) => { (members[side] = members[side] || []).push(seat); });
  return members;
}

function sideName(seats, ctx) {
  const names = seats.map((seat) => ctx.seatName(seat));
  return names.length === 2 ? t("sixtysix.pair", { a: names[0], b: names[1] }) : names.join(", ");
}

const tricksText = (n) => tn("sixtysix.tricks", n);

function send(act, action) {
  return () => { act(action).catch(() => {}); };
}

export function render(view, act, ctx) {
  addStyles("sixtysix-style", STYLE);
  const table = view.table || {};
  const legal = view.legal_actions || [];
  const mine = view.your_seat;
  const root = h("div", { class: "sixtysix" });
  const trump = table.trump;

  // Hand number, trump, target and match score.
  // Partners share one score, so each side shows its first seat's.
  const score = sides(table).map((seats) => `${sideName(seats, ctx)} ${(view.seats[seats[0]] || {}).score ?? 0}`).join(" · ");
  root.append(h("div", { class: "sx-info" },
    h("span", {}, `${t("sixtysix.deal", { n: view.deal })} · `,
      h("span", { class: "sx-trump", text: t("sixtysix.trump", { symbol: SYMBOL[trump], suit: suitName(trump) }) })),
    h("span", { class: "sx-match" }, `${t("sixtysix.match")}: ${score}`,
      table.carry ? ` (${t("sixtysix.carry", { n: table.carry })})` : ""),
    h("small", { text: t("sixtysix.target", { target: table.target, points: table.match_points }) }),
    table.players === 4 ? h("small", { text: t("sixtysix.partners", {
      sides: sides(table).map((seats) => sideName(seats, ctx)).join(t("sixtysix.versus")) }) }) : null));

  if (view.status !== "finished") root.append(felt(view, table, ctx));
  // Declaring is the move most wanted once the side has the target; below it, it is a trap
  // and waits with the other special moves under the hand.
  const declare = legal.find((a) => a.type === "declare" && !a.card);
  const enough = declare && table.my_points !== null && table.my_points >= table.target;
  if (enough) root.append(h("div", { class: "sx-actions" }, declareButton(declare, table, act, true)));

  // The hand: every card is a button; those not playable now are disabled.
  if (mine !== null && mine !== undefined && view.status !== "finished") {
    const playable = new Set(legal.filter((a) => a.type === "play").map((a) => a.card));
    const hand = view.hand || [];
    const nineChoice = exchangeChoice(legal, table, act, ctx);
    const columns = table.players === 2 ? 6 : 7;
    root.append(h("section", { "aria-labelledby": "sx-hand" },
      h("h2", { id: "sx-hand", text: t("sixtysix.hand") }),
      hand.length ? h("div", { class: `sx-hand sx-cols${columns}`, "data-part": "hand" },
        hand.map((card, i) => cardButton(card, i, playable.has(card), legal, table, act, nineChoice, ctx)))
        : h("p", { class: "muted", text: t("sixtysix.handEmpty") }),
      nineChoice ? nineChoice.box : null, marriageToggle(legal, ctx)));
  }

  root.append(specialMoves(legal, table, act, enough ? null : declare));
  // Closing the stock cannot be undone: it sits apart from the hand and the other actions.
  const close = legal.find((a) => a.type === "close");
  if (close) {
    root.append(h("div", { class: "sx-later" }, h("button", { type: "button", "data-focus-key": "close",
      onclick: send(act, close) }, t("sixtysix.close"))));
  }
  // Once the match is over the running counts are stale: the hand's result below has them.
  if (view.status !== "finished") root.append(sidesBlock(view, table, ctx));
  if (table.last_trick && view.status !== "finished") root.append(lastTrick(table.last_trick, table.played || [], ctx));
  if (table.last_hand) root.append(lastHand(table.last_hand, table, ctx));
  return root;
}

// The completed trick a new lead took off the table: it stays in view beside the next one
// until the player moves on (plays) or taps it away (ctx.ui.seenTrick, the page's UI state).
const trickKey = (trick) => (trick ? JSON.stringify(trick.cards) : null);
function lastTrickSeen(table, ctx) { ctx.ui.seenTrick = trickKey(table.last_trick); }

function previousTrick(table, ctx) {
  const last = table.last_trick;
  if (!last || !(table.trick || []).length || ctx.ui.seenTrick === trickKey(last)) return null;
  const best = last.cards.findIndex((p) => p.seat === last.winner);
  const dismiss = h("button", { type: "button", class: "sx-seen", "data-focus-key": "seen-trick", text: t("sixtysix.seenTrick") });
  on(dismiss, "click", () => { lastTrickSeen(table, ctx); ctx.redraw(); });
  return h("div", { class: "sx-previous", role: "group", "aria-labelledby": "sx-previous-title" },
    h("p", { class: "sx-note", id: "sx-previous-title", text: seatLine("sixtysix.tookWith", last.winner, ctx, {
      card: cardName(last.cards[best].card), points: last.points }) }),
    h("ul", { class: "sx-trick-cards sx-taken" }, last.cards.map((p, i) => h("li", { class: i === best ? "sx-best" : "" },
      face(p.card), ctx.nameTag(p.seat),
      h("span", { class: "visually-hidden", text: t("sixtysix.played", { name: ctx.seatName(p.seat), card: cardName(p.card) }) })))),
    dismiss);
}

// Another seat's marriage, shown on the card that showed it: the lead of the trick in progress.
function marriageOf(table, play, index) {
  if (index !== 0 || !"KQ".includes(rankOf(play.card))) return null;
  return (table.marriages || []).find((m) => m.seat === play.seat && m.suit === suitOf(play.card)) || null;
}

function felt(view, table, ctx) {
  let stock;
  const exchanged = table.exchanged
    ? h("p", { class: "sx-exchanged", text: seatLine("sixtysix.log.exchanged", table.exchanged.seat, ctx,
      { gave: cardName(table.exchanged.gave), took: cardName(table.exchanged.took) }) }) : null;
  if (table.trump_card) {
    stock = [face(table.trump_card), h("span", { text: t("sixtysix.stock", { n: table.stock_size }) }),
      h("span", { class: "visually-hidden", text: t("sixtysix.trumpCard", { card: cardName(table.trump_card) }) })];
  } else if (table.closed_by !== null && table.closed_by !== undefined) {
    // Closed: the face-up card turned over on the stock, marked, with who closed it.
    stock = [h("span", { class: "sx-closed-stock", "aria-hidden": "true" },
      table.face_up && table.face_up.drawn_by === null ? face(table.face_up.card) : null,
      h("span", { class: "sx-closed-mark", text: "✕" })),
    h("span", { class: "sx-closed-text", text: t("sixtysix.closedBy", { name: ctx.seatName(table.closed_by) }) })];
  } else {
    stock = [h("span", { text: t("sixtysix.exhausted") }),
      table.set_aside ? h("span", { text: t("sixtysix.setAside", { n: table.set_aside }) }) : null];
  }
  const trick = table.trick || [];
  // A trick completes the moment its last card is played: it stays on the table, its winning
  // card marked, until the next lead.
  const taken = !trick.length ? table.last_trick : null;
  const cards = taken ? taken.cards : trick;
  const holder = taken ? taken.winner : table.trick_holder;
  const best = cards.findIndex((p) => p.seat === holder);
  const waiting = table.turn === null || table.turn === undefined ? null
    : h("p", { class: "sx-note", text: t(trick.length ? "sixtysix.toPlay" : "sixtysix.leads", { name: ctx.seatName(table.turn) }) });
  const tookLine = taken ? h("p", { class: "sx-note sx-took", text: seatLine("sixtysix.tookWith", taken.winner, ctx, {
    card: cardName(cards[best].card), points: taken.points }) }) : null;
  return h("section", { class: "sx-felt", "data-part": "table", "aria-labelledby": "sx-trick" },
    h("div", { class: "sx-stock" }, stock),
    h("div", { class: "sx-trick" },
      h("h2", { id: "sx-trick", class: "visually-hidden", text: t("sixtysix.trick") }),
      previousTrick(table, ctx),
      cards.length ? h("ul", { class: `sx-trick-cards${taken ? " sx-taken" : ""}` }, cards.map((p, i) => {
        const marriage = taken ? null : marriageOf(table, p, i);
        return h("li", { class: i === best ? "sx-best" : "", "data-card": p.card },
          face(p.card), ctx.nameTag(p.seat),
          taken && i === best ? h("span", { class: "sx-took-tag", "aria-hidden": "true", text: t("sixtysix.tookTag") }) : null,
          marriage ? h("span", { class: "sx-marriage-tag", "aria-hidden": "true", text: `+${marriage.points}` }) : null,
          h("span", { class: "visually-hidden", text: t("sixtysix.played", { name: ctx.seatName(p.seat), card: cardName(p.card) })
            + (marriage ? `, ${t("sixtysix.showedMarriage", { suit: suitName(marriage.suit), points: marriage.points })}` : "") }));
      }))
        : null,
      tookLine, waiting),
    exchanged);
}

// Leading a king or queen of a marriage shows the marriage, unless the player turns it off
// (for as long as the page is open: the page's UI state, ctx.ui).
const marryOnLead = (ctx) => ctx.ui.marryOnLead ?? true;
const marriagePoints = (card, table) => (suitOf(card) === table.trump ? 40 : 20);

// A card of the hand: played when tapped; a marriage's king or queen shows the marriage with
// it (by the toggle); the trump nine the exchange allows opens the choice of the two.
function cardButton(card, i, can, legal, table, act, nineChoice, ctx) {
  const marry = legal.find((a) => a.type === "marry" && a.card === card);
  const label = h("span", { class: "visually-hidden" });
  const mark = marry ? h("span", { class: "sx-marry-mark", "aria-hidden": "true", text: `+${marriagePoints(card, table)}` }) : null;
  const button = h("button", { type: "button", class: "sx-play", disabled: !can, "data-focus-key": `play-${card}-${i}`,
    "data-marry": marry ? "true" : null }, label, face(card), mark);
  // The trump nine opens the choice of exchanging or playing it: its name says so, not "Play".
  const choosing = nineChoice && nineChoice.card === card;
  const showing = marry && marryOnLead(ctx);
  label.textContent = t(!can ? "sixtysix.notPlayable"
    : (choosing ? "sixtysix.exchangeOrPlay" : (showing ? "sixtysix.playMarry" : "sixtysix.play")),
  { card: cardName(card), points: marry ? marriagePoints(card, table) : 0 });
  if (mark) mark.hidden = !marryOnLead(ctx);
  if (choosing) {
    button.setAttribute("aria-expanded", String(!nineChoice.box.hidden));
    button.setAttribute("aria-controls", nineChoice.box.id);
    on(button, "click", () => { ctx.ui.nineOpen = nineChoice.box.hidden; ctx.redraw(); });
  } else if (can) {
    on(button, "click", () => { lastTrickSeen(table, ctx); act(showing ? marry : { type: "play", card }).catch(() => {}); });
  }
  if (choosing) button.append(h("span", { class: "sx-nine-mark", "aria-hidden": "true", text: "⇄" }));
  return button;
}

function marriageToggle(legal, ctx) {
  if (!legal.some((a) => a.type === "marry")) return null;
  const showing = marryOnLead(ctx);
  const toggle = h("button", { type: "button", class: "sx-toggle", "aria-pressed": String(showing),
    "data-focus-key": "marry-toggle", text: t("sixtysix.marryToggle") });
  on(toggle, "click", () => { ctx.ui.marryOnLead = !showing; ctx.redraw(); });
  return toggle;
}

// The trump nine (seven with 32 cards) while the exchange is allowed: exchange it, or play it.
// Whether the choice is open is the page's UI state (ctx.ui), closed again once it is gone.
function exchangeChoice(legal, table, act, ctx) {
  const exchange = legal.find((a) => a.type === "exchange");
  if (!exchange) { ctx.ui.nineOpen = false; return null; }
  const card = (table.deck_size === 32 ? "7" : "9") + table.trump;
  const playable = legal.some((a) => a.type === "play" && a.card === card);
  const box = h("div", { class: "sx-actions sx-nine", id: "sx-nine", role: "group", hidden: !ctx.ui.nineOpen,
    "aria-label": t("sixtysix.exchangeOrPlay", { card: cardName(card) }) },
  h("button", { type: "button", class: "primary", "data-focus-key": "exchange", onclick: send(act, exchange) },
    t("sixtysix.exchange", { low: cardName(card), card: cardName(table.trump_card) })),
  playable ? h("button", { type: "button", "data-focus-key": "play-nine", onclick: send(act, { type: "play", card }) },
    t("sixtysix.playIt", { card: cardName(card) })) : null);
  return { card, box };
}

// The declaration states the side's card points, so its confirmation does too.
function declareButton(action, table, act, enough) {
  return h("button", { type: "button", class: enough ? "primary" : "", "data-focus-key": "declare", onclick: send(act, action) },
    t(enough ? "sixtysix.declare" : "sixtysix.declareShort", { points: table.my_points ?? 0, target: table.target }));
}

// The moves besides playing a card, compact under the hand: declaring with a marriage,
// declaring short (showing a marriage and the exchange are on the cards).
function specialMoves(legal, table, act, declareShort) {
  const buttons = [];
  const declaredSuits = new Set();
  for (const action of legal) {
    if (action.type === "declare" && action.card && !declaredSuits.has(suitOf(action.card))) {
      // The K and the Q name the same marriage: one button per suit.
      const suit = suitOf(action.card);
      declaredSuits.add(suit);
      // The suit in words, as it is said: the symbol beside it is only a mark.
      buttons.push(h("button", { type: "button", "data-focus-key": `declare-${suit}`, onclick: send(act, action) },
        h("span", { "aria-hidden": "true", text: `${SYMBOL[suit]} ` }),
        t("sixtysix.declareMarriage", { symbol: suitName(suit), points: suit === table.trump ? 40 : 20 })));
    }
  }
  if (declareShort) buttons.push(declareButton(declareShort, table, act, false));
  return buttons.length ? h("div", { class: "sx-actions sx-special" }, buttons) : h("div");
}

function sidesBlock(view, table, ctx) {
  const mySide = view.your_seat === null || view.your_seat === undefined ? null : table.side_of[view.your_seat];
  const items = sides(table).map((seats, side) => h("li", { class: side === mySide ? "sx-mine" : "" },
    h("span", { class: "sx-who", text: sideName(seats, ctx) }),
    h("span", {}, side === mySide && table.my_points !== null ? `${t("sixtysix.points", { points: table.my_points })} · ` : "",
      tricksText((table.tricks || [])[seats[0]] ?? 0))));
  const marriages = table.marriages || [];
  return h("section", { "aria-labelledby": "sx-sides" },
    h("h2", { id: "sx-sides", text: t("sixtysix.sides") }),
    h("ul", { class: "sx-sides" }, items),
    marriages.length ? h("div", {}, h("h2", { id: "sx-marriages", text: t("sixtysix.marriages") }),
      h("ul", { class: "plain-list", "aria-labelledby": "sx-marriages" }, marriages.map((m) => h("li", {},
        t("sixtysix.marriage", { name: ctx.seatName(m.seat), symbol: SYMBOL[m.suit], suit: suitName(m.suit), points: m.points }),
        m.counted ? "" : ` (${t("sixtysix.pending")})`)))) : null);
}

// Whether the last trick is open is the page's UI state (ctx.ui), kept across every new view.
function lastTrick(last, played, ctx) {
  const lastTrickOpen = Boolean(ctx.ui.lastTrickOpen);
  // Every trick of the hand was shown face up: listed under the last one, oldest first.
  const history = played.length > 1 ? h("li", { class: "sx-note" },
    h("span", { text: t("sixtysix.playedHand") }),
    h("ol", { class: "plain-list" }, played.map((trick, i) => h("li", {
      text: t("sixtysix.playedTrick", {
        n: i + 1, name: ctx.seatName(trick.winner),
        cards: trick.cards.map((p) => t("sixtysix.played", { name: ctx.seatName(p.seat), card: cardName(p.card) })).join(", "),
      }) })))) : null;
  const panel = h("ul", { class: "sx-last-cards", id: "sx-last-cards", hidden: !lastTrickOpen },
    last.cards.map((p) => h("li", {}, face(p.card), ctx.nameTag(p.seat),
      h("span", { class: "visually-hidden", text: t("sixtysix.played", { name: ctx.seatName(p.seat), card: cardName(p.card) }) }))),
    h("li", { class: "sx-note", text: t("sixtysix.lastWonBy", { name: ctx.seatName(last.winner) }) }), history);
  const toggle = h("button", { type: "button", "aria-expanded": String(lastTrickOpen), "aria-controls": "sx-last-cards",
    "data-focus-key": "last-trick", text: t(lastTrickOpen ? "sixtysix.hideLast" : "sixtysix.showLast") });
  on(toggle, "click", () => { ctx.ui.lastTrickOpen = !lastTrickOpen; ctx.redraw(); });
  return h("div", { class: "sx-last" }, toggle, panel);
}

// Why each scoring side got its game points, in the rules' terms (see rules/sixtysix/game.py:
// 3 when the others took no trick, 2 when they took under half the target, else 1; a failed
// close gives the closer's opponents 2, or 3 if they had no trick when it was closed).
function whyLines(result, table, reason, ctx) {
  const all = sides(table);
  const half = Math.floor((table.target - 1) / 2) + 1;
  const carried = result.carried || 0;
  return all.filter((seats) => result.game_points[seats[0]] > 0).map((seats) => {
    const n = result.game_points[seats[0]];
    const base = n - carried;
    const points = Math.max(...all.filter((other) => other !== seats).map((other) => result.points[other[0]]));
    let why;
    if (reason === "false") {
      why = seatLine("sixtysix.why.false", result.declarer, ctx, { points: result.points[result.declarer], target: table.target });
    } else if (reason === "againstCloser" || reason === "closedOut") {
      why = t(base >= 3 ? "sixtysix.why.closerNoTrick" : "sixtysix.why.closer", { target: table.target });
    } else {
      why = t(base >= 3 ? "sixtysix.why.noTrick" : (base === 2 ? "sixtysix.why.under" : "sixtysix.why.over"), { half, points });
    }
    if (carried) why = `${why} (${t("sixtysix.why.carried", { n: carried })})`;
    return tn("sixtysix.gamePointsWhy", n, { side: sideName(seats, ctx), why });
  });
}

function lastHand(result, table, ctx) {
  const lines = [];
  // Every reason of a hand the cards ended says so itself.
  if (result.declarer !== null && result.declarer !== undefined) {
    lines.push(t(result.correct ? "sixtysix.declaredOk" : "sixtysix.declaredFalse", { name: ctx.seatName(result.declarer) }));
  }
  if (result.closed_by !== null && result.closed_by !== undefined) {
    lines.push(t("sixtysix.closedNote", { name: ctx.seatName(result.closed_by) }));
  }
  const reason = REASONS[result.reason];
  lines.push(reason ? t(`sixtysix.reason.${reason}`) : result.reason);
  lines.push(...whyLines(result, table, reason, ctx));
  const rows = sides(table).map((seats) => h("tr", {},
    h("th", { scope: "row", text: sideName(seats, ctx) }),
    h("td", { text: String(result.points[seats[0]]) }),
    h("td", { text: String(result.tricks[seats[0]]) }),
    h("td", { text: String(result.game_points[seats[0]]) })));
  return h("section", { class: "sx-result", "aria-labelledby": "sx-result" },
    h("h2", { id: "sx-result", text: t("sixtysix.lastHand", { deal: result.deal }) }),
    lines.map((line) => h("p", { text: line })),
    h("div", { class: "table-wrap" }, h("table", {},
      h("thead", {}, h("tr", {}, ["side", "cardPoints", "trickCount", "gamePoints"].map((key) =>
        h("th", { scope: "col", text: t(`sixtysix.${key}`) })))),
      h("tbody", {}, rows))));
}

// The paced reveal: each card of the others in turn, a completed trick held (see ../../pacing.js).
export function stages(prev, view, events) {
  return tricksStages(prev, events, {
    plays: ["played"], done: ["trick"], ends: ["hand_over", "match_over"],
    entry: (event) => ({ seat: event.seat, card: event.card }),
    leaderAfter: (event) => event.winner,
    showTrick: (before, trick, leader, event) => between(before, { trick, trick_holder: event.holder, turn: null }),
    showTaken: (before, event) => between(before, { trick: [], turn: null,
      last_trick: { winner: event.winner, cards: event.cards, points: event.points } }),
  });
}

// Between two hands: the result of the one just played, before the next is shown.
export function summary(prev, view, ctx) {
  const table = view.table || {};
  return view.deal !== prev.deal && table.last_hand ? lastHand(table.last_hand, table, ctx) : null;
}

// Closing the stock and declaring end something for good: the shell asks first.
export function irreversible(action) {
  return action.type === "close" || action.type === "declare";
}

export function status(view) {
  const table = view.table || {};
  const legal = view.legal_actions || [];
  if ((table.trick || []).length) {
    return t(table.stock_size ? "sixtysix.statusFollow" : "sixtysix.statusStrict");
  }
  if (legal.some((a) => a.type === "declare")) return t("sixtysix.statusDeclare", { target: table.target });
  return t("sixtysix.statusLead");
}

export function seatNote(view, seat) {
  const table = view.table || {};
  return view.status === "active" && table.dealer === seat ? t("sixtysix.dealer") : "";
}

// One game-log line per event of rules/sixtysix/shapes.py (the shell shows and announces them).
export function describeEvent(event, ctx) {
  const names = (seats) => seats.map((seat) => ctx.seatName(seat)).join(", ");
  const line = (key, vars) => seatLine(key, event.seat, ctx, vars);
  switch (event.type) {
    case "closed": return line("sixtysix.log.closed");
    case "exchanged": return line("sixtysix.log.exchanged", { gave: cardName(event.gave), took: cardName(event.took) });
    case "married": return line(event.counted ? "sixtysix.log.married" : "sixtysix.log.marriedPending",
      { suit: suitName(event.suit), points: event.points });
    case "played": return line("sixtysix.log.played", { card: cardName(event.card) });
    case "trick": return seatLine("sixtysix.log.trick", event.winner, ctx, { points: event.points,
      cards: event.cards.map((p) => cardName(p.card)).join(", ") });
    case "drew": return line("sixtysix.log.drew", { card: cardName(event.card) });
    case "drawn":
      if (event.trump_card_to !== null) return seatLine("sixtysix.log.drawnTrump", event.trump_card_to, ctx);
      if (event.stock_size) return t("sixtysix.log.drawn", { n: event.stock_size });
      return event.set_aside ? t("sixtysix.log.exhaustedAside", { n: event.set_aside }) : t("sixtysix.log.exhausted");
    case "declared": return event.suit
      ? line("sixtysix.log.declaredMarriage", { suit: suitName(event.suit) }) : line("sixtysix.log.declared");
    case "hand_over": {
      const key = REASONS[event.reason];
      const gains = [...new Set(event.game_points.filter((n) => n > 0))].map((n) => t("sixtysix.log.gain",
        { n, names: names(event.game_points.map((g, seat) => (g === n ? seat : -1)).filter((seat) => seat >= 0)) }));
      return [t("sixtysix.log.handOver", { deal: event.deal, reason: key ? t(`sixtysix.reason.${key}`) : event.reason }),
        ...gains].join(" ");
    }
    case "match_over": return t("sixtysix.log.matchOver", { names: names(event.winners) });
    case "dealt": return seatLine("sixtysix.log.dealt", event.dealer, ctx, { deal: event.deal,
      symbol: SYMBOL[event.trump], suit: suitName(event.trump), card: cardName(event.trump_card) });
    case "dealt_hand": return t("sixtysix.log.hand", { cards: event.cards.map(cardName).join(", ") });
    default: return null;
  }
}

// A card played to a trick stays there: the shell asks a new player to confirm it.
const FOR_GOOD = new Set(["play", "marry"]);
export function playsForGood(action) {
  return FOR_GOOD.has(action.type);
}

// A move in words, for the replay.
export function actionLabel(action) {
  switch (action.type) {
    case "play": return t("sixtysix.act.play", { card: cardName(action.card) });
    case "marry": return t("sixtysix.act.marry", { card: cardName(action.card) });
    case "exchange": return t("sixtysix.act.exchange");
    case "close": return t("sixtysix.act.close");
    case "declare": return action.card ? t("sixtysix.act.declareMarriage", { card: cardName(action.card) }) : t("sixtysix.act.declare");
    default: return null;
  }
}
