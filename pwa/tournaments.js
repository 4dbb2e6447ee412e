// Tournaments (#/tournaments): open ones to join, yours, finished ones, and a new one; a
// tournament's page (#/tournament/<id>): standings, rounds, tables and links to your games.
import { t, tn, addLanguages, language } from "./i18n.js";
import { me, ApiError, OfflineError } from "./api.js";
import { h, setPage, gameTypes, handleError } from "./ui.js";

addLanguages({
  en: {
    "tournament.nav": "Tournaments",
    "tournament.title": "Tournaments",
    "tournament.open": "Open to join",
    "tournament.mine": "Yours",
    "tournament.finished": "Finished",
    "tournament.none": "None yet.",
    "tournament.line": "{title} · {format} · {entrants}/{cap} players · {status}",
    "tournament.swiss": "Swiss",
    "tournament.round_robin": "Round robin",
    "tournament.status.open": "taking entrants",
    "tournament.status.running": "round {round} of {rounds}",
    "tournament.status.finished": "finished",
    "tournament.status.cancelled": "cancelled",
    "tournament.new": "New tournament",
    "tournament.name": "Name",
    "tournament.game": "Game",
    "tournament.tableSize": "Players at a table",
    "tournament.format": "Format",
    "tournament.rounds": "Rounds",
    "tournament.cap": "Most players",
    "tournament.duplicate": "Duplicate deals: every table plays the same cards",
    "tournament.rankByMatchpoints": "Rank by matchpoints (with duplicate deals)",
    "tournament.roundHours": "Hours for a round",
    "tournament.create": "Create tournament",
    "tournament.join": "Join",
    "tournament.leave": "Leave",
    "tournament.standings": "Standings",
    "tournament.rank": "#",
    "tournament.player": "Player",
    "tournament.points": "Points",
    "tournament.matchpoints": "Matchpoints",
    "tournament.round": "Round {n}",
    "tournament.roundOver": "Round {n} (over)",
    "tournament.table": "Table {n}",
    "tournament.yourGame": "Your game",
    "tournament.bots.one": "+ {n} bot",
    "tournament.bots.other": "+ {n} bots",
    "tournament.withdrawn": "withdrawn",
    "tournament.entrants": "Entrants",
    "tournament.pointsNote": "Points: at a table of {n}, first place earns {best}, each place after one less, last 0; tied players share. Equal points are ranked by the points of the opponents each met, then by rating.",
    "tournament.matchpointsNote": "Matchpoints (duplicate deals): in each deal, you earn 1 for every player who held your cards at another table and scored worse in that deal, and ½ for every one who scored the same.",
    "tournament.next": "Your tournaments",
    "tournament.next.playing": "{name}: round {round} of {rounds}, your table",
    "tournament.next.waiting": "{name}: waiting for round {round}, which starts when the other tables finish, by {when}",
    "tournament.next.waitingNow": "{name}: round {round} is being paired",
    "tournament.next.starting": "{name}: starts {when}",
    "tournament.next.whenFull": "{name}: starts when full",
    "tournament.inboxLine": "Tournament game, round {round}",
  },
  fi: {
    "tournament.nav": "Turnaukset",
    "tournament.title": "Turnaukset",
    "tournament.open": "Avoimet",
    "tournament.mine": "Omasi",
    "tournament.finished": "Päättyneet",
    "tournament.none": "Ei vielä yhtään.",
    "tournament.line": "{title} · {format} · {entrants}/{cap} pelaajaa · {status}",
    "tournament.swiss": "Sveitsiläinen",
    "tournament.round_robin": "Jokainen jokaista vastaan",
    "tournament.status.open": "ilmoittautuminen auki",
    "tournament.status.running": "kierros {round}/{rounds}",
    "tournament.status.finished": "päättynyt",
    "tournament.status.cancelled": "peruttu",
    "tournament.new": "Uusi turnaus",
    "tournament.name": "Nimi",
    "tournament.game": "Peli",
    "tournament.tableSize": "Pelaajia pöydässä",
    "tournament.format": "Muoto",
    "tournament.rounds": "Kierroksia",
    "tournament.cap": "Enintään pelaajia",
    "tournament.duplicate": "Duplikaattijaot: joka pöytä pelaa samat kortit",
    "tournament.rankByMatchpoints": "Järjestys vertailupisteiden mukaan (duplikaattijaoissa)",
    "tournament.roundHours": "Tunteja kierrokselle",
    "tournament.create": "Luo turnaus",
    "tournament.join": "Liity",
    "tournament.leave": "Poistu",
    "tournament.standings": "Tilanne",
    "tournament.rank": "#",
    "tournament.player": "Pelaaja",
    "tournament.points": "Pisteet",
    "tournament.matchpoints": "Vertailupisteet",
    "tournament.round": "Kierros {n}",
    "tournament.roundOver": "Kierros {n} (päättynyt)",
    "tournament.table": "Pöytä {n}",
    "tournament.yourGame": "Oma pelisi",
    "tournament.bots.one": "+ {n} botti",
    "tournament.bots.other": "+ {n} bottia",
    "tournament.withdrawn": "vetäytynyt",
    "tournament.entrants": "Osallistujat",
    "tournament.pointsNote": "Pisteet: {n} pelaajan pöydässä ensimmäinen saa {best}, kukin seuraava sija yhden vähemmän, viimeinen 0; tasatilanteessa pisteet jaetaan. Tasapisteissä järjestyksen ratkaisevat kohdattujen vastustajien pisteet, sitten vahvuusluku.",
    "tournament.matchpointsNote": "Vertailupisteet (duplikaattijaot): jokaisessa jaossa saat 1 jokaisesta, joka piti samoja kortteja toisessa pöydässä ja sai siinä jaossa huonomman tuloksen, ja ½ jokaisesta, joka sai saman.",
    "tournament.next": "Turnauksesi",
    "tournament.next.playing": "{name}: kierros {round}/{rounds}, sinun pöytäsi",
    "tournament.next.waiting": "{name}: odottaa kierrosta {round}, joka alkaa kun muut pöydät ovat valmiita, viimeistään {when}",
    "tournament.next.waitingNow": "{name}: kierroksen {round} pöytiä jaetaan",
    "tournament.next.starting": "{name}: alkaa {when}",
    "tournament.next.whenFull": "{name}: alkaa kun paikat ovat täynnä",
    "tournament.inboxLine": "Turnauspeli, kierros {round}",
  },
});

