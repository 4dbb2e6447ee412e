// Paced play: what other seats did between two views, shown one step at a time. The server
// answers at once; only the phone takes its time. Games build the steps (their `stages`) from
// the events, most of them with tricksStages below.

// One step of the reveal: a view to show, the card that just arrived, whether it completes
// a trick (kept longer), and the event it shows (the status line tells it meanwhile).
export const step = (view, card = null, done = false, event = null) => ({ view, card, done, event });

// Trick games: every card played (or passed) is a step, and a completed trick is held.
// `plays` and `done` name the game's event types; `showTrick(view, trick, leader, event)` returns the
// previous view with that trick on the table and nothing playable. With `showTaken(view,
// event)` (the view with the trick just taken, its winner marked) a completed trick is held
// that way, even one the player's own card completed. Stops at a deal's end.
export function tricksStages(prev, events, { plays, done, ends, entry, leaderAfter, showTrick, showTaken }) {
  const stages = [];
  let trick = [...((prev.table || {}).trick || [])];
  let leader = (prev.table || {}).leader;
  let lastCardShown = false;
  for (const event of events) {
    if (plays.includes(event.type)) {
      if (!trick.length && event.seat !== undefined) leader = event.seat;
      trick = [...trick, entry(event)];
      // The player saw their own card go down: only the others' are paced.
      lastCardShown = event.seat !== prev.your_seat;
      if (lastCardShown) stages.push(step(showTrick(prev, trick, leader, event), event.card, false, event));
    } else if (done.includes(event.type)) {
      if (showTaken && lastCardShown) {
        Object.assign(stages[stages.length - 1], { view: showTaken(prev, event), done: true });
      } else if (showTaken) {
        stages.push(step(showTaken(prev, event), null, true, event));
      } else if (stages.length) {
        stages[stages.length - 1].done = true;
      }
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
