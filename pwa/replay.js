// The replay of a finished game: step through it with every hand visible, jump to any deal,
// trick (turn) or step, and let it play forward on its own from there. The table is drawn by the game's own renderer, as a
// spectator would see it, and the hands are listed below.
import { t } from "./i18n.js";
import { api } from "./api.js";
import { h, morph, setPage, announce, handleError, nameTag, shortNames } from "./ui.js";
import { loadModule } from "./renderers.js";

export async function replayPage(id, page) {
  const game = (await api.game(id)).data;
  const mod = await loadModule(game.type);
  const title = t("replay.title", { title: game.title });
  const counter = h("p", { class: "replay-step", id: "replay-step" });
  const what = h("p", { class: "replay-action" });
  const table = h("section", { class: "game-area", "aria-label": game.title });
  const hands = h("section", { "aria-labelledby": "replay-hands" });
  const state = { step: 0, steps: null, cache: new Map(), loading: null };
  const names = game.seats.map((seat) => seat.name || `#${seat.seat + 1}`);
  const short = shortNames(names);
  let drawn = null;
  const ctx = { t, yourSeat: null, busy: false, seatName: (seat) => names[seat] ?? `#${seat + 1}`,
    nameTag: (seat) => nameTag(ctx.seatName(seat), short[seat]), ui: {}, redraw: () => { if (drawn) draw(drawn); } };

  const button = (key, label, target) => h("button", { type: "button", "data-key": key, onclick: () => go(target()) }, label);
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
    button("first", t("replay.first"), () => 0),
    button("previous", t("replay.previous"), () => state.step - 1),
    button("next", t("replay.next"), () => state.step + 1),
    button("last", t("replay.last"), () => state.steps));
  // Any step by the slider, a deal's or trick's first step by the list, and playing forward by itself.
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: 0, value: 0,
    oninput: () => go(parseInt(slider.value, 10)) });
  const jump = h("select", { id: "replay-jump", onchange: () => go(parseInt(jump.value, 10)) });
  const playing = { timer: null };
  const play = h("button", { type: "button", "aria-pressed": "false", onclick: () => (playing.timer ? pause() : resume()) },
    t("replay.play"));
  const pause = () => {
    clearInterval(playing.timer);
    playing.timer = null;
    play.textContent = t("replay.play");
    play.setAttribute("aria-pressed", "false");
  };
  const resume = () => {
    if (state.step >= state.steps) go(0);
    playing.timer = setInterval(() => { if (state.step >= state.steps) pause(); else go(state.step + 1); }, 1000);
    play.textContent = t("replay.pause");
    play.setAttribute("aria-pressed", "true");
  };
  const seek = h("div", { class: "replay-seek" },
    h("div", { class: "field" }, h("label", { for: "replay-jump", text: t("replay.jump") }), jump),
    h("div", { class: "field" }, h("label", { for: "replay-slider", text: t("replay.slider") }), slider), play);
  api.record(id).then((record) => {
    jump.replaceChildren(...chapterOptions(record));
    markChapter();
  }).catch(() => { jump.closest(".field").hidden = true; });
  setPage(title, h("p", {}, h("a", { href: `#/game/${encodeURIComponent(id)}` }, `← ${game.title}`)),
    h("h1", { text: title }), counter, what, seek, table, hands, controls);
  // A game may name its deals and tricks in its own terms ("sixnimmt.replay.trick": "Turn {trick}").
  const term = (key, vars) => {
    const own = `${game.type}.replay.${key}`;
    return t(own, vars) === own ? t(`replay.${key}`, vars) : t(own, vars);
  };
  // Each deal a group of its tricks (turns), each option the step it begins at; the deal's
  // own start is an option too when it comes before its first trick (a deal's first choices).
  function chapterOptions(record) {
    const tricks = record.trick_chapters || [];
    return (record.chapters || []).map((chapter) => {
      const deal = term("deal", { deal: chapter.deal });
      const own = tricks.filter((trick) => trick.deal === chapter.deal);
      if (!own.length) return h("option", { value: String(chapter.step) }, deal);
      const options = own.map((trick) => h("option", { value: String(trick.step) }, term("trick", { trick: trick.trick })));
      if (own[0].step !== chapter.step) options.unshift(h("option", { value: String(chapter.step) }, term("dealStart", { deal: chapter.deal })));
      return h("optgroup", { label: deal }, ...options);
    });
  }
  // The deal, trick or turn the step belongs to stays chosen in the list.
  function markChapter() {
    const starts = [...jump.options].map((option) => parseInt(option.value, 10));
    const current = starts.filter((start) => start <= state.step).pop();
    if (current !== undefined) jump.value = String(current);
  }

  // Arrow keys step, Home/End jump (unless the keys belong to a form field).
  const onKey = (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const target = { ArrowLeft: state.step - 1, ArrowRight: state.step + 1, Home: 0, End: state.steps }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    go(target);
  };
  document.addEventListener("keydown", onKey);
  page.stop = () => { document.removeEventListener("keydown", onKey); pause(); };

  async function fetchStep(step) {
    if (!state.cache.has(step)) state.cache.set(step, api.replay(id, step).catch((error) => { state.cache.delete(step); throw error; }));
    return state.cache.get(step);
  }

  async function go(step) {
    if (state.steps !== null) step = Math.max(0, Math.min(state.steps, step));
    let frame;
    try { frame = await fetchStep(step); } catch (error) { handleError(error); return; }
    state.step = frame.step;
    state.steps = frame.steps;
    slider.max = String(frame.steps);
    slider.value = String(frame.step);
    markChapter();
    show(frame);
    if (state.step < state.steps) fetchStep(state.step + 1).catch(() => {}); // the likely next tap
  }

  function draw(view) {
    drawn = view;
    morph(table, mod && mod.render ? mod.render(view, () => Promise.resolve(view), ctx) : h("p", { text: t("game.noRenderer") }));
  }

  function show(frame) {
    counter.textContent = t("replay.step", { step: frame.step, steps: frame.steps });
    what.textContent = frame.seat === null || frame.seat === undefined
      ? t("replay.start") : t("replay.acted", { name: ctx.seatName(frame.seat), action: actionText(frame.action) });
    // A spectator's view of this step: scores per seat, and "finished" only at the end.
    const seats = (frame.view.seats || game.seats).map((seat) => ({ ...seat, score: (frame.view.scores || [])[seat.seat] }));
    const view = { ...game, ...frame.view, seats, status: frame.step === frame.steps ? "finished" : "active",
      hand: null, your_seat: null, legal_actions: [] };
    draw(view);
    hands.replaceChildren(h("h2", { id: "replay-hands", text: t("replay.hands") }),
      h("ul", { class: "plain-list" }, (frame.hands || []).map((hand, seat) => h("li", {},
        h("strong", { text: `${ctx.seatName(seat)}: ` }),
        hand && hand.length ? hand.map((card) => cardText(card)).join(", ") : t("replay.noCards")))));
    for (const control of controls.querySelectorAll("button")) {
      const key = control.dataset.key;
      control.disabled = (key === "first" || key === "previous") ? frame.step === 0 : frame.step === frame.steps;
    }
    // At either end the pressed button disables itself: keep the keyboard focus in the controls.
    if (document.activeElement && document.activeElement.disabled && controls.contains(document.activeElement)) {
      controls.querySelector("button:not([disabled])").focus();
    }
    if (!playing.timer) announce(`${counter.textContent}. ${what.textContent}`);
  }

  function cardText(card) {
    if (mod && mod.cardLabel) return mod.cardLabel(card, ctx);
    return typeof card === "object" && card !== null ? Object.values(card).join(" ") : String(card);
  }

  // {"type": "play", "card": 37} -> "play 37"; a game's cardLabel names cards where it can.
  function actionText(action) {
    if (!action || typeof action !== "object") return String(action ?? "");
    const { type, ...details } = action;
    return [String(type ?? "").replace(/_/g, " "), ...Object.entries(details).map(([key, value]) =>
      key === "card" ? cardText(value) : `${key} ${typeof value === "object" ? JSON.stringify(value) : value}`)].join(" ");
  }

  await go(0);
}
