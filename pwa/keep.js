// What the phone keeps for when the network is gone: the last inbox and the last view of each
// game (the most recent few), and moves tapped offline until they are sent.
const PREFIX = "poyta.kept.";
const ORDER = "poyta.kept"; // keys, most recently kept last
const MOST = 30;

function order() {
  try { return JSON.parse(localStorage.getItem(ORDER) || "[]"); } catch { return []; }
}

// Keeps data under key with the time; the oldest games are dropped beyond MOST.
export function keep(key, data) {
  const keys = order().filter((k) => k !== key);
  keys.push(key);
  for (const old of keys.splice(0, Math.max(0, keys.length - MOST))) localStorage.removeItem(PREFIX + old);
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ at: Date.now(), data }));
    localStorage.setItem(ORDER, JSON.stringify(keys));
  } catch { /* storage full or off: the phone simply keeps less */ }
}

// {at, data} as kept, or null.
export function kept(key) {
  try { return JSON.parse(localStorage.getItem(PREFIX + key) || "null"); } catch { return null; }
}

// A move tapped while offline, with the version of the view it was made on.
const heldKey = (gameId) => `poyta.held.${gameId}`;
export function holdMove(gameId, move) { localStorage.setItem(heldKey(gameId), JSON.stringify(move)); }
export function heldMove(gameId) {
  try { return JSON.parse(localStorage.getItem(heldKey(gameId)) || "null"); } catch { return null; }
}
export function dropMove(gameId) { localStorage.removeItem(heldKey(gameId)); }
