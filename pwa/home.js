// Home (create a game, my games, rules list), rules pages and invite links.
import { t, listNames } from "./i18n.js";
import { api, myGames, rememberGame, updateGame, forgetGame } from "./api.js";
import { renderMarkdown } from "./markdown.js";
import { h, main, clearError, handleError, setOffline, gameTypes, typeInfo, setPage } from "./ui.js";

// ---------------------------------------------------------------- home
export async function homePage(page, retry) {
  const form = h("form", { class: "card-panel", "aria-labelledby": "new-game" });
  const mine = h("section", { "aria-labelledby": "my-games" });
  const rules = h("section", { "aria-labelledby": "rules-list" });
  const create = h("section", { "aria-labelledby": "new-game" }, h("h2", { id: "new-game", text: t("home.new") }), form);
  // Returning players see their games first.
  const first = myGames().length ? [mine, create] : [create, mine];
  setPage("", h("h1", { class: "visually-hidden", text: t("app.name") }), ...first, rules);
  renderMyGames(mine);
  let types;
  try {
    types = await gameTypes();
  } catch (error) {
    // Offline (or the server is down): say so and try again in a moment.
    handleError(error);
    const timer = setTimeout(retry, 5000);
    page.stop = () => clearTimeout(timer);
    page.pollNow = retry;
    return;
  }
  setOffline(false);
  buildCreateForm(form, types);
  rules.append(h("h2", { id: "rules-list", text: t("home.rulesList") }),
    h("ul", { class: "plain-list" }, types.map((ty) =>
      h("li", {}, h("a", { href: `#/rules/${encodeURIComponent(ty.type)}` }, t("home.rules", { title: ty.title }))))));
}

function optionField(option) {
  const id = `opt-${option.name}`;
  const label = option.description || option.name;
  if (option.type === "bool") {
    return h("div", { class: "field check" },
      h("input", { type: "checkbox", id, name: option.name, checked: !!option.default }),
      h("label", { for: id, text: label }));
  }
  if (option.type === "choice") {
    return h("div", { class: "field" }, h("label", { for: id, text: label }),
      h("select", { id, name: option.name }, (option.choices || []).map((c) =>
        h("option", { value: JSON.stringify(c), selected: c === option.default }, String(c)))));
  }
  return h("div", { class: "field" }, h("label", { for: id, text: label }),
    h("input", { type: "number", id, name: option.name, inputmode: "numeric", value: option.default,
      min: option.minimum ?? null, max: option.maximum ?? null, step: 1, required: true }));
}

function readOption(form, option) {
  const input = form.elements[option.name];
  if (option.type === "bool") return input.checked;
  if (option.type === "choice") return JSON.parse(input.value);
  return parseInt(input.value, 10);
}

function buildCreateForm(form, types) {
  const typeSelect = h("select", { id: "game-type", name: "type" },
    types.map((ty) => h("option", { value: ty.type }, ty.title)));
  const playersInput = h("input", { id: "players", name: "players", type: "number", inputmode: "numeric", step: 1, required: true });
  const seatsBox = h("div", { class: "seats-box" });
  const optionsBox = h("div");
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
        (ty.bot_levels || []).map((b) => h("option", { value: `bot:${b.name}`, title: b.description }, t("home.seat.bot", { level: b.name }))),
        h("option", { value: "human" }, t("home.seat.friend")));
      if (previous[i - 1]) select.value = previous[i - 1];
      seatsBox.append(h("div", { class: "field inline" }, h("label", { for: id, text: t("home.seat", { n: i + 1 }) }), select));
    }
  }
  function buildType() {
    const ty = current();
    playersInput.min = ty.min_players;
    playersInput.max = ty.max_players;
    playersInput.value = Math.max(ty.min_players, Math.min(ty.max_players, 4));
    optionsBox.replaceChildren();
    if (ty.options && ty.options.length) {
      optionsBox.append(h("fieldset", {}, h("legend", { text: t("home.options") }), ty.options.map(optionField)));
    }
    buildSeats();
  }
  typeSelect.addEventListener("change", buildType);
  playersInput.addEventListener("input", buildSeats);
  form.replaceChildren(
    h("div", { class: "field" }, h("label", { for: "game-type", text: t("home.game") }), typeSelect),
    h("div", { class: "field" }, h("label", { for: "players", text: t("home.players") }), playersInput),
    h("fieldset", {}, h("legend", { text: t("home.seats") }), seatsBox),
    optionsBox, submit);
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
      const view = await api.create({ type: ty.type, players: seats.length, options, seats });
      rememberGame(view);
      location.hash = `#/game/${encodeURIComponent(view.id)}`;
    } catch (error) {
      handleError(error);
      submit.disabled = false;
      submit.textContent = t("home.create");
    }
  });
}

