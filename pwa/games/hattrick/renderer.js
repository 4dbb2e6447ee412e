// Hattrick renderer: the double trick, the hand by colour (play or pass), last trick,
// collected piles and passed cards, the end of the last deal and the score sheet.
// Contract: see ../README.md. view.table and the events: their JSON Schema in rules/hattrick/shapes.py.
import { t, tn, addLanguages, listNames, seatLine } from "../../i18n.js";
import { h, on, addStyles, styleText } from "../../ui.js";
import { tricksStages, between } from "../../pacing.js";
import strings from "./strings.js";

addLanguages(strings);

const COLOURS = ["red", "blue", "green"];
// A symbol beside every colour, so colour is never the only cue.
const SYMBOL = { red: "♥", blue: "●", green: "♣" };

const split = (card) => { const [colour, value] = card.split("-"); return { colour, value: Number(value) }; };
const colourName = (colour) => t(`hattrick.colour.${colour}`);
export function cardLabel(card) {
  const { colour, value } = split(card);
  return t("hattrick.card", { colour: colourName(colour), value });
}
const cardList = (cards) => cards.map(cardLabel).join(", ");
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
const thirdColour = (colours) => COLOURS.find((c) => !colours.includes(c));
const colourWords = (colours, joiner) => colours.map((c) => `${SYMBOL[c]} ${colourName(c)}`).join(t(joiner));

// The game's styles, its folder's style.css (the shell's stylesheet stays game-neutral): added once.
const STYLE = await styleText(new URL("./style.css", import.meta.url));
// A card's face: colour, symbol and number; decorative, the names carry the meaning.
function face(card, extra = "", tag = "") {
  const { colour, value } = split(card);
  return h("span", { class: `hc hc-${colour} ${extra}`, "aria-hidden": "true" },
    h("span", { class: "hc-sym", text: SYMBOL[colour] }), h("span", { class: "hc-num", text: String(value) }),
    // The space keeps the tag a word of its own after the number, as the button's name says it.
    tag ? h("span", { class: "hc-tag", text: ` ${tag}` }) : null);
}
// A small face with its name for screen readers, for lists of cards.
const small = (card, extra = "") => h("span", {}, face(card, `ht-small ${extra}`),
  h("span", { class: "visually-hidden", text: cardLabel(card) }));

export function render(view, act, ctx) {
  addStyles("hattrick-style", STYLE);
  const table = view.table || {};
  const name = (seat) => ctx.seatName(seat);
  const root = h("div", { class: "hattrick" });
  root.append(h("p", { class: "ht-info" }, t("hattrick.dealInfo", { deal: view.deal, deals: table.deals }), h("br"),
    h("small", { text: t("hattrick.dealerLeader", { dealer: name(table.dealer), leader: name(table.leader) }) })));
  // The trick just taken stays on the felt (see keptTrick) until the player has seen it; after
  // that, and at the game's end, it is the "Last trick" below the hand.
  const kept = view.status !== "finished" && table.last_trick
    && (!(table.trick || []).length || ctx.ui.seenTrick !== trickKey(table.last_trick));
  if (view.status !== "finished") {
    root.append(trickSection(table, name, ctx, kept));
    // Playing a card moves on from the trick taken before it.
    const play = (action) => { ctx.ui.seenTrick = trickKey(table.last_trick); return act(action); };
    if (view.your_seat !== null && view.your_seat !== undefined) root.append(handSection(view, play));
  }
  if (table.last_trick && !kept) root.append(lastTrickSection(table.last_trick, name, ctx));
  const end = table.previous_deal;
  // The end of a deal matters until the next one is under way (and for good at the end).
  if (end && (!table.last_trick || view.status === "finished")) root.append(dealEndSection(end, name, view));
  if (view.status !== "finished") {
    root.append(pilesSection(view, { piles: table.piles, passed: table.passed, scores: table.deal_scores }, name,
      t("hattrick.piles"), "ht-piles"));
  }
  root.append(sheetSection(view, table, name));
  return root;
}

