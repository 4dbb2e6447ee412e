"""Sixty-six (Sechsundsechzig) for 2-4 players; the rules page is seeds/sixtysix.md.

A Schnapsen-like trick game: after each trick everyone draws from the stock until it is closed
or exhausted, and a side that has taken 66 card points (101 with 4 players, two partnerships)
says "I have enough". Each hand earns 1 to 3 game points; the first side to the match's game
points wins.

Actions (always by the single seat in to_act): declared in ACTIONS below. The phases, the
view's table and every event, field by field: shapes.py.
"""
from __future__ import annotations

from rules.base import (DEALT, Action, ActionType, CardFormat, Field, Game, IllegalAction,
                        InvalidOptions, State, deal_rng, record_deal, recorded_deal,
                        start_recording, winners_of)
from rules.sixtysix.cards import (DECK_24, DECK_32, POINTS, SORT_KEY, SUIT, SUITS,
                                  best_of, side_count, strict_cards)

CARD = CardFormat("SixtySixCard", "Rank A, 10, K, Q, J, 9, 8 or 7, then suit S, H, D or C",
                  frozenset(DECK_32), example="QH", pattern="^(?:A|10|K|Q|J|9|8|7)[SHDC]$")
MARRIAGE_CARD = CardFormat(
    "SixtySixMarriageCard", "The king or queen of a marriage's suit", frozenset(
        rank + suit for rank in "KQ" for suit in SUITS), example="KH", pattern="^[KQ][SHDC]$",
    spelling="the king or queen of the marriage's suit, like 'KH'")
ACTIONS = (
    ActionType("play", "Lead or follow with a card", "_play_card",
               (Field("card", "a card in your hand", card=CARD),)),
    ActionType("close", "As the leader, before leading: close the stock", "_close"),
    ActionType("declare", "\"I have enough\": only the seat that has just won a trick, before "
               "it leads again; classic preset: name a marriage card to show that marriage "
               "and count it at once", "_declare",
               (Field("card", "classic preset: the king or queen of a marriage in your hand",
                      card=MARRIAGE_CARD, required=False),)),
    ActionType("marry", "Classic preset, as the leader: show the king and queen of a suit "
               "and lead the one named", "_marry",
               (Field("card", "the king or queen to lead", card=MARRIAGE_CARD),)),
    ActionType("exchange", "Classic preset, as the leader whose side has a trick: swap the "
               "lowest trump for the face-up trump card", "_exchange"),
)


