"""High card: each deal gives both players five of the cards 1 to 20; the leader plays a card,
the other answers, and the higher card takes the trick, a point, and the next lead. Whoever has
the more points after the match's deals wins. Rules page: highcard.md beside this file.

Actions: ACTIONS below. What the table shows and what each event says: shapes.py.
"""
from __future__ import annotations

from rules.base import (DEALT, Action, ActionType, CardFormat, Field, Game, IllegalAction,
                        State, deal_rng, record_deal, recorded_deal, start_recording, winners_of)

PLAYERS = 2
HAND_SIZE = 5
PLAY, OVER = "play", "over"

CARD = CardFormat("HighCardCard", "A card's number: 1 to 20", frozenset(range(1, 21)),
                  example=13)
ACTIONS = (
    ActionType("play", "Play a card from your hand into the trick", "_play",
               (Field("card", "a card in your hand", card=CARD),), phases=(PLAY,)),
)


class HighCard(Game):
    actions = ACTIONS

    def new_game(self, players: int, options: dict, seed: int, recording: bool = False
                 ) -> State:
        state = start_recording({"seed": seed, "deals": options["deals"], "deal": 0,
                                 "phase": PLAY, "points": [0] * PLAYERS}, recording)
        self._deal(state)
        return state

    def _deal(self, state: State) -> None:
        state["deal"] += 1
        deck = list(range(1, 21))
        deal_rng(state["seed"], state["deal"]).shuffle(deck)
        hands = [sorted(deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE]) for seat in range(PLAYERS)]
        leader = (state["deal"] - 1) % PLAYERS
        state.update(hands=hands, leader=leader, turn=leader, trick=[], last_trick=None,
                     tricks=[0] * PLAYERS)
        record_deal(state, {"hands": [list(hand) for hand in hands], "scores": None})

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == OVER else [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["phase"] == OVER or seat != state["turn"]:
            return []
        return [{"type": "play", "card": card} for card in state["hands"][seat]]

    def _play(self, state: State, seat: int, action: Action) -> list[dict]:
        card = action["card"]
        if card not in state["hands"][seat]:
            raise IllegalAction(f"{card} is not in your hand")
        state["hands"][seat].remove(card)
        state["trick"].append({"seat": seat, "card": card})
        events = [{"type": "played", "seat": seat, "card": card}]
        if len(state["trick"]) < PLAYERS:
            state["turn"] = 1 - seat
            return events
        winner = max(state["trick"], key=lambda played: played["card"])["seat"]
        state["tricks"][winner] += 1
        state["points"][winner] += 1
        state["last_trick"] = {"cards": state["trick"], "winner": winner}
        state.update(trick=[], leader=winner, turn=winner)
        events.append({"type": "trick_won", "winner": winner,
                       "cards": [dict(played) for played in state["last_trick"]["cards"]]})
        if not state["hands"][winner]:
            events += self._end_deal(state)
        return events

    def _end_deal(self, state: State) -> list[dict]:
        recorded_deal(state)["scores"] = list(state["tricks"])
        if state["deal"] < state["deals"]:
            self._deal(state)
            return [{"type": "dealt", "deal": state["deal"], "leader": state["leader"]}]
        state.update(phase=OVER, turn=None)
        return [{"type": "game_over", **self.outcome(state)}]

    def view(self, state: State, seat: int | None) -> dict:
        last = state["last_trick"]
        return {
            "seat": seat, "phase": state["phase"], "deal": state["deal"],
            "scores": list(state["points"]),
            "hand": None if seat is None else list(state["hands"][seat]),
            "table": {
                "deals": state["deals"], "leader": state["leader"], "turn": state["turn"],
                "trick": [dict(played) for played in state["trick"]],
                "tricks": list(state["tricks"]),
                "hand_sizes": [len(hand) for hand in state["hands"]],
                "last_trick": None if last is None else {
                    "cards": [dict(played) for played in last["cards"]],
                    "winner": last["winner"]},
            },
        }

    def outcome(self, state: State) -> dict | None:
        if state["phase"] != OVER:
            return None
        scores = list(state["points"])
        return {"scores": scores, "winners": winners_of(scores, self.lower_score_wins)}

    def record(self, state: State) -> dict:
        return {"seed": state["seed"], "deals": [
            {"hands": [list(hand) for hand in deal["hands"]], "scores": deal["scores"]}
            for deal in state[DEALT]]}
