"""Card tables and trick arithmetic shared by the rules and the bots."""

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

SUIT = {}
STRENGTH = {}  # higher beats lower within a suit
POINTS = {}
SORT_KEY = {}
for _s, _suit in enumerate(SUITS):
    for _r, _rank in enumerate(RANKS):
        _card = _rank + _suit
        SUIT[_card] = _suit
        STRENGTH[_card] = len(RANKS) - _r
        POINTS[_card] = CARD_POINTS[_rank]
        SORT_KEY[_card] = _s * len(RANKS) + _r

DECK_32 = [rank + suit for suit in SUITS for rank in RANKS]
DECK_24 = [rank + suit for suit in SUITS for rank in RANKS[:6]]


def side_count(players: int) -> int:
    return 2 if players == 4 else players


def beats(card: str, best: str, trump: str) -> bool:
    """Whether `card`, played later, takes the trick from `best` (identical cards never do)."""
    if SUIT[card] == SUIT[best]:
        return STRENGTH[card] > STRENGTH[best]
    return SUIT[card] == trump


def best_of(trick: list, trump: str) -> list:
    """The [seat, card] that holds the trick so far."""
    best = trick[0]
    for played in trick[1:]:
        if beats(played[1], best[1], trump):
            best = played
    return best


def strict_cards(hand: list, trick: list, trump: str) -> set:
    """Cards allowed once the stock is gone: head the trick in suit, else follow,
    else win with a trump, else anything."""
    led = SUIT[trick[0][1]]
    best = best_of(trick, trump)[1]
    follow = [c for c in hand if SUIT[c] == led]
    if follow:
        heading = [c for c in follow if beats(c, best, trump)]
        return set(heading or follow)
    trumps = [c for c in hand if SUIT[c] == trump and beats(c, best, trump)]
    return set(trumps or hand)