// The tournaments' calls: the shell's api.js is left as it is.
async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  const player = me();
  if (player) headers.Authorization = `Bearer ${player.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(`/api/v1${path}`, { method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new OfflineError();
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data, null);
  return data;
}

const id = encodeURIComponent;

// The home page's link.
export function tournamentsLink() {
  return h("p", {}, h("a", { href: "#/tournaments", text: t("tournament.nav") }));
}

function when(instant) {
  return new Date(instant).toLocaleString(language(),
    { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

function nextText(line) {
  const vars = { name: line.name, round: line.round, rounds: line.round_count };
  if (line.status === "playing") return t("tournament.next.playing", vars);
  if (line.status === "starting") {
    return line.starts_at ? t("tournament.next.starting", { ...vars, when: when(line.starts_at) })
      : t("tournament.next.whenFull", vars);
  }
  return Date.parse(line.starts_at) > Date.now()
    ? t("tournament.next.waiting", { ...vars, when: when(line.starts_at) })
    : t("tournament.next.waitingNow", vars);
}

// The top of the inbox: the player's next game in each tournament they play in (their table
// of the round, or the round they wait for); nothing when they play in none.
export async function nextTournamentGames(section) {
  let lines;
  try {
    lines = await call("GET", "/players/me/tournaments/next");
  } catch {
    return; // offline: the inbox below says so
  }
  if (!lines.length) { section.replaceChildren(); return; }
  section.replaceChildren(h("h2", { id: "next-tournament-games", text: t("tournament.next") }),
    h("ul", { class: "game-list" }, lines.map((line) => h("li", { class: line.status === "playing" ? "your-turn" : "" },
      h("a", { class: "game-link", href: line.game_id ? `#/game/${id(line.game_id)}` : `#/tournament/${id(line.tournament_id)}`,
        text: nextText(line) })))));
}

