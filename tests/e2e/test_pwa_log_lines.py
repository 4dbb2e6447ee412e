"""The game log speaks to the player about their own moves: "Pelasit", "Otit värin", never
"Sinä pelasi"; "You played", never "You has". Every event of whole games played by the rules
(random legal moves, every seat seen in turn as the player's) is described by the PWA's own
renderers in Finnish and English."""
from __future__ import annotations

import random
import re

from playwright import sync_api

from rules import GAMES

SETUPS = [  # (type, players, options): together they make every event a game logs
    ("hattrick", 4, {"deals": 2}),
    ("sixnimmt", 3, {"threshold": 30, "draft": True}),
    ("sixtysix", 2, {"preset": "classic", "match_points": 3}),
    ("sixtysix", 4, {"preset": "classic", "match_points": 3}),
    ("sticheln", 3, {"deals": 2}),
]
# Events the server adds to any game (a time-out, a stand-in's move, a resignation, the end of
# a game whose log is full).
SERVICE_EVENTS = [{"type": "timeout", "seat": 0, "standin": False}, {"type": "timeout", "seat": 0, "standin": True},
                  {"type": "stand_in", "seat": 0}, {"type": "resigned", "seat": 0},
                  {"type": "ended", "reason": "log_full", "actions": 2000}]


def rare_events(type_name: str, events: list[dict]) -> list[dict]:
    """Events random play seldom makes (a changed secret choice, Sixty-six's trump exchange and
    the face-up trump drawn), shaped as the rules document them."""
    if type_name == "sixnimmt":
        return [{"type": "chose", "seat": 0, "changed": True}]
    if type_name == "sticheln":
        return [{"type": "chose", "seat": 0, "phase": phase, "changed": True} for phase in ("choose", "name")]
    if type_name == "sixtysix":
        gave, took = [event["card"] for event in events if event["type"] == "played"][:2]
        return [{"type": "exchanged", "seat": 0, "gave": gave, "took": took},
                {"type": "drawn", "order": [0, 1], "trump_card_to": 0, "stock_size": 0, "set_aside": 0}]
    return []
# The player as the subject of a verb ("Sinä pelasi"), where Finnish says it with the verb alone.
FINNISH_SUBJECT = re.compile(r"\bSinä\s+[^\W\d_]", re.IGNORECASE)
# "You" with a third-person verb, or told of "their" own card.
ENGLISH_THIRD_PERSON = re.compile(r"\bYou (has|is|was|does|\w+s)\b|\bYou\b[^.;]*\btheir\b", re.IGNORECASE)
DESCRIBE = """async ({ games, lang }) => {
  const i18n = await import("/i18n.js");
  const { describeEvent } = await import("/renderers.js");
  i18n.setLanguage(lang);
  const lines = [];
  for (const { type, players, events } of games) {
    const mod = await import(`/games/${type}/renderer.js`);
    for (let seat = 0; seat < players; seat++) {
      const ctx = { yourSeat: seat, t: i18n.t,
        seatName: (other) => (other === seat ? i18n.t("game.youName") : `Bot ${other + 1}`) };
      for (const event of events) {
        if (!event.to || event.to.includes(seat)) lines.push({ type, event: event.type, seat, line: describeEvent(mod, event, ctx) });
      }
    }
  }
  return lines;
}"""


def whole_game(type_name: str, players: int, options: dict, seed: int) -> list[dict]:
    """The events of a game to its end, each seat choosing an action type, then an action, at random."""
    game = GAMES[type_name]
    state = game.new_game(players, game.normalise_options(players, options), seed)
    rng = random.Random(seed)
    events = []
    while game.outcome(state) is None:
        seat = rng.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        kind = rng.choice(sorted({action["type"] for action in legal}))
        events += game.apply_action(state, seat, rng.choice([a for a in legal if a["type"] == kind]))
    return events


def test_log_lines_about_the_player_are_in_the_second_person(page, live_server):
    games = []
    for name, players, options in SETUPS:
        for seed in range(3):
            events = whole_game(name, players, options, seed)
            games.append({"type": name, "players": players,
                          "events": SERVICE_EVENTS + rare_events(name, events) + events})
    page.goto(live_server)
    sync_api.expect(page.locator("main")).not_to_be_empty()
    finnish = page.evaluate(DESCRIBE, {"games": games, "lang": "fi"})
    english = page.evaluate(DESCRIBE, {"games": games, "lang": "en"})

    for lines, wrong in ((finnish, FINNISH_SUBJECT), (english, ENGLISH_THIRD_PERSON)):
        bad = [line for line in lines if wrong.search(line["line"])]
        assert not bad, bad[:10]
        unfilled = [line for line in lines if "{" in line["line"] or line["line"] == line["event"]]
        assert not unfilled, unfilled[:10]
    # The player's own moves have lines of their own (the check above sees them).
    own = {line["line"].split(":")[0].split(" ")[0] for line in finnish}
    assert {"Pelasit", "Otit", "Passasit", "Sijoitit", "Voitit", "Suljit", "Ilmoitit", "Nostit", "Näytit", "Vaihdoit",
            "Luovutit", "Aikasi"} <= own, own
    # Every actor event of every game was seen with the player as the actor.
    seen = {(line["type"], line["event"]) for line in finnish}
    for event in ("drafted", "placed", "row_choice", "closed", "exchanged", "married", "declared", "drew", "drawn",
                  "passed", "trick_won"):
        assert any(kind == event for _, kind in seen), event
