"""Determinization: deal the cards one seat cannot see, consistently with its view."""
from __future__ import annotations

import random

from rules.sixtysix.cards import DECK_24, DECK_32, SUITS
from rules.sixtysix.search.engine import (CODE, KING, POINTS, QUEEN, Position, beats,
                                          trick_winner)


def _revealed_shortages(trick: list, trump: int) -> dict:
    """Cards each seat of a strictly played trick showed it did not hold then (and so
    cannot hold now: nothing is drawn once play is strict)."""
    missing = {}
    for i in range(1, len(trick)):
        seat, card = trick[i]
        led = trick[0][1] >> 3
        best = trick_winner(trick[:i], trump)[1]
        lacks = missing.setdefault(seat, set())
        if card >> 3 != led:
            lacks.update(led * 8 + r for r in range(8))
            if not beats(card, best, trump):
                lacks.update(c for c in range(trump * 8, trump * 8 + 8) if beats(c, best, trump))
        elif not beats(card, best, trump):
            lacks.update(c for c in range(led * 8, led * 8 + 8) if beats(c, best, trump))
    return missing


class Knowledge:
    """What one seat's view tells about the hand in play, read once per decision.

    The view lists every completed trick of the hand ("played"), so the unseen pool is
    exactly the opponents' hands, the face-down stock and the cards set aside; every
    strictly played trick shows voids and missing high cards; shown marriages, the trump
    exchange and the drawn face-up card show cards still held; and every side's card
    points follow from the tricks. With two players and the stock exhausted the
    opponent's hand is therefore known exactly. A view without the list (a state from
    before it existed) falls back to the last trick alone."""

    def __init__(self, view: dict, legal: list):
        table = view["table"]
        n = table["players"]
        self.seat = view["seat"]
        self.players = n
        self.sides = 2 if n == 4 else n
        self.side = self.seat % self.sides
        self.trump = SUITS.index(table["trump"])
        self.classic = table["preset"] == "classic"
        self.target = table["target"]
        deck_size = table["deck_size"]
        self.low_trump = self.trump * 8 + (7 if deck_size == 32 else 5)
        self.hand = [CODE[c] for c in view["hand"]]
        self.hand_sizes = table["hand_sizes"]
        self.trick = [(t["seat"], CODE[t["card"]]) for t in table["trick"]]
        last = table["last_trick"]
        self.last_trick = [] if last is None else [(t["seat"], CODE[t["card"]]) for t in last["cards"]]
        self.trump_card = None if table["trump_card"] is None else CODE[table["trump_card"]]
        self.stock_size = table["stock_size"]
        self.closed_by = table["closed_by"]
        closed = table.get("closed_tricks")
        self.closed_tricks = None
        if closed is not None:
            self.closed_tricks = [0] * self.sides
            for seat, count in enumerate(closed):
                self.closed_tricks[seat % self.sides] = count
        self.carry = table["carry"]
        self.tricks = [0] * self.sides
        for seat, count in enumerate(table["tricks"]):
            self.tricks[seat % self.sides] = count
        self.counted = [0] * self.sides
        self.pending = [0] * self.sides
        for marriage in table["marriages"]:
            into = self.counted if marriage["counted"] else self.pending
            into[marriage["seat"] % self.sides] += marriage["points"]
        self.shown = tuple((m["seat"], SUITS.index(m["suit"])) for m in table["marriages"])
        self.my_points = table["my_points"]
        self.my_card_points = self.my_points - self.counted[self.side]
        self.just_won = self.seat if {"type": "declare"} in legal else None

        played = table.get("played") or []
        self.complete = len(played) == sum(self.tricks)
        if self.complete:
            self.tricks_seen = [([(t["seat"], CODE[t["card"]]) for t in trick["cards"]],
                                 trick["winner"], trick["strict"]) for trick in played]
        else:
            self.tricks_seen = []
            if self.last_trick:
                self.tricks_seen.append((self.last_trick, last["winner"], None))
        # Card points in the listed tricks, per side.
        self.trick_points = [0] * self.sides
        for cards, winner, _ in self.tricks_seen:
            self.trick_points[winner % self.sides] += sum(POINTS[c] for _, c in cards)
        seen_in_tricks = [c for cards, _, _ in self.tricks_seen for _, c in cards]
        self.played = sum(self.tricks) * n - len(seen_in_tricks)  # finished, not listed

        deck = [CODE[c] for c in (DECK_32 if deck_size == 32 else DECK_24 * (deck_size // 24))]
        seen = self.hand + seen_in_tricks + [c for _, c in self.trick]
        if self.trump_card is not None:
            seen.append(self.trump_card)
        # The face-up trump card under a closed stock or set aside: out of play.
        face_up = table.get("face_up")
        self.buried = None
        if (self.trump_card is None and face_up and face_up["drawn_by"] is None
                and self.complete):
            self.buried = CODE[face_up["card"]]
            seen.append(self.buried)
        for card in seen:
            deck.remove(card)
        self.unseen = sorted(deck)
        self.missing = self._shortages(table)
        self.holds = self._held(table, face_up) if self.complete else self._marriage_partner(table)

    def known_exactly(self) -> bool:
        """Whether every hidden card's place is certain: two players, every trick listed,
        nothing left in or under the stock, so the unseen cards are the opponent's hand."""
        return (self.players == 2 and self.complete and self.stock_size == 0
                and self.closed_by is None and len(self.unseen) == self.hand_sizes[1 - self.seat])

    def _shortages(self, table: dict) -> dict:
        missing = {}
        tricks = []
        if self.stock_size == 0:
            tricks.append(self.trick)
        if self.complete:
            tricks += [cards for cards, _, strict in self.tricks_seen if strict]
        elif self.stock_size == 0:
            # Hands are refilled after every trick with an open stock: a leader short of
            # a full hand shows the last trick was played strictly too.
            full = 6 if self.players == 2 else 7
            leader = table["leader"]
            if self.last_trick and self.hand_sizes[leader] + bool(self.trick) < full:
                tricks.append(self.last_trick)
        for trick in tricks:
            for seat, cards in _revealed_shortages(trick, self.trump).items():
                missing.setdefault(seat, set()).update(cards)
        return missing

    def _held(self, table: dict, face_up) -> dict:
        """Cards another seat is known to hold: the unplayed half of a marriage it
        showed, the face-up card it took by exchange or drew last, unless it has played
        that card since."""
        played_by = {}
        for cards, _, _ in self.tricks_seen:
            for seat, card in cards:
                played_by.setdefault(seat, []).append(card)
        for seat, card in self.trick:
            played_by.setdefault(seat, []).append(card)
        known = []
        for seat, suit in self.shown:
            for rank in (KING, QUEEN):
                known.append((seat, suit * 8 + rank))
        exchanged = table.get("exchanged")
        if exchanged:
            known.append((exchanged["seat"], CODE[exchanged["took"]]))
        if face_up and face_up["drawn_by"] is not None:
            known.append((face_up["drawn_by"], CODE[face_up["card"]]))
        holds = {}
        pool = list(self.unseen)
        for seat, card in known:
            if seat == self.seat or card in played_by.get(seat, ()) or card not in pool:
                continue
            if card in holds.get(seat, ()):
                continue
            pool.remove(card)
            holds.setdefault(seat, []).append(card)
        for seat, cards in holds.items():
            # A hand cannot hold more than it has (a card may have come and gone unseen).
            del cards[self.hand_sizes[seat]:]
        return holds

    def _marriage_partner(self, table: dict) -> dict:
        """A king or queen led by the seat that has just shown that marriage: the other
        card is still in its hand."""
        if not self.trick or not self.shown or self.shown[-1][0] != self.trick[0][0]:
            return {}
        seat, card = self.trick[0]
        suit = self.shown[-1][1]
        if card >> 3 != suit or card & 7 not in (KING, QUEEN):
            return {}
        partner = suit * 8 + (KING + QUEEN - (card & 7))
        return {seat: [partner]} if partner in self.unseen else {}

    def deal(self, rng: random.Random) -> Position:
        """A full position consistent with the view. With every trick listed the card
        points are exact; otherwise those of the seat's own side are matched (the
        unlisted played cards must hold at least that many) when a few tries allow it."""
        for _ in range(20):
            hands, stock, gone = self._sample(rng)
            if self.complete:
                return self.position(hands, stock, None)
            opponents_points = sum(POINTS[c] for c in gone) + \
                sum(self.trick_points) - self.my_card_points
            others_took = any(self.tricks[s] for s in range(self.sides) if s != self.side)
            if opponents_points >= 0 and (others_took or opponents_points == 0):
                break
        return self.position(hands, stock, max(opponents_points, 0))

    def _sample(self, rng: random.Random) -> tuple:
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands = [[] for _ in range(self.players)]
        hands[self.seat] = list(self.hand)
        for seat, cards in self.holds.items():
            for card in cards:
                pool.remove(card)
            hands[seat].extend(cards)
        others = [s for s in range(self.players) if s != self.seat]
        others.sort(key=lambda s: -len(self.missing.get(s, ())))
        for seat in others:
            need = self.hand_sizes[seat] - len(hands[seat])
            if need <= 0:
                continue
            lacks = self.missing.get(seat, ())
            allowed = [c for c in pool if c not in lacks]
            # Inferences from an old trick can only be wrong if a card came back; then
            # dealing anything beats dealing nothing.
            taken = allowed[:need] if len(allowed) >= need else pool[:need]
            for card in taken:
                pool.remove(card)
            hands[seat].extend(taken)
        hidden_stock = max(self.stock_size - 1, 0)
        stock = pool[:hidden_stock]
        if self.trump_card is not None:
            stock.append(self.trump_card)
        gone = pool[hidden_stock:hidden_stock + self.played]
        if self.trump_card is None:
            stock = pool[len(gone):]  # set aside or under the closed stock: out of play
            if self.buried is not None:
                stock.append(self.buried)
        return hands, stock, gone

    def position(self, hands: list, stock: list, opponents_points) -> Position:
        """The position with these hidden cards; opponents_points: their card points,
        None to take every side's from the listed tricks."""
        p = Position()
        p.players, p.sides, p.trump, p.classic = self.players, self.sides, self.trump, self.classic
        p.target, p.low_trump, p.carry = self.target, self.low_trump, self.carry
        p.hands, p.stock, p.trick = hands, stock, list(self.trick)
        p.closed_by = self.closed_by
        if self.closed_tricks is not None:
            p.closed_tricks = tuple(self.closed_tricks)
        else:
            # Not in the view (an old state): assume the close came before the
            # opponents' current tricks (it only decides 3 or 2 points for a failed close).
            p.closed_tricks = None if self.closed_by is None else tuple(self.tricks)
        p.turn, p.just_won = self.seat, self.just_won
        p.tricks, p.pending, p.shown = list(self.tricks), list(self.pending), self.shown
        p.points = list(self.counted)
        p.points[self.side] += self.my_card_points
        opponents = [s for s in range(self.sides) if s != self.side]
        if opponents_points is None:
            for s in opponents:
                p.points[s] += self.trick_points[s]
        else:
            taken = sum(self.tricks[s] for s in opponents)
            for s in opponents:
                # With two opponents their split is unknown: share by tricks taken.
                p.points[s] += opponents_points * self.tricks[s] // taken if taken else 0
        p.gains = None
        return p
