// The game page: polling with ETags, status line, seats, invite, outcome and the game's renderer.
import { t, listNames } from "./i18n.js";
import { api, rememberGame, updateGame, ApiError } from "./api.js";
import { h, showError, clearError, setOffline, announce, handleError, typeInfo, setPage } from "./ui.js";

// ---------------------------------------------------------------- game page
const POLL_VISIBLE = 2000;
const POLL_HIDDEN = 15000;

export async function gamePage(id, page) {
  const state = { id, etag: null, view: null, module: null, moduleType: null, timer: null, stopped: false, busy: false };
  const heading = h("h1", { text: t("loading") });
  const statusLine = h("p", { class: "status-line", id: "status-line", tabindex: "-1" });
  const invite = h("div");
  const seats = h("section", { "aria-labelledby": "seats-title", class: "seats" });
  const area = h("section", { class: "game-area", "aria-label": "" });
  const outcome = h("div");
  const rulesLink = h("p", { class: "rules-link" });
  setPage("", heading, statusLine, invite, outcome, area, seats, rulesLink);

  const schedule = (delay) => {
    clearTimeout(state.timer);
    if (state.stopped) return;
    if (delay === undefined) delay = document.visibilityState === "hidden" ? POLL_HIDDEN : POLL_VISIBLE;
    state.timer = setTimeout(poll, delay);
  };
  async function poll() {
    if (state.stopped) return;
    // While our own action is posted, its answer brings the new view.
    if (state.busy) { schedule(); return; }
    try {
      const result = await api.game(id, state.etag);
      setOffline(false);
      if (!result.notModified) {
        state.etag = result.etag;
        await show(result.data);
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) { showError(error.message); state.stopped = true; return; }
      handleError(error);
    }
    schedule();
  }
  const onVisibility = () => { if (document.visibilityState === "visible") schedule(0); };
  document.addEventListener("visibilitychange", onVisibility);
  page.stop = () => { state.stopped = true; clearTimeout(state.timer); document.removeEventListener("visibilitychange", onVisibility); };
  page.pollNow = () => schedule(0);

  const ctx = {
    t,
    get yourSeat() { return state.view ? state.view.your_seat : null; },
    get busy() { return state.busy; },
    seatName(seat) {
      const s = state.view && state.view.seats[seat];
      if (!s) return `#${seat + 1}`;
      if (seat === state.view.your_seat) return t("game.youName");
      return s.name || t("game.open");
    },
  };

  async function act(action) {
    if (state.busy) return Promise.reject(new Error("busy"));
    state.busy = true;
    area.setAttribute("aria-busy", "true");
    area.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    clearError();
    try {
      const view = await api.act(id, action);
      setOffline(false);
      state.busy = false;
      await show(view);
      state.etag = null;
      schedule(0);
      return view;
    } catch (error) {
      state.busy = false;
      handleError(error);
      if (state.view) await show(state.view, true);
      schedule(0);
      throw error;
    } finally {
      state.busy = false;
      area.removeAttribute("aria-busy");
    }
  }

  async function show(view, force = false) {
    const prev = state.view;
    if (!force && prev && view.version < prev.version) return; // a slow, older answer
    if (!force && prev && prev.version === view.version && prev.status === view.status &&
        JSON.stringify(prev) === JSON.stringify(view)) return;
    state.view = view;
    updateGame(view);
    if (state.moduleType !== view.type) {
      try { state.module = await import(`./games/${view.type}.js`); } catch { state.module = null; }
      state.moduleType = view.type;
    }
    const mod = state.module;
    const info = await typeInfo(view.type);
    document.title = `${view.title} · ${t("app.name")}`;
    heading.textContent = view.title;

    // Status line (+ live region).
    const status = statusText(view, mod, ctx);
    statusLine.textContent = status;
    statusLine.classList.toggle("yours", isYourTurn(view));
    const events = prev && mod && mod.events ? mod.events(prev, view, ctx) || [] : [];
    announce([...events, status].join(". "));

    renderInvite(invite, view);
    renderSeats(seats, view, mod, ctx);
    renderOutcome(outcome, view, info);
    rulesLink.replaceChildren(h("a", { href: `#/rules/${encodeURIComponent(view.type)}` }, t("game.rules", { title: view.title })));

    // The game area, keeping focus on the same control where possible.
    const focusKey = area.contains(document.activeElement) && document.activeElement.dataset
      ? document.activeElement.dataset.focusKey : null;
    const hadFocus = area.contains(document.activeElement);
    let content;
    if (view.status === "waiting" && view.your_seat === null) {
      content = h("p", {}, h("button", { type: "button", class: "primary big", onclick: async () => {
        try { const v = await api.join(view.id); rememberGame(v); await show(v); } catch (e) { handleError(e); }
      } }, t("game.join")));
    } else if (mod && mod.render) {
      content = mod.render(view, act, ctx);
    } else {
      content = h("p", { text: t("game.noRenderer") });
    }
    area.setAttribute("aria-label", view.title);
    area.replaceChildren(content);
    if (hadFocus) {
      const again = focusKey && area.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]:not([disabled])`);
      const fallback = area.querySelector("button:not([disabled])") || area.querySelector("[tabindex='-1']");
      (again || fallback || statusLine).focus({ preventScroll: true });
    }
  }

  await poll();
}

function isYourTurn(view) {
  return view.status === "active" && view.your_seat !== null && (view.to_act || []).includes(view.your_seat);
}

function statusText(view, mod, ctx) {
  if (view.status === "waiting") return t("game.waitingPlayers");
  if (view.status === "finished") return t("game.finished");
  if (isYourTurn(view)) return (mod && mod.status && mod.status(view, ctx)) || t("game.yourTurn");
  const names = (view.to_act || []).map((s) => view.seats[s] ? view.seats[s].name : `#${s + 1}`);
  const waiting = names.length ? t("game.waitingFor", { names: listNames(names) }) : "";
  return view.your_seat === null ? `${t("game.spectator")} ${waiting}` : waiting;
}

function renderInvite(box, view) {
  if (view.status !== "waiting") { box.replaceChildren(); return; }
  if (box.dataset.id === view.id && box.firstChild) return;
  box.dataset.id = view.id;
  const link = `${location.origin}/#/join/${encodeURIComponent(view.id)}`;
  const input = h("input", { id: "invite-link", type: "text", readonly: true, value: link, onfocus: (e) => e.target.select() });
  const note = h("p", { class: "muted", role: "status" });
  const buttons = h("div", { class: "button-row" });
  if (navigator.share) {
    buttons.append(h("button", { type: "button", class: "primary", onclick: () =>
      navigator.share({ title: t("game.shareTitle", { title: view.title }), url: link }).catch(() => {}) }, t("game.share")));
  }
  buttons.append(h("button", { type: "button", onclick: async () => {
    try { await navigator.clipboard.writeText(link); } catch { input.select(); document.execCommand && document.execCommand("copy"); }
    note.textContent = t("game.copied");
  } }, t("game.copy")));
  box.replaceChildren(h("section", { class: "card-panel invite", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title", text: t("game.invite") }), h("p", { text: t("game.inviteText") }),
    h("label", { for: "invite-link", text: t("game.inviteLink") }), input, buttons, note));
}

function renderSeats(section, view, mod, ctx) {
  const list = h("ul", { class: "seat-list" });
  for (const seat of view.seats) {
    const acting = view.status === "active" && (view.to_act || []).includes(seat.seat);
    const kind = seat.bot ? t("game.bot", { level: seat.bot }) : (seat.joined ? t("game.human") : t("game.open"));
    const note = mod && mod.seatNote ? mod.seatNote(view, seat.seat, ctx) : "";
    list.append(h("li", { class: `seat${acting ? " acting" : ""}${seat.seat === view.your_seat ? " mine" : ""}` },
      h("span", { class: "seat-name" }, seat.name || t("game.open"),
        seat.seat === view.your_seat ? h("span", { class: "tag" }, ` (${t("game.you")})`) : null),
      h("span", { class: "seat-kind", text: kind }),
      h("span", { class: "seat-score", text: t("game.score", { score: seat.score ?? 0 }) }),
      acting ? h("span", { class: "badge", text: t("game.toAct") }) : null,
      note ? h("span", { class: "badge ok", text: note }) : null));
  }
  section.replaceChildren(h("h2", { id: "seats-title", text: t("game.seats") }), list);
}

function renderOutcome(box, view, info) {
  if (view.status !== "finished" || !view.outcome) { box.replaceChildren(); return; }
  const scores = view.outcome.scores || view.seats.map((s) => s.score);
  const winners = view.outcome.winners || [];
  const lower = info ? info.lower_score_wins : false;
  const order = view.seats.map((s) => s.seat).sort((a, b) => lower ? scores[a] - scores[b] : scores[b] - scores[a]);
  const rows = [];
  let rank = 0;
  order.forEach((seat, i) => {
    if (i === 0 || scores[seat] !== scores[order[i - 1]]) rank = i + 1;
    rows.push(h("tr", { class: winners.includes(seat) ? "winner" : "" },
      h("td", { text: String(rank) }), h("th", { scope: "row" }, view.seats[seat].name,
        seat === view.your_seat ? ` (${t("game.you")})` : ""),
      h("td", { text: String(scores[seat]) })));
  });
  const names = winners.map((s) => view.seats[s].name);
  box.replaceChildren(h("section", { class: "card-panel outcome", "aria-labelledby": "outcome-title" },
    h("h2", { id: "outcome-title", text: t("game.outcome") }),
    h("p", { class: "winners", text: winners.includes(view.your_seat) ? `${t("game.youWon")} ${t("game.winners", { names: listNames(names) })}` : t("game.winners", { names: listNames(names) }) }),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("game.rank") }),
      h("th", { scope: "col", text: t("game.player") }), h("th", { scope: "col", text: t("game.points") }))),
    h("tbody", {}, rows))));
}