function renderMyGames(section) {
  const games = myGames();
  section.replaceChildren(h("h2", { id: "my-games", text: t("home.mine") }));
  if (!games.length) { section.append(h("p", { class: "muted", text: t("home.none") })); return; }
  const list = h("ul", { class: "game-list" });
  section.append(list);
  for (const game of games) {
    const label = h("span", {}, t("home.open", { title: game.title || game.type, status: t(`status.${game.status || "unknown"}`) }));
    const item = h("li", {},
      h("a", { href: `#/game/${encodeURIComponent(game.id)}`, class: "game-link" }, label),
      h("button", { type: "button", class: "link", "aria-label": t("home.forgetLabel", { title: game.title || game.type, id: game.id.slice(0, 6) }),
        onclick: () => { forgetGame(game.id); renderMyGames(section); } }, t("home.forget")));
    list.append(item);
    if (game.status !== "finished") {
      api.game(game.id).then(({ data }) => {
        if (!data) return;
        updateGame(data);
        const yours = data.your_seat !== null && (data.to_act || []).includes(data.your_seat) && data.status === "active";
        label.textContent = t("home.open", { title: data.title, status: t(yours ? "status.yourTurn" : `status.${data.status}`) });
        const others = data.seats.filter((s) => s.seat !== data.your_seat).map((s) => s.name || t("game.open"));
        label.append(h("small", { text: t("home.with", { names: listNames(others) }) }));
        if (yours) item.classList.add("your-turn");
      }).catch(() => {});
    }
  }
}

// ---------------------------------------------------------------- rules
export async function rulesPage(type) {
  const info = await typeInfo(type);
  const title = info ? info.title : type;
  setPage(t("game.rules", { title }), h("p", {}, h("a", { href: "#/", text: `← ${t("nav.home")}` })),
    h("h1", { text: t("game.rules", { title }) }), h("p", { class: "muted", text: t("loading") }));
  const { markdown } = await api.rules(type);
  // The page already has the title as its h1: drop the document's own "# Title" line,
  // so that its "##" sections become h2.
  const body = markdown.trimStart();
  const doc = /^#\s/.test(body) ? renderMarkdown(body.replace(/^#\s.*\n?/, ""), 0) : renderMarkdown(body);
  main().lastChild.replaceWith(doc);
}

// ---------------------------------------------------------------- join
export async function joinPage(id) {
  setPage("", h("p", { class: "muted", text: t("join.joining") }));
  const { data } = await api.game(id);
  if (data.your_seat === null && data.status === "waiting") {
    try {
      rememberGame(await api.join(id));
    } catch (error) {
      // E.g. the last seat was just taken: say why, and offer to watch the game.
      handleError(error);
      setPage("", h("h1", { text: data.title }),
        h("p", {}, h("a", { href: `#/game/${encodeURIComponent(id)}` }, t("join.watch"))),
        h("p", {}, h("a", { href: "#/" }, t("nav.home"))));
      return;
    }
  } else if (data.your_seat !== null) {
    rememberGame(data);
  }
  location.replace(`#/game/${encodeURIComponent(id)}`);
}

