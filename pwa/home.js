// Home (inbox, create a game, lobby, rules list), rules pages, join and invite links.
import { t, tn, listNames, language, botLevel } from "./i18n.js";
import { api } from "./api.js";
import { watchInbox, refreshInbox } from "./inbox.js";
import { renderMarkdown } from "./markdown.js";
import { openHowTo } from "./howto.js";
import { loadModule } from "./renderers.js";
import { TABLE_BANK } from "./clock.js";
import { h, staleNote, main, clearError, handleError, setOffline, gameTypes, typeInfo, setPage, timeLeftNode } from "./ui.js";
import { leaderboardLinks, ratedChoice } from "./leaderboard.js";
import { invitationList } from "./friends.js";
import { tournamentsLink, nextTournamentGames } from "./tournaments.js";
import { playNowSection } from "./playnow.js";

const PACES = ["none", "5m", "1h", "1d", "3d", "bank"];
const DEFAULT_PACE = "1d";

// ---------------------------------------------------------------- home
export async function homePage(page, retry) {
  const form = h("form", { class: "card-panel", "aria-labelledby": "new-game" });
  const mine = h("section", { "aria-labelledby": "my-games" }, h("h2", { id: "my-games", text: t("home.mine") }),
    h("p", { class: "muted", text: t("loading") }));
  const tournaments = h("section", { "aria-labelledby": "next-tournament-games" });
  const lobby = h("section", { "aria-labelledby": "lobby-title" });
  const rules = h("section", { "aria-labelledby": "rules-list" });
  const boards = h("section");
  const create = h("section", { "aria-labelledby": "new-game" }, h("h2", { id: "new-game", text: t("home.new") }), form);
  setPage("", h("h1", { class: "visually-hidden", text: t("app.name") }), tournaments, mine, create, lobby, rules, boards);
  page.stop = watchInbox((lines, asOf) => {
    renderInbox(mine, lines, asOf);
    if (!asOf) nextTournamentGames(tournaments);
  });
  page.pollNow = refreshInbox;
  let types;
  try {
    types = await gameTypes();
  } catch (error) {
    // Offline (or the server is down): say so and try again in a moment.
    handleError(error);
    const stopInbox = page.stop;
    const timer = setTimeout(retry, 5000);
    page.stop = () => { stopInbox(); clearTimeout(timer); };
    page.pollNow = retry;
    return;
  }
  setOffline(false);
  // Each game's blurb and what suits a new game of it come with its renderer.
  const renderers = new Map(await Promise.all(types.map(async (ty) => [ty.type, await loadModule(ty.type)])));
  buildCreateForm(form, types, renderers);
  create.before(playNowSection(types));
  renderLobby(lobby);
  boards.replaceWith(leaderboardLinks(types), tournamentsLink());
  rules.append(h("h2", { id: "rules-list", text: t("home.rulesList") }),
    h("ul", { class: "plain-list link-list" }, types.map((ty) =>
      h("li", {}, h("button", { type: "button", class: "link", "aria-haspopup": "dialog",
        onclick: () => openHowTo({ type: ty.type, title: ty.title }) }, t("howto.title", { title: ty.title }))))));
}

// One line of the inbox or the lobby: "Anna, Bo and 2 bots". A player who resigned is not
// an opponent any more: a bot plays the seat (or the game ended, which the outcome tells).
function players(line) {
  const others = line.players.filter((p) => p.seat !== line.your_seat);
  const ended = line.outcome ? line.outcome.resigned : undefined;
  const humans = others.filter((p) => !p.bot && p.name && !p.resigned).map((p) => p.name);
  const bots = others.filter((p) => p.bot || (p.resigned && p.seat !== ended)).length;
  if (bots) humans.push(tn("home.bots", bots));
  if (line.open_seats) humans.push(t("home.openSeats", { n: line.open_seats }));
  return listNames(humans);
}

function lineStatus(line) {
  if (line.your_turn) return t("status.yourTurn");
  return t(`status.${line.status}`);
}

