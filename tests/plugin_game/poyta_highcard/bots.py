"""High card's one bot level."""
from __future__ import annotations

import random

from rules.search import Budget


def easy(view: dict, legal: list[dict], rng: random.Random, budget: Budget) -> dict:
    """Take the trick as cheaply as possible, else lose it with the lowest card."""
    cards = sorted(action["card"] for action in legal)
    led = view["table"]["trick"]
    winning = [card for card in cards if led and card > led[0]["card"]]
    return {"type": "play", "card": (winning or cards)[0]}
