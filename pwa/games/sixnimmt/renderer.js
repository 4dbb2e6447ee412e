// 6 nimmt! renderer: rows, the turn's revealed cards, last turn, hand, cards played, penalties.
// Contract: see ../README.md. view.table and the events: their JSON Schema in rules/sixnimmt/shapes.py.
import { t, addStrings, seatLine } from "../../i18n.js";
import { h, on, addStyles } from "../../ui.js";
import { step, between } from "../../pacing.js";

addStrings("en", {
  // The replay's jump list (../../replay.js)
  "sixnimmt.replay.deal": "Round {deal}",
  "sixnimmt.replay.dealStart": "Round {deal}: start",
  "sixnimmt.replay.trick": "Turn {trick}",
  "about.sixnimmt": "Everyone plays a card at once; the sixth card in a row takes it. Fewest bullheads wins. 2–10 players.",
  "sixnimmt.opt.tactical_deck": "Tactical deck: only the cards 1 to 10 × players + 4",
  "sixnimmt.opt.draft": "Draft: take the round's cards one at a time, face up",
  "sixnimmt.opt.threshold": "The game ends at this many bullheads",
  "sixnimmt.bullheads": "{n} bullheads",
  "sixnimmt.bullhead": "{n} bullhead",
  "sixnimmt.play": "Play {card}, {heads}",
  "sixnimmt.card": "{card}, {heads}",
  "sixnimmt.draftCard": "Take {card}, {heads}",
  "sixnimmt.takeRow": "Take row {row}: {cards} — {heads}",
  "sixnimmt.row": "Row {row}: {cards} — {heads}",
  "sixnimmt.rowShort": "Row {row}",
  "sixnimmt.rowsTitle": "Rows",
  "sixnimmt.empty": "empty",
  "sixnimmt.roundTurn": "Round {round} · turn {turn} of 10",
  "sixnimmt.threshold": "game ends at {n}",
  "sixnimmt.thresholdLong": "The game ends after the round in which someone reaches {n} bullheads.",
  "sixnimmt.hand": "Your hand",
  "sixnimmt.handEmpty": "No cards in hand.",
  "sixnimmt.youChose": "You chose {card}. Waiting for the others.",
  "sixnimmt.youChoseChange": "You chose {card}. Until everyone has chosen, tap another card to play it instead.",
  "sixnimmt.change": "Play {card} instead, {heads}",
  "sixnimmt.revealed": "Cards of this turn",
  "sixnimmt.lastTurn": "Last turn",
  "sixnimmt.showPlayed": "Cards played ({n})",
  "sixnimmt.hidePlayed": "Hide cards played ({n})",
  "sixnimmt.playedNote": "Every card played this round, by number.",
  "sixnimmt.playedBy": "{card}: {name}, turn {turn}",
  "sixnimmt.placed": "{name}: {card} to row {row}",
  "sixnimmt.tookSixth": "{name}: {card} was the 6th card, took row {row} ({cards}) — {heads}",
  "sixnimmt.tookLow": "{name}: {card} was too low, took row {row} ({cards}) — {heads}",
  "sixnimmt.penalties": "Penalties by round",
  "sixnimmt.round": "Round",
  "sixnimmt.player": "Player",
  "sixnimmt.thisRound": "This round",
  "sixnimmt.taken": "Cards taken",
  "sixnimmt.total": "Total",
  "sixnimmt.roundN": "Round {n}",
  "sixnimmt.history": "Bullheads per round",
  "sixnimmt.draft": "Draft: face-up cards",
  "sixnimmt.draftWait": "{name} is taking a card.",
  "sixnimmt.statusChoose": "Your turn: choose a card",
  "sixnimmt.statusTakeRow": "Choose the row to take: your {card} is lower than every row",
  "sixnimmt.statusDraft": "Your turn: take a card from the display",
  "sixnimmt.hasChosen": "has chosen",
  "sixnimmt.mustTake": "{name} must choose a row to take",
  "sixnimmt.mustTakeYou": "You must choose a row to take",
  "sixnimmt.chooser": "{name} played {card}, lower than every row, and is choosing the row to take.",
  "sixnimmt.ev.drafted": "{name} took {card} from the display",
  "sixnimmt.ev.draftedYou": "You took {card} from the display",
  "sixnimmt.ev.chose": "{name} chose a card",
  "sixnimmt.ev.changed": "{name} changed their card",
  "sixnimmt.ev.choseYou": "You chose a card",
  "sixnimmt.ev.changedYou": "You changed your card",
  "sixnimmt.ev.revealed": "Cards revealed: {cards}",
  "sixnimmt.ev.placed": "{name} placed {card} in row {row}",
  "sixnimmt.ev.placedYou": "You placed {card} in row {row}",
  "sixnimmt.ev.took": "{name} took row {row} with {card}, {heads}",
  "sixnimmt.ev.tookYou": "You took row {row} with {card}, {heads}",
  "sixnimmt.ev.roundOver": "Round {round} is over",
  "sixnimmt.ev.dealt": "Round {round} dealt",
  "sixnimmt.ev.gameOver": "Game over",
});

