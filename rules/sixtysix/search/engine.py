"""The rules of Sixty-six again, on small integers, for simulations (the hot loop: no
JSON dicts, no deep copies). A card is suit * 8 + rank index, rank index 0 for the
ace up to 7 for the seven. tests/rules/test_sixtysix_bots.py plays this copy against
game.py on random positions so the two cannot drift apart.
"""
from __future__ import annotations

from rules.search import margin
from rules.sixtysix.cards import RANKS, SUITS

CODE = {rank + suit: s * 8 + r for s, suit in enumerate(SUITS) for r, rank in enumerate(RANKS)}
NAME = {code: name for name, code in CODE.items()}
RANK_POINTS = (11, 10, 4, 3, 2, 0, 0, 0)
POINTS = [RANK_POINTS[c & 7] for c in range(32)]
KING, QUEEN = 2, 3
# Actions are (kind, card or None); kinds follow game.py.
DECLARE = ("declare", None)
CLOSE = ("close", None)
EXCHANGE = ("exchange", None)


def beats(card: int, best: int, trump: int) -> bool:
    """Whether `card`, played later, takes the trick from `best` (a lower index is higher)."""
    if card >> 3 == best >> 3:
        return (card & 7) < (best & 7)
    return card >> 3 == trump


def trick_winner(trick: list, trump: int) -> tuple:
    best = trick[0]
    for played in trick[1:]:
        if beats(played[1], best[1], trump):
            best = played
    return best


def strict_cards(hand: list, trick: list, trump: int) -> list:
    """Head in suit, else follow, else win with a trump, else anything."""
    led = trick[0][1] >> 3
    best = trick_winner(trick, trump)[1]
    follow = [c for c in hand if c >> 3 == led]
    if follow:
        return [c for c in follow if beats(c, best, trump)] or follow
    return [c for c in hand if c >> 3 == trump and beats(c, best, trump)] or hand


class Position:
    """One full hand of Sixty-six as the simulation sees it; `gains` is set when it ends."""

    __slots__ = ("players", "sides", "trump", "classic", "target", "low_trump", "hands",
                 "stock", "closed_by", "closed_tricks", "turn", "trick", "just_won",
                 "points", "tricks", "pending", "shown", "carry", "gains")

    def copy(self) -> Position:
        other = Position.__new__(Position)
        for name in ("players", "sides", "trump", "classic", "target", "low_trump",
                     "closed_by", "closed_tricks", "turn", "just_won", "shown", "carry",
                     "gains"):
            setattr(other, name, getattr(self, name))
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.trick = list(self.trick)
        other.points = list(self.points)
        other.tricks = list(self.tricks)
        other.pending = list(self.pending)
        return other

    def side(self, seat: int) -> int:
        return seat % self.sides

    def stock_open(self) -> bool:
        return self.closed_by is None and len(self.stock) >= self.players

    def marriage_suits(self, seat: int) -> list:
        hand = self.hands[seat]
        return [suit for suit in range(4) if (seat, suit) not in self.shown
                and suit * 8 + KING in hand and suit * 8 + QUEEN in hand]

    def may_exchange(self, seat: int) -> bool:
        return (self.stock_open() and len(self.stock) > 2 and self.tricks[self.side(seat)] > 0
                and self.low_trump in self.hands[seat] and self.stock[-1] != self.low_trump)

    def marriage_points(self, suit: int) -> int:
        return 40 if suit == self.trump else 20


def legal_actions(p: Position) -> list:
    seat = p.turn
    hand = p.hands[seat]
    if p.trick:
        cards = strict_cards(hand, p.trick, p.trump) if not p.stock_open() else hand
        return [("play", c) for c in sorted(set(cards))]
    actions = [("play", c) for c in sorted(set(hand))]
    if p.just_won == seat:
        actions.append(DECLARE)
    if p.stock_open():
        actions.append(CLOSE)
    if p.classic:
        for suit in p.marriage_suits(seat):
            for rank in (KING, QUEEN):
                actions.append(("marry", suit * 8 + rank))
                if p.just_won == seat:
                    actions.append(("declare", suit * 8 + rank))
        if p.may_exchange(seat):
            actions.append(EXCHANGE)
    return actions


def apply(p: Position, action: tuple) -> None:
    """Play a legal action (not checked: the search only generates legal ones)."""
    kind, card = action
    seat = p.turn
    if kind == "play":
        _play(p, seat, card)
    elif kind == "marry":
        _meld(p, seat, card >> 3)
        _play(p, seat, card)
    elif kind == "close":
        p.closed_by = seat
        p.closed_tricks = tuple(p.tricks)
    elif kind == "exchange":
        hand = p.hands[seat]
        hand.remove(p.low_trump)
        hand.append(p.stock[-1])
        p.stock[-1] = p.low_trump
    else:
        if card is not None:
            _meld(p, seat, card >> 3)
        _declare(p, seat)


def _meld(p: Position, seat: int, suit: int) -> None:
    side = p.side(seat)
    if p.tricks[side] > 0:
        p.points[side] += p.marriage_points(suit)
    else:
        p.pending[side] += p.marriage_points(suit)
    p.shown = p.shown + ((seat, suit),)


