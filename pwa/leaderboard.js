// A game type's leaderboard (#/leaderboard/<type>): the top 100 by rating and your own place;
// and the home page's list of leaderboards.
import { t } from "./i18n.js";
import { api } from "./api.js";
import { h, setPage, typeInfo } from "./ui.js";
import { ordinalText, profileHref } from "./profile.js";

// The home page's links, one leaderboard per game type.
export function leaderboardLinks(types) {
  return h("section", { "aria-labelledby": "leaderboards-title" },
    h("h2", { id: "leaderboards-title", text: t("leaderboard.list") }),
    h("ul", { class: "plain-list link-list" }, types.map((ty) =>
      h("li", {}, h("a", { href: `#/leaderboard/${encodeURIComponent(ty.type)}`, text: ty.title })))));
}

// The new-game form's choice: a rated game (the default) or a friendly one.
export function ratedChoice() {
  const box = h("input", { type: "checkbox", id: "rated", name: "rated", checked: true });
  return { box, field: h("div", { class: "field check" }, box, h("label", { for: "rated", text: t("leaderboard.rated") })) };
}

export async function leaderboardPage(type) {
  const info = await typeInfo(type);
  const title = t("leaderboard.title", { title: info ? info.title : type });
  setPage(title, h("h1", { text: title }), h("p", { class: "muted", text: t("loading") }));
  const board = await api.leaderboard(type);
  const rows = board.entries.map((entry) => h("tr", { class: board.you && board.you.place === entry.place ? "mine" : "" },
    h("td", { text: String(entry.place) }),
    h("th", { scope: "row" }, h("a", { class: "profile-link", href: profileHref(entry.player_id), text: entry.name || "?" })),
    h("td", { text: ordinalText(entry.ordinal) }),
    h("td", { text: String(entry.games) })));
  setPage(title, h("h1", { text: title }),
    h("p", { class: "muted", text: t("leaderboard.explain", { n: board.fewest_games }) }),
    yourPlace(board, info ? info.title : type),
    rows.length ? h("table", { class: "leaderboard" },
      h("thead", {}, h("tr", {}, ["leaderboard.place", "leaderboard.player", "leaderboard.rating", "leaderboard.games"]
        .map((key) => h("th", { scope: "col", text: t(key) })))),
      h("tbody", {}, rows))
      : h("p", { text: t("leaderboard.none", { n: board.fewest_games }) }));
}

function yourPlace(board, title) {
  const you = board.you;
  const text = !you ? t("leaderboard.youNone", { title })
    : you.place ? t("leaderboard.you", { place: you.place, ordinal: ordinalText(you.ordinal) })
      : t("leaderboard.youUnlisted", { ordinal: ordinalText(you.ordinal), games: you.games, n: board.fewest_games });
  return h("p", { class: "your-place", text });
}
