"""The Sixty-six bots: easy follows a few card-sense rules; medium and hard search
determinizations of the view (rules/sixtysix/search/). All read only the view."""
from __future__ import annotations

from rules.search import Appraisal, Budget, Clock, Problem, search
from rules.sixtysix.cards import POINTS, STRENGTH, SUIT, SUITS, beats, best_of
from rules.sixtysix.search import CODE, NAME, Knowledge, Position, apply, finish


def easy_action(view: dict, legal: list, rng, budget: Budget) -> dict:
    # Easy does not search, so it leaves the budget unspent.
    return easy_choice(Knowledge(view, legal), legal)


def easy_choice(known: Knowledge, legal: list) -> dict:
    trump = SUITS[known.trump]
    by_type = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)

    declaring = _declaration(known, by_type.get("declare", []))
    if declaring:
        return declaring
    if "exchange" in by_type:
        return by_type["exchange"][0]
    if "marry" in by_type:
        # Lead the queen: it is worth less than the king if an opponent takes it.
        marriages = sorted(by_type["marry"], key=lambda a: (SUIT[a["card"]] != trump, a["card"][0] == "K"))
        return marriages[0]

    plays = [a["card"] for a in by_type["play"]]
    if known.trick:
        card = _follow(known, plays, trump)
    else:
        card = _lead(known, plays, trump)
    return {"type": "play", "card": card}


def _declaration(known: Knowledge, declares: list):
    for action in declares:
        gain = 0
        if "card" in action:
            gain = 40 if SUIT[action["card"]] == SUITS[known.trump] else 20
        if known.my_points + gain >= known.target:
            return action
    return None


def _cost(card: str, trump: str) -> tuple:
    """How much it hurts to give a card away: trumps last, then by points and rank."""
    return (SUIT[card] == trump, POINTS[card], STRENGTH[card])


def _lead(known: Knowledge, plays: list, trump: str) -> str:
    if known.stock_size == 0:
        # Strict play: the opponents must head the lead, so strong cards pull points.
        aces = [c for c in plays if c[0] == "A"]
        if aces:
            return min(aces, key=lambda c: SUIT[c] == trump)
    return min(plays, key=lambda c: _cost(c, trump))


def _follow(known: Knowledge, plays: list, trump: str) -> str:
    trick = [[seat, NAME[card]] for seat, card in known.trick]
    best_seat, best = best_of(trick, trump)
    last = len(trick) == known.players - 1
    if best_seat % known.sides == known.side:
        if last:
            # Partner holds the trick: add the richest card we can spare.
            spare = [c for c in plays if SUIT[c] != trump] or plays
            return max(spare, key=lambda c: (POINTS[c], -STRENGTH[c]))
        return min(plays, key=lambda c: _cost(c, trump))
    at_stake = sum(POINTS[c] for _, c in trick)
    winners = [c for c in plays if beats(c, best, trump)]
    in_suit = [c for c in winners if SUIT[c] != trump]
    if in_suit:
        return min(in_suit, key=lambda c: STRENGTH[c])
    trumps = [c for c in winners if SUIT[c] == trump]
    if trumps and (at_stake >= 10 or known.stock_size == 0):
        return min(trumps, key=lambda c: (POINTS[c], STRENGTH[c]))
    return min(plays, key=lambda c: _cost(c, trump))


def medium_action(view: dict, legal: list, rng, budget: Budget) -> dict:
    return _searched_action(view, legal, rng, budget, exact=False)


def hard_action(view: dict, legal: list, rng, budget: Budget) -> dict:
    return _searched_action(view, legal, rng, budget, exact=True)


ROLLOUT_EXACT_CARDS = 4


def _searched_action(view: dict, legal: list, rng, budget: Budget, exact: bool) -> dict:
    """The shared search over determinizations of the view. A correct declaration is
    taken at once (waiting can only let the opponents score more); a false one stays
    a candidate, as it can cost less than playing on. With `exact`, two-player
    endgames are solved perfectly: once, when the view fixes every card (stock exhausted),
    else per sample (rollouts from an open stock solve only the last ROLLOUT_EXACT_CARDS
    tricks)."""
    clock = Clock(budget)
    knowledge = Knowledge(view, legal)
    declaring = _declaration(knowledge, [a for a in legal if a["type"] == "declare"])
    if declaring:
        return declaring
    # The easy choice goes first, so it keeps every tie against the searched ones.
    default = easy_choice(knowledge, legal)
    candidates = [default] + [a for a in legal if a != default]
    return search(_problem(knowledge, candidates, exact), clock, rng, lambda: default)


def _problem(knowledge: Knowledge, candidates: list, exact: bool) -> Problem:
    # Two players, stock exhausted, every card accounted for: one deal is the truth.
    certain = exact and knowledge.known_exactly()
    # Already strict: solve every sample exactly. Still open: rollouts reach the strict
    # phase with full hands, where a solve per sample costs too much; solve the last
    # tricks only.
    from_cards = 99 if knowledge.stock_size == 0 else ROLLOUT_EXACT_CARDS

    def simulate(action: dict, dealt: Position, sample_rng) -> float:
        position = dealt.copy()
        apply(position, (action["type"], CODE.get(action.get("card"))))
        return finish(position, knowledge.side, exact, from_cards)

    return Problem(candidates, knowledge.deal, simulate, certain=certain)


def appraise(view: dict, legal: list, deal_only: bool = False) -> Appraisal:
    """Hard's problem over every legal action, a declaration too. Its value is already the
    hand's alone: the side's game points less the best opposing side's."""
    return Appraisal(_problem(Knowledge(view, legal), list(legal), exact=True),
                     list(range(len(legal))))
