// Sticheln renderer: pain-card choice, the trick, the hand by colour, collected cards, score sheet.
// Contract: see ../README.md. view.table and the events: their JSON Schema in rules/sticheln/shapes.py.
import { t, tn, addLanguages, listNames, seatLine } from "../../i18n.js";
import { h, on, addStyles, styleText } from "../../ui.js";
import { tricksStages, between } from "../../pacing.js";
import strings from "./strings.js";

addLanguages(strings);

// Colour order of the rules; each colour also has a symbol, so colour is never the only cue.
const COLORS = ["blue", "red", "green", "yellow", "purple", "brown"];
const SYMBOL = { blue: "●", red: "♥", green: "♣", yellow: "★", purple: "◆", brown: "■" };

const parse = (card) => { const [color, value] = card.split("-"); return { color, value: Number(value) }; };
const order = (card) => { const { color, value } = parse(card); return COLORS.indexOf(color) * 100 + value; };
const sorted = (cards) => [...cards].sort((a, b) => order(a) - order(b));
const colorName = (color) => t(`sticheln.color.${color}`);
const cardName = (card) => { const { color, value } = parse(card); return t("sticheln.card", { color: colorName(color), value }); };
const colorList = (colors) => colors.map((c) => `${SYMBOL[c]} ${colorName(c)}`).join(", ");

// The game's styles, its folder's style.css, added once: the shell's styles.css stays
// untouched. Card inks keep 4.5:1 contrast on their pastel faces, which stay light in dark mode
// like real cards.
const CSS = await styleText(new URL("./style.css", import.meta.url));

// A card's face: symbol and number on the colour's face; its name is given by the caller.
function face(card, small = false) {
  const { color, value } = parse(card);
  return h("span", { class: `st-card st-${color}${small ? " small" : ""}`, "aria-hidden": "true" },
    h("span", { class: "st-sym", text: SYMBOL[color] }), h("span", { class: "st-num", text: String(value) }));
}

// A card shown but not actionable: a face with its name for screen readers.
function shown(card, small = true) {
  return h("span", { class: "st-shown" }, face(card, small), h("span", { class: "visually-hidden", text: cardName(card) }));
}

function cardButton(card, label, onClick, extra = {}) {
  const button = h("button", { type: "button", class: `st-btn${extra.down ? " down" : ""}`, "data-focus-key": `card-${card}`,
    disabled: !onClick, "aria-pressed": extra.pressed === undefined ? null : String(extra.pressed) },
    face(card), h("span", { class: "visually-hidden", text: label }));
  if (onClick) on(button, "click", onClick);
  return button;
}

// The cards in one grid sorted by colour (each face has its colour's symbol), so a hand of
// 15 fits in two or three rows beside the trick.
function cardGrid(cards, make) {
  return h("div", { class: "st-hand-grid", "data-part": "hand" }, sorted(cards).map(make));
}

export function render(view, act, ctx) {
  addStyles("sticheln-styles", CSS);
  const table = view.table || {};
  const me = view.your_seat;
  const seated = me !== null && me !== undefined;
  const legal = view.legal_actions || [];
  const lucky = (table.variants || []).includes("reverse");
  const root = h("div", { class: "sticheln" });
  const send = (action) => act(action).catch(() => {});

  // Each variant in play said in words, as the new-game form offered it.
  const variants = (table.variants || []).map((v) => t(`sticheln.opt.${v}`));
  root.append(h("p", { class: "st-info" },
    h("span", { class: "st-deal", text: t("sticheln.dealInfo", { deal: view.deal, deals: table.deals,
      trick: Math.min(table.tricks_played + 1, table.tricks_per_deal), tricks: table.tricks_per_deal }) }),
    variants.flatMap((text) => [h("br"), h("small", { class: "st-variant", text })])));

  if (view.status !== "finished" && view.phase === "choose" && seated) root.append(choosePanel(view, table, legal, lucky, send, ctx));
  if (view.status !== "finished" && view.phase === "name" && seated) root.append(namePanel(view, table, legal, lucky, send));
  if (view.phase === "play" || view.phase === "over" || table.last_trick) root.append(trickPanel(view, table, ctx));
  // Playing a card moves on from the trick taken before it (see trickPanel).
  const play = (action) => { ctx.ui.seenTrick = trickKey(table.last_trick); send(action); };
  if (seated && view.status !== "finished" && view.phase === "play") root.append(handPanel(view, legal, play));
  if ((table.leftover || []).length) {
    root.append(h("section", { class: "block", "aria-labelledby": "st-left" },
      h("h2", { id: "st-left", text: t("sticheln.leftover") }),
      h("div", { class: "st-group" }, table.leftover.map((card) => shown(card)))));
  }
  root.append(seatsPanel(view, table, ctx, lucky));
  if (table.previous_deal && view.status !== "finished") root.append(previousPanel(view, table.previous_deal, ctx, lucky));
  root.append(scoreSheet(view, table, ctx));
  return root;
}