addStrings("fi", {
  // The replay's jump list (../../replay.js)
  "sixnimmt.replay.deal": "Kierros {deal}",
  "sixnimmt.replay.dealStart": "Kierros {deal}: alku",
  "sixnimmt.replay.trick": "Vuoro {trick}",
  "about.sixnimmt": "Kaikki pelaavat kortin yhtä aikaa; rivin kuudes kortti vie rivin. Vähiten häränpäitä voittaa. 2–10 pelaajaa.",
  "sixnimmt.opt.tactical_deck": "Taktinen pakka: vain kortit 1–10 × pelaajat + 4",
  "sixnimmt.opt.draft": "Varaus: kierroksen kortit otetaan esiltä yksi kerrallaan",
  "sixnimmt.opt.threshold": "Peli päättyy, kun joku saa näin monta häränpäätä",
  "sixnimmt.bullheads": "{n} härkää",
  "sixnimmt.bullhead": "{n} härkä",
  "sixnimmt.play": "Pelaa {card}, {heads}",
  "sixnimmt.card": "{card}, {heads}",
  "sixnimmt.draftCard": "Ota {card}, {heads}",
  "sixnimmt.takeRow": "Ota rivi {row}: {cards} — {heads}",
  "sixnimmt.row": "Rivi {row}: {cards} — {heads}",
  "sixnimmt.rowShort": "Rivi {row}",
  "sixnimmt.rowsTitle": "Rivit",
  "sixnimmt.empty": "tyhjä",
  "sixnimmt.roundTurn": "Kierros {round} · vuoro {turn}/10",
  "sixnimmt.threshold": "peli päättyy {n}",
  "sixnimmt.thresholdLong": "Peli päättyy sen kierroksen jälkeen, jolla joku saavuttaa {n} härkää.",
  "sixnimmt.hand": "Kätesi",
  "sixnimmt.handEmpty": "Ei kortteja kädessä.",
  "sixnimmt.youChose": "Valitsit kortin {card}. Odotetaan muita.",
  "sixnimmt.youChoseChange": "Valitsit kortin {card}. Kunnes kaikki ovat valinneet, voit napauttaa toista korttia ja pelata sen.",
  "sixnimmt.change": "Pelaa sen sijaan {card}, {heads}",
  "sixnimmt.revealed": "Tämän vuoron kortit",
  "sixnimmt.lastTurn": "Edellinen vuoro",
  "sixnimmt.showPlayed": "Pelatut kortit ({n})",
  "sixnimmt.hidePlayed": "Piilota pelatut kortit ({n})",
  "sixnimmt.playedNote": "Kaikki tällä kierroksella pelatut kortit numerojärjestyksessä.",
  "sixnimmt.playedBy": "{card}: {name}, vuoro {turn}",
  "sixnimmt.placed": "{name}: {card} riviin {row}",
  "sixnimmt.tookSixth": "{name}: {card} oli kuudes kortti, otti rivin {row} ({cards}) — {heads}",
  "sixnimmt.tookLow": "{name}: {card} oli liian pieni, otti rivin {row} ({cards}) — {heads}",
  "sixnimmt.penalties": "Sakot kierroksittain",
  "sixnimmt.round": "Kierros",
  "sixnimmt.player": "Pelaaja",
  "sixnimmt.thisRound": "Tällä kierroksella",
  "sixnimmt.taken": "Otetut kortit",
  "sixnimmt.total": "Yhteensä",
  "sixnimmt.roundN": "Kierros {n}",
  "sixnimmt.history": "Härät kierroksittain",
  "sixnimmt.draft": "Valinta: avoimet kortit",
  "sixnimmt.draftWait": "{name} ottaa korttia.",
  "sixnimmt.statusChoose": "Sinun vuorosi: valitse kortti",
  "sixnimmt.statusTakeRow": "Valitse otettava rivi: korttisi {card} on pienempi kuin jokainen rivi",
  "sixnimmt.statusDraft": "Sinun vuorosi: ota kortti esillä olevista",
  "sixnimmt.hasChosen": "on valinnut",
  "sixnimmt.mustTake": "{name} valitsee otettavan rivin",
  "sixnimmt.mustTakeYou": "Valitse otettava rivi",
  "sixnimmt.chooser": "{name} pelasi kortin {card}, joka on pienempi kuin jokainen rivi, ja valitsee otettavan rivin.",
  "sixnimmt.ev.drafted": "{name} otti kortin {card} esiltä",
  "sixnimmt.ev.draftedYou": "Otit kortin {card} esiltä",
  "sixnimmt.ev.chose": "{name} valitsi kortin",
  "sixnimmt.ev.changed": "{name} vaihtoi korttinsa",
  "sixnimmt.ev.choseYou": "Valitsit kortin",
  "sixnimmt.ev.changedYou": "Vaihdoit korttisi",
  "sixnimmt.ev.revealed": "Kortit paljastettiin: {cards}",
  "sixnimmt.ev.placed": "{name} sijoitti kortin {card} riviin {row}",
  "sixnimmt.ev.placedYou": "Sijoitit kortin {card} riviin {row}",
  "sixnimmt.ev.took": "{name} otti rivin {row} kortilla {card}, {heads}",
  "sixnimmt.ev.tookYou": "Otit rivin {row} kortilla {card}, {heads}",
  "sixnimmt.ev.roundOver": "Kierros {round} päättyi",
  "sixnimmt.ev.dealt": "Kierros {round} jaettu",
  "sixnimmt.ev.gameOver": "Peli päättyi",
});

