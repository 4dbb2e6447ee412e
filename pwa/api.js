// The API client: identity (kept in localStorage) and JSON calls under /api/v1.
import { t } from "./i18n.js";

const BASE = "/api/v1";
const PLAYER_KEY = "poyta.player";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || t("error.generic", { status }));
    this.status = status;
    this.body = body;
  }
}

// A fetch that failed before any answer: offline or server unreachable.
export class OfflineError extends Error {
  constructor() { super(t("error.network")); }
}

let player = null;
try { player = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null"); } catch { player = null; }

export function me() { return player; }

async function call(method, path, { body, etag, auth = true } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && player) headers.Authorization = `Bearer ${player.token}`;
  if (etag) headers["If-None-Match"] = etag;
  let response;
  try {
    response = await fetch(BASE + path, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new OfflineError();
  }
  if (response.status === 304) return { notModified: true, etag };
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return { data, etag: response.headers.get("ETag") };
}

// Make sure we have an identity: register once with a default name.
export async function ensurePlayer() {
  if (player && player.token) return player;
  const name = `Player ${1000 + Math.floor(Math.random() * 9000)}`;
  const { data } = await call("POST", "/players", { body: { name }, auth: false });
  player = { id: data.id, name: data.name, token: data.token };
  localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  return player;
}

export function forgetPlayer() {
  player = null;
  localStorage.removeItem(PLAYER_KEY);
}

export const api = {
  me: () => call("GET", "/players/me").then((r) => r.data),
  types: () => call("GET", "/games/types").then((r) => r.data),
  rules: (type) => call("GET", `/games/types/${encodeURIComponent(type)}/rules`).then((r) => r.data),
  create: (spec) => call("POST", "/games", { body: spec }).then((r) => r.data),
  // -> {data, etag} or {notModified: true}
  game: (id, etag) => call("GET", `/games/${encodeURIComponent(id)}`, { etag }),
  join: (id, seat) => call("POST", `/games/${encodeURIComponent(id)}/join`,
    { body: seat === undefined ? {} : { seat } }).then((r) => r.data),
  act: (id, action, version) => call("POST", `/games/${encodeURIComponent(id)}/actions`,
    { body: version === undefined ? { action } : { action, version } }).then((r) => r.data),
};

// "My games": ids (with type and title) kept in localStorage, newest first.
const GAMES_KEY = "poyta.games";
export function myGames() {
  try { return JSON.parse(localStorage.getItem(GAMES_KEY) || "[]"); } catch { return []; }
}
export function rememberGame(view) {
  const games = myGames();
  const known = games.find((g) => g.id === view.id);
  if (known) Object.assign(known, { type: view.type, title: view.title, status: view.status });
  else games.unshift({ id: view.id, type: view.type, title: view.title, status: view.status });
  localStorage.setItem(GAMES_KEY, JSON.stringify(games.slice(0, 50)));
}
export function updateGame(view) {
  const games = myGames();
  const g = games.find((x) => x.id === view.id);
  if (g && g.status !== view.status) {
    g.status = view.status;
    localStorage.setItem(GAMES_KEY, JSON.stringify(games));
  }
}
export function forgetGame(id) {
  localStorage.setItem(GAMES_KEY, JSON.stringify(myGames().filter((g) => g.id !== id)));
}
