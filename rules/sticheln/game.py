"""Sticheln (Klaus Palesch): tricks without any duty to follow, every colour but the led one
is trump, and each player picks a pain colour whose cards cost him their face value.

Cards are named "<colour>-<value>", e.g. "red-5", "brown-0". Colours in table order:
blue, red, green (0-20), yellow, purple, brown (0-18); purple is only used from six players on.

Actions
    {"type": "choose_pain", "card": "red-4"}             put one hand card down (phase "choose")
    {"type": "choose_pain", "cards": ["red-4", "blue-2"]} the same under "tough": two colours
    {"type": "play", "card": "blue-12"}                   play a card to the trick (phase "play")
    {"type": "name_pain", "color": "red"}                 "late": name a colour you won
                                                          (phase "name")
    {"type": "name_pain", "colors": ["red", "blue"]}      "late" + "tough": two colours, or one if
                                                          you won cards of one colour only

Phases: "choose" (simultaneous, secret), "play", "name" ("late" only; simultaneous, secret),
"over". A deal is scored as soon as its last action is applied and the next deal starts at once,
so the finished deal is shown under table["previous_deal"]. In phase "over" the last deal stays
on the table with everything revealed.

view()["table"] keys
    seat            the viewer's seat, None for a spectator
    dealer          dealer of this deal
    leader          the seat that led (or leads) the current trick
    turn            seat to play now, None outside phase "play"
    to_act          seats that still have to act now
    tricks_played   tricks finished in this deal
    tricks_per_deal tricks in a deal (hand size minus cards put down)
    trick           [{"seat": s, "card": name}] in playing order
    led_color       colour of the first card of the trick, None when the trick is empty
    last_trick      {"cards": [{"seat", "card"}], "winner": seat} of this deal, or None
    leftover        cards set aside face up for the whole deal (7 and 8 players), sorted
    chosen          [bool per seat]: has made this phase's secret choice (never what)
    pain            [[names] per seat]: put-down pain (or lucky) cards the viewer may see;
                    [] while still secret (until all chose; under "dark" until the deal ends)
    pain_colors     [[colour names] per seat] or None per seat while unknown to the viewer
    collected       [{colour: [names]} per seat]: every collected card, public, one key per
                    colour in play
    collected_count [int per seat]
    deal_score      [int or None per seat]: this deal's score so far, None while that seat's
                    pain colours are unknown to the viewer
    deal_scores     [[int per seat] per finished deal]: the score sheet
    deals           number of deals in the match
    variants        names of the variant options switched on
    previous_deal   None, or {"deal", "pain", "pain_colors", "collected", "scores",
                    "last_trick"} of the deal that finished last, everything revealed (same
                    shapes as above; "scores" is that deal's score per seat)
"""
from __future__ import annotations


from rules.base import (Action, Game, IllegalAction, InvalidOptions, State, action_type,
                        deal_rng, winners_of)
from rules.sticheln.cards import (CARD_NAMES, COLORS, SETUP, SPAN, VARIANTS, colors_in_play,
                                  deal_cards, deal_score, names, parse_card, parse_colour,
                                  trick_winner)


