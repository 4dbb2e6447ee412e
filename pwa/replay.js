// The replay of a finished game: step through it with every hand visible, jump to any deal,
// trick (turn) or step, and let it play forward on its own from there. The table is drawn by the game's own renderer, as a
// spectator would see it, and the hands are listed below. As a review it also asks for the game's analysis and lists a
// seat's costly decisions in the order played, each a button to the position it was made in, and the luck of each deal.
import { t } from "./i18n.js";
import { api } from "./api.js";
import { h, morph, setPage, announce, handleError, nameTag, shortNames } from "./ui.js";
import { loadModule } from "./renderers.js";

const COSTLY_SHOWN = 10; // the costliest decisions a review lists
const REVIEW_POLL_MS = 3000;

export async function replayPage(id, page, options = {}) {
  const game = (await api.game(id)).data;
  const mod = await loadModule(game.type);
  const title = t("replay.title", { title: game.title });
  const counter = h("p", { class: "replay-step", id: "replay-step" });
  const what = h("p", { class: "replay-action" });
  const table = h("section", { class: "game-area", "aria-label": game.title });
  const hands = h("section", { "aria-labelledby": "replay-hands" });
  const review = options.review ? h("section", { class: "review", "aria-labelledby": "review-title" }) : null;
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
    h("h1", { text: title }), counter, what, seek, table, ...(review ? [review] : []), hands, controls);
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
  let stopped = false;
  page.stop = () => { stopped = true; document.removeEventListener("keydown", onKey); pause(); };

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

  // The game's own words for the move ("took row 1"); else {"type": "play", "card": 37} ->
  // "play 37", a game's cardLabel naming cards where it can.
  function actionText(action) {
    if (!action || typeof action !== "object") return String(action ?? "");
    const said = mod && mod.actionLabel ? mod.actionLabel(action, ctx) : null;
    if (said) return said;
    const { type, ...details } = action;
    return [String(type ?? "").replace(/_/g, " "), ...Object.entries(details).map(([key, value]) =>
      key === "card" ? cardText(value) : `${key} ${typeof value === "object" ? JSON.stringify(value) : value}`)].join(" ");
  }

  // The review: asked for (once, whoever asks first), then read again until it is done.
  async function loadReview() {
    const heading = () => h("h2", { id: "review-title", text: t("review.title") });
    review.replaceChildren(heading(), h("p", { role: "status", text: t("review.asking") }));
    let answer;
    try {
      answer = await api.requestAnalysis(id);
      while (answer.status !== "done") {
        review.replaceChildren(heading(), h("p", { role: "status", text: t(`review.${answer.status}`) }));
        await new Promise((resolve) => setTimeout(resolve, REVIEW_POLL_MS));
        if (stopped) return;
        answer = await api.analysis(id);
      }
    } catch (error) { handleError(error); return; }
    const seats = answer.seats || [];
    const choose = h("select", { id: "review-seat", onchange: () => showSeat(parseInt(choose.value, 10)) },
      ...seats.map((seat) => h("option", { value: String(seat.seat) }, ctx.seatName(seat.seat))));
    const body = h("div", {});
    review.replaceChildren(heading(), h("p", { text: t(`review.better.${answer.better}`) }),
      h("div", { class: "field" }, h("label", { for: "review-seat", text: t("review.seat") }), choose), body);
    const mine = seats.some((seat) => seat.seat === game.your_seat) ? game.your_seat : (seats[0] || {}).seat;
    choose.value = String(mine);
    showSeat(mine);

    function showSeat(number) {
      const seat = seats.find((one) => one.seat === number);
      if (!seat) return;
      const choices = seat.decisions.filter((decision) => !decision.forced);
      const costly = choices.filter((decision) => decision.loss > 0)
        .sort((a, b) => b.loss - a.loss).slice(0, COSTLY_SHOWN).sort((a, b) => a.step - b.step);
      body.replaceChildren(
        h("p", { text: t("review.summary", { loss: amount(seat.total_loss), choices: choices.length,
          accuracy: seat.accuracy === null ? "-" : amount(seat.accuracy) }) }),
        h("h3", { text: t("review.luck") }),
        h("ul", { class: "plain-list" }, seat.luck.map((luck) => h("li", {
          text: t("review.luckDeal", { deal: term("deal", { deal: luck.deal }), value: signed(luck.value) }) }))),
        h("h3", { text: t("review.costly") }),
        costly.length ? h("ol", { class: "review-timeline" }, costly.map((decision) => h("li", {},
          h("button", { type: "button", onclick: () => go(decision.step) }, t("review.decision", {
            step: decision.step + 1, chosen: actionText(decision.chosen), best: actionText(decision.best),
            loss: amount(decision.loss) }))))) : h("p", { text: t("review.none") }));
    }
  }
  const amount = (value) => Number(value).toFixed(2);
  const signed = (value) => `${value > 0 ? "+" : ""}${amount(value)}`;

  await go(0);
  if (review) loadReview();
}