// Under "tough" the two cards picked so far are kept in the page's UI state (ctx.ui) for as
// long as the same choice is open; each pick draws the table again.
function choosePanel(view, table, legal, lucky, send, ctx) {
  const me = view.your_seat;
  const tough = (table.variants || []).includes("tough");
  const down = (table.pain || [])[me] || [];
  const pool = sorted([...(view.hand || []), ...down]);
  const help = tough ? "sticheln.chooseHelpTough" : (lucky ? "sticheln.chooseHelpLucky" : "sticheln.chooseHelp");
  const key = `${view.id}:${view.deal}:${down.join(",")}`;
  if (!ctx.ui.picked || ctx.ui.picked.key !== key) ctx.ui.picked = { key, cards: [] };
  const picked = ctx.ui.picked;
  let buttons;
  if (!tough) {
    const allowed = new Set(legal.filter((a) => a.type === "choose_pain").map((a) => a.card));
    buttons = cardGrid(pool, (card) => down.includes(card)
      ? cardButton(card, t("sticheln.yourDown", { card: cardName(card) }), null, { down: true })
      : cardButton(card, t("sticheln.putDown", { card: cardName(card) }),
        allowed.has(card) ? () => send({ type: "choose_pain", card }) : null));
  } else {
    const pairs = legal.filter((a) => a.type === "choose_pain" && a.cards).map((a) => a.cards);
    const usable = new Set(pairs.flat());
    const pick = (card) => () => {
      const first = picked.cards[0];
      if (picked.cards.includes(card)) picked.cards = picked.cards.filter((c) => c !== card);
      else if (first && parse(first).color !== parse(card).color) picked.cards = [first, card];
      else picked.cards = [card];
      const pair = picked.cards.length === 2 && pairs.find((p) => p.every((c) => picked.cards.includes(c)));
      if (pair) { picked.cards = []; send({ type: "choose_pain", cards: pair }); return; }
      ctx.redraw();
    };
    buttons = cardGrid(pool, (card) => cardButton(card,
      down.includes(card) ? t("sticheln.yourDown", { card: cardName(card) }) : t("sticheln.select", { card: cardName(card) }),
      usable.has(card) ? pick(card) : null, { pressed: picked.cards.includes(card), down: down.includes(card) }));
  }
  return h("section", { class: "block", "aria-labelledby": "st-choose" },
    h("h2", { id: "st-choose", text: t(lucky ? "sticheln.chooseTitleLucky" : "sticheln.chooseTitle") }),
    h("p", { text: `${t(help)} ${t("sticheln.changeHelp")}` }),
    down.length ? h("p", { class: "st-choice", text: t("sticheln.yourChoice", { cards: down.map(cardName).join(", ") }) }) : null,
    picked.cards.length === 1 ? h("p", { role: "status", text: t("sticheln.picked", { card: cardName(picked.cards[0]) }) }) : null,
    buttons);
}

function namePanel(view, table, legal, lucky, send) {
  const me = view.your_seat;
  const named = (table.pain_colors || [])[me];
  const options = legal.filter((a) => a.type === "name_pain");
  const won = Object.entries((table.collected || [])[me] || {}).filter(([, cards]) => cards.length);
  const label = (a) => a.color ? t("sticheln.name1", { color: colorName(a.color) })
    : a.colors.length === 1 ? t("sticheln.name1", { color: colorName(a.colors[0]) })
      : t("sticheln.name2", { a: colorName(a.colors[0]), b: colorName(a.colors[1]) });
  const marks = (a) => (a.colors || [a.color]).map((c) => SYMBOL[c]).join(" ");
  return h("section", { class: "block", "aria-labelledby": "st-name" },
    h("h2", { id: "st-name", text: t(lucky ? "sticheln.nameTitleLucky" : "sticheln.nameTitle") }),
    won.length ? h("p", { text: t("sticheln.nameHelp") }) : h("p", { text: t("sticheln.nothingToName") }),
    named ? h("p", { class: "st-choice", text: t("sticheln.yourNamed", { colors: colorList(named) }) }) : null,
    h("div", { class: "st-names" }, options.map((a) => h("button", { type: "button",
      "data-focus-key": `name-${(a.colors || [a.color]).join("-")}`, onclick: () => send(a) },
    h("span", { "aria-hidden": "true", text: `${marks(a)} ` }), label(a)))));
}