class Sticheln(Game):

    def check_option_combination(self, players: int, options: dict) -> None:
        if options["late"] and options["dark"]:
            raise InvalidOptions("the 'late' and 'dark' variants cannot be combined: "
                                 "under 'late' no card is put down that could stay hidden")

    # --- setting up ------------------------------------------------------------------------
    def new_game(self, players: int, options: dict, seed: int) -> State:
        options = self.normalise_options(players, options)
        state = {"seed": seed, "players": players, "options": options,
                 "scores": [0] * players, "deal_scores": [], "deals": [], "previous": None}
        self._start_deal(state, 1)
        return state

    def _start_deal(self, state: State, deal: int) -> None:
        n, options = state["players"], state["options"]
        two_colours = options["tough"] and not options["late"]
        hands, leftover = deal_cards(deal_rng(state["seed"], deal), n, two_colours)
        dealer = (n - 1 + deal - 1) % n
        put_down = 0 if options["late"] else 2 if options["tough"] else 1
        state.update({
            "deal": deal, "dealer": dealer, "phase": "play" if options["late"] else "choose",
            "hands": hands, "leftover": leftover, "pain": [[] for _ in range(n)],
            "named": [None] * n, "chosen": [False] * n, "won": [[] for _ in range(n)],
            "trick": [], "leader": (dealer + 1) % n, "turn": (dealer + 1) % n,
            "tricks_played": 0, "tricks_per_deal": SETUP[n][1] - put_down, "last_trick": None,
        })
        state["deals"].append({"dealer": dealer, "hands": [names(h) for h in hands],
                               "leftover": names(leftover), "scores": None})

    # --- whose turn ---------------------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "play":
            return [state["turn"]]
        if phase == "choose":
            return [s for s, done in enumerate(state["chosen"]) if not done]
        if phase == "name":
            return [s for s, done in enumerate(state["chosen"]) if not done and state["won"][s]]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "play":
            return [{"type": "play", "card": CARD_NAMES[c]} for c in state["hands"][seat]]
        if phase == "choose":
            hand = state["hands"][seat]
            if not state["options"]["tough"]:
                return [{"type": "choose_pain", "card": CARD_NAMES[c]} for c in hand]
            return [{"type": "choose_pain", "cards": [CARD_NAMES[a], CARD_NAMES[b]]}
                    for i, a in enumerate(hand) for b in hand[i + 1:] if a // SPAN != b // SPAN]
        won = sorted({c // SPAN for c in state["won"][seat]})
        if not state["options"]["tough"]:
            return [{"type": "name_pain", "color": COLORS[c]} for c in won]
        if len(won) == 1:
            return [{"type": "name_pain", "colors": [COLORS[won[0]]]}]
        return [{"type": "name_pain", "colors": [COLORS[a], COLORS[b]]}
                for i, a in enumerate(won) for b in won[i + 1:]]

    # --- acting -------------------------------------------------------------------------------
    def apply_action(self, state: State, seat: int, action: Action) -> None:
        kind = action_type(action, {"choose_pain": ("card", "cards"), "play": ("card",),
                                     "name_pain": ("color", "colors")})
        self.check_seat_may_act(state, seat)
        expected = {"choose": "choose_pain", "play": "play", "name": "name_pain"}[state["phase"]]
        if kind != expected:
            raise IllegalAction(f"now is the time for '{expected}', not '{kind}'")
        if kind == "choose_pain":
            self._choose_pain(state, seat, action)
        elif kind == "play":
            self._play(state, seat, action)
        else:
            self._name_pain(state, seat, action)

    def _choose_pain(self, state: State, seat: int, action: Action) -> None:
        hand = state["hands"][seat]
        if state["options"]["tough"]:
            given = action.get("cards")
            if not isinstance(given, list) or len(given) != 2:
                raise IllegalAction("under 'tough' put down two cards: {'cards': [a, b]}")
            cards = sorted(parse_card(name) for name in given)
            if cards[0] // SPAN == cards[1] // SPAN:
                raise IllegalAction("the two pain cards must be of different colours")
        else:
            if "card" not in action:
                raise IllegalAction("put down one card: {'card': name}")
            cards = [parse_card(action["card"])]
        for card in cards:
            if card not in hand:
                raise IllegalAction(f"you do not hold {CARD_NAMES[card]}")
        for card in cards:
            hand.remove(card)
        state["pain"][seat] = cards
        state["chosen"][seat] = True
        if all(state["chosen"]):
            state["phase"] = "play"

    def _play(self, state: State, seat: int, action: Action) -> None:
        card = parse_card(action.get("card"))
        hand = state["hands"][seat]
        if card not in hand:
            raise IllegalAction(f"you do not hold {CARD_NAMES[card]}")
        hand.remove(card)
        trick = state["trick"]
        trick.append([seat, card])
        n = state["players"]
        if len(trick) < n:
            state["turn"] = (seat + 1) % n
            return
        winner = trick[trick_winner([c for _, c in trick], state["options"]["reverse"])][0]
        state["won"][winner].extend(c for _, c in trick)
        state["last_trick"] = {"cards": trick, "winner": winner}
        state["trick"] = []
        state["leader"] = state["turn"] = winner
        state["tricks_played"] += 1
        if state["hands"][winner]:
            return
        if state["options"]["late"]:
            state["phase"] = "name"
        else:
            self._finish_deal(state)

    def _name_pain(self, state: State, seat: int, action: Action) -> None:
        won = {c // SPAN for c in state["won"][seat]}
        if state["options"]["tough"]:
            given = action.get("colors")
            wanted = min(2, len(won))
            if not isinstance(given, list) or len(given) != wanted:
                raise IllegalAction(f"under 'tough' name {wanted} colour(s): {{'colors': [...]}}")
            colours = sorted(parse_colour(name) for name in given)
            if len(set(colours)) != len(colours):
                raise IllegalAction("the two pain colours must be different")
        else:
            if "color" not in action:
                raise IllegalAction("name one colour: {'color': name}")
            colours = [parse_colour(action["color"])]
        for colour in colours:
            if colour not in won:
                raise IllegalAction(f"you won no {COLORS[colour]} card, so you cannot name it")
        state["named"][seat] = colours
        state["chosen"][seat] = True
        if not self.to_act(state):
            self._finish_deal(state)

    def _finish_deal(self, state: State) -> None:
        n, options = state["players"], state["options"]
        scores = [deal_score(state["pain"][s] + state["won"][s], self._pain_colours(state, s),
                             options) for s in range(n)]
        state["deal_scores"].append(scores)
        state["scores"] = [a + b for a, b in zip(state["scores"], scores)]
        state["deals"][-1]["scores"] = scores
        state["previous"] = {"deal": state["deal"], "pain": state["pain"],
                             "named": state["named"], "won": state["won"], "scores": scores,
                             "last_trick": state["last_trick"]}
        if state["deal"] < options["deals"]:
            self._start_deal(state, state["deal"] + 1)
        else:
            state["phase"] = "over"

    @staticmethod
    def _pain_colours(state: State, seat: int) -> list[int] | None:
        """None while not yet chosen or named."""
        if state["options"]["late"]:
            return state["named"][seat]
        if not state["chosen"][seat]:
            return None
        return sorted({c // SPAN for c in state["pain"][seat]})

    # --- what each seat sees ------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        n, options, phase = state["players"], state["options"], state["phase"]
        revealed = phase == "over" or (phase == "play" and not options["dark"])
        known = [s == seat or revealed for s in range(n)]
        pain_colours = [self._pain_colours(state, s) if known[s] else None for s in range(n)]
        in_play = colors_in_play(n)
        trick = state["trick"]
        table = {
            "seat": seat,
            "dealer": state["dealer"],
            "leader": state["leader"],
            "turn": state["turn"] if phase == "play" else None,
            "to_act": self.to_act(state),
            "tricks_played": state["tricks_played"],
            "tricks_per_deal": state["tricks_per_deal"],
            "trick": [{"seat": s, "card": CARD_NAMES[c]} for s, c in trick],
            "led_color": COLORS[trick[0][1] // SPAN] if trick else None,
            "last_trick": self._trick_view(state["last_trick"]),
            "leftover": names(state["leftover"]),
            "chosen": list(state["chosen"]),
            "pain": [names(state["pain"][s]) if known[s] else [] for s in range(n)],
            "pain_colors": [None if p is None else [COLORS[c] for c in p] for p in pain_colours],
            "collected": [self._by_colour(won, in_play) for won in state["won"]],
            "collected_count": [len(won) for won in state["won"]],
            "deal_score": [None if pain_colours[s] is None else
                           deal_score(state["pain"][s] + state["won"][s], pain_colours[s], options)
                           for s in range(n)],
            "deal_scores": [list(row) for row in state["deal_scores"]],
            "deals": options["deals"],
            "variants": [name for name in VARIANTS if options[name]],
            "previous_deal": self._previous_view(state, in_play),
        }
        hand = None if seat is None else names(sorted(state["hands"][seat]))
        return {"phase": phase, "deal": state["deal"], "scores": list(state["scores"]),
                "hand": hand, "table": table}

    @staticmethod
    def _trick_view(trick: dict | None) -> dict | None:
        if trick is None:
            return None
        return {"cards": [{"seat": s, "card": CARD_NAMES[c]} for s, c in trick["cards"]],
                "winner": trick["winner"]}

    @staticmethod
    def _by_colour(cards: list[int], in_play: list[int]) -> dict:
        return {COLORS[c]: [CARD_NAMES[card] for card in sorted(cards) if card // SPAN == c]
                for c in in_play}

    def _previous_view(self, state: State, in_play: list[int]) -> dict | None:
        previous = state["previous"]
        if previous is None:
            return None
        late = state["options"]["late"]
        colours = [previous["named"][s] if late else sorted({c // SPAN for c in pain})
                   for s, pain in enumerate(previous["pain"])]
        return {"deal": previous["deal"],
                "pain": [names(pain) for pain in previous["pain"]],
                "pain_colors": [None if c is None else [COLORS[x] for x in c] for c in colours],
                "collected": [self._by_colour(won, in_play) for won in previous["won"]],
                "scores": list(previous["scores"]),
                "last_trick": self._trick_view(previous["last_trick"])}

    # --- the end ------------------------------------------------------------------------------
    def outcome(self, state: State) -> dict | None:
        if state["phase"] != "over":
            return None
        return {"scores": list(state["scores"]), "winners": winners_of(state["scores"], False)}

    def record(self, state: State) -> dict:
        return {"seed": state["seed"],
                "deals": [{"dealer": d["dealer"], "hands": [list(h) for h in d["hands"]],
                           "leftover": list(d["leftover"]),
                           "scores": None if d["scores"] is None else list(d["scores"])}
                          for d in state["deals"]]}
