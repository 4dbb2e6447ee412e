// A player's profile (#/player/<id>): "Challenge" when the caller may, results and rating per
// game type, the rating's changes, accuracy and luck month by month over the analysed games, the
// recent games the caller may see; and the pieces other pages show of ratings: a name that
// opens its profile, and a seat's rating change in a result ("+1.8").
import { t, tn, language, botLevel } from "./i18n.js";
import { api } from "./api.js";
import { h, setPage, gameTypes, addStyles } from "./ui.js";
import { challengeToggle } from "./challenge.js";

const HISTORY_SHOWN = 10;

// A name that opens a profile is a tap target of its own: 44 px at least.
addStyles("profile-styles", `
.profile-link { display: inline-flex; align-items: center; min-height: 44px; min-width: 44px; }
.rating-change.up { color: var(--accent); }
.rating-change.down { color: var(--danger); }
.rating-change { white-space: nowrap; font-variant-numeric: tabular-nums; }
.facts { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 0; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
.leaderboard tr.mine { font-weight: 700; }
.accuracy-trend { display: block; width: 100%; max-width: 16rem; height: 2.5rem; color: var(--accent); }
`);

export const profileHref = (playerId) => `#/player/${encodeURIComponent(playerId)}`;

// A player's name as shown: a bot level's ("bot-easy") in the player's language ("Helppo botti").
export function playerName(playerId, name) {
  if (!playerId.startsWith("bot-")) return name;
  const named = t("profile.botLevel", { level: botLevel(playerId.slice(4)) });
  return named.charAt(0).toLocaleUpperCase(language()) + named.slice(1);
}

// The seat's name as a link to its player's (or bot level's) profile; plain text for an open seat.
export function profileLink(seat, text = seat.name) {
  if (!seat.player) return text || t("game.open");
  return h("a", { class: "profile-link", href: profileHref(seat.player), "aria-label": t("profile.open", { name: text }) }, text);
}

// The rating people are shown, from the model's ordinal (mu − 3σ) as the server maps it
// (api.tables.ratings.display_rating): 1500 for a new player, never below 0.
export const displayRating = (ordinal) => Math.max(0, Math.round(1500 + 40 * ordinal));

// "1620", or "1620?" while provisional (fewer than 10 rated games).
export const ratingText = (display, provisional) => `${display}${provisional ? "?" : ""}`;

// "+18", "−4", "±0": what a game changed a displayed rating by.
export function changeText(change) {
  return change === 0 ? "±0" : `${change > 0 ? "+" : "−"}${Math.abs(change)}`;
}
const displayChange = (ordinal, change) => displayRating(ordinal) - displayRating(ordinal - change);

// A result table's cell for the seat's rating change: "…" until the server has recorded it.
export function ratingChangeCell(view, seat) {
  if (!view.rated) return h("td", { class: "rating-change", text: t("profile.unrated") });
  const result = view.results && view.results.seats.find((entry) => entry.seat === seat);
  if (!result || !result.rating) return h("td", { class: "rating-change muted", "aria-busy": "true", text: "…" });
  const { change, ordinal } = result.rating;
  const shown = displayChange(ordinal, change);
  return h("td", { class: `rating-change ${shown >= 0 ? "up" : "down"}`,
    title: t("profile.ratingNow", { rating: displayRating(ordinal) }), text: changeText(shown) });
}

const day = (iso) => new Date(iso).toLocaleDateString(language());
const number = (value) => (value === null || value === undefined ? "–"
  : value.toLocaleString(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }));

export async function profilePage(playerId) {
  setPage(t("profile.heading"), h("p", { class: "muted", text: t("loading") }));
  const [profile, types] = await Promise.all([api.profile(playerId), gameTypes()]);
  const titles = Object.fromEntries(types.map((ty) => [ty.type, ty.title]));
  const titleOf = (type) => titles[type] || type;
  const played = Object.keys(profile.games);
  const sections = played.map((type) => typeSection(type, titleOf(type), profile));
  const challenge = profile.can_challenge ? challengeToggle(profile, types) : null;
  const name = playerName(profile.id, profile.name);
  setPage(name,
    h("h1", { class: "profile-name", text: name }),
    profile.bot || profile.member_since ? h("p", { class: "muted", text: profile.bot ? t("profile.bot")
      : t("profile.memberSince", { date: day(profile.member_since) }) }) : null,
    ...(challenge ? [h("div", { class: "button-row" }, challenge.button), challenge.form] : []),
    ...(played.length ? sections : [h("p", { text: t("profile.none") })]),
    recentSection(profile, titleOf));
}

