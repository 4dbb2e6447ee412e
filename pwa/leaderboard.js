// A game type's leaderboard (#/leaderboard/<type>): the top 100 by rating and your own place;
// and the home page's list of leaderboards.
import { t } from "./i18n.js";
import { api, me } from "./api.js";
import { h, setPage, typeInfo } from "./ui.js";
import { ratingText, profileHref, playerName } from "./profile.js";

// The home page's links, one leaderboard per game type.
export function leaderboardLinks(types) {
  return h("section", { "aria-labelledby": "leaderboards-title" },
    h("h2", { id: "leaderboards-title", text: t("leaderboard.list") }),
    h("ul", { class: "plain-list link-list" }, types.map((ty) =>
      h("li", {}, h("a", { href: `#/leaderboard/${encodeURIComponent(ty.type)}`, text: ty.title })))));
}

// The new-game form's choice (and a challenge's): a rated game (the default) or a friendly one.
export function ratedChoice(id = "rated") {
  const box = h("input", { type: "checkbox", id, name: "rated", checked: true });
  return { box, field: h("div", { class: "field check" }, box, h("label", { for: id, text: t("leaderboard.rated") })) };
}

export async function leaderboardPage(type) {
  const info = await typeInfo(type);
  const title = t("leaderboard.title", { title: info ? info.title : type });
  setPage(title, h("h1", { text: title }), h("p", { class: "muted", text: t("loading") }));
  const board = await api.leaderboard(type);
  const mine = (entry) => !!me() && entry.player_id === me().id;
  const provisional = board.provisional || [];
  setPage(title, h("h1", { text: title }),
    h("p", { class: "muted", text: `${t("rating.explained")} ${t("leaderboard.explain", { n: board.fewest_games })}` }),
    yourPlace(board, info ? info.title : type),
    board.entries.length ? ratingTable(board.entries, false, mine)
      : h("p", { text: t("leaderboard.none", { n: board.fewest_games }) }),
    provisional.length ? h("section", { "aria-labelledby": "provisional-title" },
      h("h2", { id: "provisional-title", text: t("leaderboard.provisional") }),
      h("p", { class: "muted", text: t("leaderboard.provisionalText", { n: board.fewest_games }) }),
      ratingTable(provisional, true, mine)) : null);
}

function ratingTable(entries, provisional, mine) {
  const rows = entries.map((entry) => h("tr", { class: mine(entry) ? "mine" : "" },
    h("td", { text: String(entry.place) }),
    h("th", { scope: "row" }, h("a", { class: "profile-link", href: profileHref(entry.player_id), text: entry.name ? playerName(entry.player_id, entry.name) : "?" })),
    h("td", { text: ratingText(entry.display, provisional) }),
    h("td", { text: String(entry.games) })));
  return h("table", { class: `leaderboard${provisional ? " provisional" : ""}` },
    h("thead", {}, h("tr", {}, ["leaderboard.place", "leaderboard.player", "leaderboard.rating", "leaderboard.games"]
      .map((key) => h("th", { scope: "col", text: t(key) })))),
    h("tbody", {}, rows));
}

function yourPlace(board, title) {
  const you = board.you;
  const text = !you ? t("leaderboard.youNone", { title })
    : you.place ? t("leaderboard.you", { place: you.place, rating: ratingText(you.display, false) })
      : t("leaderboard.youUnlisted", { rating: ratingText(you.display, you.provisional), games: you.games, n: board.fewest_games });
  return h("p", { class: "your-place", text });
}
