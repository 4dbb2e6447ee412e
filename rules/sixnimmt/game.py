"""6 nimmt! (Wolfgang Kramer): play cards onto four rows; the sixth card of a row takes the row.

Each turn every seat secretly chooses a card; once all have, the cards are placed in ascending
order, each behind the row end closest below it. A sixth card takes the row's five, a card
lower than every row end takes a row of its player's choice, and each card taken costs its
bullheads. The game ends after the round in which someone reaches the threshold; the fewest
bullheads win. The rules page is seeds/sixnimmt.md.

Actions: declared in ACTIONS below (type, fields, phase, handler). The phases, the view's table
and every event, field by field: shapes.py.
"""
from __future__ import annotations


from rules.base import (DEALT, Action, ActionType, CardFormat, Field, Game, IllegalAction,
                        State, deal_rng, record_deal, recorded_deal, start_recording, winners_of)

HAND_SIZE = 10
ROW_COUNT = 4
ROW_LIMIT = 5
HIGHEST_CARD = 104

DRAFT, CHOOSE, TAKE_ROW, OVER = "draft", "choose", "take_row", "over"

CARD = CardFormat("SixNimmtCard", "A card's number: 1 to 104 (to 10 x players + 4 with the "
                  "tactical deck)", frozenset(range(1, HIGHEST_CARD + 1)), example=37)
ACTIONS = (
    ActionType("play", "Secretly choose a card from your hand for this turn; until the last "
               "player has chosen, choosing again replaces your choice", "_choose_card",
               (Field("card", "a card in your hand", card=CARD),), phases=(CHOOSE,)),
    ActionType("take_row", "Your card is lower than every row's end: take a row (its cards "
               "count against you) and your card starts it again", "_take_row",
               (Field("row", "the row to take", minimum=0, maximum=ROW_COUNT - 1),),
               phases=(TAKE_ROW,)),
    ActionType("draft", "Option draft: take a card from the face-up display", "_draft_card",
               (Field("card", "a card in the display", card=CARD),), phases=(DRAFT,)),
)


def _card_bullheads(card: int) -> int:
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 10 == 5:
        return 2
    return 1


BULLHEADS = [0] + [_card_bullheads(card) for card in range(1, HIGHEST_CARD + 1)]


def bullheads(cards: list[int]) -> int:
    return sum(BULLHEADS[card] for card in cards)


def default_row(rows: list[list[int]]) -> int:
    """The row taken for a player who does not choose: fewest bullheads, fewest cards, lowest."""
    return min(range(len(rows)), key=lambda index: (bullheads(rows[index]), len(rows[index]), index))


def target_row(rows: list[list[int]], card: int) -> int | None:
    """Rules 1 and 2: the row whose end is the highest below `card`; None if every end is higher."""
    best, best_end = None, 0
    for index, row in enumerate(rows):
        end = row[-1]
        if best_end < end < card:
            best, best_end = index, end
    return best