function trickSection(table, name, ctx, kept) {
  const { nameTag } = ctx;
  const players = (table.hand_sizes || []).length;
  const trick = table.trick || [];
  const colours = table.trick_colours || [];
  let rule;
  if (!trick.length) rule = t("hattrick.leadAny", { name: name(table.leader) });
  else if (colours.length < 2) rule = t("hattrick.oneColour");
  else rule = t("hattrick.twoColours", { colours: colourWords(colours, "hattrick.and"),
    third: `${SYMBOL[thirdColour(colours)]} ${colourName(thirdColour(colours))}` });
  const slots = h("ol", { class: "ht-slots" });
  for (let i = 0; i < players; i += 1) {
    const seat = (table.leader + i) % players;
    const entry = trick[i];
    if (entry) {
      slots.append(h("li", { class: "ht-slot", "data-card": entry.card },
        face(entry.card, entry.passed ? "face-down" : "", entry.passed ? t("hattrick.passed") : ""),
        nameTag(seat),
        h("span", { class: "visually-hidden", text: t(entry.passed ? "hattrick.inTrickPassed" : "hattrick.inTrick",
          { name: name(seat), card: cardLabel(entry.card) }) })));
    } else {
      const next = i === trick.length;
      slots.append(h("li", { class: `ht-slot${next ? " next" : ""}` },
        h("span", { class: "ht-empty", "aria-hidden": "true", text: next ? "…" : "" }),
        nameTag(seat),
        h("span", { class: "visually-hidden", text: t("hattrick.waiting", { name: name(seat) }) })));
    }
  }
  return h("section", { class: "block", "aria-labelledby": "ht-trick" },
    h("h2", { id: "ht-trick", text: t("hattrick.trick") }),
    h("div", { class: "ht-felt", "data-part": "table" }, h("p", { text: rule }), slots,
      kept ? keptTrick(table.last_trick, trick.length > 0, ctx) : null));
}

const trickKey = (trick) => (trick ? JSON.stringify(trick.cards) : null);

// The trick just taken, small, below the next one: its cards in a line and who took which
// colour, so the bots' cards after the player's own never go by unseen. Once the next trick is
// under way, a tap hides it (playing a card does too).
function keptTrick(last, hideable, ctx) {
  const byColour = Object.entries(last.taken || {}).sort(([a], [b]) => COLOURS.indexOf(a) - COLOURS.indexOf(b));
  const hide = hideable ? h("button", { type: "button", class: "ht-seen", "data-focus-key": "seen-trick",
    text: t("hattrick.seenTrick") }) : null;
  if (hide) on(hide, "click", () => { ctx.ui.seenTrick = trickKey(last); ctx.redraw(); });
  return h("div", { class: "ht-kept", role: "group", "aria-labelledby": "ht-kept-title" },
    h("div", { class: "ht-kept-head" },
      h("span", { class: "ht-kept-title", id: "ht-kept-title", text: t("hattrick.lastTrick") }),
      h("ul", { class: "ht-kept-cards" }, last.cards.map((entry) => h("li", {},
        face(entry.card, `ht-small${entry.passed ? " face-down" : ""}`),
        h("span", { class: "visually-hidden", text: t(entry.passed ? "hattrick.inTrickPassed" : "hattrick.inTrick",
          { name: ctx.seatName(entry.seat), card: cardLabel(entry.card) }) }))))),
    h("ul", { class: "ht-list" }, byColour.map(([colour, seat]) => h("li", { class: "ht-line ht-took" },
      h("span", { class: `ht-chip hc-${colour}`, "aria-hidden": "true", text: SYMBOL[colour] }),
      h("span", { text: seatLine("hattrick.tookColour", seat, ctx, { colour: colourName(colour) }) })))),
    hide);
}

function handSection(view, act) {
  const hand = view.hand || [];
  const legal = view.legal_actions || [];
  const actionOf = new Map(legal.filter((a) => a.type === "play" || a.type === "pass").map((a) => [a.card, a]));
  const section = h("section", { class: "block hand", "aria-labelledby": "ht-hand" },
    h("h2", { id: "ht-hand", text: t("hattrick.hand") }));
  if (!hand.length) { section.append(h("p", { class: "muted", text: t("hattrick.handEmpty") })); return section; }
  // One grid in colour order (every face shows its colour's symbol): 15 cards fit beside the trick.
  const ordered = COLOURS.flatMap((colour) => hand.filter((card) => split(card).colour === colour));
  section.append(h("div", { class: "ht-cards", "data-part": "hand" },
    ordered.map((card) => cardButton(card, actionOf.get(card), act))));
  section.append(h("p", { class: "muted", text: t("hattrick.handNote") }));
  return section;
}

function cardButton(card, action, act) {
  const label = action ? t(action.type === "pass" ? "hattrick.pass" : "hattrick.play", { card: cardLabel(card) })
    : t("hattrick.notNow", { card: cardLabel(card) });
  const button = h("button", { type: "button", class: `ht-card-button${action && action.type === "pass" ? " pass" : ""}`,
    "aria-label": label, "data-focus-key": `card-${card}`, disabled: !action },
  face(card, "", action && action.type === "pass" ? t("hattrick.passTag") : ""));
  if (action) on(button, "click", () => { act({ type: action.type, card }).catch(() => {}); });
  return button;
}

