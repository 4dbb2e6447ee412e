// Hattrick renderer: the double trick, the hand by colour (play or pass), last trick,
// collected piles and passed cards, the end of the last deal and the score sheet.
// Contract: see ../README.md. view.table and the events: their JSON Schema in rules/hattrick/shapes.py.
import { t, addStrings, listNames, seatLine } from "../../i18n.js";
import { h, on, addStyles } from "../../ui.js";
import { tricksStages, between } from "../../pacing.js";

addStrings("en", {
  "about.hattrick": "Tricks in three colours: collect one colour, dodge the others, or pass at a price. 4–7 players.",
  "hattrick.opt.deals": "Deals in the match",
  "hattrick.colour.red": "red",
  "hattrick.colour.blue": "blue",
  "hattrick.colour.green": "green",
  "hattrick.card": "{colour} {value}",
  "hattrick.play": "Play {card}",
  "hattrick.pass": "Pass with {card}",
  "hattrick.notNow": "{card}, not playable now",
  "hattrick.dealInfo": "Deal {deal} of {deals}",
  "hattrick.dealerLeader": "Dealer: {dealer} · leader: {leader}",
  "hattrick.trick": "Trick",
  "hattrick.leadAny": "Leader: {name}. Any card may be led.",
  "hattrick.oneColour": "One colour so far: any card may follow.",
  "hattrick.twoColours": "Two colours: {colours}. Play one of them, or pass with a {third} card (−2).",
  "hattrick.passed": "passed",
  "hattrick.passTag": "pass",
  "hattrick.inTrick": "{name}: {card}",
  "hattrick.inTrickPassed": "{name}: passed with {card}",
  "hattrick.waiting": "{name}: not yet",
  "hattrick.hand": "Your hand",
  "hattrick.handNote": "The last card is set aside unplayed.",
  "hattrick.handEmpty": "No cards in hand.",
  "hattrick.lastTrick": "Last trick",
  "hattrick.took": "{name} took {colour}: {cards}",
  "hattrick.tookYou": "You took {colour}: {cards}",
  "hattrick.nextLeader": "Next leader: {name}.",
  "hattrick.piles": "Collected cards",
  "hattrick.player": "Player",
  "hattrick.passedCol": "Passed",
  "hattrick.dealCol": "Deal",
  "hattrick.passedCards": "passed",
  "hattrick.sheet": "Score sheet",
  "hattrick.dealN": "Deal {n}",
  "hattrick.thisDeal": "This deal",
  "hattrick.total": "Total",
  "hattrick.dealEnded": "End of deal {deal}",
  "hattrick.setAside": "{name}: set aside {card}, scored {score}",
  "hattrick.scoreSum": "{best} {colour} − {others} other cards − 2 × {passed} passed",
  "hattrick.pilesOf": "Collected cards in deal {deal}",
  "hattrick.statusLead": "Your turn: lead any card",
  "hattrick.statusAny": "Your turn: play any card",
  "hattrick.statusTwo": "Your turn: play {colours}, or pass with {third}",
  "hattrick.statusNoPass": "Your turn: play {colours}",
  "hattrick.statusMustPass": "Your turn: no {colours} card — pass with {third}",
  "hattrick.or": " or ",
  "hattrick.and": " and ",
  "hattrick.dealer": "dealer",
  "hattrick.ev.played": "{name} played {card}",
  "hattrick.ev.playedYou": "You played {card}",
  "hattrick.ev.passed": "{name} passed with {card} (−2)",
  "hattrick.ev.passedYou": "You passed with {card} (−2)",
  "hattrick.ev.trick": "{took}. Next leader: {leader}.",
  "hattrick.ev.took": "{name} took {colour} ({cards})",
  "hattrick.ev.tookYou": "You took {colour} ({cards})",
  "hattrick.ev.dealEnded": "Deal {deal} over: {scores}",
  "hattrick.ev.score": "{name} {score}",
  "hattrick.ev.dealt": "Deal {deal} dealt. Dealer: {dealer}, leader: {leader}",
  "hattrick.ev.gameOver": "Game over: {names} won",
});

