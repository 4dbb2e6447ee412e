"""Sticheln for the shared search (rules/search.py), on a compact copy of the rules.

`read_view` turns the seat's view into the `Knowledge` every level uses, easy too. A search
deals the cards the seat cannot see at random among the others (a determinization), and for
every candidate plays the rest of the deal out with a quick greedy policy (or, slower, with the
others playing as the easy bot does: hard's playouts where that models the table better). The
value of a playout is the seat's match margin after the deal: over the others' mean, blended
with that over the best rival. The search drops its weaker half of candidates as the rounds double.

The rules here are plain ints and lists (a card is colour * SPAN + value, as in cards.py),
because the playouts are the hot loop; tests check them against game.py.
"""
from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from rules.search import Clock, Problem, margin, search
from rules.sticheln.cards import (CARD_IDS, COLOR_IDS, COLORS, MILD_POINTS, SETUP, SPAN,
                                  deck_for)

NO_WIN = -1   # trick strength of a card that can never win the trick
TRUMP = 32    # added to a trump's strength so every trump beats every led-colour card

# The playout policy's guesses; tuned by the tournament, not derived.
DUMP = 0.6      # value of passing one point of own pain into someone else's trick
WASTE = 0.4     # cost of throwing away a strong card that could win a good trick later
LED_KEEP = 0.3  # a led-colour card is worth keeping this much less than a trump of its rank
NOISE = 0.3     # random spread of the policy's ratings, so playouts differ
OWN_RISK = 0.2  # share of its own pain-colour cards a player expects to take
FIRST_CUT = 4   # rounds of playouts before the search first drops its weaker half
EARLY_TRICKS = 4  # tricks in which a seat not trying to win still holds pain cards to pass on
RANK = 0.5      # weight of the margin over the match leader, against that over the mean

# The easy bot's guesses (bots.EasyRater), here because the playouts' easy model plays by them too.
EASY_DUMP = 0.5     # value of getting a card out of the hand into someone else's trick
EASY_WASTE = 0.5    # cost of throwing away a card strong enough to win later
HARM = 0.3          # value of feeding a rival his own pain colour
WILLING = 0.6       # chance an opponent who can beat the trick does so


@cache
def strengths(top: int, reverse: bool) -> tuple[tuple[int, ...], ...]:
    """[led colour][card] -> trick strength as in cards.trick_winner, one int; the higher wins,
    ties go to the card played first. Ranks run 1..top, so rank / top says how strong."""
    table = []
    for led in range(len(COLORS)):
        row = []
        for card in range(len(COLORS) * SPAN):
            colour, value = divmod(card, SPAN)
            if value == 0 and (reverse or colour != led):
                row.append(NO_WIN)
                continue
            rank = top + 1 - value if reverse else value
            row.append(rank + TRUMP if colour != led else rank)
        table.append(tuple(row))
    return tuple(table)


@cache
def keep_values(top: int, reverse: bool) -> tuple[tuple[float, ...], ...]:
    """[led colour][card] -> how much the card is worth keeping for a later trick, 0 to 1 (the
    playout policy's guess, from its strength): a trump by its rank, a led-colour card less."""
    return tuple(tuple((s - TRUMP if s >= TRUMP else LED_KEEP * s) / top if s >= 0 else 0.0
                       for s in row) for row in strengths(top, reverse))


