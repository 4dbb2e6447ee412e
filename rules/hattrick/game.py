"""Hattrick: the double trick game for 4-7 players (rules page: seeds/hattrick.md).

A trick may hold two of the three colours, each going to the highest card of its colour; once
a trick shows two colours, a player may pass instead, showing a card of the third colour and
laying it face down (-2). A deal scores +1 for each collected card of a player's best colour
and -1 for every other; the highest total after the match's deals wins.

Actions (always by the seat in `table["turn"]`): declared in ACTIONS below. The phases, the
view's table and every event, field by field: shapes.py.
"""
from __future__ import annotations


from rules.base import (DEALT, Action, ActionType, CardFormat, Field, Game, IllegalAction,
                        State, deal_rng, record_deal, recorded_deal, start_recording, winners_of)

COLOURS = ("red", "blue", "green")  # also the order that breaks the last leader ties
HAND_SIZE = {4: 15, 5: 12, 6: 10, 7: 9}


ALL_CARDS = [f"{colour}-{value}" for colour in COLOURS for value in range(21)]
COLOUR_OF = {card: index // 21 for index, card in enumerate(ALL_CARDS)}
VALUE_OF = {card: index % 21 for index, card in enumerate(ALL_CARDS)}
SORT_KEY = {card: index for index, card in enumerate(ALL_CARDS)}

CARD = CardFormat("HattrickCard", "Colour red, blue or green, a hyphen and the value 1 to 20 "
                  "(0 too with 7 players)", frozenset(ALL_CARDS), example="red-15",
                  pattern="^(?:red|blue|green)-(?:[0-9]|1[0-9]|20)$")
ACTIONS = (
    ActionType("play", "Put a card into the trick; once the trick shows two colours, only "
               "those colours may be played", "_play_card",
               (Field("card", "a card in your hand", card=CARD),)),
    ActionType("pass", "Once the trick shows two colours: show a card of the third colour and "
               "lay it face down in front of you (-2 at scoring)", "_pass_card",
               (Field("card", "a card of the third colour in your hand", card=CARD),)),
)


def deck_for(players: int) -> list[str]:
    lowest = 0 if players == 7 else 1
    return [card for card in ALL_CARDS if VALUE_OF[card] >= lowest]


def trick_colours(trick: list) -> list[int]:
    """Colours of the played (not passed) cards, in order of appearance."""
    colours = []
    for _seat, card, passed in trick:
        if not passed and COLOUR_OF[card] not in colours:
            colours.append(COLOUR_OF[card])
    return colours


def copy_trick(trick: dict | None) -> dict | None:
    if trick is None:
        return None
    return {"cards": [dict(entry) for entry in trick["cards"]], "taken": dict(trick["taken"]),
            "next_leader": trick["next_leader"]}


def copy_deal_end(end: dict | None) -> dict | None:
    if end is None:
        return None
    return {"deal": end["deal"], "piles": [{colour: list(cards) for colour, cards in piles.items()}
                                           for piles in end["piles"]],
            "passed": [list(cards) for cards in end["passed"]], "set_aside": list(end["set_aside"]),
            "last_trick": copy_trick(end["last_trick"]), "scores": list(end["scores"])}


def deal_score(piles: list[list[str]], passed: list[str]) -> int:
    collected = sum(len(pile) for pile in piles)
    best = max(len(pile) for pile in piles)
    return best - (collected - best) - 2 * len(passed)


def resolve_trick(trick: list) -> tuple[dict[int, int], int]:
    """({colour: seat taking it}, next leader) for a complete trick."""
    return settle_trick([(VALUE_OF[card], COLOUR_OF[card], seat)
                         for seat, card, passed in trick if not passed])


def settle_trick(played: list[tuple[int, int, int]]) -> tuple[dict[int, int], int]:
    """({colour: seat taking it}, next leader) from the (value, colour, seat) of played cards."""
    top_of: dict[int, tuple[int, int, int]] = {}
    for entry in played:
        colour = entry[1]
        if colour not in top_of or entry[0] > top_of[colour][0]:
            top_of[colour] = entry
    taken = {colour: seat for colour, (_value, _colour, seat) in top_of.items()}
    # Highest first; between equal values the colour order red, blue, green decides.
    tops = sorted(top_of.values(), key=lambda entry: (-entry[0], entry[1]))
    if len(tops) == 1 or tops[0][0] > tops[1][0]:
        return taken, tops[0][2]
    rest = [entry for entry in played if entry not in tops]
    if not rest:
        return taken, tops[0][2]
    next_value = max(value for value, _colour, _seat in rest)
    return taken, min((colour, seat) for value, colour, seat in rest if value == next_value)[1]


class Hattrick(Game):
    actions = ACTIONS

    def new_game(self, players: int, options: dict, seed: int, recording: bool = False
                 ) -> State:
        state: State = start_recording({
            "seed": seed, "players": players, "deals": options["deals"], "deal": 0,
            "phase": "play", "match": [0] * players, "sheet": [], "previous_deal": None,
        }, recording)
        self._start_deal(state)
        return state

    def _start_deal(self, state: State) -> None:
        players = state["players"]
        state["deal"] += 1
        deal = state["deal"]
        deck = deck_for(players)
        deal_rng(state["seed"], deal).shuffle(deck)
        size = HAND_SIZE[players]
        hands = [sorted(deck[seat * size:(seat + 1) * size], key=SORT_KEY.__getitem__)
                 for seat in range(players)]
        dealer = (players - 1 + deal - 1) % players
        state.update({
            "dealer": dealer, "leader": (dealer + 1) % players, "turn": (dealer + 1) % players,
            "hands": hands, "piles": [[[], [], []] for _ in range(players)],
            "passed": [[] for _ in range(players)], "trick": [], "last_trick": None, "tricks": [],
        })
        record_deal(state, {"dealer": dealer, "hands": [list(hand) for hand in hands],
                            "scores": None})

    # --- whose turn and what is allowed -------------------------------------------
    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["phase"] == "over" or seat != state["turn"]:
            return []
        hand = state["hands"][seat]
        colours = trick_colours(state["trick"])
        if len(colours) < 2:
            return [{"type": "play", "card": card} for card in hand]
        return [{"type": "play" if COLOUR_OF[card] in colours else "pass", "card": card}
                for card in hand]

    def _play_card(self, state: State, seat: int, action: Action) -> list[dict]:
        return self._put_card(state, seat, action["card"], passed=False)

    def _pass_card(self, state: State, seat: int, action: Action) -> list[dict]:
        return self._put_card(state, seat, action["card"], passed=True)

    def _put_card(self, state: State, seat: int, card: str, passed: bool) -> list[dict]:
        hand = state["hands"][seat]
        if card not in hand:
            raise IllegalAction(f"{card} is not in your hand")
        colours = trick_colours(state["trick"])
        in_trick_colour = COLOUR_OF[card] in colours
        if passed:
            if len(colours) < 2:
                raise IllegalAction("you may pass only once the trick shows two colours")
            if in_trick_colour:
                raise IllegalAction(
                    f"to pass you must show a card of the third colour, not {COLOURS[COLOUR_OF[card]]}")
        elif len(colours) == 2 and not in_trick_colour:
            shown = " or ".join(COLOURS[colour] for colour in colours)
            raise IllegalAction(f"the trick already shows two colours: play {shown}, or pass "
                                f"with your {card}")

        hand.remove(card)
        if passed:
            state["passed"][seat].append(card)
        state["trick"].append([seat, card, passed])
        events = [{"type": "passed" if passed else "played", "seat": seat, "card": card}]
        players = state["players"]
        if len(state["trick"]) < players:
            state["turn"] = (seat + 1) % players
        else:
            self._finish_trick(state, events)
        return events

    def _finish_trick(self, state: State, events: list[dict]) -> None:
        trick = state["trick"]
        taken, leader = resolve_trick(trick)
        cards_taken: dict[int, list[str]] = {colour: [] for colour in taken}
        for seat, card, passed in trick:
            if not passed:
                colour = COLOUR_OF[card]
                state["piles"][taken[colour]][colour].append(card)
                cards_taken[colour].append(card)
        events.append({"type": "trick_taken", "next_leader": leader, "taken": [
            {"seat": taken[colour], "colour": COLOURS[colour],
             "cards": sorted(cards_taken[colour], key=SORT_KEY.__getitem__)}
            for colour in sorted(taken)]})
        state["last_trick"] = {
            "cards": [{"seat": seat, "card": card, "passed": passed} for seat, card, passed in trick],
            "taken": {COLOURS[colour]: seat for colour, seat in taken.items()},
            "next_leader": leader,
        }
        # Every card of a trick was shown, a pass too: a player may remember who played what.
        # (A deal stored before this record existed lists its tricks from the next one.)
        state.setdefault("tricks", []).append(copy_trick(state["last_trick"]))
        state["trick"] = []
        state["leader"] = state["turn"] = leader
        if len(state["hands"][0]) == 1:
            self._finish_deal(state, events)

    def _finish_deal(self, state: State, events: list[dict]) -> None:
        scores = [deal_score(piles, passed) for piles, passed in zip(state["piles"], state["passed"])]
        set_aside = [hand.pop() for hand in state["hands"]]
        state["sheet"].append(scores)
        recorded_deal(state)["scores"] = list(scores)
        state["match"] = [total + score for total, score in zip(state["match"], scores)]
        state["previous_deal"] = {
            "deal": state["deal"], "piles": self._public_piles(state), "passed":
            [list(cards) for cards in state["passed"]], "set_aside": set_aside,
            "last_trick": copy_trick(state["last_trick"]), "scores": scores,
        }
        events.append({"type": "deal_ended", "deal": state["deal"], "set_aside": list(set_aside),
                       "scores": list(scores), "totals": list(state["match"])})
        if state["deal"] < state["deals"]:
            self._start_deal(state)
            events.append({"type": "dealt", "deal": state["deal"], "dealer": state["dealer"],
                           "leader": state["leader"], "hand_size": len(state["hands"][0])})
        else:
            state["phase"] = "over"
            state["turn"] = None
            events.append({"type": "game_over", **self.outcome(state)})

    # --- what players see -----------------------------------------------------------
    @staticmethod
    def _public_piles(state: State) -> list[dict]:
        return [{COLOURS[colour]: sorted(pile, key=SORT_KEY.__getitem__)
                 for colour, pile in enumerate(piles)} for piles in state["piles"]]

    def view(self, state: State, seat: int | None) -> dict:
        trick = state["trick"]
        return {
            "seat": seat,
            "phase": state["phase"],
            "deal": state["deal"],
            "scores": list(state["match"]),
            "hand": None if seat is None else list(state["hands"][seat]),
            "table": {
                "deals": state["deals"],
                "dealer": state["dealer"],
                "leader": state["leader"],
                "turn": state["turn"],
                "hand_sizes": [len(hand) for hand in state["hands"]],
                "trick": [{"seat": s, "card": card, "passed": passed} for s, card, passed in trick],
                "trick_colours": [COLOURS[colour] for colour in trick_colours(trick)],
                "piles": self._public_piles(state),
                "passed": [list(cards) for cards in state["passed"]],
                "passed_counts": [len(cards) for cards in state["passed"]],
                "deal_scores": [deal_score(piles, passed)
                                for piles, passed in zip(state["piles"], state["passed"])],
                "sheet": [list(scores) for scores in state["sheet"]],
                "last_trick": copy_trick(state["last_trick"]),
                "tricks": [copy_trick(done) for done in state.get("tricks", [])],
                "previous_deal": copy_deal_end(state["previous_deal"]),
            },
        }

    def trick_number(self, state: State) -> int | None:
        return len(state.get("tricks", [])) + 1 if state["phase"] == "play" else None

    def outcome(self, state: State) -> dict | None:
        if state["phase"] != "over":
            return None
        scores = list(state["match"])
        return {"scores": scores, "winners": winners_of(scores, self.lower_score_wins)}

    def record(self, state: State) -> dict:
        return {"seed": state["seed"], "deals": [
            {"dealer": deal["dealer"], "hands": [list(hand) for hand in deal["hands"]],
             "scores": None if deal["scores"] is None else list(deal["scores"])}
            for deal in state[DEALT]]}
