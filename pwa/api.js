// The API client: identity (kept in localStorage) and JSON calls under /api/v1.
import { t } from "./i18n.js";

const BASE = "/api/v1";
const PLAYER_KEY = "poyta.player";

export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super((body && body.message) || t("error.generic", { status }));
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;  // seconds, from Retry-After
  }
}

// A fetch that failed before any answer: offline or server unreachable.
export class OfflineError extends Error {
  constructor() { super(t("error.network")); }
}

let player = null;
try { player = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null"); } catch { player = null; }

export function me() { return player; }

// A fetch aborted on purpose (a long-poll cut short by pollNow) is neither an error nor offline.
export const isAbort = (error) => error && error.name === "AbortError";

async function call(method, path, { body, etag, auth = true, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && player) headers.Authorization = `Bearer ${player.token}`;
  if (etag) headers["If-None-Match"] = etag;
  let response;
  try {
    response = await fetch(BASE + path, {
      method, headers, cache: "no-store", signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new OfflineError();
  }
  if (response.status === 304) return { notModified: true, etag };
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw new ApiError(response.status, data, retryAfter);
  }
  return { data, etag: response.headers.get("ETag") };
}

export function setPlayer(identity) {
  player = { id: identity.id, name: identity.name, token: identity.token };
  localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  return player;
}

// A new identity under the name the player chose (asked on the first visit).
export async function register(name) {
  const { data } = await call("POST", "/players", { body: { name }, auth: false });
  return setPlayer(data);
}

export function forgetPlayer() {
  player = null;
  localStorage.removeItem(PLAYER_KEY);
}

const id = encodeURIComponent;
const data = (promise) => promise.then((r) => r.data);
// Long-pollable resources answer {data, etag} or {notModified: true}; `wait` seconds only with an ETag.
const pollable = (path, etag, wait, signal) =>
  call("GET", etag && wait ? `${path}?wait=${wait}` : path, { etag, signal });

export const api = {
  me: () => data(call("GET", "/players/me")),
  rename: async (name) => {
    const renamed = await data(call("PATCH", "/players/me", { body: { name } }));
    setPlayer({ ...player, name: renamed.name });
    return renamed;
  },
  inbox: (etag, wait, signal) => pollable("/players/me/games", etag, wait, signal),
  signinCode: () => data(call("POST", "/players/me/signin-codes")),
  signIn: (code, device) => data(call("POST", "/players/signin", { body: { code, device }, auth: false })),
  devices: () => data(call("GET", "/players/me/devices")),
  // The export is JSON Lines, not JSON: its text, as a file to save.
  exportData: async () => {
    let response;
    try {
      response = await fetch(`${BASE}/players/me/export`, { cache: "no-store",
        headers: { Accept: "application/x-ndjson", Authorization: `Bearer ${player.token}` } });
    } catch { throw new OfflineError(); }
    if (!response.ok) {
      let body = null;
      try { body = await response.json(); } catch { body = null; }
      throw new ApiError(response.status, body, Number(response.headers.get("Retry-After")) || null);
    }
    return response.blob();
  },
  deleteAccount: (playerId) => call("POST", "/players/me/deletion", { body: { confirm: playerId } }),
  passkeyRegistrationOptions: () => data(call("POST", "/players/me/passkey-registration/options")),
  registerPasskey: (credential, name) => data(call("POST", "/players/me/passkeys", { body: { credential, name } })),
  passkeys: () => data(call("GET", "/players/me/passkeys")),
  renamePasskey: (passkeyId, name) => data(call("PATCH", `/players/me/passkeys/${id(passkeyId)}`, { body: { name } })),
  removePasskey: (passkeyId) => call("DELETE", `/players/me/passkeys/${id(passkeyId)}`),
  passkeySignInOptions: () => data(call("POST", "/players/passkey-signin/options", { auth: false })),
  signInWithPasskey: (credential, device) => data(call("POST", "/players/passkey-signin",
    { body: { credential, device }, auth: false })),
  revokeDevice: (deviceId) => call("DELETE", `/players/me/devices/${id(deviceId)}`),
  types: () => data(call("GET", "/games/types")),
  rules: (type) => data(call("GET", `/games/types/${id(type)}/rules`)),
  lobby: () => data(call("GET", "/games/lobby")),
  create: (spec) => data(call("POST", "/games", { body: spec })),
  game: (gameId, etag, wait, signal) => pollable(`/games/${id(gameId)}`, etag, wait, signal),
  join: (gameId, seat) => data(call("POST", `/games/${id(gameId)}/join`,
    { body: seat === undefined ? {} : { seat } })),
  acceptInvite: (code) => data(call("POST", `/games/invites/${id(code)}`)),
  // What an invite link offers, before it is taken (no name needed yet).
  invitePreview: (code) => data(call("GET", `/games/invites/${id(code)}`)),
  // With `version` the server refuses (409) a move made on a view the game has since left.
  act: (gameId, action, version) => data(call("POST", `/games/${id(gameId)}/actions`,
    { body: version === undefined ? { action } : { action, version } })),
  takeBack: (gameId) => data(call("POST", `/games/${id(gameId)}/takeback`)),
  resign: (gameId) => data(call("POST", `/games/${id(gameId)}/resign`)),
  leave: (gameId) => call("POST", `/games/${id(gameId)}/leave`),
  say: (gameId, text) => data(call("POST", `/games/${id(gameId)}/chat`, { body: { text } })),
  // With `wait`, answered as soon as a message newer than `after` is said.
  chat: (gameId, after, wait = 0, signal) => data(call("GET",
    `/games/${id(gameId)}/chat?after=${after}${wait ? `&wait=${wait}` : ""}`, { signal })),
  rematch: (gameId) => data(call("POST", `/games/${id(gameId)}/rematch`)),
  // The log comes a page at a time: follow `next` to its end, as one answer.
  events: async (gameId, after) => {
    let page = await data(call("GET", `/games/${id(gameId)}/events?after=${after}`));
    const events = [...page.events];
    while (page.next !== null && page.next !== undefined) {
      page = await data(call("GET", `/games/${id(gameId)}/events?after=${page.next}`));
      events.push(...page.events);
    }
    return { ...page, events };
  },
  replay: (gameId, step) => data(call("GET", `/games/${id(gameId)}/replay/${step}`)),
  record: (gameId) => data(call("GET", `/games/${id(gameId)}/record`)),
  // A finished game's review: asked for once, then read until it is done.
  requestAnalysis: (gameId) => data(call("POST", `/games/${id(gameId)}/analysis`)),
  analysis: (gameId) => data(call("GET", `/games/${id(gameId)}/analysis`)),
  pushKey: () => data(call("GET", "/push/key", { auth: false })),
  subscribe: (subscription) => data(call("POST", "/push/subscriptions", { body: { subscription } })),
  unsubscribe: (subscriptionId) => call("DELETE", `/push/subscriptions/${id(subscriptionId)}`),
  clock: () => data(call("GET", "/players/me/clock")),
  setClock: (changes) => data(call("PATCH", "/players/me/clock", { body: changes })),
  startVacation: (days) => data(call("POST", "/players/me/vacation", { body: { days } })),
  endVacation: () => data(call("DELETE", "/players/me/vacation")),
  preselection: (gameId) => data(call("GET", `/games/${id(gameId)}/preselection`)),
  preselect: (gameId, action) => data(call("PUT", `/games/${id(gameId)}/preselection`, { body: { action } })),
  clearPreselection: (gameId) => call("DELETE", `/games/${id(gameId)}/preselection`),
  profile: (playerId) => data(call("GET", `/players/${id(playerId)}`)),
  createSeek: (seek) => data(call("POST", "/seeks", { body: seek })),
  mySeeks: () => data(call("GET", "/seeks")),
  cancelSeek: (seekId) => data(call("DELETE", `/seeks/${id(seekId)}`)),
  searchPlayers: (name) => data(call("GET", `/players/search?name=${id(name)}`)),
  leaderboard: (type) => data(call("GET", `/games/types/${id(type)}/leaderboard`)),
  friendLink: () => data(call("GET", "/players/me/friend-link")),
  addFriend: (code) => data(call("POST", `/players/friend-links/${id(code)}`)),
  friendLinkPreview: (code) => data(call("GET", `/players/friend-links/${id(code)}`)),
  friends: () => data(call("GET", "/players/me/friends")),
  removeFriend: (playerId) => call("DELETE", `/players/me/friends/${id(playerId)}`),
  blocks: () => data(call("GET", "/players/me/blocks")),
  block: (playerId) => call("PUT", `/players/me/blocks/${id(playerId)}`),
  unblock: (playerId) => call("DELETE", `/players/me/blocks/${id(playerId)}`),
  decline: (gameId) => call("POST", `/games/${id(gameId)}/decline`),
};
