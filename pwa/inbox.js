// The inbox (the player's games, from the API) is kept fresh for the whole session, so the
// window title and the app badge always count the games waiting for the player. It is
// long-polled only while a page watches it (home); otherwise asked every minute.
import { api } from "./api.js";
import { setTurnCount } from "./ui.js";
import { startPolling } from "./poll.js";

let lines = null;
let poller = null;
const watchers = new Set();

export function startInbox() {
  if (poller) return;
  poller = startPolling({
    load: api.inbox,
    every: 60000,
    longPoll: () => watchers.size > 0,
    show(data) {
      lines = data;
      setTurnCount(data.filter((line) => line.your_turn).length);
      for (const watcher of watchers) watcher(data);
    },
  });
}

// watcher(lines) now (if known) and on every change; returns the function that stops watching.
export function watchInbox(watcher) {
  watchers.add(watcher);
  if (lines) watcher(lines);
  refreshInbox();
  return () => watchers.delete(watcher);
}

export function refreshInbox() {
  if (poller) poller.now();
}