def _play(p: Position, seat: int, card: int) -> None:
    n = p.players
    p.hands[seat].remove(card)
    p.trick.append((seat, card))
    p.just_won = None
    if len(p.trick) < n:
        p.turn = (seat + 1) % n
        return
    winner = trick_winner(p.trick, p.trump)[0]
    side = p.side(winner)
    p.points[side] += sum(POINTS[c] for _, c in p.trick)
    if p.tricks[side] == 0:
        p.points[side] += p.pending[side]
        p.pending[side] = 0
    p.tricks[side] += 1
    p.trick = []
    if p.stock_open():
        for i in range(n):
            p.hands[(winner + i) % n].append(p.stock.pop(0))
    if not p.hands[winner]:
        _run_out(p, winner)
        return
    p.turn = p.just_won = winner


def _value(p: Position, side: int) -> int:
    others = [s for s in range(p.sides) if s != side]
    if all(p.tricks[s] == 0 for s in others):
        return 3
    if max(p.points[s] for s in others) <= (p.target - 1) // 2:
        return 2
    return 1


def _closer_failed(p: Position) -> list:
    closer = p.side(p.closed_by)
    return [0 if s == closer else (3 if p.closed_tricks[s] == 0 else 2) for s in range(p.sides)]


def _declare(p: Position, seat: int) -> None:
    side = p.side(seat)
    gains = [0] * p.sides
    if p.points[side] < p.target:
        value = _value(p, side)
        gains = [0 if s == side else value for s in range(p.sides)]
    elif p.closed_by is None or p.side(p.closed_by) == side:
        gains[side] = _value(p, side)
    else:
        gains = _closer_failed(p)
    _finish(p, gains)


def _run_out(p: Position, last_winner: int) -> None:
    last_side = p.side(last_winner)
    gains = [0] * p.sides
    if p.closed_by is not None:
        closer = p.side(p.closed_by)
        if last_side == closer and p.points[closer] >= p.target:
            gains[closer] = _value(p, closer)
        else:
            gains = _closer_failed(p)
        _finish(p, gains)
        return
    p.points[last_side] += 10
    best = max(p.points)
    leaders = [s for s in range(p.sides) if p.points[s] == best]
    top = last_side if last_side in leaders else leaders[0]
    if best >= p.target:
        gains[top] = _value(p, top)
    _finish(p, gains)


def _finish(p: Position, gains: list) -> None:
    if any(gains):
        gains = [g + p.carry if g else 0 for g in gains]
    p.gains = gains
    p.turn = None


def score(p: Position, side: int) -> float:
    """The finished hand's game points for `side` less the best opposing side's."""
    return margin(p.gains, side, against_best=1.0)


# --- the playout policy: the easy bot's card sense, on integers --------------------
def _cost(card: int, trump: int) -> tuple:
    return (card >> 3 == trump, POINTS[card], -(card & 7))


def policy(p: Position) -> tuple:
    """A quick, sensible action for whoever is to act: declares when correct, melds,
    exchanges, wins points cheaply; never closes (closing is searched at the root)."""
    seat = p.turn
    hand = p.hands[seat]
    trump = p.trump
    side = p.side(seat)
    if not p.trick:
        if p.just_won == seat:
            if p.points[side] >= p.target:
                return DECLARE
            if p.classic:
                for suit in p.marriage_suits(seat):
                    if p.points[side] + p.marriage_points(suit) >= p.target:
                        return ("declare", suit * 8 + KING)
        if p.classic:
            if p.may_exchange(seat):
                return EXCHANGE
            suits = p.marriage_suits(seat)
            if suits:
                return ("marry", max(suits, key=lambda s: s == trump) * 8 + QUEEN)
        if not p.stock_open():
            aces = [c for c in hand if c & 7 == 0]
            if aces:
                return ("play", min(aces, key=lambda c: c >> 3 == trump))
        return ("play", min(hand, key=lambda c: _cost(c, trump)))
    plays = hand if p.stock_open() else strict_cards(hand, p.trick, trump)
    best_seat, best = trick_winner(p.trick, trump)
    if p.side(best_seat) == side:
        if len(p.trick) == p.players - 1:
            spare = [c for c in plays if c >> 3 != trump] or plays
            return ("play", max(spare, key=lambda c: (POINTS[c], c & 7)))
        return ("play", min(plays, key=lambda c: _cost(c, trump)))
    winners = [c for c in plays if beats(c, best, trump)]
    in_suit = [c for c in winners if c >> 3 != trump]
    if in_suit:
        return ("play", max(in_suit, key=lambda c: c & 7))
    trumps = [c for c in winners if c >> 3 == trump]
    at_stake = sum(POINTS[c] for _, c in p.trick)
    if trumps and (at_stake >= 10 or not p.stock_open()):
        return ("play", min(trumps, key=lambda c: (POINTS[c], -(c & 7))))
    return ("play", min(plays, key=lambda c: _cost(c, trump)))