addStrings("fi", {
  "about.hattrick": "Tikkejä kolmessa värissä: kerää yhtä väriä, väistä muita tai passaa hintaa vastaan. 4–7 pelaajaa.",
  "hattrick.opt.deals": "Jakoja ottelussa",
  "hattrick.colour.red": "punainen",
  "hattrick.colour.blue": "sininen",
  "hattrick.colour.green": "vihreä",
  "hattrick.card": "{colour} {value}",
  "hattrick.play": "Pelaa {card}",
  "hattrick.pass": "Passaa kortilla {card}",
  "hattrick.notNow": "{card}, ei pelattavissa nyt",
  "hattrick.dealInfo": "Jako {deal}/{deals}",
  "hattrick.dealerLeader": "Jakaja: {dealer} · aloittaja: {leader}",
  "hattrick.trick": "Tikki",
  "hattrick.leadAny": "Aloittaja: {name}. Mikä tahansa kortti käy.",
  "hattrick.oneColour": "Vasta yksi väri: mikä tahansa kortti käy.",
  "hattrick.twoColours": "Kaksi väriä: {colours}. Pelaa jompaakumpaa tai passaa kolmannen värin kortilla ({third}, −2).",
  "hattrick.passed": "passasi",
  "hattrick.passTag": "passaa",
  "hattrick.inTrick": "{name}: {card}",
  "hattrick.inTrickPassed": "{name}: passasi kortilla {card}",
  "hattrick.waiting": "{name}: ei vielä",
  "hattrick.hand": "Kätesi",
  "hattrick.handNote": "Viimeinen kortti jää pelaamatta sivuun.",
  "hattrick.handEmpty": "Ei kortteja kädessä.",
  "hattrick.lastTrick": "Edellinen tikki",
  "hattrick.took": "{name} otti värin {colour}: {cards}",
  "hattrick.tookYou": "Otit värin {colour}: {cards}",
  "hattrick.nextLeader": "Seuraava aloittaja: {name}.",
  "hattrick.piles": "Kerätyt kortit",
  "hattrick.player": "Pelaaja",
  "hattrick.passedCol": "Passatut",
  "hattrick.dealCol": "Jako",
  "hattrick.passedCards": "passatut",
  "hattrick.sheet": "Pistetaulukko",
  "hattrick.dealN": "Jako {n}",
  "hattrick.thisDeal": "Tämä jako",
  "hattrick.total": "Yhteensä",
  "hattrick.dealEnded": "Jako {deal} päättyi",
  "hattrick.setAside": "{name}: sivuun {card}, pisteet {score}",
  "hattrick.scoreSum": "{best} {colour} − {others} muuta korttia − 2 × {passed} passattua",
  "hattrick.pilesOf": "Kerätyt kortit jaossa {deal}",
  "hattrick.statusLead": "Vuorosi: aloita millä tahansa kortilla",
  "hattrick.statusAny": "Vuorosi: pelaa mikä tahansa kortti",
  "hattrick.statusTwo": "Vuorosi: pelaa {colours} tai passaa ({third})",
  "hattrick.statusNoPass": "Vuorosi: pelaa {colours}",
  "hattrick.statusMustPass": "Vuorosi: ei korttia ({colours}) — passaa ({third})",
  "hattrick.or": " tai ",
  "hattrick.and": " ja ",
  "hattrick.dealer": "jakaja",
  "hattrick.ev.played": "{name} pelasi: {card}",
  "hattrick.ev.playedYou": "Pelasit: {card}",
  "hattrick.ev.passed": "{name} passasi kortilla {card} (−2)",
  "hattrick.ev.passedYou": "Passasit kortilla {card} (−2)",
  "hattrick.ev.trick": "{took}. Seuraava aloittaja: {leader}.",
  "hattrick.ev.took": "{name} otti värin {colour} ({cards})",
  "hattrick.ev.tookYou": "Otit värin {colour} ({cards})",
  "hattrick.ev.dealEnded": "Jako {deal} päättyi: {scores}",
  "hattrick.ev.score": "{name} {score}",
  "hattrick.ev.dealt": "Jako {deal} jaettu. Jakaja: {dealer}, aloittaja: {leader}",
  "hattrick.ev.gameOver": "Peli päättyi: voittaja {names}",
});

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