class SixNimmt(Game):
    actions = ACTIONS

    def new_game(self, players: int, options: dict, seed: int, recording: bool = False
                 ) -> State:
        tactical = options["tactical_deck"]
        state = start_recording({
            "players": players,
            "seed": seed,
            "draft": options["draft"],
            "threshold": options["threshold"],
            "cards_in_use": HAND_SIZE * players + ROW_COUNT if tactical else HIGHEST_CARD,
            "deal": 0,
            "scores": [0] * players,
            "round_scores": [],
            "last_turn": None,
        }, recording)
        self._start_round(state)
        return state

    def _start_round(self, state: State) -> None:
        players = state["players"]
        deal = state["deal"] + 1
        dealer = (players - 1 + deal - 1) % players
        deck = list(range(1, state["cards_in_use"] + 1))
        deal_rng(state["seed"], deal).shuffle(deck)
        in_play = HAND_SIZE * players + ROW_COUNT
        state.update({
            "deal": deal, "dealer": dealer, "turn": 1,
            "chosen": [None] * players, "revealed": None, "row_chooser": None,
            "taken": [[] for _ in range(players)], "round_penalties": [0] * players,
            "unused": deck[in_play:], "played": [],
        })
        if state["draft"]:
            state.update({
                "phase": DRAFT, "hands": [[] for _ in range(players)],
                "rows": [[] for _ in range(ROW_COUNT)],
                "draft_display": sorted(deck[:in_play]), "draft_turn": (dealer + 1) % players,
            })
            record_deal(state, {"dealer": dealer, "display": deck[:in_play], "hands": None,
                                "rows": None, "unused": deck[in_play:], "scores": None})
            return
        hands = [deck[HAND_SIZE * seat:HAND_SIZE * (seat + 1)] for seat in range(players)]
        starters = deck[HAND_SIZE * players:in_play]
        state.update({
            "phase": CHOOSE, "hands": [sorted(hand) for hand in hands],
            "rows": [[card] for card in starters], "draft_display": None, "draft_turn": None,
        })
        record_deal(state, {"dealer": dealer, "hands": hands, "rows": starters,
                            "unused": deck[in_play:], "scores": None})

    # --- whose move, which moves --------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == CHOOSE:
            return [seat for seat, card in enumerate(state["chosen"]) if card is None]
        if phase == TAKE_ROW:
            return [state["row_chooser"]]
        if phase == DRAFT:
            return [state["draft_turn"]]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if self.may_change_choice(state, seat):
            return [{"type": "play", "card": card} for card in state["hands"][seat]]
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == CHOOSE:
            return [{"type": "play", "card": card} for card in state["hands"][seat]]
        if phase == TAKE_ROW:
            return [{"type": "take_row", "row": row} for row in range(ROW_COUNT)]
        return [{"type": "draft", "card": card} for card in state["draft_display"]]

    @staticmethod
    def may_change_choice(state: State, seat: int) -> bool:
        """A chosen card may be replaced while others still choose."""
        return (state["phase"] == CHOOSE and 0 <= seat < state["players"]
                and state["chosen"][seat] is not None)

    def _choose_card(self, state: State, seat: int, action: Action) -> list[dict]:
        card = action["card"]
        if card not in state["hands"][seat]:
            raise IllegalAction(f"card {card} is not in your hand")
        return self._choose(state, seat, card)

    def _take_row(self, state: State, seat: int, action: Action) -> list[dict]:
        return self._place_turn(state, action["row"])

    def _draft_card(self, state: State, seat: int, action: Action) -> list[dict]:
        card = action["card"]
        if card not in state["draft_display"]:
            raise IllegalAction(f"card {card} is not in the display")
        return self._draft(state, seat, card)

    # --- the rules --------------------------------------------------------------
    def _draft(self, state: State, seat: int, card: int) -> list[dict]:
        state["draft_display"].remove(card)
        hand = state["hands"][seat]
        hand.append(card)
        hand.sort()
        display = state["draft_display"]
        events = [{"type": "drafted", "seat": seat, "card": card}]
        if len(display) > ROW_COUNT:
            state["draft_turn"] = (seat + 1) % state["players"]
            return events
        state.update({"phase": CHOOSE, "rows": [[card] for card in display],
                      "draft_display": None, "draft_turn": None})
        record = recorded_deal(state)
        record["hands"] = [list(hand) for hand in state["hands"]]
        record["rows"] = list(display)
        return events

    def _choose(self, state: State, seat: int, card: int) -> list[dict]:
        hand = state["hands"][seat]
        chosen = state["chosen"]
        changed = chosen[seat] is not None
        if changed:
            hand.append(chosen[seat])
            hand.sort()
        hand.remove(card)
        chosen[seat] = card
        events = [{"type": "chose", "seat": seat, "changed": changed}]
        if None in chosen:
            return events
        revealed = sorted(({"seat": s, "card": c} for s, c in enumerate(chosen)),
                          key=lambda entry: entry["card"])
        state["chosen"] = [None] * state["players"]
        state["revealed"] = revealed
        events.append({"type": "revealed", "cards": [dict(entry) for entry in revealed]})
        if target_row(state["rows"], revealed[0]["card"]) is None:
            state["phase"] = TAKE_ROW
            state["row_chooser"] = revealed[0]["seat"]
            events.append({"type": "row_choice", "seat": revealed[0]["seat"]})
            return events
        return events + self._place_turn(state, None)

    def _place_turn(self, state: State, chosen_row: int | None) -> list[dict]:
        """Rules 1-4 for every revealed card in ascending order.

        Only the first (lowest) card can be too low for every row; it takes `chosen_row`.
        """
        rows, taken, penalties, scores = (state["rows"], state["taken"],
                                          state["round_penalties"], state["scores"])
        placements = []
        for entry in state["revealed"]:
            seat, card = entry["seat"], entry["card"]
            row = target_row(rows, card)
            too_low = row is None
            if too_low:
                row = chosen_row
            if too_low or len(rows[row]) == ROW_LIMIT:
                took = rows[row]
                rows[row] = [card]
                taken[seat].extend(took)
                points = bullheads(took)
                penalties[seat] += points
                scores[seat] += points
            else:
                rows[row].append(card)
                took = []
            placements.append({"seat": seat, "card": card, "row": row, "took": took})
        state.update({"last_turn": placements, "revealed": None, "row_chooser": None,
                      "phase": CHOOSE})
        # Every card of the round was turned face up: a player may remember them all.
        # (A game stored before the round's record existed starts one at its next turn.)
        state.setdefault("played", []).extend(
            {"turn": state["turn"], **placement, "took": list(placement["took"])}
            for placement in placements)
        events = [{"type": "placed", **placement, "took": list(placement["took"])}
                  for placement in placements]
        if state["turn"] < HAND_SIZE:
            state["turn"] += 1
            return events
        return events + self._end_round(state)

    def _end_round(self, state: State) -> list[dict]:
        penalties = list(state["round_penalties"])
        state["round_scores"].append(penalties)
        recorded_deal(state)["scores"] = list(penalties)
        events = [{"type": "round_over", "round": state["deal"], "penalties": list(penalties),
                   "scores": list(state["scores"])}]
        if max(state["scores"]) >= state["threshold"]:
            state["phase"] = OVER
            return events + [{"type": "game_over", "scores": list(state["scores"]),
                              "winners": winners_of(state["scores"], True)}]
        self._start_round(state)
        return events + [{"type": "dealt", "round": state["deal"]}]

    # --- what players see ---------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        revealed = state["revealed"]
        last_turn = state["last_turn"]
        display = state["draft_display"]
        table = {
            "rows": [list(row) for row in state["rows"]],
            "row_bullheads": [bullheads(row) for row in state["rows"]],
            "chosen": [card is not None for card in state["chosen"]],
            "my_choice": None if seat is None else state["chosen"][seat],
            "revealed": None if revealed is None else [dict(entry) for entry in revealed],
            "row_chooser": state["row_chooser"],
            "last_turn": None if last_turn is None else [
                {**placement, "took": list(placement["took"])} for placement in last_turn],
            "played": [{**entry, "took": list(entry["took"])} for entry in state.get("played", [])],
            "round_penalties": list(state["round_penalties"]),
            "round_scores": [list(scores) for scores in state["round_scores"]],
            "taken_counts": [len(cards) for cards in state["taken"]],
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "draft_display": None if display is None else list(display),
            "draft_turn": state["draft_turn"],
            "dealer": state["dealer"],
            "round": state["deal"],
            "turn": state["turn"],
            "threshold": state["threshold"],
            "cards_in_use": state["cards_in_use"],
        }
        return {
            "seat": seat,
            "phase": state["phase"],
            "deal": state["deal"],
            "scores": list(state["scores"]),
            "hand": None if seat is None else list(state["hands"][seat]),
            "table": table,
        }

    def trick_number(self, state: State) -> int | None:
        """The turn: every seat's card of it stays hidden until all have chosen."""
        return state["turn"] if state["phase"] in (CHOOSE, TAKE_ROW) else None

    def outcome(self, state: State) -> dict | None:
        if state["phase"] != OVER:
            return None
        return {"scores": list(state["scores"]), "winners": winners_of(state["scores"], True)}

    def record(self, state: State) -> dict:
        deals = []
        for deal in state[DEALT]:
            copied = {key: list(value) if isinstance(value, list) else value
                      for key, value in deal.items()}
            if copied["hands"] is not None:
                copied["hands"] = [list(hand) for hand in copied["hands"]]
            deals.append(copied)
        return {"seed": state["seed"], "deals": deals}