@dataclass
class Knowledge:
    """What one seat knows in phase "choose" or "play", read from its view."""

    players: int
    me: int
    reverse: bool
    mild: bool
    tough: bool
    late: bool
    dark: bool
    phase: str
    hand: list[int]            # the seat's hand; in "choose" with its put-down cards back in
    held: list[int]            # the seat's hand as the view shows it
    named: list[list[int] | None]   # each seat's pain colours, None while unknown to the seat
    trick: list[int]           # cards of the current trick in playing order
    leader: int
    won: list[list[int]]       # every seat's collected cards
    pain: list[list[int] | None]   # put-down cards per seat, None while hidden from the seat
    unseen: list[int]          # cards the seat cannot place: others' hands and hidden pain cards
    hand_sizes: list[int]      # cards each seat still holds (hidden pain cards not included)
    totals: list[int]          # match scores before this deal
    # Per seat, colours its hidden pain is likely of (the likeliest first), and colours it is
    # not: "dark" only, read from the cards it dumped in the last and the current trick.
    hints: list[list[int]]
    not_pain: list[set[int]]
    tricks_played: int
    # Weight of the margin over the match leader in a playout's value (RANK); the analysis of
    # a deal's luck weighs the mean alone.
    rank: float = RANK
    # Pain colours -> (points of every card, mean points of an unseen card), for playouts.
    scorings: dict = field(default_factory=dict, repr=False, compare=False)

    def scoring(self, pain_colours: list[int] | None) -> tuple[list[int], float]:
        key = None if pain_colours is None else tuple(pain_colours)
        known = self.scorings.get(key)
        if known is None:
            values = deal_values(self, pain_colours)
            unseen = self.unseen
            expected = sum(values[card] for card in unseen) / len(unseen) if unseen else 0.0
            known = self.scorings[key] = (values, expected)
        return known

    @property
    def put_down(self) -> int:
        return 0 if self.late else 2 if self.tough else 1


def read_view(view: dict) -> Knowledge:
    table = view["table"]
    n = len(view["scores"])
    me = view["seat"]
    variants = table["variants"]
    tough, late = "tough" in variants, "late" in variants
    phase = view["phase"]
    hand = [CARD_IDS[name] for name in view["hand"]]
    pain_seen = [[CARD_IDS[name] for name in cards] for cards in table["pain"]]
    if phase == "choose":
        # A choice may be changed until all have chosen, so the put-down cards are still options.
        hand = sorted(hand + pain_seen[me])
        pain: list[list[int] | None] = [None] * n
    elif late:
        pain = [None] * n  # nothing is put down; the colours are named at the end
    else:
        put_down = 2 if tough else 1
        # An empty list is a choice still hidden ("dark"), not an empty choice.
        pain = [cards if len(cards) == put_down else None for cards in pain_seen]
    trick = [CARD_IDS[entry["card"]] for entry in table["trick"]]
    won = [[CARD_IDS[name] for cards in by_colour.values() for name in cards]
           for by_colour in table["collected"]]
    seen = set(hand) | set(trick) | {CARD_IDS[name] for name in table["leftover"]}
    seen.update(card for cards in won for card in cards)
    seen.update(card for cards in pain if cards for card in cards)
    unseen = [card for card in deck_for(n) if card not in seen]
    if phase == "choose":
        hand_sizes = [SETUP[n][1]] * n
    else:
        left = table["tricks_per_deal"] - table["tricks_played"]
        played = {entry["seat"] for entry in table["trick"]}
        hand_sizes = [left - (seat in played) for seat in range(n)]
    held = [CARD_IDS[name] for name in view["hand"]]
    named = [None if colours is None else [COLOR_IDS[c] for c in colours]
             for colours in table["pain_colors"]]
    reverse, dark = "reverse" in variants, "dark" in variants
    hints, not_pain = (pain_hints(table, n, me, reverse) if dark and phase == "play"
                       else ([[]] * n, [set()] * n))
    return Knowledge(n, me, reverse, "mild" in variants, tough, late, dark, phase, hand,
                     held, named, trick, table["leader"], won, pain, unseen, hand_sizes,
                     list(view["scores"]), hints, not_pain, table["tricks_played"])