const trickKey = (trick) => (trick ? JSON.stringify(trick.cards) : null);

function trickPanel(view, table, ctx) {
  const trick = table.trick || [];
  const led = table.led_color;
  // A trick kept beside the next lead is drawn small, without names (its line says who took it).
  const entry = (e, win, kept = false) => h("li", { class: win ? "win" : "", "data-card": e.card }, face(e.card, true),
    kept ? null : ctx.nameTag(e.seat), win ? h("span", { class: "st-took-tag", "aria-hidden": "true", text: t("sticheln.tookTag") }) : null,
    h("span", { class: "visually-hidden", text: t("sticheln.trickEntry", { name: ctx.seatName(e.seat), card: cardName(e.card) }) }));
  const last = table.last_trick;
  return h("section", { class: "block", "aria-labelledby": "st-trick" },
    h("h2", { id: "st-trick", text: t("sticheln.trick") }),
    h("div", { class: "st-felt", "data-part": "table" },
      led ? h("p", { class: "st-led", text: t("sticheln.led", { color: `${SYMBOL[led]} ${colorName(led)}` }) })
        : (view.phase === "play" ? h("p", { text: seatLine("sticheln.trickEmpty", table.leader, ctx) }) : null),
      trick.length ? h("ul", { class: "st-trick" }, trick.map((e) => entry(e, false))) : null,
      // A completed trick stays on the table until the next card is led, and after that until
      // the player plays (or hides it): the next lead of another seat does not take it away unseen.
      last && (!trick.length || ctx.ui.seenTrick !== trickKey(last)) ? h("div", { class: "st-last" },
        h("ul", { class: `st-trick${trick.length ? " st-kept" : ""}` }, last.cards.map((e) => entry(e, e.seat === last.winner, trick.length > 0))),
        h("p", { class: "st-took", text: seatLine("sticheln.tookWith", last.winner, ctx,
          { card: cardName(last.cards.find((e) => e.seat === last.winner).card) }) }),
        trick.length ? hideButton(last, ctx) : null) : null));
}

function hideButton(last, ctx) {
  const button = h("button", { type: "button", class: "st-seen", "data-focus-key": "seen-trick", text: t("sticheln.seenTrick") });
  on(button, "click", () => { ctx.ui.seenTrick = trickKey(last); ctx.redraw(); });
  return button;
}

function handPanel(view, legal, send) {
  const hand = view.hand || [];
  const playable = new Set(legal.filter((a) => a.type === "play").map((a) => a.card));
  return h("section", { class: "block hand", "aria-labelledby": "st-hand" },
    h("h2", { id: "st-hand", text: t("sticheln.hand") }),
    hand.length ? cardGrid(hand, (card) => cardButton(card,
      playable.has(card) ? t("sticheln.play", { card: cardName(card) }) : cardName(card),
      playable.has(card) ? () => send({ type: "play", card }) : null))
      : h("p", { class: "muted", text: t("sticheln.handEmpty") }));
}

