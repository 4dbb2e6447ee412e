// Every user-facing string of the shell lives here, so a translation is a drop-in:
// add a catalogue (e.g. `fi`) with the same keys. Game renderer modules add their own
// keys with addStrings(lang, {...}) under a "<type>." prefix.
const catalogues = {
  en: {
    "app.name": "Pöytä",
    "app.tagline": "Card games at your own pace",
    "nav.home": "Home",
    "nav.skip": "Skip to content",
    "me.you": "You are {name}",
    "offline": "You are offline. Retrying…",
    "loading": "Loading…",
    "dismiss": "Dismiss",
    "error.generic": "Something went wrong ({status}).",
    "error.network": "Cannot reach the server.",
    "home.new": "New game",
    "home.game": "Game",
    "home.players": "Number of players",
    "home.seats": "Other seats",
    "home.seat": "Seat {n}",
    "home.seat.you": "Seat 1: you",
    "home.seat.friend": "Friend (human)",
    "home.seat.bot": "Bot ({level})",
    "home.options": "Options",
    "home.create": "Create game",
    "home.creating": "Creating…",
    "home.mine": "My games",
    "home.none": "No games yet. Create one above, or open an invite link from a friend.",
    "home.rules": "Rules of {title}",
    "home.rulesList": "Rules",
    "home.forget": "Remove",
    "home.with": "with {names}",
    "home.forgetLabel": "Remove game {title} {id} from this list",
    "home.open": "{title} · {status}",
    "status.waiting": "waiting for players",
    "status.active": "in progress",
    "status.finished": "finished",
    "status.unknown": "unknown",
    "status.yourTurn": "your turn",
    "game.invite": "Invite friends",
    "game.inviteText": "Send this link to the friends who take the open seats.",
    "game.inviteLink": "Invite link",
    "game.share": "Share",
    "game.copy": "Copy",
    "game.copied": "Link copied.",
    "game.shareTitle": "Join my game of {title} on Pöytä",
    "game.seats": "Players",
    "game.you": "you",
    "game.youName": "You",
    "game.human": "human",
    "game.bot": "bot, {level}",
    "game.open": "open seat",
    "game.score": "Score {score}",
    "game.toAct": "to act",
    "game.waitingFor": "Waiting for {names}",
    "game.waitingPlayers": "Waiting for players to join",
    "game.yourTurn": "Your turn",
    "game.spectator": "You are watching this game.",
    "game.join": "Take a seat",
    "game.finished": "Game over",
    "game.outcome": "Result",
    "game.rank": "Rank",
    "game.player": "Player",
    "game.points": "Score",
    "game.winner": "Winner",
    "game.winners": "Winner: {names}",
    "game.youWon": "You won!",
    "game.rules": "Rules of {title}",
    "game.noRenderer": "This game cannot be shown by this version of the app.",
    "game.and": " and ",
    "game.turnOf": "{names} to act",
    "rules.title": "Rules",
    "rules.back": "Back",
    "notfound": "Page not found.",
    "join.joining": "Joining the game…",
    "join.watch": "Watch the game",
  },
};

let lang = "en";
const wanted = (typeof navigator !== "undefined" && navigator.language || "en").slice(0, 2);
if (catalogues[wanted]) lang = wanted;

export function language() { return lang; }

export function addStrings(language, strings) {
  catalogues[language] = Object.assign(catalogues[language] || {}, strings);
}

// t("game.score", {score: 5}) -> "Score 5"; unknown keys fall back to English, then the key.
export function t(key, vars = {}) {
  const text = (catalogues[lang] && catalogues[lang][key]) ?? catalogues.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

// "Anna", "Anna and Bo", "Anna, Bo and Cid"
export function listNames(names) {
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + t("game.and") + names[names.length - 1];
}
