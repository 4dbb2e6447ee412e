// "Play now" on the home page: a seek (the game types, the player counts, the paces, rated or
// not, bots after a wait), remembered on this device; your seeks still waiting with how long
// each has waited, and Cancel. The server seats you when enough players asked: the game then
// shows in the inbox. And the directory's search box, for the Friends page.
import { t, tn, addStrings } from "./i18n.js";
import { api } from "./api.js";
import { h, announce, handleError } from "./ui.js";
import { profileHref } from "./profile.js";
import { challengeToggle } from "./challenge.js";

addStrings("en", {
  "playnow.title": "Play now",
  "playnow.note": "Seated when enough players ask; the game then shows above.",
  "playnow.games": "Games",
  "playnow.fewest": "Fewest players",
  "playnow.most": "Most players",
  "playnow.paces": "Time per move",
  "playnow.pace.1h": "1 hour",
  "playnow.pace.1d": "1 day",
  "playnow.pace.3d": "3 days",
  "playnow.rated": "Rated",
  "playnow.bots": "Empty seats",
  "playnow.noBots": "wait for people",
  "playnow.botsAfter": "bots after {hours} h",
  "playnow.seek": "Seek a table",
  "playnow.sought": "Seeking a table: you will be seated when enough players ask",
  "playnow.pickGame": "Choose at least one game and one time per move.",
  "playnow.mine": "Your seeks",
  "playnow.line": "{games} · {fewest}–{most} players",
  "playnow.waited": "waiting {minutes} min",
  "playnow.waitedHours": "waiting {hours} h",
  "playnow.others.one": "{n} seek waiting",
  "playnow.others.other": "{n} seeks waiting",
  "playnow.cancel": "Cancel",
  "playnow.cancelled": "Seek cancelled",
  "search.label": "Find players by name",
  "search.none": "Nobody by that name",
  "search.bot": "bot",
});
addStrings("fi", {
  "playnow.title": "Pelaa nyt",
  "playnow.note": "Pääset pöytään, kun tarpeeksi moni pyytää; peli näkyy silloin yllä.",
  "playnow.games": "Pelit",
  "playnow.fewest": "Pelaajia vähintään",
  "playnow.most": "Pelaajia enintään",
  "playnow.paces": "Aikaa siirtoon",
  "playnow.pace.1h": "1 tunti",
  "playnow.pace.1d": "1 päivä",
  "playnow.pace.3d": "3 päivää",
  "playnow.rated": "Laskettu",
  "playnow.bots": "Tyhjät paikat",
  "playnow.noBots": "odota ihmisiä",
  "playnow.botsAfter": "botit {hours} h jälkeen",
  "playnow.seek": "Etsi pöytä",
  "playnow.sought": "Pöytää etsitään: pääset peliin, kun tarpeeksi moni pyytää",
  "playnow.pickGame": "Valitse ainakin yksi peli ja yksi siirtoaika.",
  "playnow.mine": "Hakusi",
  "playnow.line": "{games} · {fewest}–{most} pelaajaa",
  "playnow.waited": "odottanut {minutes} min",
  "playnow.waitedHours": "odottanut {hours} h",
  "playnow.others.one": "{n} haku odottaa",
  "playnow.others.other": "{n} hakua odottaa",
  "playnow.cancel": "Peru",
  "playnow.cancelled": "Haku peruttu",
  "search.label": "Etsi pelaajia nimellä",
  "search.none": "Ei ketään sillä nimellä",
  "search.bot": "botti",
});

const KEPT = "poyta.playnow";
const PACES = ["1h", "1d", "3d"];
const BOT_HOURS = [0, 1, 6, 24];

function remembered(types) {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(KEPT) || "null"); } catch { kept = null; }
  return kept || { games: [types[0].type], min: 2, max: 4, paces: ["1d"], rated: true, bots: 0 };
}

function checkbox(name, value, label, checked) {
  const id = `playnow-${name}-${value}`;
  return h("div", { class: "field check" },
    h("input", { type: "checkbox", id, name, value, checked }), h("label", { for: id, text: label }));
}

function numberField(name, label, value) {
  const id = `playnow-${name}`;
  return h("div", { class: "field" }, h("label", { for: id, text: label }),
    h("input", { type: "number", id, name, inputmode: "numeric", min: 1, max: 10, step: 1, value, required: true }));
}