class SixtySix(Game):
    actions = ACTIONS

    def check_option_combination(self, players: int, options: dict) -> None:
        if type(options["deck"]) is not int:
            raise InvalidOptions("option 'deck' must be 32 or 24")
        if options["deck"] == 24 and players != 2:
            raise InvalidOptions("the 24-card deck is only for 2 players "
                                 "(3 players use 32 cards, 4 players two 24-card decks)")

    # --- setting up -------------------------------------------------------------
    def new_game(self, players: int, options: dict, seed: int, recording: bool = False
                 ) -> State:
        options = self.normalise_options(players, options)
        if players == 4:
            deck_size = 48
        elif players == 2 and (options["deck"] == 24 or options["preset"] == "classic"):
            deck_size = 24
        else:
            deck_size = 32
        sides = side_count(players)
        state = start_recording({
            "seed": seed, "players": players, "options": options,
            "classic": options["preset"] == "classic", "deck_size": deck_size,
            "target": 101 if players == 4 else 66,
            "hand_size": 6 if players == 2 else 7,
            "scores": [0] * sides, "carry": 0, "last_hand": None, "over": False,
            "deal": 0,
        }, recording)
        self._start_hand(state)
        return state

    def _start_hand(self, state: State) -> list:
        n = state["players"]
        state["deal"] += 1
        dealer = (n - 1 + state["deal"] - 1) % n
        size = state["deck_size"]
        deck = list(DECK_32) if size == 32 else list(DECK_24) * (size // 24)
        deal_rng(state["seed"], state["deal"]).shuffle(deck)
        h = state["hand_size"]
        hands = [deck[i * h:(i + 1) * h] for i in range(n)]
        face_up = deck[n * h]
        stock = deck[n * h + 1:] + [face_up]
        sides = side_count(n)
        state.update({
            "dealer": dealer, "hands": hands, "stock": stock, "trump": SUIT[face_up],
            "closed_by": None, "closed_tricks": None,
            "leader": (dealer + 1) % n, "turn": (dealer + 1) % n, "trick": [],
            "just_won": None, "last_trick": None, "played": [], "exchange": None,
            "face_up_to": None,
            "points": [0] * sides, "tricks": [0] * sides, "taken": [[] for _ in range(sides)],
            "pending": [0] * sides, "marriages": [],
        })
        record_deal(state, {"dealer": dealer, "hands": [list(x) for x in hands],
                            "stock": list(stock), "scores": None})
        dealt = {"type": "dealt", "deal": state["deal"], "dealer": dealer,
                 "leader": state["leader"], "trump": state["trump"], "trump_card": face_up,
                 "stock_size": len(stock)}
        return [dealt] + [{"type": "dealt_hand", "seat": seat, "to": [seat],
                           "cards": sorted(hand, key=SORT_KEY.get)}
                          for seat, hand in enumerate(hands)]

    # --- small queries -----------------------------------------------------------
    @staticmethod
    def side(state: State, seat: int) -> int:
        return seat % side_count(state["players"])

    @staticmethod
    def stock_open(state: State) -> bool:
        return state["closed_by"] is None and len(state["stock"]) >= state["players"]

    @staticmethod
    def lowest_trump(state: State) -> str:
        return ("7" if state["deck_size"] == 32 else "9") + state["trump"]

    def _leading(self, state: State, seat: int) -> bool:
        return not state["over"] and seat == state["turn"] and not state["trick"]

    def _marriage_suits(self, state: State, seat: int) -> list:
        hand = state["hands"][seat]
        shown = {suit for s, suit, _, _ in state["marriages"] if s == seat}
        return [suit for suit in SUITS
                if suit not in shown and "K" + suit in hand and "Q" + suit in hand]

    def _may_exchange(self, state: State, seat: int) -> bool:
        low = self.lowest_trump(state)
        return (self.stock_open(state) and len(state["stock"]) > 2
                and state["tricks"][self.side(state, seat)] > 0
                and low in state["hands"][seat] and state["stock"][-1] != low)

    def to_act(self, state: State) -> list[int]:
        return [] if state["over"] else [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["over"] or seat != state["turn"]:
            return []
        hand = state["hands"][seat]
        trick = state["trick"]
        if trick and not self.stock_open(state):
            cards = strict_cards(hand, trick, state["trump"])
        else:
            cards = set(hand)
        actions = [{"type": "play", "card": c} for c in sorted(cards, key=SORT_KEY.get)]
        if trick:
            return actions
        if state["just_won"] == seat:
            actions.append({"type": "declare"})
        if self.stock_open(state):
            actions.append({"type": "close"})
        if state["classic"]:
            for suit in self._marriage_suits(state, seat):
                for rank in ("K", "Q"):
                    actions.append({"type": "marry", "card": rank + suit})
                    if state["just_won"] == seat:
                        actions.append({"type": "declare", "card": rank + suit})
            if self._may_exchange(state, seat):
                actions.append({"type": "exchange"})
        return actions

    # --- acting ------------------------------------------------------------------
    def phase(self, state: State) -> str:
        return "over" if state["over"] else "play"

    def _play_card(self, state: State, seat: int, action: Action) -> list:
        self._check_play(state, seat, action)
        return self._play(state, seat, action["card"])

    def _check_leading(self, state: State, seat: int, kind: str, classic_only: bool) -> None:
        if classic_only and not state["classic"]:
            raise IllegalAction(f"'{kind}' is only part of the classic preset")
        if not self._leading(state, seat):
            raise IllegalAction(f"'{kind}' is only possible before leading to a trick")

    def _close(self, state: State, seat: int, action: Action) -> list:
        self._check_leading(state, seat, "close", classic_only=False)
        if not self.stock_open(state):
            raise IllegalAction("the stock is already closed or exhausted")
        state["closed_by"] = seat
        state["closed_tricks"] = list(state["tricks"])
        return [{"type": "closed", "seat": seat}]

    def _exchange(self, state: State, seat: int, action: Action) -> list:
        self._check_leading(state, seat, "exchange", classic_only=True)
        if not self._may_exchange(state, seat):
            raise IllegalAction(
                f"exchanging needs the {self.lowest_trump(state)} in hand, a trick taken "
                "by your side, a face-up trump card that differs from it, and an open "
                "stock of more than 2 cards")
        hand = state["hands"][seat]
        low, face_up = self.lowest_trump(state), state["stock"][-1]
        hand.remove(low)
        hand.append(face_up)
        state["stock"][-1] = low
        state["exchange"] = [seat, low, face_up]
        return [{"type": "exchanged", "seat": seat, "gave": low, "took": face_up}]

    def _marry(self, state: State, seat: int, action: Action) -> list:
        self._check_leading(state, seat, "marry", classic_only=True)
        suit = self._check_marriage(state, seat, action)
        return self._meld(state, seat, suit) + self._play(state, seat, action["card"])

    def _declare(self, state: State, seat: int, action: Action) -> list:
        self._check_leading(state, seat, "declare", classic_only=False)
        if state["just_won"] != seat:
            raise IllegalAction("only the player who has just won a trick may declare")
        events = []
        suit = None
        if "card" in action:
            if not state["classic"]:
                raise IllegalAction("declaring with a marriage is only part of the classic preset")
            suit = self._check_marriage(state, seat, action)
            events = self._meld(state, seat, suit)
        events.append({"type": "declared", "seat": seat, "suit": suit})
        return events + self._end_by_declaration(state, seat)

    def _check_play(self, state: State, seat: int, action: Action) -> None:
        card = action["card"]
        if card not in state["hands"][seat]:
            raise IllegalAction(f"{card!r} is not a card in your hand")
        trick = state["trick"]
        if trick and not self.stock_open(state):
            if card not in strict_cards(state["hands"][seat], trick, state["trump"]):
                raise IllegalAction(
                    f"{card} is not allowed: with the stock closed or exhausted you must head "
                    "the trick in the led suit if you can, else follow suit, else win with a "
                    "trump if you can")

    def _check_marriage(self, state: State, seat: int, action: Action) -> str:
        card = action["card"]
        if SUIT[card] not in self._marriage_suits(state, seat):
            raise IllegalAction(
                f"you cannot show a marriage in {SUIT[card]}: you need its king and queen "
                "in hand and may show each suit once per hand")
        return SUIT[card]

    def _meld(self, state: State, seat: int, suit: str) -> list:
        points = 40 if suit == state["trump"] else 20
        side = self.side(state, seat)
        counted = state["tricks"][side] > 0
        if counted:
            state["points"][side] += points
        else:
            state["pending"][side] += points
        state["marriages"].append([seat, suit, points, counted])
        return [{"type": "married", "seat": seat, "suit": suit, "cards": ["K" + suit, "Q" + suit],
                 "points": points, "counted": counted}]

    def _play(self, state: State, seat: int, card: str) -> list:
        n = state["players"]
        state["hands"][seat].remove(card)
        state["trick"].append([seat, card])
        state["just_won"] = None
        events = [{"type": "played", "seat": seat, "card": card,
                   "holder": best_of(state["trick"], state["trump"])[0]}]
        if len(state["trick"]) < n:
            state["turn"] = (seat + 1) % n
            return events
        trick = state["trick"]
        winner = best_of(trick, state["trump"])[0]
        side = self.side(state, winner)
        value = sum(POINTS[c] for _, c in trick)
        events.append({"type": "trick", "winner": winner, "points": value,
                       "cards": [{"seat": s, "card": c} for s, c in trick]})
        state["points"][side] += value
        if state["tricks"][side] == 0 and state["pending"][side]:
            state["points"][side] += state["pending"][side]
            state["pending"][side] = 0
            for marriage in state["marriages"]:
                if self.side(state, marriage[0]) == side:
                    marriage[3] = True
        state["tricks"][side] += 1
        state["taken"][side].extend(c for _, c in trick)
        state["last_trick"] = [winner, trick]
        state.setdefault("played", []).append(
            [trick[0][0], [list(t) for t in trick], winner, not self.stock_open(state)])
        state["trick"] = []
        if self.stock_open(state):
            events += self._draw(state, winner)
        if not state["hands"][winner]:
            return events + self._end_by_running_out(state, winner)
        state["leader"] = state["turn"] = state["just_won"] = winner
        return events

    def _draw(self, state: State, winner: int) -> list:
        n = state["players"]
        order = [(winner + i) % n for i in range(n)]
        events = []
        trump_card_to = None
        for drawer in order:
            if len(state["stock"]) == 1:
                trump_card_to = drawer  # the face-up card is the stock's last
                state["face_up_to"] = [drawer, state["stock"][0]]
            card = state["stock"].pop(0)
            state["hands"][drawer].append(card)
            events.append({"type": "drew", "seat": drawer, "card": card, "to": [drawer]})
        open_now = self.stock_open(state)
        events.append({"type": "drawn", "order": order, "trump_card_to": trump_card_to,
                       "stock_size": len(state["stock"]) if open_now else 0,
                       "set_aside": 0 if open_now else len(state["stock"])})
        return events

    # --- ending a hand -----------------------------------------------------------
    def _value(self, state: State, side: int) -> int:
        """Game points a correct declaration by `side` would earn now."""
        others = [s for s in range(len(state["points"])) if s != side]
        if all(state["tricks"][s] == 0 for s in others):
            return 3
        if max(state["points"][s] for s in others) <= (state["target"] - 1) // 2:
            return 2
        return 1

    def _closer_failed(self, state: State) -> list:
        closer = self.side(state, state["closed_by"])
        return [0 if s == closer else (3 if state["closed_tricks"][s] == 0 else 2)
                for s in range(len(state["points"]))]

    def _end_by_declaration(self, state: State, seat: int) -> list:
        side = self.side(state, seat)
        sides = len(state["points"])
        correct = state["points"][side] >= state["target"]
        if not correct:
            value = self._value(state, side)
            gains = [0 if s == side else value for s in range(sides)]
            reason = "false declaration: each opposing side scores what it would have won"
        elif state["closed_by"] is None or self.side(state, state["closed_by"]) == side:
            gains = [0] * sides
            gains[side] = self._value(state, side)
            reason = "correct declaration"
        else:
            gains = self._closer_failed(state)
            reason = "correct declaration against the closer: the closer's opponents score"
        return self._finish_hand(state, gains, "declare", seat, correct, reason)

    def _end_by_running_out(self, state: State, last_winner: int) -> list:
        sides = len(state["points"])
        last_side = self.side(state, last_winner)
        target = state["target"]
        if state["closed_by"] is not None:
            closer = self.side(state, state["closed_by"])
            if last_side == closer and state["points"][closer] >= target:
                gains = [0] * sides
                gains[closer] = self._value(state, closer)
                return self._finish_hand(
                    state, gains, "declare", last_winner, True,
                    "the closer's side reached the target with the last trick")
            return self._finish_hand(
                state, self._closer_failed(state), "cards_out", None, None,
                "the cards ran out after closing: the closer's opponents score")
        state["points"][last_side] += 10
        best = max(state["points"])
        leaders = [s for s in range(sides) if state["points"][s] == best]
        top = last_side if last_side in leaders else leaders[0]
        gains = [0] * sides
        if best >= target:
            gains[top] = self._value(state, top)
            reason = "the cards ran out: the side with the most card points scores"
        else:
            reason = "the cards ran out and no side reached the target: 1 point carries over"
        return self._finish_hand(state, gains, "cards_out", None, None, reason)

    def _finish_hand(self, state: State, gains: list, ended_by: str, declarer, correct,
                     reason: str) -> list:
        carried = state["carry"] if any(gains) else 0
        if any(gains):
            gains = [g + carried if g else 0 for g in gains]
            state["carry"] = 0
        else:
            state["carry"] += 1
        for s, g in enumerate(gains):
            state["scores"][s] += g
        n = state["players"]
        per_seat = [gains[self.side(state, seat)] for seat in range(n)]
        recorded_deal(state)["scores"] = per_seat
        state["last_hand"] = {
            "deal": state["deal"], "ended_by": ended_by, "declarer": declarer,
            "correct": correct, "closed_by": state["closed_by"],
            "points": [state["points"][self.side(state, s)] for s in range(n)],
            "tricks": [state["tricks"][self.side(state, s)] for s in range(n)],
            "game_points": per_seat, "carried": carried, "reason": reason,
        }
        events = [{"type": "hand_over", **state["last_hand"],
                   "scores": [state["scores"][self.side(state, s)] for s in range(n)],
                   "carry": state["carry"]}]
        if max(state["scores"]) >= state["options"]["match_points"]:
            state["over"] = True
            state["turn"] = None
            state["trick"] = []
            return events + [{"type": "match_over", **self.outcome(state)}]
        return events + self._start_hand(state)

    # --- what players see ----------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        n = state["players"]
        side_of = [self.side(state, s) for s in range(n)]
        exhausted = state["closed_by"] is None and len(state["stock"]) < n
        table = {
            "seat": seat, "players": n, "preset": state["options"]["preset"],
            "deck_size": state["deck_size"], "target": state["target"],
            "match_points": state["options"]["match_points"], "side_of": side_of,
            "dealer": state["dealer"], "leader": state["leader"], "turn": state["turn"],
            "trump": state["trump"],
            "trump_card": state["stock"][-1] if self.stock_open(state) else None,
            "stock_size": len(state["stock"]) if self.stock_open(state) else 0,
            "set_aside": len(state["stock"]) if exhausted else 0,
            "closed_by": state["closed_by"],
            "hand_sizes": [len(h) for h in state["hands"]],
            "trick": [{"seat": s, "card": c} for s, c in state["trick"]],
            "trick_holder": best_of(state["trick"], state["trump"])[0] if state["trick"] else None,
            "last_trick": None if state["last_trick"] is None else {
                "winner": state["last_trick"][0],
                "cards": [{"seat": s, "card": c} for s, c in state["last_trick"][1]],
                "points": sum(POINTS[c] for _, c in state["last_trick"][1])},
            "tricks": [state["tricks"][side] for side in side_of],
            "my_points": None if seat is None else state["points"][side_of[seat]],
            "marriages": [{"seat": s, "suit": suit, "points": p, "counted": c}
                          for s, suit, p, c in state["marriages"]],
            "carry": state["carry"],
            "last_hand": state["last_hand"],
            "played": [{"leader": leader, "winner": winner, "strict": strict,
                        "cards": [{"seat": s, "card": c} for s, c in cards]}
                       for leader, cards, winner, strict in state.get("played", [])],
            "closed_tricks": None if state["closed_tricks"] is None else
            [state["closed_tricks"][side] for side in side_of],
            "exchanged": None if not state.get("exchange") else dict(
                zip(("seat", "gave", "took"), state["exchange"])),
            "face_up": self._face_up(state),
        }
        return {
            "seat": seat,
            "phase": "over" if state["over"] else "play",
            "deal": state["deal"],
            "scores": [state["scores"][side] for side in side_of],
            "hand": None if seat is None else sorted(state["hands"][seat], key=SORT_KEY.get),
            "table": table,
        }

    @staticmethod
    def _face_up(state: State) -> dict | None:
        drawn = state.get("face_up_to")
        if drawn:
            return {"card": drawn[1], "drawn_by": drawn[0]}
        if state["stock"]:
            return {"card": state["stock"][-1], "drawn_by": None}
        return None

    def trick_number(self, state: State) -> int | None:
        return None if state["over"] else sum(state["tricks"]) + 1

    def outcome(self, state: State) -> dict | None:
        if not state["over"]:
            return None
        scores = [state["scores"][self.side(state, s)] for s in range(state["players"])]
        return {"scores": scores, "winners": winners_of(scores, False)}

    def record(self, state: State) -> dict:
        return {"seed": state["seed"], "deals": [dict(r) for r in state[DEALT]]}

    def teams(self, players: int) -> list[list[int]]:
        """With four players, partners sit across the table and share one score."""
        sides = side_count(players)
        return [list(range(side, players, sides)) for side in range(sides)]