function typeSection(type, title, profile) {
  const games = profile.games[type];
  const rating = profile.ratings[type];
  const id = `profile-${type}`;
  const facts = [
    [t("profile.games"), String(games.finished)],
    [t("profile.firsts"), String(games.first_places)],
    [t("profile.avgPlace"), number(games.average_place)],
    [t("profile.avgScore"), number(games.average_score)],
  ];
  if (rating) {
    facts.unshift([t("profile.rating"),
      `${ratingText(rating.display, rating.provisional)} · ${t("profile.ratedGames", { n: rating.games })}`]);
  }
  const history = (profile.rating_history[type] || []).slice(0, HISTORY_SHOWN);
  return h("section", { class: "card-panel profile-type", "aria-labelledby": id },
    h("h2", { id, text: title }),
    h("dl", { class: "facts" }, facts.flatMap(([term, value]) => [h("dt", { text: term }), h("dd", { text: value })])),
    rating ? h("p", { class: "muted rating-explained", text: t("rating.explained") }) : null,
    history.length ? [h("h3", { text: t("profile.history") }),
      h("ul", { class: "plain-list rating-history" }, history.map((change) =>
        h("li", {}, h("span", { class: `rating-change ${change.display_change >= 0 ? "up" : "down"}`, text: changeText(change.display_change) }),
          ` ${change.display} · ${day(change.at)}`)))] : null,
    accuracySection(type, profile.accuracy[type] || []),
    h("p", {}, h("a", { class: "profile-link", href: `#/leaderboard/${encodeURIComponent(type)}`,
      text: t("leaderboard.open", { title }) })));
}

const signed = (value) => (value === null ? "–" : `${value > 0 ? "+" : value < 0 ? "−" : ""}${Math.abs(value)
  .toLocaleString(language(), { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
const twoPlaces = (value) => (value === null ? "–"
  : value.toLocaleString(language(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const monthName = (month) => new Date(`${month}-01T00:00:00Z`)
  .toLocaleDateString(language(), { year: "numeric", month: "long", timeZone: "UTC" });

// The type's analysed games month by month (newest first): a line of the loss per decision,
// oldest to newest, named by its figures, and a list a screen reader reads month by month.
function accuracySection(type, months) {
  if (!months.length) return null;
  const id = `profile-accuracy-${type}`;
  const oldestFirst = months.filter((month) => month.loss_per_decision !== null).reverse();
  return [h("h3", { id, text: t("profile.accuracy") }),
    h("p", { class: "muted", text: t("profile.accuracyExplained") }),
    oldestFirst.length > 1 ? trendLine(oldestFirst.map((month) => month.loss_per_decision)) : null,
    h("ul", { class: "plain-list accuracy-months", "aria-labelledby": id }, months.map((month) =>
      h("li", { text: tn("profile.accuracyMonth", month.games, { month: monthName(month.month),
        loss: twoPlaces(month.loss_per_decision), luck: signed(month.luck_per_deal) }) })))];
}

function trendLine(values) {
  const ns = "http://www.w3.org/2000/svg";
  const [width, height, margin] = [100, 24, 2];
  const top = Math.max(...values), bottom = Math.min(...values);
  const span = top - bottom || 1;
  // Lower is better: the line rises as the loss falls.
  const points = values.map((value, index) => `${(margin + index * (width - 2 * margin) / (values.length - 1)).toFixed(1)},`
    + `${(margin + (value - bottom) / span * (height - 2 * margin)).toFixed(1)}`).join(" ");
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("class", "accuracy-trend");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("profile.accuracyTrend", { values: values.map(twoPlaces).join(", ") }));
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", points);
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  line.setAttribute("vector-effect", "non-scaling-stroke");
  svg.append(line);
  return svg;
}

function recentSection(profile, titleOf) {
  if (!profile.recent_games.length) return null;
  return h("section", { "aria-labelledby": "profile-recent" },
    h("h2", { id: "profile-recent", text: t("profile.recent") }),
    h("ul", { class: "plain-list link-list recent-games" }, profile.recent_games.map((game) =>
      h("li", {}, h("a", { href: `#/game/${encodeURIComponent(game.id)}` },
        `${titleOf(game.type)} · ${t("profile.place", { place: game.place, players: game.players.length })}`),
      ` ${game.rated && game.rating_change !== null ? changeText(Math.round(40 * game.rating_change)) : t("profile.unrated")} · ${day(game.finished)}`))));
}