// The API orders the inbox: a tournament's table in play first, then invitations, then the
// player's turn, then by deadline, then by last activity. Invitations show above the games,
// with Accept and Decline.
function renderInbox(section, allLines, asOf) {
  const lines = allLines.filter((line) => !line.invitation);
  const waiting = lines.filter((line) => line.your_turn).length;
  section.replaceChildren(invitationList(allLines) || "", h("h2", { id: "my-games" }, t("home.mine"),
    waiting ? h("span", { class: "badge count", text: t("home.yourTurnCount", { n: waiting }) }) : null));
  if (asOf) section.append(staleNote(asOf));
  if (!lines.length) { section.append(h("p", { class: "muted", text: t("home.none") })); return; }
  section.append(h("ul", { class: "game-list" }, lines.map((line) => h("li", { class: line.your_turn ? "your-turn" : "" },
    h("a", { href: `#/game/${encodeURIComponent(line.id)}`, class: "game-link" },
      h("span", {}, t("home.open", { title: line.title, status: lineStatus(line) })),
      line.tournament && line.status !== "finished"
        ? h("small", { text: t("tournament.inboxLine", { round: line.tournament.round }) }) : null,
      h("small", {}, line.outcome ? result(line) : t("home.with", { names: players(line) }),
        line.your_turn && line.deadline ? [" · ", timeLeftNode(line.deadline)] : null))))));
}

// A finished game's line: "with 3 bots · place 2 of 4 · your score 27 · 3 Dec 2026", and who
// resigned if that ended it.
function result(line) {
  const names = players(line);
  const parts = names ? [t("home.with", { names })] : [];
  const resigned = line.outcome.resigned;
  if (resigned !== undefined && resigned !== line.your_seat) {
    parts.push(t("home.resignedOne", { name: line.players[resigned].name }));
  }
  if (line.your_place !== null) {
    parts.push(line.your_place === 1 ? t("home.won") : t("home.place", { place: line.your_place, of: line.players.length }));
    parts.push(t("home.yourScore", { score: line.outcome.scores[line.your_seat] }));
  }
  parts.push(new Date(line.updated).toLocaleDateString(language(), { day: "numeric", month: "short", year: "numeric" }));
  return parts.join(" · ");
}

async function renderLobby(section) {
  let games;
  // Joining a game one already plays in just opens it, so the lobby needs no filtering.
  try { games = await api.lobby(); } catch { return; }
  section.replaceChildren(h("h2", { id: "lobby-title", text: t("lobby.title") }));
  if (!games.length) { section.append(h("p", { class: "muted", text: t("lobby.none") })); return; }
  section.append(h("ul", { class: "game-list" }, games.map((line) => h("li", {},
    h("span", { class: "game-link" }, line.title, h("small", { text: t("home.with", { names: players(line) }) })),
    h("a", { class: "button primary", href: `#/join/${encodeURIComponent(line.id)}`,
      "aria-label": t("lobby.joinLabel", { title: line.title, names: players(line) }) }, t("lobby.join")),
    h("a", { class: "button", href: `#/game/${encodeURIComponent(line.id)}`,
      "aria-label": t("lobby.watchLabel", { title: line.title, names: players(line) }) }, t("lobby.watch"))))));
}

// A game's own words for its option and its choices (in its renderer), else the server's.
function said(key, fallback) {
  const text = t(key);
  return text === key ? fallback : text;
}

function optionField(defaults, option, type) {
  const id = `opt-${option.name}`;
  const label = said(`${type}.opt.${option.name}`, option.description || option.name);
  const initial = (defaults.options || {})[option.name] ?? option.default;
  if (option.type === "bool") {
    return h("div", { class: "field check" },
      h("input", { type: "checkbox", id, name: option.name, checked: !!initial }),
      h("label", { for: id, text: label }));
  }
  if (option.type === "choice") {
    return h("div", { class: "field" }, h("label", { for: id, text: label }),
      h("select", { id, name: option.name }, (option.choices || []).map((c) =>
        h("option", { value: JSON.stringify(c), selected: c === initial }, said(`${type}.opt.${option.name}.${c}`, String(c))))));
  }
  return h("div", { class: "field" }, h("label", { for: id, text: label }),
    h("input", { type: "number", id, name: option.name, inputmode: "numeric", value: initial,
      min: option.minimum ?? null, max: option.maximum ?? null, step: 1, required: true }));
}

function readOption(form, option) {
  const input = form.elements[option.name];
  if (option.type === "bool") return input.checked;
  if (option.type === "choice") return JSON.parse(input.value);
  return parseInt(input.value, 10);
}

