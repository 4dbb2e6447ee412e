// Pöytä PWA shell: start-up, identity and the router. The renderer contract for the games
// is in games/README.md.
import { t, language } from "./i18n.js";
import { api, me, forgetPlayer, ApiError } from "./api.js";
import { $, clearError, setOffline, handleError, setPage, showWho, h } from "./ui.js";
import { homePage, rulesPage, joinPage, invitePage, invitePreview } from "./home.js";
import { gamePage } from "./game.js";
import { replayPage } from "./replay.js";
import { settingsPage, signinPage } from "./settings.js";
import { startInbox } from "./inbox.js";
import { askName } from "./welcome.js";
import { profilePage } from "./profile.js";
import { leaderboardPage } from "./leaderboard.js";
import { friendsPage, addFriendPage } from "./friends.js";
import { tournamentsPage, tournamentPage } from "./tournaments.js";

window.addEventListener("offline", () => setOffline(true));
window.addEventListener("online", () => { setOffline(false); if (page && page.pollNow) page.pollNow(); });

// ---------------------------------------------------------------- router
let page = null; // the current page's {stop(), pollNow()}, filled in by the page

const routeOf = () => location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);

// Pages anyone may open without a name: a new device's sign-in link, and the rules.
const WITHOUT_NAME = new Set(["signin", "rules"]);

async function route() {
  if (page && page.stop) page.stop();
  page = {};
  const current = page;
  clearError();
  // A sheet belongs to the page that opened it (a round's result, How to play): it closes with it.
  document.querySelectorAll("dialog[open]").forEach((dialog) => dialog.close());
  const [name, arg, more] = routeOf();
  try {
    const named = !me() && !WITHOUT_NAME.has(name);
    if (named) {
      const preview = name === "invite" && arg ? await invitePreview(arg) : null;
      // A friend link names its player before the new one says who they are.
      const friend = name === "friend" && arg ? await api.friendLinkPreview(arg).catch(() => null) : null;
      await askName({ invited: name === "invite" || name === "join", befriended: name === "friend",
        friend: friend && friend.name, preview });
      if (current !== page) return; // the player went elsewhere meanwhile
      showWho();
      startInbox();
    }
    if (!name) await homePage(current, route);
    else if (name === "game" && arg) await gamePage(arg, current);
    else if (name === "join" && arg) await joinPage(arg);
    else if (name === "invite" && arg) await invitePage(arg, { accept: named });
    else if (name === "replay" && arg) await replayPage(arg, current);
    else if (name === "review" && arg) await replayPage(arg, current, { review: true });
    else if (name === "rules" && arg) await rulesPage(arg, more);
    else if (name === "settings") await settingsPage();
    else if (name === "signin" && arg) await signinPage(arg);
    else if (name === "player" && arg) await profilePage(arg);
    else if (name === "leaderboard" && arg) await leaderboardPage(arg);
    else if (name === "friends") await friendsPage();
    else if (name === "friend" && arg) await addFriendPage(arg);
    else if (name === "tournaments") await tournamentsPage();
    else if (name === "tournament" && arg) await tournamentPage(arg);
    else setPage(t("notfound"), h("h1", { text: t("notfound") }), h("p", {}, h("a", { href: "#/" }, t("nav.home"))));
  } catch (error) {
    handleError(error);
  }
}

// ---------------------------------------------------------------- start
async function start() {
  document.documentElement.lang = language();
  document.querySelector(".skip").textContent = t("nav.skip");
  $("nav-settings").textContent = t("nav.settings");
  $("nav-friends").textContent = t("friends.nav");
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
  window.addEventListener("hashchange", route);
  if (me()) {
    // Known player: show the app at once (it may be offline); check the token meanwhile.
    showWho();
    startInbox();
    api.me().catch(async (error) => {
      if (error instanceof ApiError && error.status === 401) {
        // Our token is unknown to the server (e.g. a reset database or a revoked device).
        forgetPlayer();
        location.reload();
      }
    }).catch(handleError);
  }
  await route();
}

start();
