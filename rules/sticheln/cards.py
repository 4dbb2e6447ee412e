"""The Sticheln cards and the pure rules on them, shared by the game and its bots."""
from __future__ import annotations

import random


COLORS = ("blue", "red", "green", "yellow", "purple", "brown")
PURPLE = COLORS.index("purple")
SPAN = 21  # a card is the int colour * SPAN + value, so sorting ints sorts by colour, then value
CARD_NAMES = {c * SPAN + v: f"{COLORS[c]}-{v}"
              for c in range(len(COLORS)) for v in range(21 if c < 3 else 19)}
CARD_IDS = {name: card for card, name in CARD_NAMES.items()}
COLOR_IDS = {name: c for c, name in enumerate(COLORS)}
VARIANTS = ("reverse", "mild", "tough", "dark", "late")
MILD_POINTS = 5

# players -> highest card value used, hand size
SETUP = {3: (8, 15), 4: (11, 15), 5: (14, 15), 6: (14, 15), 7: (17, 15), 8: (18, 14)}


def colors_in_play(players: int) -> list[int]:
    return [c for c in range(len(COLORS)) if players >= 6 or c != PURPLE]


def deck_for(players: int) -> list[int]:
    top = SETUP[players][0]
    return [c * SPAN + v for c in colors_in_play(players) for v in range(top + 1)]


def deal_cards(rng: random.Random, players: int, two_colours: bool) -> tuple[list, list]:
    """Hands and leftover; a hand of a single colour cannot put down two colours, so redeal."""
    deck = deck_for(players)
    size = SETUP[players][1]
    while True:
        rng.shuffle(deck)
        hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(players)]
        if not two_colours or all(hand[0] // SPAN != hand[-1] // SPAN for hand in hands):
            return hands, sorted(deck[players * size:])


def trick_winner(cards: list[int], reverse: bool) -> int:
    """Index of the winning card in playing order.

    Trumps (non-zero cards not of the led colour) beat led-colour cards; zeros are never trump.
    Highest wins, or lowest under "reverse" where zeros never win. Ties: first played.
    """
    led = cards[0] // SPAN
    best, best_key = 0, None
    for index, card in enumerate(cards):
        colour, value = divmod(card, SPAN)
        if value == 0 and (reverse or colour != led):
            continue
        key = (colour != led, -value if reverse else value)
        if best_key is None or key > best_key:
            best, best_key = index, key
    return best


def card_points(card: int, pain_colours: list[int], options: dict) -> int:
    colour, value = divmod(card, SPAN)
    if colour in pain_colours:
        worth = MILD_POINTS if options["mild"] else value
        return worth if options["reverse"] else -worth
    return -1 if options["reverse"] else 1


def deal_score(cards: list[int], pain_colours: list[int], options: dict) -> int:
    return sum(card_points(card, pain_colours, options) for card in cards)


def names(cards: list[int]) -> list[str]:
    return [CARD_NAMES[card] for card in cards]
