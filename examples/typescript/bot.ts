// A Pöytä bot in TypeScript. Every type comes from the server's OpenAPI document:
//   npm ci && npm run types      (POYTA_SPEC=<url or file> to choose the spec)
//   npm run check                (tsc --noEmit)
import type { components, operations } from "./poyta-api";

type Schemas = components["schemas"];
type GameView = Schemas["GameView"];
type Action = NonNullable<GameView["legal_actions"]>[number];
type CreateGame = operations["createGame"]["requestBody"]["content"]["application/json"];

declare const process: { env: Record<string, string | undefined> };  // Node, without @types/node
const server = process.env.POYTA_SERVER ?? "http://127.0.0.1:8000";

async function call<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${server}/api/v1${path}`, {
    method,
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) {
    const error: Schemas["Error"] = await answer.json();
    throw new Error(`${method} ${path}: ${error.code} ${error.message}`);
  }
  return answer.json() as Promise<T>;
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

async function main(): Promise<void> {
  const me = await call<Schemas["NewPlayer"]>("POST", "/players", undefined,
    { name: "TypeScript bot", bot: true } satisfies Schemas["PlayerCreate"]);
  const request: CreateGame = {
    type: "hattrick", players: 4, pace: "none", options: { deals: 1 },
    seats: ["human", { bot: "easy" }, { bot: "easy" }, { bot: "easy" }],
  };
  let view = await call<GameView>("POST", "/games", me.token, request);
  while (view.status !== "finished") {
    if (view.your_seat !== null && view.to_act.includes(view.your_seat)) {
      const body: Schemas["ActionRequest"] = { action: choose(view), version: view.version };
      view = await call<GameView>("POST", `/games/${view.id}/actions`, me.token, body);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 200));
      view = await call<GameView>("GET", `/games/${view.id}`, me.token);
    }
  }
  console.log(`finished: scores ${view.outcome?.scores}, winners ${view.outcome?.winners}`);
}

main();