function lastTrickSection(last, name, ctx) {
  const byColour = Object.entries(last.taken || {}).sort(([a], [b]) => COLOURS.indexOf(a) - COLOURS.indexOf(b));
  return h("section", { class: "block", "aria-labelledby": "ht-last" },
    h("h2", { id: "ht-last", text: t("hattrick.lastTrick") }),
    h("ul", { class: "ht-list" }, last.cards.map((entry) => h("li", { class: "ht-line" }, face(entry.card, `ht-small${entry.passed ? " face-down" : ""}`),
      h("span", { text: t(entry.passed ? "hattrick.inTrickPassed" : "hattrick.inTrick", { name: name(entry.seat), card: cardLabel(entry.card) }) })))),
    h("ul", { class: "ht-list" }, byColour.map(([colour, seat]) => {
      const cards = last.cards.filter((e) => !e.passed && split(e.card).colour === colour).map((e) => e.card);
      return h("li", { class: "ht-line ht-took" }, h("span", { class: `ht-chip hc-${colour}`, "aria-hidden": "true", text: SYMBOL[colour] }),
        h("span", { text: seatLine("hattrick.took", seat, ctx, { colour: colourName(colour), cards: cardList(cards) }) }));
    })),
    h("p", { text: t("hattrick.nextLeader", { name: name(last.next_leader) }) }));
}

// How a deal's score adds up (rules/hattrick/game.py): the biggest colour pile, less every
// other card collected, less 2 for each card passed.
function scoreSum(pile, passed) {
  const best = COLOURS.reduce((top, colour) => (pile[colour].length > pile[top].length ? colour : top), COLOURS[0]);
  const collected = COLOURS.reduce((total, colour) => total + pile[colour].length, 0);
  return t("hattrick.scoreSum", { best: pile[best].length, colour: colourName(best),
    others: tn("hattrick.otherCards", collected - pile[best].length), passed: tn("hattrick.passedCount", passed.length) });
}

// The end of a deal: each set-aside card, each score with its sum, and the cards collected.
// `id` names its heading: the summary over the table needs its own.
function dealEndSection(end, name, view, id = "ht-end") {
  return h("section", { class: "block", "aria-labelledby": id },
    h("h2", { id, text: t("hattrick.dealEnded", { deal: end.deal }) }),
    h("ul", { class: "ht-list" }, end.set_aside.map((card, seat) => h("li", { class: "ht-line" }, face(card, "ht-small"),
      h("span", { text: `${t("hattrick.setAside", { name: name(seat), card: cardLabel(card), score: signed(end.scores[seat]) })}`
        + ` (${scoreSum(end.piles[seat], end.passed[seat])})` })))),
    pilesSection(view, end, name, t("hattrick.pilesOf", { deal: end.deal }), `${id}-piles`));
}

// Who collected what: `deal` holds piles, passed and scores, of the deal running or ended.
function pilesSection(view, deal, name, title, id) {
  const piles = deal.piles || [];
  const passed = deal.passed || [];
  const head = h("tr", {}, h("th", { scope: "col", text: t("hattrick.player") }),
    COLOURS.map((c) => h("th", { scope: "col", class: `num hc-${c}`, style: "background: none" },
      h("span", { "aria-hidden": "true", text: SYMBOL[c] }), h("span", { class: "visually-hidden", text: colourName(c) }))),
    h("th", { scope: "col", class: "num", text: t("hattrick.passedCol") }),
    h("th", { scope: "col", class: "num", text: t("hattrick.dealCol") }));
  const rows = piles.map((pile, seat) => h("tr", { class: seat === view.your_seat ? "mine" : "" },
    h("th", { scope: "row", text: name(seat) }),
    COLOURS.map((c) => h("td", { class: "num", text: String(pile[c].length) })),
    h("td", { class: "num", text: String(passed[seat].length) }),
    h("td", { class: "num total", text: signed(deal.scores[seat]) })));
  // Then the cards themselves: what each player collected and laid down.
  const holders = piles.map((_, seat) => seat).filter((seat) =>
    passed[seat].length || COLOURS.some((c) => piles[seat][c].length));
  const cards = holders.length ? h("ul", { class: "ht-list" }, holders.map((seat) => h("li", {},
    h("span", { class: "ht-name", text: `${name(seat)}:` }),
    COLOURS.flatMap((c) => piles[seat][c].map((card) => small(card))),
    passed[seat].length ? h("span", { class: "muted", text: `${t("hattrick.passedCards")}:` }) : null,
    passed[seat].map((card) => small(card, "face-down"))))) : null;
  return h("section", { class: "block", "aria-labelledby": id },
    h("h2", { id, text: title }),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": id },
      h("table", {}, h("thead", {}, head), h("tbody", {}, rows))), cards);
}

