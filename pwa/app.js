// Pöytä PWA shell: router, identity, home screen, game page with polling, rules pages.
//
// GAME RENDERER CONTRACT (see also games/README.md)
// Each game type has one ES module at games/<type>.js, loaded with import(`./games/${type}.js`).
//   export function render(view, act, ctx) -> HTMLElement        (required)
//       view: the GameView from GET /api/v1/games/<id> (view.table is game-specific,
//             view.hand the caller's hand, view.legal_actions what the caller may do now).
//       act(action) -> Promise: posts {"action": action}; resolves with the new view (the shell
//             re-renders), rejects after the shell has shown the API's message.
//       ctx: { seatName(seat) -> "Anna" / "you", yourSeat, t, busy }.
//       Returns the whole game area (table + hand). Every playable thing must be a real <button>
//       whose accessible name says what it does ("Play 37, 1 bullhead"); give buttons a stable
//       data-focus-key so focus survives re-renders.
//   export function status(view, ctx) -> string | null      (optional) status line when it is the
//       caller's turn, e.g. "Your turn: choose a card". Default: "Your turn".
//   export function events(prev, view, ctx) -> string[]     (optional) short sentences for the screen
//       reader live region about what changed between two views ("Bot 2 took row 1").
//   export function seatNote(view, seat, ctx) -> string      (optional) extra mark shown by a seat
//       ("has chosen").
import { t, language } from "./i18n.js";
import { api, ensurePlayer, me, forgetPlayer, ApiError } from "./api.js";
import { $, clearError, setOffline, handleError, setPage, h } from "./ui.js";
import { homePage, rulesPage, joinPage } from "./home.js";
import { gamePage } from "./game.js";

window.addEventListener("offline", () => setOffline(true));
window.addEventListener("online", () => { setOffline(false); if (page && page.pollNow) page.pollNow(); });

// ---------------------------------------------------------------- router
let page = null; // the current page's {stop(), pollNow()}, filled in by the page


async function route() {
  if (page && page.stop) page.stop();
  page = {};
  const current = page;
  clearError();
  const hash = location.hash.replace(/^#\/?/, "");
  const [name, arg] = hash.split("/").map(decodeURIComponent);
  try {
    if (!name) await homePage(current, route);
    else if (name === "game" && arg) await gamePage(arg, current);
    else if (name === "join" && arg) await joinPage(arg);
    else if (name === "rules" && arg) await rulesPage(arg);
    else setPage(t("notfound"), h("h1", { text: t("notfound") }), h("p", {}, h("a", { href: "#/" }, t("nav.home"))));
  } catch (error) {
    handleError(error);
  }
}

// ---------------------------------------------------------------- start
async function start() {
  document.documentElement.lang = language();
  document.querySelector(".skip").textContent = t("nav.skip");
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
  window.addEventListener("hashchange", route);
  const showName = () => { $("who").textContent = t("me.you", { name: me().name }); };
  if (me()) {
    // Known player: show the app at once (it may be offline); check the token meanwhile.
    showName();
    route();
    api.me().catch(async (error) => {
      if (error instanceof ApiError && error.status === 401) {
        // Our token is unknown to the server (e.g. a reset database): register again.
        forgetPlayer();
        await ensurePlayer();
        showName();
        route();
      }
    }).catch(handleError);
    return;
  }
  for (;;) {
    try {
      await ensurePlayer();
      setOffline(false);
      break;
    } catch (error) {
      handleError(error);
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
  showName();
  await route();
}

start();