// One line per colour a seat won: symbol and values; the seat's pain colours stand out.
function wonLine(byColor, pain) {
  const entries = Object.entries(byColor || {}).filter(([, cards]) => cards.length);
  if (!entries.length) return h("div", { class: "st-won muted", text: t("sticheln.nothingWon") });
  return h("div", { class: "st-won" }, entries.map(([color, cards]) => h("span", { class: `st-${color}${pain && pain.includes(color) ? " hurts" : ""}` },
    h("span", { class: "st-chip", text: `${SYMBOL[color]} ${colorName(color)}` }), " ",
    cards.map((c) => parse(c).value).join(" "))));
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

// How a seat's deal score adds up in the rules' terms (rules/sticheln/cards.py): each card of
// another colour ±1, each pain (lucky) card its value (5 when mild), the cards put down included.
function scoreSum(down, byColor, painColors, variants, score) {
  const reverse = variants.includes("reverse");
  const pain = (card) => painColors.includes(parse(card).color);
  const worth = (card) => {
    const points = variants.includes("mild") ? 5 : parse(card).value;
    return reverse ? points : -points;
  };
  const won = sorted(Object.values(byColor || {}).flat());
  const plain = [...down, ...won].filter((card) => !pain(card)).length;
  const parts = [
    plain ? tn("sticheln.sumPlain", plain, { each: signed(reverse ? -1 : 1) }) : null,
    ...down.filter(pain).map((card) => t("sticheln.sumDown", { card: cardName(card), points: signed(worth(card)) })),
    ...won.filter(pain).map((card) => t("sticheln.sumCard", { card: cardName(card), points: signed(worth(card)) })),
  ].filter(Boolean);
  return h("div", { class: "st-sum", text: t("sticheln.sum", { parts: parts.join(", ") || "0", score: signed(score) }) });
}

function painText(table, seat, lucky, view) {
  const kind = t(lucky ? "sticheln.lucky" : "sticheln.pain");
  const colors = (table.pain_colors || [])[seat];
  if (colors) return t("sticheln.painColors", { kind, colors: colorList(colors) });
  if (view.phase === "over") return t("sticheln.none", { kind });
  if (view.phase === "play" && (table.variants || []).includes("dark")) return t("sticheln.hidden", { kind });
  if ((table.chosen || [])[seat]) return t("sticheln.secret", { kind });
  return t("sticheln.notYet", { kind });
}

function seatsPanel(view, table, ctx, lucky) {
  return h("section", { class: "block", "aria-labelledby": "st-seats" },
    h("h2", { id: "st-seats", text: t("sticheln.players") }),
    h("ul", { class: "st-seats" }, view.seats.map(({ seat }) => {
      const score = (table.deal_score || [])[seat];
      return h("li", { class: `st-seat${seat === view.your_seat ? " mine" : ""}` },
        h("div", { class: "st-seat-head" }, h("strong", { text: ctx.seatName(seat) }),
          h("span", { text: tn("sticheln.collected", (table.collected_count || [])[seat] ?? 0) }),
          score === null || score === undefined ? null : h("span", { text: t("sticheln.dealScore", { score }) })),
        h("div", { class: "st-pain", text: painText(table, seat, lucky, view) }),
        wonLine((table.collected || [])[seat], (table.pain_colors || [])[seat]),
        score === null || score === undefined || !(table.pain_colors || [])[seat] ? null
          : scoreSum((table.pain || [])[seat] || [], (table.collected || [])[seat], table.pain_colors[seat], table.variants || [], score));
    })));
}

function previousPanel(view, previous, ctx, lucky) {
  // Open while the new deal has not got going, so the result is seen first.
  const fresh = (view.table.tricks_played || 0) === 0 && !(view.table.trick || []).length;
  return h("details", { class: "block st-previous", open: fresh },
    h("summary", { text: t("sticheln.previous", { deal: previous.deal }) }), previousList(view, previous, ctx, lucky));
}

function previousList(view, previous, ctx, lucky) {
  const kind = t(lucky ? "sticheln.lucky" : "sticheln.pain");
  return h("ul", { class: "st-seats" }, view.seats.map(({ seat }) => h("li", { class: "st-seat" },
      h("div", { class: "st-seat-head" }, h("strong", { text: ctx.seatName(seat) }),
        h("span", { text: String(previous.scores[seat]) })),
      h("div", { class: "st-pain", text: previous.pain_colors[seat]
        ? t("sticheln.painColors", { kind, colors: colorList(previous.pain_colors[seat]) }) : t("sticheln.none", { kind }) }),
      wonLine(previous.collected[seat], previous.pain_colors[seat]),
      scoreSum(previous.pain[seat] || [], previous.collected[seat], previous.pain_colors[seat] || [],
        view.table.variants || [], previous.scores[seat]))));
}

// The paced reveal: each card of the others in turn, a completed trick held (see ../../pacing.js).
export function stages(prev, view, events) {
  return tricksStages(prev, events, {
    plays: ["played"], done: ["trick_won"], ends: ["deal_end", "game_over"],
    entry: (event) => ({ seat: event.seat, card: event.card }),
    leaderAfter: (event) => event.winner,
    showTrick: (before, trick, leader) => between(before,
      { trick, leader, turn: null, led_color: parse(trick[0].card).color }, { phase: "play" }),
    showTaken: (before, event) => between(before, { trick: [], leader: event.winner, turn: null, led_color: null,
      last_trick: { winner: event.winner, cards: event.cards } }, { phase: "play" }),
  });
}

// Between two deals: the result of the one just played, before the next is shown.
export function summary(prev, view, ctx) {
  const previous = (view.table || {}).previous_deal;
  if (view.deal === prev.deal || !previous) return null;
  addStyles("sticheln-styles", CSS);
  return h("section", { class: "sticheln" }, h("h2", { text: t("sticheln.previous", { deal: previous.deal }) }),
    previousList(view, previous, ctx, (view.table.variants || []).includes("reverse")));
}

function scoreSheet(view, table, ctx) {
  const rows = table.deal_scores || [];
  const running = view.status !== "finished" && (table.deal_score || []).some((s) => s !== null);
  const head = h("tr", {}, h("th", { scope: "col", text: t("sticheln.player") }),
    rows.map((_, i) => h("th", { scope: "col", text: t("sticheln.dealN", { n: i + 1 }) })),
    running ? h("th", { scope: "col", text: t("sticheln.now") }) : null,
    h("th", { scope: "col", text: t("sticheln.total") }));
  const body = view.seats.map(({ seat }) => h("tr", { class: seat === view.your_seat ? "mine" : "" },
    h("th", { scope: "row", text: ctx.seatName(seat) }),
    rows.map((scores) => h("td", { text: String(scores[seat]) })),
    running ? h("td", { text: table.deal_score[seat] === null ? "?" : String(table.deal_score[seat]) }) : null,
    h("td", { class: "total", text: String(view.seats[seat].score ?? 0) })));
  return h("section", { class: "block" },
    h("h2", { id: "st-sheet", text: t("sticheln.sheet") }),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "st-sheet" },
      h("table", { class: "st-sheet sheet" }, h("thead", {}, head), h("tbody", {}, body))));
}