function statusText(tournament) {
  return t(`tournament.status.${tournament.status}`,
    { round: tournament.current_round, rounds: tournament.round_count });
}

function listSection(key, items, titles) {
  const heading = `tournaments-${key}`;
  return h("section", { "aria-labelledby": heading },
    h("h2", { id: heading, text: t(`tournament.${key}`) }),
    items.length ? h("ul", { class: "plain-list link-list" }, items.map((item) => h("li", {},
      h("a", { href: `#/tournament/${id(item.id)}`, text: item.name }), " ",
      h("span", { class: "muted", text: t("tournament.line", {
        title: titles.get(item.type) || item.type, format: t(`tournament.${item.format}`),
        entrants: item.entrants, cap: item.cap, status: statusText(item) }) }))))
      : h("p", { class: "muted", text: t("tournament.none") }));
}

export async function tournamentsPage() {
  const title = t("tournament.title");
  setPage(title, h("h1", { text: title }), h("p", { class: "muted", text: t("loading") }));
  const [types, open, mine, finished] = await Promise.all([gameTypes(),
    call("GET", "/tournaments?list=open"), call("GET", "/tournaments?list=mine"),
    call("GET", "/tournaments?list=finished")]);
  const titles = new Map(types.map((ty) => [ty.type, ty.title]));
  setPage(title, h("h1", { text: title }), listSection("mine", mine, titles),
    listSection("open", open, titles), listSection("finished", finished, titles),
    createForm(types));
}

function field(label, input) {
  return h("div", { class: "field" }, h("label", { for: input.id, text: label }), input);
}

function createForm(types) {
  const name = h("input", { id: "t-name", name: "name", type: "text", required: true, maxlength: "60" });
  const game = h("select", { id: "t-game", name: "type" },
    types.map((ty) => h("option", { value: ty.type, text: ty.title })));
  const size = h("input", { id: "t-size", name: "table_size", type: "number", value: "4", min: "2", max: "10" });
  const format = h("select", { id: "t-format", name: "format" }, ["swiss", "round_robin"].map((value) =>
    h("option", { value, text: t(`tournament.${value}`) })));
  const rounds = h("input", { id: "t-rounds", name: "rounds", type: "number", value: "4", min: "1", max: "20" });
  const cap = h("input", { id: "t-cap", name: "cap", type: "number", value: "16", min: "2", max: "256" });
  const hours = h("input", { id: "t-hours", name: "round_hours", type: "number", value: "72", min: "1", max: "1440" });
  const duplicate = h("input", { id: "t-duplicate", name: "duplicate", type: "checkbox" });
  const byMatchpoints = h("input", { id: "t-matchpoints", name: "rank_by", type: "checkbox", disabled: true });
  duplicate.addEventListener("change", () => {
    byMatchpoints.disabled = !duplicate.checked;
    if (!duplicate.checked) byMatchpoints.checked = false;
  });
  const form = h("form", { class: "card-panel", "aria-labelledby": "t-new" },
    field(t("tournament.name"), name), field(t("tournament.game"), game),
    field(t("tournament.tableSize"), size), field(t("tournament.format"), format),
    field(t("tournament.rounds"), rounds), field(t("tournament.cap"), cap),
    field(t("tournament.roundHours"), hours),
    h("div", { class: "field check" }, duplicate, h("label", { for: "t-duplicate", text: t("tournament.duplicate") })),
    h("div", { class: "field check" }, byMatchpoints, h("label", { for: "t-matchpoints", text: t("tournament.rankByMatchpoints") })),
    h("button", { type: "submit", text: t("tournament.create") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await call("POST", "/tournaments", {
        name: name.value, type: game.value, table_size: Number(size.value), format: format.value,
        rounds: format.value === "swiss" ? Number(rounds.value) : null, cap: Number(cap.value),
        round_hours: Number(hours.value), duplicate: duplicate.checked,
        rank_by: byMatchpoints.checked ? "matchpoints" : "points" });
      location.hash = `#/tournament/${id(made.id)}`;
    } catch (error) {
      handleError(error);
    }
  });
  return h("section", { "aria-labelledby": "t-new" }, h("h2", { id: "t-new", text: t("tournament.new") }), form);
}