// The "Play now" section: the form, then your seeks waiting.
export function playNowSection(types) {
  const kept = remembered(types);
  const seeks = h("div", { class: "seeks" });
  const form = h("form", { class: "card-panel playnow", "aria-labelledby": "playnow-title" },
    h("p", { class: "muted", text: t("playnow.note") }),
    h("fieldset", {}, h("legend", { text: t("playnow.games") }),
      types.map((ty) => checkbox("game", ty.type, ty.title, kept.games.includes(ty.type)))),
    h("div", { class: "field-row" }, numberField("min", t("playnow.fewest"), kept.min),
      numberField("max", t("playnow.most"), kept.max)),
    h("fieldset", {}, h("legend", { text: t("playnow.paces") }),
      PACES.map((pace) => checkbox("pace", pace, t(`playnow.pace.${pace}`), kept.paces.includes(pace)))),
    checkbox("rated", "yes", t("playnow.rated"), kept.rated),
    h("div", { class: "field" }, h("label", { for: "playnow-bots", text: t("playnow.bots") }),
      h("select", { id: "playnow-bots", name: "bots" }, BOT_HOURS.map((hours) => h("option",
        { value: hours, selected: hours === kept.bots }, hours ? t("playnow.botsAfter", { hours }) : t("playnow.noBots"))))),
    h("button", { type: "submit", class: "primary", text: t("playnow.seek") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = {
      games: [...form.querySelectorAll("input[name=game]:checked")].map((box) => box.value),
      min: parseInt(form.elements.min.value, 10), max: parseInt(form.elements.max.value, 10),
      paces: [...form.querySelectorAll("input[name=pace]:checked")].map((box) => box.value),
      rated: form.elements.rated.checked, bots: parseInt(form.elements.bots.value, 10),
    };
    if (!chosen.games.length || !chosen.paces.length) { announce(t("playnow.pickGame")); return; }
    localStorage.setItem(KEPT, JSON.stringify(chosen));
    const level = (types.find((ty) => ty.type === chosen.games[0]).bot_levels[0] || {}).name;
    try {
      await api.createSeek({
        games: chosen.games.map((type) => ({ type })), players: { min: chosen.min, max: chosen.max },
        paces: chosen.paces, rated: chosen.rated,
        bot_fill: chosen.bots && level ? { level, after_hours: chosen.bots } : null });
      announce(t("playnow.sought"));
      await renderSeeks(seeks, types);
    } catch (error) { handleError(error); }
  });
  renderSeeks(seeks, types).catch(() => {});
  return h("section", { "aria-labelledby": "playnow-title" },
    h("h2", { id: "playnow-title", text: t("playnow.title") }), seeks, form);
}

function waited(seconds) {
  const minutes = Math.floor(seconds / 60);
  return minutes < 120 ? t("playnow.waited", { minutes }) : t("playnow.waitedHours", { hours: Math.floor(minutes / 60) });
}

async function renderSeeks(section, types) {
  const mine = await api.mySeeks();
  const title = (type) => (types.find((ty) => ty.type === type) || { title: type }).title;
  section.replaceChildren(mine.length ? h("h3", { text: t("playnow.mine") }) : "",
    mine.length ? h("ul", { class: "plain-list seek-list" }, mine.map((seek) => h("li", { class: "seek" },
      h("span", { text: t("playnow.line", { games: seek.games.map((game) => title(game.type)).join(", "),
        fewest: seek.players.min, most: seek.players.max }) }),
      h("small", { class: "muted", text: `${waited(seek.waited_seconds)} · ${tn("playnow.others", seek.waiting_in_pool)}` }),
      h("button", { type: "button", onclick: () => api.cancelSeek(seek.id).then(() => {
        announce(t("playnow.cancelled"));
        return renderSeeks(section, types);
      }).catch(handleError) }, t("playnow.cancel"))))) : "");
}

// The directory's search box: players and bots by the start of their name, each a link to
// their profile, with "Challenge" where the server says you may.
export function playerSearch(types) {
  const results = h("ul", { class: "plain-list search-results", "aria-live": "polite" });
  const input = h("input", { type: "search", id: "player-search", autocomplete: "off", maxlength: 40 });
  let asked = 0;
  input.addEventListener("input", async () => {
    const name = input.value.trim();
    const mine = ++asked;
    if (!name) { results.replaceChildren(); return; }
    try {
      const found = await api.searchPlayers(name);
      if (mine !== asked) return;  // a later keystroke's answer wins
      results.replaceChildren(...(found.length ? found.map((player) => {
        const toggle = player.can_challenge ? challengeToggle(player, types) : null;
        return h("li", { class: "found" },
          h("a", { class: "profile-link", href: profileHref(player.id), text: player.name }),
          player.bot ? h("span", { class: "badge", text: t("search.bot") }) : null,
          player.description ? h("small", { class: "muted", text: player.description }) : null,
          toggle ? h("div", { class: "button-row" }, toggle.button) : null, toggle ? toggle.form : null);
      }) : [h("li", { class: "muted", text: t("search.none") })]));
    } catch (error) { handleError(error); }
  });
  return h("section", { class: "player-search" },
    h("label", { for: "player-search", text: t("search.label") }), input, results);
}
