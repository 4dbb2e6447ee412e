// The inbox (the player's games, from the API) is kept fresh for the whole session, so the
// window title and the app badge always count the games waiting for the player. It is
// long-polled only while a page watches it (home); otherwise asked every minute.
import { api, me } from "./api.js";
import { keep, kept } from "./keep.js";
import { setTurnCount } from "./ui.js";
import { startPolling } from "./poll.js";

let lines = null;
let asOf = null; // when the lines shown were fetched, while they are the ones kept from before
let poller = null;
const watchers = new Set();

const inboxKey = () => `inbox.${me().id}`;

export function startInbox() {
  if (poller) return;
  const saved = kept(inboxKey());
  if (saved) ({ data: lines, at: asOf } = saved);
  poller = startPolling({
    load: api.inbox,
    every: 60000,
    longPoll: () => watchers.size > 0,
    show(data) {
      lines = data;
      asOf = null;
      keep(inboxKey(), data);
      setTurnCount(data.filter((line) => line.your_turn).length);
      for (const watcher of watchers) watcher(data, null);
    },
  });
}

// watcher(lines, asOf) now (if known) and on every change; asOf is the time of lines kept from
// an earlier visit (offline), null once they are current. Returns the function that stops watching.
export function watchInbox(watcher) {
  watchers.add(watcher);
  if (lines) watcher(lines, asOf);
  refreshInbox();
  return () => watchers.delete(watcher);
}

export function refreshInbox() {
  if (poller) poller.now();
}
