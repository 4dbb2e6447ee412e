// Keeps one API resource fresh. While the page is visible it long-polls (?wait=25 with
// If-None-Match: the server answers as soon as something changes); while hidden it asks
// plainly every `every` ms, because a held request in a background tab only keeps a phone's
// radio awake. Offline it retries every few seconds and the page resumes by itself. Told that
// it holds too many requests (429), it asks plainly every few seconds for as long as the
// server said, then holds requests again.
import { isAbort, OfflineError, ApiError } from "./api.js";
import { setOffline, handleError } from "./ui.js";

export const LONG_POLL_SECONDS = 25;
const AFTER_CHANGE = 300;    // ms: a breather before holding the next request
const OFFLINE_RETRY = 4000;
const ERROR_RETRY = 15000;
const PLAIN_WHILE_REFUSED = 5000;   // ms between plain polls while long-polls are refused
const REFUSED_AT_LEAST = 30;        // s of plain polls after a refused long-poll

// load(etag, wait, signal) -> {data, etag} | {notModified}; show(data) renders it.
// longPoll() says whether to hold requests now (e.g. only while the home page shows the inbox).
// onGone(error) is called instead of retrying when the resource is 404/403.
export function startPolling({ load, show, every = 45000, longPoll = () => true, onGone }) {
  let etag = null;
  let timer = null;
  let controller = null;
  let generation = 0;
  let stopped = false;
  let plainUntil = 0;

  async function tick() {
    clearTimeout(timer);
    if (stopped) return;
    const mine = ++generation;
    const visible = document.visibilityState !== "hidden";
    const refused = Date.now() < plainUntil;
    const holding = visible && !refused && longPoll();
    controller = new AbortController();
    let delay = holding ? 0 : visible && refused ? PLAIN_WHILE_REFUSED : every;
    try {
      const result = await load(etag, holding ? LONG_POLL_SECONDS : 0, controller.signal);
      if (mine !== generation) return;
      setOffline(false);
      if (!result.notModified) {
        etag = result.etag;
        await show(result.data);
        if (holding) delay = AFTER_CHANGE;
      }
    } catch (error) {
      if (isAbort(error) || mine !== generation) return;
      if (error instanceof ApiError && (error.status === 404 || error.status === 403) && onGone) {
        stopped = true;
        onGone(error);
        return;
      }
      if (error instanceof ApiError && error.status === 429 && holding) {
        plainUntil = Date.now() + Math.max(error.retryAfter || 0, REFUSED_AT_LEAST) * 1000;
        delay = 0;
      } else {
        handleError(error);
        delay = error instanceof OfflineError ? OFFLINE_RETRY : ERROR_RETRY;
      }
    }
    if (!stopped && mine === generation) timer = setTimeout(tick, delay);
  }

  // Ask again at once: after an own action, when the page becomes visible, when back online.
  function now() {
    if (stopped) return;
    if (controller) controller.abort();
    tick();
  }
  const onVisibility = () => { if (document.visibilityState === "visible") now(); };
  document.addEventListener("visibilitychange", onVisibility);
  window.addEventListener("online", now);
  tick();
  return {
    now,
    stop() {
      stopped = true;
      clearTimeout(timer);
      if (controller) controller.abort();
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("online", now);
    },
  };
}
