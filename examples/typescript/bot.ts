// A Pöytä bot in TypeScript. Every type comes from the server's OpenAPI document:
//   npm ci && npm start          (types from the server's spec, built, and run against it;
//                                 POYTA_SERVER=<url> to choose the server, POYTA_SPEC the spec)
//   npm run check                (tsc --noEmit, after `npm run types`)
// It follows the player's event stream (NDJSON, one connection for all its games) and acts at
// each `your_turn` with the view's `version` and an Idempotency-Key.
import type { components, operations } from "./poyta-api";

type Schemas = components["schemas"];
type GameView = Schemas["GameView"];
type Action = NonNullable<GameView["legal_actions"]>[number];
type CreateGame = operations["createGame"]["requestBody"]["content"]["application/json"];
type StreamEvent = Schemas["StreamEvent"];

declare const process: { env: Record<string, string | undefined> };  // Node, without @types/node
const server = process.env.POYTA_SERVER ?? "http://127.0.0.1:8000";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// One request; a POST carries an Idempotency-Key, kept for its retries: after a dropped
// connection, a 429 or a 503 (waiting for Retry-After) it is sent again with the same key and
// body, and the server applies it once. Other errors come back as the contract's Error.
async function send(method: string, path: string, token?: string, body?: unknown
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method === "POST") headers["Idempotency-Key"] = crypto.randomUUID();
  for (;;) {
    let answer: Response;
    try {
      answer = await fetch(`${server}/api/v1${path}`, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      await sleep(1000);  // timed out or dropped: the same key again
      continue;
    }
    if (answer.status === 429 || answer.status === 503) {
      await sleep(1000 * Number(answer.headers.get("Retry-After") ?? "1"));
      continue;
    }
    return { status: answer.status, json: await answer.json() };
  }
}

async function call<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const answer = await send(method, path, token, body);
  if (answer.status >= 400) {
    const error: Schemas["Error"] = answer.json;
    throw new Error(`${method} ${path}: ${error.code} ${error.reason} ${error.message}`);
  }
  return answer.json as T;
}

// The view's `type` names the game, and with it the shape of its table and actions.
function choose(view: GameView): Action {
  switch (view.type) {
    case "sixnimmt": {
      // Take the row with the fewest bullheads; otherwise play the lowest card.
      const rows = view.table.row_bullheads;
      const cheapest = rows.indexOf(Math.min(...rows));
      const take = view.legal_actions.find((a) => a.type === "take_row" && a.row === cheapest);
      return take ?? view.legal_actions[0];
    }
    case "sixtysix": {
      const play = view.legal_actions.filter((a) => a.type === "play");
      const trumps = play.filter((a) => a.card.endsWith(view.table.trump));
      return view.legal_actions.find((a) => a.type === "declare") ?? trumps[0] ?? play[0];
    }
    case "sticheln":
      return view.legal_actions[view.legal_actions.length - 1];
    case "hattrick": {
      const passes = view.legal_actions.filter((a) => a.type === "pass");
      return passes[0] ?? view.legal_actions[0];
    }
  }
}

// The player's events, one JSON object a line, resumed after a dropped connection with the
// last event's `id` as Last-Event-ID (an event may then repeat, never go missing).
async function* events(token: string): AsyncGenerator<StreamEvent> {
  let lastId: string | undefined;
  for (;;) {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`, Accept: "application/x-ndjson",
    };
    if (lastId) headers["Last-Event-ID"] = lastId;
    try {
      const answer = await fetch(`${server}/api/v1/stream`, { headers });
      if (answer.status === 429) {  // at most 4 streams at once: wait for one to close
        await sleep(1000 * Number(answer.headers.get("Retry-After") ?? "5"));
        continue;
      }
      if (!answer.ok || !answer.body) throw new Error(`stream: ${answer.status}`);
      const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        let buffered = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffered += value;
          let end: number;
          while ((end = buffered.indexOf("\n")) >= 0) {
            const line = buffered.slice(0, end).trim();
            buffered = buffered.slice(end + 1);
            if (!line) continue;
            const event: StreamEvent = JSON.parse(line);
            if ("id" in event) lastId = event.id;
            yield event;
          }
        }
      } finally {
        await reader.cancel().catch(() => undefined);  // the caller is done: hang up
      }
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("stream:")) throw error;
    }
    await sleep(1000);  // the server closed or the connection dropped: resume
  }
}

// A turn: look at the view, act with its version; 409 (`stale_version`) means the game moved
// on, so look again (a secret choice already made shows in legal_actions too: act only when
// the seat is to act).
async function takeTurn(token: string, game: string): Promise<void> {
  for (;;) {
    const view = await call<GameView>("GET", `/games/${game}`, token);
    if (view.status !== "active" || view.your_seat === null || !view.to_act.includes(view.your_seat)) {
      return;
    }
    const body: Schemas["ActionRequest"] = { action: choose(view), version: view.version };
    const acted = await send("POST", `/games/${game}/actions`, token, body);
    if (acted.status === 200) return;
    const error: Schemas["Error"] = acted.json;
    if (acted.status !== 409) throw new Error(`act: ${error.code} ${error.reason} ${error.message}`);
  }
}

async function main(): Promise<void> {
  const me = await call<Schemas["NewPlayer"]>("POST", "/players", undefined,
    { name: "TypeScript bot", bot: true } satisfies Schemas["PlayerCreate"]);
  const request: CreateGame = {
    type: "hattrick", players: 4, pace: "none", options: { deals: 1 },
    seats: ["human", { bot: "easy" }, { bot: "easy" }, { bot: "easy" }],
  };
  const created = await call<GameView>("POST", "/games", me.token, request);
  for await (const event of events(me.token)) {
    // A bot with many games routes the events by their `game`; this one plays one.
    if (event.type === "heartbeat" || event.game !== created.id) continue;
    if (event.type === "your_turn") await takeTurn(me.token, event.game);
    if (event.type === "game_finished") {
      console.log(`finished: scores ${event.outcome.scores}, place ${event.your_place}`);
      return;
    }
  }
}

main();