def pain_hints(table: dict, players: int, me: int,
               reverse: bool) -> tuple[list[list[int]], list[set[int]]]:
    """Under "dark": per seat, colours its hidden pain is likely of (dearest first), and colours
    it is not, from the cards it led or played without beating the trick in every trick of the
    deal so far. A seat that does not try to win passes on its dearest pain card (the easy
    bot always does) until it has none left, which with a short pain colour is early: in the
    first tricks such a card's colour is the pain colour (right 94-99% of the time in easy's
    games at 4 players, tricks 1-4), from the sixth trick on it is not (wrong 80-100%).
    Nothing is read under "reverse", where lucky cards are kept."""
    likely: list[list[int]] = [[] for _ in range(players)]
    unlikely: list[set[int]] = [set() for _ in range(players)]
    if reverse:
        return likely, unlikely
    row_of = strengths(SETUP[players][0], False)
    played = table["tricks_played"]
    # What a seat passed on in the first tricks still names its colour late in the deal. A deal
    # stored before the view listed its tricks lists only the later ones.
    done = table.get("tricks") or ([table["last_trick"]] if table["last_trick"] else [])
    tricks = [(played - len(done) + index, trick["cards"]) for index, trick in enumerate(done)]
    tricks.append((played, table["trick"]))
    evidence = []
    for number, trick in tricks:
        if not trick:
            continue
        row = row_of[CARD_IDS[trick[0]["card"]] // SPAN]
        best = NO_WIN - 1
        for index, entry in enumerate(trick):
            card, seat = CARD_IDS[entry["card"]], entry["seat"]
            if index and row[card] > best:
                best = row[card]
                continue
            best = max(best, row[card])
            if seat == me:
                continue
            if number < EARLY_TRICKS:
                evidence.append((card % SPAN, seat, card // SPAN))
            elif number >= EARLY_TRICKS + 2:
                unlikely[seat].add(card // SPAN)
    for _, seat, colour in sorted(evidence, reverse=True):
        if colour not in likely[seat]:
            likely[seat].append(colour)
    return likely, unlikely


def deal_values(knowledge: Knowledge, pain_colours: list[int] | None) -> list[int]:
    """Points of every card id for a player with these pain colours; None means not yet named."""
    plain = -1 if knowledge.reverse else 1
    values = [plain] * (len(COLORS) * SPAN)
    for colour in pain_colours or ():
        for value in range(SPAN):
            worth = MILD_POINTS if knowledge.mild else value
            values[colour * SPAN + value] = worth if knowledge.reverse else -worth
    return values


def final_score(knowledge: Knowledge, cards: list[int], pain_colours: list[int] | None) -> int:
    """A seat's deal score; under "late" with the colours it would best name."""
    if pain_colours is None:
        won = sorted({card // SPAN for card in cards})
        if not won:
            return 0
        size = min(2 if knowledge.tough else 1, len(won))
        return max(final_score(knowledge, cards, list(named)) for named in combinations(won, size))
    values = deal_values(knowledge, pain_colours)
    return sum(values[card] for card in cards)


def choice_cost(knowledge: Knowledge, hand: list[int], cards: tuple[int, ...]) -> float:
    """A cheap stand-in for the easy bot's rating of a pain choice: the lower the better."""
    total = 0.0
    for card in cards:
        colour = card // SPAN
        own = sum(MILD_POINTS if knowledge.mild else c % SPAN
                  for c in hand if c // SPAN == colour and c != card)
        worth = MILD_POINTS if knowledge.mild else card % SPAN
        total += worth + OWN_RISK * own
    return -total if knowledge.reverse else total


def pain_options(knowledge: Knowledge, hand: list[int]) -> list[tuple[int, ...]]:
    if not knowledge.tough:
        return [(card,) for card in hand]
    pairs = [(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]]
    # A sampled hand of one colour (hidden "dark" pain late in a deal) cannot be what was dealt;
    # rather than resample, let it put down one colour: rare, and it only blurs that sample.
    return [(a, b) for a, b in pairs if a // SPAN != b // SPAN] or pairs


def quick_pain(knowledge: Knowledge, hand: list[int], rng: random.Random,
               ruled_out: set[int] = frozenset()) -> tuple[int, ...]:
    """An opponent's pain choice in a playout: the cheapest by `choice_cost`, ties at random,
    of colours not `ruled_out` where it can."""
    options = pain_options(knowledge, hand)
    if ruled_out:
        options = [cards for cards in options
                   if not any(card // SPAN in ruled_out for card in cards)] or options
    return min(options, key=lambda cards: (choice_cost(knowledge, hand, cards), rng.random()))


class _Steady(random.Random):
    """A random source whose `random()` is always 0: the playout policy's ratings without noise."""

    def random(self) -> float:
        return 0.0


_NO_NOISE = _Steady(0)


class Playout:
    """One determinized deal, played to its end from the seat's position; the other seats
    play by `policy`, or with `easy_opponents` as the easy bot does (`easy_card`: slower)."""

    def __init__(self, knowledge: Knowledge, rng: random.Random, easy_opponents: bool = False):
        self.k = knowledge
        self.rng = rng
        self.easy_opponents = easy_opponents
        n = knowledge.players
        self.top = SETUP[n][0]
        unseen = list(knowledge.unseen)
        rng.shuffle(unseen)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.pain: list[list[int] | None] = [None if p is None else list(p)
                                             for p in knowledge.pain]
        hinted = {}
        for seat in range(n):
            guess = self.pain_guess(seat)
            if guess:
                hinted[seat] = self.hinted_pain(guess, unseen)
        for seat in range(n):
            if seat == knowledge.me:
                self.hands[seat] = list(knowledge.hand)
                continue
            hidden_pain = (self.pain[seat] is None and not knowledge.late
                           and knowledge.phase == "play")
            known = hinted.get(seat, [])
            size = (knowledge.hand_sizes[seat] - len(known)
                    + (knowledge.put_down if hidden_pain else 0))
            self.hands[seat], unseen = unseen[:size], unseen[size:]
            if not hidden_pain:
                continue
            if len(known) == knowledge.put_down:
                self.pain[seat] = sorted(known)
            elif known:
                # "tough" with one colour hinted: the other card as the cheapest in the hand.
                hand = self.hands[seat]
                rest = [c for c in hand if c // SPAN != known[0] // SPAN] or hand
                other = min(rest, key=lambda c: (choice_cost(knowledge, hand, (c,)), rng.random()))
                hand.remove(other)
                self.pain[seat] = sorted(known + [other])
            else:
                self.put_down(seat, quick_pain(knowledge, self.hands[seat], rng,
                                               knowledge.not_pain[seat]))
        self.won = [list(cards) for cards in knowledge.won]

    def pain_guess(self, seat: int) -> list[int]:
        """The colours to deal a seat's hidden pain card(s) of: the hinted ones; none to let
        `quick_pain` choose."""
        k = self.k
        if seat == k.me or not k.dark or self.pain[seat] is not None:
            return []
        return k.hints[seat][:k.put_down]

    def hinted_pain(self, colours: list[int], unseen: list[int]) -> list[int]:
        """Hidden pain cards of the hinted colours, taken out of `unseen`: low ones, as put
        down; none for a colour with no unseen card left (the hint was wrong)."""
        cards = []
        for colour in colours:
            options = [card for card in unseen if card // SPAN == colour]
            if options:
                card = min(self.rng.sample(options, min(2, len(options))))
                unseen.remove(card)
                cards.append(card)
        return cards

    def favourites(self, count: int) -> list[int]:
        """The seat's `count` best cards to play now by the playout policy without its noise,
        the best first."""
        k = self.k
        steady = self.copy(_NO_NOISE)
        values, expected = k.scoring(steady.pain_colours(k.me))
        table, keeps = strengths(self.top, k.reverse), keep_values(self.top, k.reverse)
        hand, ranked = steady.hands[k.me], []
        while hand and len(ranked) < count:
            card = steady.policy(k.me, list(k.trick), values, expected, table, keeps)
            hand.remove(card)
            ranked.append(card)
        return ranked

    def copy(self, rng: random.Random) -> "Playout":
        """The same deal, to be played on with `rng`."""
        other = Playout.__new__(Playout)
        other.k, other.rng, other.top = self.k, rng, self.top
        other.easy_opponents = self.easy_opponents
        other.hands = [list(hand) for hand in self.hands]
        other.pain = [None if p is None else list(p) for p in self.pain]
        other.won = [list(cards) for cards in self.won]
        return other

    def put_down(self, seat: int, cards: tuple[int, ...]) -> None:
        for card in cards:
            self.hands[seat].remove(card)
        self.pain[seat] = list(cards)

    def pain_colours(self, seat: int) -> list[int] | None:
        cards = self.pain[seat]
        return None if cards is None else sorted({card // SPAN for card in cards})

    # --- playing on ------------------------------------------------------------------------
    def value_after_choice(self, cards: tuple[int, ...]) -> float:
        """Phase "choose": the seat puts these cards down, the others choose, the deal is played."""
        k = self.k
        for seat in range(k.players):
            chosen = cards if seat == k.me else quick_pain(k, self.hands[seat], self.rng)
            self.put_down(seat, chosen)
        self.play_on(k.leader, [])
        return self.value()

    def value_after_play(self, card: int) -> float:
        k = self.k
        trick = list(k.trick)
        self.hands[k.me].remove(card)
        trick.append(card)
        self.play_on(k.leader, trick)
        return self.value()

    def play_on(self, leader: int, trick: list[int]) -> None:
        k, n = self.k, self.k.players
        table = strengths(self.top, k.reverse)
        keeps = keep_values(self.top, k.reverse)
        scorings = [k.scoring(self.pain_colours(seat)) for seat in range(n)]
        hands = self.hands
        pool = self.in_play(table) if self.easy_opponents and not k.late else None
        while True:
            while len(trick) < n:
                seat = (leader + len(trick)) % n
                values, expected = scorings[seat]
                if pool is not None and seat != k.me:
                    card = self.easy_card(seat, leader, trick, values, table, pool)
                else:
                    card = self.policy(seat, trick, values, expected, table, keeps)
                hands[seat].remove(card)
                if pool is not None:
                    pool.remove(card)
                trick.append(card)
            row = table[trick[0] // SPAN]
            best, best_strength = 0, NO_WIN - 1
            for index, card in enumerate(trick):
                s = row[card]
                if s > best_strength:
                    best, best_strength = index, s
            leader = (leader + best) % n
            self.won[leader].extend(trick)
            trick = []
            if not hands[leader]:
                return

    def policy(self, seat: int, trick: list[int], values: list[int], expected: float,
               table: tuple[tuple[int, ...], ...], keeps: tuple[tuple[float, ...], ...]) -> int:
        """A greedy player: win a trick when it pays, else pass on pain, else keep strong cards."""
        hand = self.hands[seat]
        if len(hand) == 1:
            return hand[0]
        noise = self.rng.random
        after = self.k.players - len(trick) - 1
        choice, choice_rating = hand[0], None
        if not trick:
            # A led card holds only if no one after it plays higher or a trump: rarely.
            hold = 0.1 ** after
            rest = after * expected
            for card in hand:
                keep = keeps[card // SPAN][card]
                losing = -DUMP * values[card] - WASTE * keep
                rating = hold * (values[card] + rest) + (1 - hold) * losing + NOISE * noise()
                if choice_rating is None or rating > choice_rating:
                    choice, choice_rating = card, rating
            return choice
        led = trick[0] // SPAN
        row, keep_row = table[led], keeps[led]
        best = max(row[card] for card in trick)
        rest = sum(values[card] for card in trick) + after * expected
        for card in hand:
            s = row[card]
            keep = keep_row[card]
            losing = -DUMP * values[card] - WASTE * keep
            if s > best:
                # A card must beat everyone after it to hold; trumps hold by their rank.
                hold = keep ** (2 * after) if s >= TRUMP or not after else 0.1 ** after
                rating = hold * (rest + values[card]) + (1 - hold) * losing
            else:
                rating = losing
            rating += NOISE * noise()
            if choice_rating is None or rating > choice_rating:
                choice, choice_rating = card, rating
        return choice

    def in_play(self, table: tuple[tuple[int, ...], ...]) -> "_InPlay":
        hidden = [card for cards in self.pain for card in cards or ()] if self.k.dark else []
        return _InPlay([card for hand in self.hands for card in hand] + hidden, table, self.k)

    def easy_choice(self, seat: int, leader: int, trick: list[int]) -> int:
        """`easy_card` alone, outside a playout: the easy model's card in this deal."""
        table = strengths(self.top, self.k.reverse)
        values, _ = self.k.scoring(self.pain_colours(seat))
        return self.easy_card(seat, leader, trick, values, table, self.in_play(table))

    def easy_card(self, seat: int, leader: int, trick: list[int], values: list[int],
                  table: tuple[tuple[int, ...], ...], pool: "_InPlay") -> int:
        """The card the easy bot plays (bots.EasyRater.rate_play) from this seat's place in the
        deal, its pain colours known: its unseen cards are the `pool` but for its own."""
        k, n = self.k, self.k.players
        hand = self.hands[seat]
        if len(hand) == 1:
            return hand[0]
        own = hand + self.pain[seat] if k.dark and self.pain[seat] else hand
        unseen = pool.size - len(own)
        if not unseen:
            return hand[0]
        own_points = sum(values[card] for card in own)
        average = (pool.points(self.pain_colours(seat)) - own_points) / unseen
        after = n - len(trick) - 1
        in_hand = len(hand) - 1
        top, reverse, mild = self.top, k.reverse, k.mild

        def hold(led: int, strength: int) -> float:
            if not after:
                return 1.0
            row = table[led]
            beaters = pool.stronger(led, strength) - sum(1 for card in own
                                                         if row[card] > strength)
            can_beat = 1 - (1 - beaters / unseen) ** in_hand
            return (1 - WILLING * can_beat) ** after

        harm_colours = None
        if trick:
            led = trick[0] // SPAN
            row = table[led]
            best_index = max(range(len(trick)), key=lambda i: row[trick[i]])
            best = row[trick[best_index]]
            if not k.dark:
                harm_colours = self.pain_colours((leader + best_index) % n)
            taken = sum(values[card] for card in trick) + after * average
        choice, choice_rating = hand[0], None
        for card in hand:
            colour, value = divmod(card, SPAN)
            strength = ((top - value) if reverse else value) / top if value else 0.0
            losing = -EASY_DUMP * values[card] - EASY_WASTE * strength
            if not trick:
                chance = hold(colour, table[colour][card])
                rating = chance * (values[card] + after * average) + (1 - chance) * losing
            else:
                if harm_colours and colour in harm_colours:
                    worth = MILD_POINTS if mild else value
                    losing += -HARM * worth if reverse else HARM * worth
                s = row[card]
                if s > best and s != NO_WIN:
                    chance = hold(led, s)
                    rating = chance * (taken + values[card]) + (1 - chance) * losing
                else:
                    rating = losing
            if choice_rating is None or rating > choice_rating:
                choice, choice_rating = card, rating
        return choice

    def value(self) -> float:
        k = self.k
        scores = [final_score(k, (self.pain[seat] or []) + self.won[seat], self.pain_colours(seat))
                  for seat in range(k.players)]
        # Only first place counts in the end, so the margin weighs the best rival too.
        return margin([total + score for total, score in zip(k.totals, scores)], k.me, k.rank)


class _InPlay:
    """The cards not yet played (in hands, and hidden pain cards under "dark"), kept sorted by
    trick strength under every led colour and summed by colour, so that the easy model counts
    a card's beaters by bisection and the points of the unseen cards without a pass over them."""

    def __init__(self, cards: list[int], table: tuple[tuple[int, ...], ...], k: Knowledge):
        self.size = len(cards)
        self.table = table
        self.k = k
        self.by_led = [sorted(row[card] for card in cards) for row in table]
        self.count = [0] * len(COLORS)
        self.face = [0] * len(COLORS)
        for card in cards:
            colour, value = divmod(card, SPAN)
            self.count[colour] += 1
            self.face[colour] += value

    def remove(self, card: int) -> None:
        self.size -= 1
        for row, ordered in zip(self.table, self.by_led):
            del ordered[bisect_left(ordered, row[card])]
        colour, value = divmod(card, SPAN)
        self.count[colour] -= 1
        self.face[colour] -= value

    def stronger(self, led: int, strength: int) -> int:
        ordered = self.by_led[led]
        return len(ordered) - bisect_right(ordered, strength)

    def points(self, pain_colours: list[int]) -> int:
        """The points of every card here for a player with these pain colours."""
        k = self.k
        plain, sign = (-1, 1) if k.reverse else (1, -1)
        total = 0
        for colour, count in enumerate(self.count):
            if colour in pain_colours:
                total += sign * (MILD_POINTS * count if k.mild else self.face[colour])
            else:
                total += plain * count
        return total


def _problem(knowledge: Knowledge, candidates: list, value, easy_opponents: bool) -> Problem:
    """`value(playout, candidate)` plays one candidate out on a copy of the dealt playout."""
    return Problem(candidates, lambda rng: Playout(knowledge, rng, easy_opponents),
                   lambda candidate, dealt, rng: value(dealt.copy(rng), candidate),
                   halving=FIRST_CUT)


def play_problem(knowledge: Knowledge, candidates: list[int], easy_opponents: bool) -> Problem:
    return _problem(knowledge, candidates, Playout.value_after_play, easy_opponents)


def choose_play(knowledge: Knowledge, legal: list[dict], rng: random.Random, clock: Clock,
                fallback, shortlist: int | None = None, easy_opponents: bool = False) -> dict:
    """The card to play: every legal one, or the policy's `shortlist` favourites, searched."""
    cards = [CARD_IDS[action["card"]] for action in legal]
    candidates = cards
    if shortlist is not None and len(cards) > shortlist:
        candidates = Playout(knowledge, rng).favourites(shortlist)
    problem = play_problem(knowledge, candidates, easy_opponents)
    card = search(problem, clock, rng, lambda: CARD_IDS[fallback()["card"]])
    return legal[cards.index(card)]


def pain_choices(legal: list[dict]) -> list[tuple[int, ...]]:
    return [tuple(sorted(CARD_IDS[name] for name in action.get("cards", [action.get("card")])))
            for action in legal]


def pain_problem(knowledge: Knowledge, choices: list[tuple[int, ...]], order: list[int],
                 easy_opponents: bool) -> Problem:
    """The choices of indices `order` in `choices`, each played out."""
    return _problem(knowledge, order,
                    lambda playout, i: playout.value_after_choice(choices[i]), easy_opponents)


def choose_pain(knowledge: Knowledge, legal: list[dict], rng: random.Random, clock: Clock,
                shortlist: int, fallback, easy_opponents: bool = False) -> dict:
    """The pain choice: the `shortlist` cheapest choices by `choice_cost`, then searched."""
    choices = pain_choices(legal)
    order = sorted(range(len(legal)),
                   key=lambda i: choice_cost(knowledge, knowledge.hand, choices[i]))[:shortlist]
    problem = pain_problem(knowledge, choices, order, easy_opponents)
    return legal[search(problem, clock, rng, lambda: legal.index(fallback()))]


def naming_score(knowledge: Knowledge, action: dict) -> int:
    """Under "late": the seat's score of the deal if it names these colours."""
    colours = [COLOR_IDS[c] for c in action.get("colors", [action.get("color")])]
    return final_score(knowledge, knowledge.won[knowledge.me], colours)


def name_pain(knowledge: Knowledge, legal: list[dict]) -> dict:
    """Under "late" the naming only changes the seat's own score: take the best."""
    return max(legal, key=lambda action: naming_score(knowledge, action))
