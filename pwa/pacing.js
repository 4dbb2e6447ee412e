// Paced play: what other seats did between two views, shown one step at a time. The server
// answers at once; only the phone takes its time. Games build the steps (their `stages`) from
// the events, most of them with tricksStages below.

// One step of the reveal: a view to show, the card that just arrived, and whether it completes
// a trick (kept longer).
export const step = (view, card = null, done = false) => ({ view, card, done });

// Trick games: every card played (or passed) is a step, and a completed trick is held.
// `plays` and `done` name the game's event types; `showTrick(view, trick, leader)` returns the
// previous view with that trick on the table and nothing playable. Stops at a deal's end.
export function tricksStages(prev, events, { plays, done, ends, entry, leaderAfter, showTrick }) {
  const stages = [];
  let trick = [...((prev.table || {}).trick || [])];
  let leader = (prev.table || {}).leader;
  for (const event of events) {
    if (plays.includes(event.type)) {
      if (!trick.length && event.seat !== undefined) leader = event.seat;
      trick = [...trick, entry(event)];
      // The player saw their own card go down: only the others' are paced.
      if (event.seat !== prev.your_seat) stages.push(step(showTrick(prev, trick, leader), event.card));
    } else if (done.includes(event.type)) {
      if (stages.length) stages[stages.length - 1].done = true;
      trick = [];
      leader = leaderAfter(event, leader);
    } else if (ends.includes(event.type)) {
      break;
    }
  }
  return stages;
}

// A view of the table in between: the hand as it was, nothing to act on, nobody's turn.
export function between(prev, table, view = {}) {
  return { ...prev, ...view, table: { ...prev.table, ...table }, legal_actions: [], to_act: [] };
}