function buildCreateForm(form, types, renderers) {
  const typeSelect = h("select", { id: "game-type", name: "type", "aria-describedby": "game-about" },
    types.map((ty) => h("option", { value: ty.type }, ty.title)));
  const about = h("p", { id: "game-about", class: "muted about" });
  const playersInput = h("input", { id: "players", name: "players", type: "number", inputmode: "numeric", step: 1, required: true });
  const seatsBox = h("div", { class: "seats-box" });
  const optionsBox = h("div");
  const paceSelect = h("select", { id: "pace", name: "pace" },
    PACES.map((pace) => h("option", { value: pace }, t(`pace.${pace}`))));
  let paceChosen = false; // once the player picks a pace, keep it
  paceSelect.addEventListener("change", () => { paceChosen = true; });
  const publicBox = h("input", { type: "checkbox", id: "public", name: "public" });
  const rated = ratedChoice();
  const submit = h("button", { type: "submit", class: "primary big" }, t("home.create"));
  const current = () => types.find((x) => x.type === typeSelect.value);

  function buildSeats() {
    const ty = current();
    const n = Math.max(ty.min_players, Math.min(ty.max_players, parseInt(playersInput.value, 10) || ty.min_players));
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren(h("p", { class: "seat-you", text: t("home.seat.you") }));
    for (let i = 1; i < n; i++) {
      const id = `seat-${i}`;
      const select = h("select", { id, name: id },
        (ty.bot_levels || []).map((b) => h("option", { value: `bot:${b.name}`, title: b.description }, t("home.seat.bot", { level: botLevel(b.name) }))),
        h("option", { value: "human" }, t("home.seat.friend")));
      if (previous[i - 1]) select.value = previous[i - 1];
      select.addEventListener("change", limitPace);
      seatsBox.append(h("div", { class: "field inline" }, h("label", { for: id, text: t("home.seat", { n: i + 1 }) }), select));
    }
    limitPace();
  }
  // "No time limit" only when every other seat is a bot: a friend must never wait forever.
  // Against bots alone there is nobody to wait for, so that is the default then.
  function limitPace() {
    const friends = [...seatsBox.querySelectorAll("select")].some((s) => s.value === "human");
    const none = paceSelect.querySelector('option[value="none"]');
    none.disabled = friends;
    if (friends && paceSelect.value === "none") paceSelect.value = DEFAULT_PACE;
    else if (!friends && !paceChosen) paceSelect.value = "none";
  }
  function buildType() {
    const ty = current();
    const renderer = renderers.get(ty.type);
    const defaults = (renderer && renderer.newGame) || {};
    playersInput.min = ty.min_players;
    playersInput.max = ty.max_players;
    playersInput.value = defaults.players ?? Math.max(ty.min_players, Math.min(ty.max_players, 4));
    about.textContent = renderer ? t(`about.${ty.type}`) : t("game.noRenderer");
    optionsBox.replaceChildren();
    if (ty.options && ty.options.length) {
      optionsBox.append(h("fieldset", {}, h("legend", { text: t("home.options") }),
        ty.options.map((option) => optionField(defaults, option, ty.type))));
    }
    buildSeats();
    fitOptions();
  }
  // Options that follow from others and the number of players, as the game's renderer says.
  function fitOptions() {
    const renderer = renderers.get(current().type);
    if (renderer && renderer.fitOptions) renderer.fitOptions(form, parseInt(playersInput.value, 10));
  }
  typeSelect.addEventListener("change", buildType);
  playersInput.addEventListener("input", () => { buildSeats(); fitOptions(); });
  optionsBox.addEventListener("change", fitOptions);
  form.replaceChildren(
    h("div", { class: "field" }, h("label", { for: "game-type", text: t("home.game") }), typeSelect, about),
    h("div", { class: "field" }, h("label", { for: "players", text: t("home.players") }), playersInput),
    h("fieldset", {}, h("legend", { text: t("home.seats") }), seatsBox),
    h("div", { class: "field" }, h("label", { for: "pace", text: t("home.pace") }), paceSelect),
    h("div", { class: "field check" }, publicBox, h("label", { for: "public", text: t("home.public") })),
    rated.field, optionsBox, submit);
  buildType();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearError();
    const ty = current();
    const seats = ["human", ...[...seatsBox.querySelectorAll("select")].map((s) =>
      s.value === "human" ? "human" : { bot: s.value.slice(4) })];
    const options = {};
    for (const option of ty.options || []) options[option.name] = readOption(form, option);
    submit.disabled = true;
    submit.textContent = t("home.creating");
    try {
      const pace = paceSelect.value === "bank" ? { time_bank: TABLE_BANK } : { pace: paceSelect.value };
      const view = await api.create({ type: ty.type, players: seats.length, options, seats,
        ...pace, public: publicBox.checked, rated: rated.box.checked });
      refreshInbox();
      location.hash = `#/game/${encodeURIComponent(view.id)}`;
    } catch (error) {
      handleError(error);
      submit.disabled = false;
      submit.textContent = t("home.create");
    }
  });
}

