// "Challenge": a button that opens a form choosing the game, which creates it with a seat kept
// for the player (the other seats, if the type needs more, go to bots) and opens it. Shown for a
// friend (friends.js) and on a profile the caller may challenge (profile.js).
import { t, addStrings } from "./i18n.js";
import { api } from "./api.js";
import { h, announce, handleError } from "./ui.js";
import { ratedChoice } from "./leaderboard.js";

// A challenge is between people: a pace with a time limit, a day by default.
const PACES = ["5m", "1h", "1d", "3d"];
const DEFAULT_PACE = "1d";

addStrings("en", {
  "challenge.button": "Challenge",
  "challenge.to": "Challenge {name} to",
  "challenge.send": "Send challenge",
  "challenge.sent": "Challenge sent to {name}",
});
addStrings("fi", {
  "challenge.button": "Haasta",
  "challenge.to": "Haasta {name} peliin",
  "challenge.send": "Lähetä haaste",
  "challenge.sent": "Haaste lähetetty: {name}",
});

// {button, form} for `player` ({id, name}): the button shows and hides the form.
export function challengeToggle(player, types) {
  const form = challengeForm(player, types);
  const button = h("button", { type: "button", class: "primary", "aria-expanded": "false", onclick: () => {
    form.hidden = !form.hidden;
    button.setAttribute("aria-expanded", String(!form.hidden));
  } }, t("challenge.button"));
  return { button, form };
}

function challengeForm(player, types) {
  const select = h("select", { id: `challenge-${player.id}` }, types.map((ty) => h("option", { value: ty.type, text: ty.title })));
  const pace = h("select", { id: `challenge-pace-${player.id}` },
    PACES.map((each) => h("option", { value: each, selected: each === DEFAULT_PACE }, t(`pace.${each}`))));
  const rated = ratedChoice(`challenge-rated-${player.id}`);
  return h("form", { class: "challenge", hidden: true, onsubmit: async (event) => {
    event.preventDefault();
    const ty = types.find((each) => each.type === select.value);
    const players = Math.max(2, ty.min_players);
    const bots = Array.from({ length: players - 2 }, () => ({ bot: ty.bot_levels[0].name }));
    try {
      const game = await api.create({ type: ty.type, players, seats: ["human", { player: player.id }, ...bots],
        pace: pace.value, rated: rated.box.checked });
      announce(t("challenge.sent", { name: player.name }));
      location.hash = `#/game/${encodeURIComponent(game.id)}`;
    } catch (error) { handleError(error); }
  } },
  h("div", { class: "field" }, h("label", { for: select.id, text: t("challenge.to", { name: player.name }) }), select),
  h("div", { class: "field" }, h("label", { for: pace.id, text: t("home.pace") }), pace),
  rated.field,
  h("button", { type: "submit", class: "primary" }, t("challenge.send")));
}
