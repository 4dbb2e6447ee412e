"""Perfect play of a two-player hand once the stock is closed or exhausted."""
from __future__ import annotations

from rules.sixtysix.search.engine import (KING, POINTS, QUEEN, Position, apply, beats, policy,
                                          score)

# --- the exact endgame: two players, stock closed or exhausted ---------------------
SUIT_MASK = [0xFF << (8 * s) for s in range(4)]
HIGHER = [((1 << c) - 1) & SUIT_MASK[c >> 3] for c in range(32)]  # same suit, beats c


def _cards(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Endgame:
    """Perfect play of a two-player hand with open cards once play is strict, on bit
    masks for speed. Only dominant choices are tried: a correct declaration at once
    (waiting can only let the opponent score more) and a king or queen led with its
    marriage shown (the points can only help); a false declaration stays a choice."""

    def __init__(self, p: Position, side: int):
        self.side = side
        self.trump, self.target, self.classic, self.carry = p.trump, p.target, p.classic, p.carry
        self.closer = None if p.closed_by is None else p.side(p.closed_by)
        self.closed_tricks = p.closed_tricks
        self.memo = {}

    def value(self, p: Position) -> int:
        masks = [sum(1 << c for c in hand) for hand in p.hands]
        lead = p.trick[0][1] if p.trick else -1
        shown = sum(1 << (seat * 4 + suit) for seat, suit in p.shown)
        return self._node(masks[0], masks[1], p.turn, lead, tuple(p.points), tuple(p.tricks),
                          tuple(p.pending), shown, p.just_won == p.turn, -99, 99)

    def _score(self, gains: list) -> int:
        mine, theirs = gains[self.side], gains[1 - self.side]
        return (mine + self.carry if mine else 0) - (theirs + self.carry if theirs else 0)

    def _worth(self, side: int, points: tuple, tricks: tuple) -> int:
        other = 1 - side
        if tricks[other] == 0:
            return 3
        return 2 if points[other] <= (self.target - 1) // 2 else 1

    def _closer_failed(self) -> list:
        gains = [0, 0]
        gains[1 - self.closer] = 3 if self.closed_tricks[1 - self.closer] == 0 else 2
        return gains

    def _declared(self, side: int, points: tuple, tricks: tuple) -> int:
        gains = [0, 0]
        if points[side] < self.target:
            gains[1 - side] = self._worth(side, points, tricks)
        elif self.closer is None or self.closer == side:
            gains[side] = self._worth(side, points, tricks)
        else:
            gains = self._closer_failed()
        return self._score(gains)

    def _ran_out(self, last: int, points: list, tricks: tuple) -> int:
        gains = [0, 0]
        if self.closer is not None:
            if last == self.closer and points[last] >= self.target:
                gains[last] = self._worth(last, points, tricks)
            else:
                gains = self._closer_failed()
            return self._score(gains)
        points[last] += 10
        top = last if points[last] >= points[1 - last] else 1 - last
        if points[top] >= self.target:
            gains[top] = self._worth(top, points, tricks)
        return self._score(gains)

    def _node(self, h0, h1, turn, lead, points, tricks, pending, shown, just_won, alpha, beta):
        key = (h0, h1, turn, lead, points, tricks, pending, shown, just_won)
        low, high = self.memo.get(key, (-99, 99))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        maximising = turn == self.side
        best = -99 if maximising else 99
        a, b = alpha, beta
        for child in self._children(h0, h1, turn, lead, points, tricks, pending, shown, just_won):
            value = child if type(child) is int else self._node(*child, a, b)
            if maximising:
                best = max(best, value)
                a = max(a, value)
            else:
                best = min(best, value)
                b = min(b, value)
            if a >= b:
                break
        if best <= alpha:
            self.memo[key] = (low, best)
        elif best >= beta:
            self.memo[key] = (best, high)
        else:
            self.memo[key] = (best, best)
        return best

    def _children(self, h0, h1, turn, lead, points, tricks, pending, shown, just_won):
        """Each choice of `turn`: a final score, or the arguments of the next node;
        lazily, so a cut-off skips the rest."""
        hand = h1 if turn else h0
        trump = self.trump
        if lead < 0:
            if just_won:
                if points[turn] >= self.target:
                    yield self._declared(turn, points, tricks)
                    return
                for suit in self._marriages(hand, turn, shown):
                    meld = 40 if suit == trump else 20
                    if points[turn] + meld >= self.target:
                        yield self._declared(turn, _add(points, turn, meld), tricks)
                        return
                yield self._declared(turn, points, tricks)
            marriages = self._marriages(hand, turn, shown)
            for card in _cards(hand):
                rest = hand ^ (1 << card)
                pts, pend, show = points, pending, shown
                if card >> 3 in marriages and card & 7 in (KING, QUEEN):
                    meld = 40 if card >> 3 == trump else 20
                    if tricks[turn]:
                        pts = _add(points, turn, meld)
                    else:
                        pend = _add(pending, turn, meld)
                    show = shown | 1 << (turn * 4 + (card >> 3))
                yield (rest if turn == 0 else h0, rest if turn else h1, 1 - turn,
                       card, pts, tricks, pend, show, False)
            return
        follow = hand & SUIT_MASK[lead >> 3]
        if follow:
            allowed = (follow & HIGHER[lead]) or follow
        else:
            allowed = (hand & SUIT_MASK[trump]) or hand
        for card in _cards(allowed):
            rest = hand ^ (1 << card)
            n0, n1 = (rest, h1) if turn == 0 else (h0, rest)
            winner = turn if beats(card, lead, trump) else 1 - turn
            pts = _add(points, winner, POINTS[card] + POINTS[lead])
            pend = pending
            if tricks[winner] == 0 and pending[winner]:
                pts = _add(pts, winner, pending[winner])
                pend = _add(pending, winner, -pending[winner])
            won = _add(tricks, winner, 1)
            if not (n1 if winner else n0):
                yield self._ran_out(winner, list(pts), won)
            else:
                yield (n0, n1, winner, -1, pts, won, pend, shown, True)

    def _marriages(self, hand: int, seat: int, shown: int) -> list:
        if not self.classic:
            return []
        return [suit for suit in range(4) if not shown >> (seat * 4 + suit) & 1
                and hand >> (suit * 8 + KING) & 1 and hand >> (suit * 8 + QUEEN) & 1]


def _add(values: tuple, index: int, amount: int) -> tuple:
    return (values[0] + amount, values[1]) if index == 0 else (values[0], values[1] + amount)


def finish(p: Position, side: int, exact: bool, from_cards: int = 99) -> int:
    """Play the hand out and score it for `side`: by the policy, or, with `exact` and two
    players, by the perfect-play solver once the stock is closed or exhausted and the
    player to act holds at most `from_cards` cards (fewer cards: a much cheaper solve)."""
    while p.gains is None:
        if exact and p.players == 2 and not p.stock_open() and len(p.hands[p.turn]) <= from_cards:
            return Endgame(p, side).value(p)
        apply(p, policy(p))
    return score(p, side)