export function status(view) {
  const variants = (view.table || {}).variants || [];
  if (view.phase === "choose") {
    if (variants.includes("tough")) return t("sticheln.statusChooseTough");
    return t(variants.includes("reverse") ? "sticheln.statusChooseLucky" : "sticheln.statusChoose");
  }
  if (view.phase === "name") return t("sticheln.statusName");
  return t("sticheln.statusPlay");
}

export function seatNote(view, seat) {
  const table = view.table || {};
  if ((view.phase === "choose" || view.phase === "name") && (table.chosen || [])[seat]) return t("sticheln.hasChosen");
  if (view.phase === "play" && table.turn === seat && !(table.trick || []).length) return t("sticheln.leads");
  return "";
}

export function describeEvent(event, ctx) {
  const name = (seat) => ctx.seatName(seat);
  const scores = (list) => list.map((score, seat) => t("sticheln.scoreOf", { name: name(seat), score })).join(", ");
  switch (event.type) {
    case "chose": return seatLine(`sticheln.log.${event.phase === "name" ? "named" : "chose"}${event.changed ? "Again" : ""}`,
      event.seat, ctx);
    case "choice": return event.cards ? t("sticheln.log.yourCards", { cards: event.cards.map(cardName).join(", ") })
      : t("sticheln.log.yourColors", { colors: colorList(event.colors) });
    case "all_chosen": return t(event.phase === "name" ? "sticheln.log.allNamed" : "sticheln.log.allChose");
    case "revealed": return t("sticheln.log.revealed", { list: event.pain_colors.map((colors, seat) =>
      `${name(seat)} ${colors ? colorList(colors) : "–"}`).join("; ") });
    case "played": return seatLine("sticheln.log.played", event.seat, ctx, { card: cardName(event.card) });
    case "trick_won": return seatLine("sticheln.log.trick", event.winner, ctx, { trick: event.trick,
      cards: event.cards.map((e) => cardName(e.card)).join(", ") });
    case "deal_end": return t("sticheln.log.dealEnd", { deal: event.deal, scores: scores(event.scores) });
    case "dealt": return t("sticheln.log.dealt", { deal: event.deal, dealer: name(event.dealer), leader: name(event.leader) });
    case "game_over": return t("sticheln.log.gameOver", { names: listNames(event.winners.map(name)) });
    default: return null;
  }
}

// A card played to a trick stays there: the shell asks a new player to confirm it.
const FOR_GOOD = new Set(["play"]);
export function playsForGood(action) {
  return FOR_GOOD.has(action.type);
}

// A move in words, for the replay.
export function actionLabel(action) {
  switch (action.type) {
    case "play": return t("sticheln.act.play", { card: cardName(action.card) });
    case "choose_pain": return t("sticheln.act.choose", { cards: (action.cards || [action.card]).map(cardName).join(", ") });
    case "name_pain": return t("sticheln.act.name", { colors: colorList(action.colors || [action.color]) });
    default: return null;
  }
}