export function bullheads(card) {
  if (card === 55) return 7;
  if (card % 11 === 0) return 5;
  if (card % 10 === 0) return 3;
  if (card % 10 === 5) return 2;
  return 1;
}
const sum = (cards) => cards.reduce((total, card) => total + bullheads(card), 0);
const heads = (n) => t(n === 1 ? "sixnimmt.bullhead" : "sixnimmt.bullheads", { n });

// The module's styles (the shell's stylesheet names no game), the card colours by bullheads too.
const STYLE = `
:root { --c2: #d5e6fb; --c3: #fbe7a8; --c5: #f7c4c4; --c7: #dcc8f4; }
@media (prefers-color-scheme: dark) {
  :root { --c2: #b9d3f5; --c3: #f3da86; --c5: #f1a9a9; --c7: #cdb5ef; }
}
.sixnimmt .round-info { margin: .25rem 0; color: var(--muted); }
.sixnimmt .round-info small { font-size: .85rem; }
.sixnimmt .block h2 { margin: .9rem 0 .4rem; }
.rows { list-style: none; margin: 0; padding: .35rem; background: var(--felt); border-radius: var(--radius); display: grid; gap: .3rem; }
.row { display: grid; grid-template-columns: 2.3rem repeat(6, minmax(0, 1fr)); gap: .2rem; align-items: stretch;
  width: 100%; padding: .2rem; border-radius: 8px; color: #fff; }
.row-cards { display: contents; }
button.row { border: 2px dashed #fff; background: rgba(255, 255, 255, .12); min-height: 0; text-align: inherit;
  font-weight: inherit; }
button.row.take { animation: pulse 1.6s ease-in-out infinite; }
button.row:active { background: rgba(255, 255, 255, .3); }
@keyframes pulse { 50% { border-color: #ffd54a; } }
@media (prefers-reduced-motion: reduce) { button.row.take { animation: none; border-color: #ffd54a; } }
.row-label { display: flex; flex-direction: column; align-items: center; justify-content: center; font-weight: 700; line-height: 1.1; }
.row-sum { font-size: .8rem; display: flex; align-items: center; gap: 6px; }
.nc { position: relative; display: flex; flex-direction: column; align-items: center; justify-content: center;
  aspect-ratio: 5 / 7; min-width: 0; border-radius: 6px; background: var(--c1); color: var(--card-text);
  border: 1px solid var(--card-edge); box-shadow: 0 1px 2px rgba(0,0,0,.25); }
.nc.b2 { background: var(--c2); } .nc.b3 { background: var(--c3); } .nc.b5 { background: var(--c5); } .nc.b7 { background: var(--c7); }
.nc-num { font-weight: 800; font-size: clamp(.95rem, 4.6vw, 1.3rem); font-variant-numeric: tabular-nums; line-height: 1; }
.nc-heads { display: flex; flex-wrap: wrap; justify-content: center; gap: 1px; max-width: 90%; min-height: 6px; margin-top: 3px; }
.nc-heads i { width: 6px; height: 6px; border-radius: 50% 50% 50% 50% / 35% 35% 65% 65%; background: #7a1d1d; }
.nc.slot { background: transparent; border: 1px dashed var(--felt-line); box-shadow: none; border-color: rgba(255,255,255,.35); }
.nc.slot.sixth { border-color: #ffb4b4; color: #ffd0d0; font-weight: 700; font-size: .9rem; }
.bull { display: inline-block; width: 9px; height: 8px; border-radius: 45% 45% 50% 50%; background: currentColor; position: relative; }
.bull::before, .bull::after { content: ""; position: absolute; top: -3px; width: 4px; height: 4px; border: 2px solid currentColor; border-bottom: none; }
.bull::before { left: -4px; border-right: none; border-radius: 4px 0 0 0; }
.bull::after { right: -4px; border-left: none; border-radius: 0 4px 0 0; }
.nc-grid { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: .4rem; }
.nc-button { padding: 0; border: none; background: none; min-height: 60px; border-radius: 8px; }
.nc-button .nc { width: 100%; aspect-ratio: 5 / 6; border-width: 3px; border-color: var(--accent); box-shadow: 0 3px 0 var(--accent); }
.nc-button:not(:disabled):active .nc { transform: translateY(2px); box-shadow: 0 1px 0 var(--accent); }
.nc-button:disabled .nc { border-width: 1px; border-color: var(--card-edge); box-shadow: none; margin-top: 3px; }
.nc-button:disabled .nc-num { font-weight: 600; }
.played { list-style: none; padding: 0; margin: 0; display: grid; gap: .3rem; }
.played li { display: flex; align-items: center; gap: .6rem; }
.played li .nc { width: 2.2rem; flex: none; }
.played li.took span:last-child { font-weight: 600; }
.sn-played { margin-top: .6rem; }
.sn-played-cards { list-style: none; margin: .4rem 0 0; padding: 0; display: grid;
  grid-template-columns: repeat(auto-fill, minmax(2.6rem, 1fr)); gap: .3rem; }
.sn-played-cards li { display: flex; flex-direction: column; align-items: center; min-width: 0; font-size: .7rem;
  text-align: center; overflow: hidden; }
.sn-played-cards .nc { width: 100%; }
.chosen { display: flex; align-items: center; gap: .6rem; font-weight: 600; }
.chosen .nc { width: 2.6rem; flex: none; }
.nc.picked { outline: 3px solid var(--accent); outline-offset: 2px; }
.nc-button.pending .nc { border-color: var(--focus); box-shadow: 0 0 0 3px var(--focus); transform: translateY(-4px); }
.penalties .total { font-weight: 700; }
.penalties tr.mine th { text-decoration: underline; }
`;

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

  // The four rows.
  const rows = h("ol", { class: "rows" });
  (table.rows || []).forEach((row, index) => {
    const total = table.row_bullheads ? table.row_bullheads[index] : sum(row);
    const words = { row: index + 1, cards: row.length ? row.join(", ") : t("sixnimmt.empty"), heads: heads(total) };
    const slots = h("span", { class: "row-cards", "aria-hidden": "true" },
      row.map((card) => face(card, "", card)),
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
    h("h2", { id: "sn-rows", class: "visually-hidden", text: t("sixnimmt.rowsTitle") }), rows));

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

  if (table.last_turn && table.last_turn.length) root.append(lastTurn(table.last_turn, name, "sn-last"));

  if (table.played && table.played.length) root.append(cardsPlayed(table.played, ctx));

  root.append(penalties(view, table, name));
  return root;
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