function sheetSection(view, table, name) {
  const sheet = table.sheet || [];
  const running = view.status !== "finished";
  const head = h("tr", {}, h("th", { scope: "col", text: t("hattrick.player") }),
    sheet.map((_, i) => h("th", { scope: "col", class: "num", text: t("hattrick.dealN", { n: i + 1 }) })),
    running ? h("th", { scope: "col", class: "num", text: t("hattrick.thisDeal") }) : null,
    h("th", { scope: "col", class: "num", text: t("hattrick.total") }));
  const rows = (table.hand_sizes || []).map((_, seat) => h("tr", { class: seat === view.your_seat ? "mine" : "" },
    h("th", { scope: "row", text: name(seat) }),
    sheet.map((scores) => h("td", { class: "num", text: signed(scores[seat]) })),
    running ? h("td", { class: "num", text: signed(table.deal_scores[seat]) }) : null,
    // The match score counts finished deals only: the sum of the sheet, from the table alone.
    h("td", { class: "num total", text: signed(sheet.reduce((total, scores) => total + scores[seat], 0)) })));
  return h("section", { class: "block", "aria-labelledby": "ht-sheet" },
    h("h2", { id: "ht-sheet", text: t("hattrick.sheet") }),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "ht-sheet" },
      h("table", { class: "ht-sheet sheet" }, h("thead", {}, head), h("tbody", {}, rows))));
}

// The paced reveal: each card of the others in turn, a completed trick held (see ../../pacing.js).
export function stages(prev, view, events) {
  return tricksStages(prev, events, {
    plays: ["played", "passed"], done: ["trick_taken"], ends: ["deal_ended", "game_over"],
    entry: (event) => ({ card: event.card, passed: event.type === "passed" }),
    leaderAfter: (event) => event.next_leader,
    showTrick: (before, trick, leader) => between(before, { trick, leader,
      trick_colours: [...new Set(trick.filter((e) => !e.passed).map((e) => split(e.card).colour))] }),
  });
}

// Between two deals: how the one just played ended, before the next is shown.
export function summary(prev, view, ctx) {
  const end = (view.table || {}).previous_deal;
  if (view.deal === prev.deal || !end) return null;
  addStyles("hattrick-style", STYLE);
  return h("div", { class: "hattrick" }, dealEndSection(end, (seat) => ctx.seatName(seat), view, "ht-summary"));
}

export function status(view) {
  const table = view.table || {};
  const colours = table.trick_colours || [];
  const legal = view.legal_actions || [];
  if (!(table.trick || []).length) return t("hattrick.statusLead");
  if (colours.length < 2) return t("hattrick.statusAny");
  const words = { colours: colourWords(colours, "hattrick.or"), third: `${SYMBOL[thirdColour(colours)]} ${colourName(thirdColour(colours))}` };
  if (legal.every((a) => a.type === "pass")) return t("hattrick.statusMustPass", words);
  return t(legal.some((a) => a.type === "pass") ? "hattrick.statusTwo" : "hattrick.statusNoPass", words);
}

export function seatNote(view, seat) {
  return view.status === "active" && (view.table || {}).dealer === seat ? t("hattrick.dealer") : "";
}

// One line of the game log per event (the events are described in rules/hattrick/shapes.py).
export function describeEvent(event, ctx) {
  const name = (seat) => ctx.seatName(seat);
  switch (event.type) {
    case "played": return seatLine("hattrick.ev.played", event.seat, ctx, { card: cardLabel(event.card) });
    case "passed": return seatLine("hattrick.ev.passed", event.seat, ctx, { card: cardLabel(event.card) });
    case "trick_taken": return t("hattrick.ev.trick", { leader: name(event.next_leader),
      took: event.taken.map((part) => seatLine("hattrick.ev.took", part.seat, ctx, { colour: colourName(part.colour),
        cards: cardList(part.cards) })).join("; ") });
    case "deal_ended": return t("hattrick.ev.dealEnded", { deal: event.deal,
      scores: event.scores.map((score, seat) => t("hattrick.ev.score", { name: name(seat), score: signed(score) })).join(", ") });
    case "dealt": return t("hattrick.ev.dealt", { deal: event.deal, dealer: name(event.dealer), leader: name(event.leader) });
    case "game_over": return t("hattrick.ev.gameOver", { names: listNames(event.winners.map(name)) });
    default: return null;
  }
}

// A card played to a trick stays there: the shell asks a new player to confirm it.
const FOR_GOOD = new Set(["play", "pass"]);
export function playsForGood(action) {
  return FOR_GOOD.has(action.type);
}

// A move in words, for the replay.
export function actionLabel(action) {
  switch (action.type) {
    case "play": return t("hattrick.act.play", { card: cardLabel(action.card) });
    case "pass": return t("hattrick.act.pass", { card: cardLabel(action.card) });
    default: return null;
  }
}