// ---------------------------------------------------------------- rules
// #/rules/<type>[/<game id>]: opened from a game, its back link returns to that game.
export async function rulesPage(type, fromGame) {
  const info = await typeInfo(type);
  const title = info ? info.title : type;
  const back = fromGame ? h("a", { href: `#/game/${encodeURIComponent(fromGame)}`, text: `← ${t("nav.backToGame")}` })
    : h("a", { href: "#/", text: `← ${t("nav.home")}` });
  setPage(t("game.rules", { title }), h("p", {}, back),
    h("h1", { text: t("game.rules", { title }) }), h("p", { class: "muted", text: t("loading") }));
  const { markdown } = await api.rules(type);
  // The page already has the title as its h1: drop the document's own "# Title" line,
  // so that its "##" sections become h2.
  const body = markdown.trimStart();
  const doc = /^#\s/.test(body) ? renderMarkdown(body.replace(/^#\s.*\n?/, ""), 0) : renderMarkdown(body);
  main().lastChild.replaceWith(doc);
}

// ---------------------------------------------------------------- join, invite
// #/join/<id>: take the first open seat (the one a rematch keeps for this player first).
export async function joinPage(id) {
  setPage("", h("p", { class: "muted", text: t("join.joining") }));
  const { data } = await api.game(id);
  if (data.your_seat === null && data.status === "waiting") {
    try {
      await api.join(id);
    } catch (error) {
      // E.g. the last seat was just taken: say why, and offer to watch the game.
      handleError(error);
      setPage("", h("h1", { text: data.title }),
        h("p", {}, h("a", { href: `#/game/${encodeURIComponent(id)}` }, t("join.watch"))),
        h("p", {}, h("a", { href: "#/" }, t("nav.home"))));
      return;
    }
  }
  refreshInbox();
  location.replace(`#/game/${encodeURIComponent(id)}`);
}

// #/invite/<code>: the seat a friend's invite link was made for. A player who just gave their
// name (`accept`) takes it at once; one already playing sees what it offers first.
export async function invitePage(code, { accept = false } = {}) {
  if (!accept) {
    const preview = await invitePreview(code);
    if (preview) {
      const take = h("button", { type: "button", class: "primary big" }, t("invite.take"));
      setPage("", h("h1", { class: "visually-hidden", text: t("invite.take") }), preview, h("p", {}, take));
      await new Promise((resolve) => take.addEventListener("click", resolve, { once: true }));
    }
  }
  setPage("", h("p", { class: "muted", text: t("join.joining") }));
  try {
    const view = await api.acceptInvite(code);
    refreshInbox();
    location.replace(`#/game/${encodeURIComponent(view.id)}`);
  } catch (error) {
    handleError(error);
    setPage(t("join.failed"), h("h1", { text: t("join.failed") }), h("p", {}, h("a", { href: "#/" }, t("nav.home"))));
  }
}

// What an invite link offers, told before it is taken: who invited, the game, the seats and
// the time per move; null when the link is unknown or used (taking it then says why).
export async function invitePreview(code) {
  let offer;
  try { offer = await api.invitePreview(code); } catch { return null; }
  const names = offer.seats.map((seat) => (seat.seat === offer.seat ? t("invite.you")
    : seat.bot ? t("game.botName", { n: seat.seat + 1, level: botLevel(seat.bot) })
      : seat.name || t("invite.open")));
  const pace = offer.time_bank ? t("pace.bank") : t(`pace.${offer.pace}`);
  return h("section", { class: "card-panel invite-preview", "aria-labelledby": "invite-preview-title" },
    h("h2", { id: "invite-preview-title", text: t("invite.title", { host: offer.host, title: offer.title }) }),
    h("ul", { class: "plain-list" },
      h("li", { text: t("invite.seats", { n: offer.players, names: listNames(names) }) }),
      h("li", { text: t("game.pace", { pace }) })));
}