// The styles live with the module (the shell's stylesheet stays game-neutral): injected once.
const STYLE = `
.hattrick { --ht-red: #b3261e; --ht-red-bg: #fde7e4; --ht-blue: #1a56a8; --ht-blue-bg: #e1ecfb;
  --ht-green: #1e6b34; --ht-green-bg: #e0f2e4; }
@media (prefers-color-scheme: dark) {
  .hattrick { --ht-red: #ffb4ab; --ht-red-bg: #4a1f1c; --ht-blue: #a8c8ff; --ht-blue-bg: #1b2f4d;
    --ht-green: #9fdcaf; --ht-green-bg: #173d25; }
}
.hattrick .ht-info { margin: .25rem 0; color: var(--muted); }
.hattrick h2 { margin: .9rem 0 .4rem; }
.hattrick .hc { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  min-width: 0; border-radius: 6px; border: 2px solid currentColor; line-height: 1; font-weight: 800;
  font-variant-numeric: tabular-nums; }
.hattrick .hc-red { color: var(--ht-red); background: var(--ht-red-bg); }
.hattrick .hc-blue { color: var(--ht-blue); background: var(--ht-blue-bg); }
.hattrick .hc-green { color: var(--ht-green); background: var(--ht-green-bg); }
.hattrick .hc-sym { font-size: .85em; }
.hattrick .hc-num { font-size: 1.2em; }
.hattrick .hc-tag { font-size: .62rem; font-weight: 700; text-transform: uppercase; margin-top: 2px; }
.hattrick .hc.face-down { border-style: dashed; opacity: .8; }
.hattrick .ht-felt { background: var(--felt); color: #fff; border-radius: var(--radius); padding: .45rem; }
.hattrick .ht-felt p { margin: 0 0 .4rem; }
.hattrick .ht-slots { list-style: none; margin: 0; padding: 0; display: grid; gap: .35rem;
  grid-template-columns: repeat(auto-fit, minmax(3.6rem, 1fr)); }
.hattrick .ht-slot { display: flex; flex-direction: column; align-items: center; gap: .2rem; min-width: 0; }
.hattrick .ht-slot .hc { width: 100%; max-width: 3.6rem; aspect-ratio: 5 / 7; font-size: 1.05rem; }
.hattrick .ht-slot .ht-empty { width: 100%; max-width: 3.6rem; aspect-ratio: 5 / 7; border-radius: 6px;
  border: 2px dashed rgba(255,255,255,.45); display: flex; align-items: center; justify-content: center;
  font-size: 1.3rem; font-weight: 700; }
.hattrick .ht-slot.next .ht-empty { border-color: #ffd54a; color: #ffd54a; font-weight: 700; }
.hattrick .ht-slot .short-name { font-size: .75rem; white-space: nowrap; }
.hattrick .ht-chips { display: flex; flex-wrap: wrap; gap: .3rem; margin: 0 0 .4rem; }
.hattrick .ht-chip { display: inline-flex; gap: .25rem; align-items: center; padding: .05rem .5rem; border-radius: 99px;
  border: 2px solid currentColor; font-weight: 700; }
.hattrick .ht-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(44px, 1fr)); gap: .3rem; }
.hattrick .ht-card-button { padding: 0; border: none; background: none; min-height: 56px; min-width: 44px;
  border-radius: 8px; display: flex; }
.hattrick .ht-card-button .hc { width: 100%; min-height: 56px; font-size: 1.05rem; border-width: 3px;
  box-shadow: 0 3px 0 currentColor; }
.hattrick .ht-card-button:not(:disabled):active .hc { transform: translateY(2px); box-shadow: 0 1px 0 currentColor; }
.hattrick .ht-card-button:disabled .hc { border-width: 1px; box-shadow: none; opacity: .55; margin-top: 3px; }
.hattrick .ht-card-button.pass .hc { border-style: dashed; }
.hattrick .ht-card-button.pending .hc { outline: 3px solid var(--focus); outline-offset: 2px; }
.hattrick .ht-small { display: inline-flex; flex-direction: row; gap: 1px; padding: .05rem .3rem; font-size: .85rem; border-width: 1px; }
.hattrick .ht-list { list-style: none; padding: 0; margin: 0; display: grid; gap: .3rem; }
.hattrick .ht-list li { display: flex; flex-wrap: wrap; align-items: center; gap: .3rem .4rem; }
.hattrick .ht-name { font-weight: 600; }
/* A mark and its sentence stay on one line; the sentence wraps beside the mark. */
.hattrick .ht-list li.ht-line { flex-wrap: nowrap; align-items: flex-start; }
.hattrick .ht-list li.ht-took { font-weight: 600; }
.hattrick table { font-size: .95rem; }
.hattrick th, .hattrick td { padding: .3rem .3rem; }
.hattrick td.num, .hattrick th.num { text-align: right; }
.hattrick tr.mine th { text-decoration: underline; }
.hattrick td.total { font-weight: 700; }
`;
// A card's face: colour, symbol and number; decorative, the names carry the meaning.
function face(card, extra = "", tag = "") {
  const { colour, value } = split(card);
  return h("span", { class: `hc hc-${colour} ${extra}`, "aria-hidden": "true" },
    h("span", { class: "hc-sym", text: SYMBOL[colour] }), h("span", { class: "hc-num", text: String(value) }),
    tag ? h("span", { class: "hc-tag", text: tag }) : null);
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
  if (view.status !== "finished") {
    root.append(trickSection(table, name, ctx.nameTag));
    if (view.your_seat !== null && view.your_seat !== undefined) root.append(handSection(view, act));
  }
  if (table.last_trick) root.append(lastTrickSection(table.last_trick, name, ctx));
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

function trickSection(table, name, nameTag) {
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
    h("div", { class: "ht-felt", "data-part": "table" }, h("p", { text: rule }), slots));
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
    others: collected - pile[best].length, passed: passed.length });
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
