// Loading the game renderer modules (games/<type>/renderer.js) and describing game events with them.
import { seatLine, t } from "./i18n.js";

const modules = new Map();

// The renderer of a game type, or null when this version of the app has none.
export async function loadModule(type) {
  if (!modules.has(type)) {
    // A failed import (offline before the module was cached) is tried again next time.
    modules.set(type, import(`./games/${type}/renderer.js`).catch(() => { modules.delete(type); return null; }));
  }
  return modules.get(type);
}

// One readable line for a game-log event: the game's describeEvent first, then the events
// every game shares (time-outs, stand-ins, automatic moves, a declined invitation, a game ended at its most moves), else the bare type so nothing is silently lost.
export function describeEvent(mod, event, ctx) {
  const own = mod && mod.describeEvent ? mod.describeEvent(event, ctx) : null;
  if (own) return own;
  if (event.type === "timeout") return seatLine(`event.timeout${event.standin ? "Standin" : ""}`, event.seat, ctx);
  if (event.type === "stand_in") return seatLine("event.standIn", event.seat, ctx);
  if (event.type === "resigned") return seatLine(event.ends_game ? "event.resignedEnds" : "event.resigned", event.seat, ctx);
  if (event.type === "declined") return t("event.declined", { seat: event.seat + 1 });
  if (event.type === "ended") return t("event.endedLogFull", { actions: event.actions });
  if (event.type === "automatic") return seatLine(`event.automatic${event.how === "preselected" ? "Preselected" : ""}`, event.seat, ctx);
  return event.type;
}