export async function tournamentPage(tournamentId) {
  const shown = await call("GET", `/tournaments/${id(tournamentId)}`);
  const player = me();
  const mine = player ? player.id : null;
  const names = new Map(shown.entrants_list.map((entrant) => [entrant.player_id, entrant.name]));
  // What the standings rank by first; with duplicate deals, the other score beside it.
  const scores = shown.rank_by === "matchpoints" ? ["matchpoints", "points"]
    : shown.duplicate ? ["points", "matchpoints"] : ["points"];
  const act = async (method) => {
    try {
      await call(method, `/tournaments/${id(tournamentId)}/entrants${method === "DELETE" ? "/me" : ""}`,
        method === "POST" ? {} : undefined);
      await tournamentPage(tournamentId);
    } catch (error) {
      handleError(error);
    }
  };
  const buttons = [];
  if (shown.status === "open" && !shown.entered) {
    buttons.push(h("button", { type: "button", onclick: () => act("POST"), text: t("tournament.join") }));
  }
  if (shown.entered && !shown.withdrawn && ["open", "running"].includes(shown.status)) {
    buttons.push(h("button", { type: "button", class: "secondary", onclick: () => act("DELETE"), text: t("tournament.leave") }));
  }
  const standings = h("section", { "aria-labelledby": "t-standings" },
    h("h2", { id: "t-standings", text: t("tournament.standings") }),
    h("table", { class: "leaderboard" },
      h("thead", {}, h("tr", {}, [t("tournament.rank"), t("tournament.player"),
        ...scores.map((score) => t(`tournament.${score}`))].map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, shown.standings.map((line) => h("tr", { class: line.player_id === mine ? "mine" : "" },
        h("td", { text: String(line.rank) }),
        h("th", { scope: "row", text: (line.name || "?") + (line.withdrawn ? ` (${t("tournament.withdrawn")})` : "") }),
        scores.map((score) => h("td", { text: String(line[score]) })))))),
    h("p", { class: "muted", text: t("tournament.pointsNote", { n: shown.table_size, best: shown.table_size - 1 }) }),
    shown.duplicate ? h("p", { class: "muted", text: t("tournament.matchpointsNote") }) : "");
  const rounds = [...shown.rounds].reverse().map((round) => h("section", { "aria-labelledby": `t-round-${round.number}` },
    h("h2", { id: `t-round-${round.number}`, text: t(round.over ? "tournament.roundOver" : "tournament.round", { n: round.number }) }),
    h("ul", { class: "plain-list link-list" }, round.tables.map((table, index) => h("li", {},
      h("span", { text: `${t("tournament.table", { n: index + 1 })}: ` }),
      table.players.map((playerId) => names.get(playerId) || "?").join(", "),
      table.bots ? ` ${tn("tournament.bots", table.bots)}` : "",
      table.players.includes(mine) ? [" · ", h("a", { href: `#/game/${id(table.game_id)}`, text: t("tournament.yourGame") })] : [])))));
  setPage(shown.name, h("h1", { text: shown.name }),
    h("p", { class: "muted", text: `${t(`tournament.${shown.format}`)} · ${statusText(shown)}` }),
    buttons.length ? h("p", {}, ...buttons) : "",
    shown.rounds.length ? standings : h("section", { "aria-labelledby": "t-entrants" },
      h("h2", { id: "t-entrants", text: t("tournament.entrants") }),
      h("ul", { class: "plain-list" }, shown.entrants_list.map((entrant) => h("li", { text: entrant.name || "?" })))),
    ...rounds);
}
