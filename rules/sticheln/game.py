"""Sticheln (Klaus Palesch): tricks without any duty to follow, every colour but the led one
is trump, and each player picks a pain colour whose cards cost him their face value.

Each deal every seat secretly puts down a card whose colour becomes its pain colour (with
options: a lucky colour, two colours, hidden until the deal ends, or named after the last
trick); then the tricks are played: the highest trump takes a trick (a zero is never trump),
else the highest card of the led colour. A pain card costs its value, every other collected
card scores one; the best total after the match's deals wins. The rules page is
seeds/sticheln.md.

Actions: declared in ACTIONS below (type, fields, phase, handler). The phases, the secret
choices, the view's table and every event, field by field: shapes.py.
"""
from __future__ import annotations


from rules.base import (DEALT, Action, ActionType, CardFormat, Field, Game, IllegalAction,
                        InvalidOptions, State, deal_rng, record_deal, recorded_deal,
                        start_recording, winners_of)
from rules.sticheln.cards import (CARD_IDS, CARD_NAMES, COLOR_IDS, COLORS, SETUP, SPAN, VARIANTS,
                                  colors_in_play, deal_cards, deal_score, names, trick_winner)

CARD = CardFormat(
    "StichelnCard", "Colour, a hyphen and the value: blue, red and green run from 0 to 20, "
    "yellow, purple and brown from 0 to 18", frozenset(CARD_IDS), example="red-5",
    pattern="^(?:(?:blue|red|green)-(?:[0-9]|1[0-9]|20)|(?:yellow|purple|brown)-(?:[0-9]|1[0-8]))$")
COLOUR = {"choices": COLORS, "noun": "a colour"}
ACTIONS = (
    ActionType("choose_pain", "Secretly put down a card whose colour becomes your pain colour "
               "(two cards of different colours under 'tough'); until the last player has "
               "chosen, choosing again replaces your choice", "_choose_pain",
               (Field("card", "the card to put down", card=CARD, required=False),
                Field("cards", "under 'tough': the two cards to put down", card=CARD,
                      many=(2, 2), required=False)), phases=("choose",), one_field_of=True),
    ActionType("play", "Play a card to the trick: no duty to follow", "_play",
               (Field("card", "a card in your hand", card=CARD),), phases=("play",)),
    ActionType("name_pain", "Variant 'late', after the last trick: secretly name a colour you "
               "won as your pain colour (two under 'tough', or one if you won one colour only)",
               "_name_pain",
               (Field("color", "the colour", **COLOUR, required=False),
                Field("colors", "under 'tough': the colours", **COLOUR, many=(1, 2),
                      required=False)), phases=("name",), one_field_of=True),
)


class Sticheln(Game):
    actions = ACTIONS

    def check_option_combination(self, players: int, options: dict) -> None:
        if options["late"] and options["dark"]:
            raise InvalidOptions("the 'late' and 'dark' variants cannot be combined: "
                                 "under 'late' no card is put down that could stay hidden")

    # --- setting up ------------------------------------------------------------------------
    def new_game(self, players: int, options: dict, seed: int, recording: bool = False
                 ) -> State:
        options = self.normalise_options(players, options)
        state = start_recording({"seed": seed, "players": players, "options": options,
                                 "scores": [0] * players, "deal_scores": [], "previous": None},
                                recording)
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
            "tricks": [],
        })
        record_deal(state, {"dealer": dealer, "hands": [names(h) for h in hands],
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

    def may_change_choice(self, state: State, seat: int) -> bool:
        """A seat that has made this phase's secret choice may still replace it."""
        return (state["phase"] in ("choose", "name") and seat in range(state["players"])
                and state["chosen"][seat])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state) and not self.may_change_choice(state, seat):
            return []
        phase = state["phase"]
        if phase == "play":
            return [{"type": "play", "card": CARD_NAMES[c]} for c in state["hands"][seat]]
        if phase == "choose":
            return [action for action in self._pain_card_choices(state, seat)
                    if self._chosen_cards(action) != state["pain"][seat]]
        current = state["named"][seat]
        return [action for action in self._naming_choices(state, seat)
                if self._named_colours(action) != current]

    def _pain_card_choices(self, state: State, seat: int) -> list[Action]:
        # Cards already put down are back in play while the choice may change.
        pool = sorted(state["hands"][seat] + state["pain"][seat])
        if not state["options"]["tough"]:
            return [{"type": "choose_pain", "card": CARD_NAMES[c]} for c in pool]
        return [{"type": "choose_pain", "cards": [CARD_NAMES[a], CARD_NAMES[b]]}
                for i, a in enumerate(pool) for b in pool[i + 1:] if a // SPAN != b // SPAN]

    @staticmethod
    def _naming_choices(state: State, seat: int) -> list[Action]:
        won = sorted({c // SPAN for c in state["won"][seat]})
        if not state["options"]["tough"]:
            return [{"type": "name_pain", "color": COLORS[c]} for c in won]
        if len(won) == 1:
            return [{"type": "name_pain", "colors": [COLORS[won[0]]]}]
        return [{"type": "name_pain", "colors": [COLORS[a], COLORS[b]]}
                for i, a in enumerate(won) for b in won[i + 1:]]

    @staticmethod
    def _chosen_cards(action: Action) -> list[int]:
        return sorted(CARD_IDS[name] for name in action.get("cards", [action.get("card")]))

    @staticmethod
    def _named_colours(action: Action) -> list[int]:
        return sorted(COLOR_IDS[name] for name in action.get("colors", [action.get("color")]))

    # --- acting -------------------------------------------------------------------------------
    def _choose_pain(self, state: State, seat: int, action: Action) -> list[dict]:
        hand, previous = state["hands"][seat], state["pain"][seat]
        if state["options"]["tough"]:
            if "cards" not in action:
                raise IllegalAction("under 'tough' put down two cards: {'cards': [a, b]}")
            cards = sorted(CARD_IDS[name] for name in action["cards"])
            if cards[0] // SPAN == cards[1] // SPAN:
                raise IllegalAction("the two pain cards must be of different colours")
        else:
            if "card" not in action:
                raise IllegalAction("put down one card: {'card': name}")
            cards = [CARD_IDS[action["card"]]]
        for card in cards:
            if card not in hand and card not in previous:
                raise IllegalAction(f"you do not hold {CARD_NAMES[card]}")
        if cards == previous:
            raise IllegalAction("that is already your choice")
        changed = state["chosen"][seat]
        state["hands"][seat] = sorted(card for card in hand + previous if card not in cards)
        state["pain"][seat] = cards
        state["chosen"][seat] = True
        events = self._choice_events(seat, "choose", changed, {"cards": names(cards)})
        if all(state["chosen"]):
            state["phase"] = "play"
            events.append({"type": "all_chosen", "phase": "choose"})
            if not state["options"]["dark"]:
                events.append(self._revealed_event(state))
        return events

    @staticmethod
    def _choice_events(seat: int, phase: str, changed: bool, choice: dict) -> list[dict]:
        return [{"type": "chose", "seat": seat, "phase": phase, "changed": changed},
                {"type": "choice", "seat": seat, **choice, "to": [seat]}]

    def _revealed_event(self, state: State) -> dict:
        colours = [self._pain_colours(state, s) for s in range(state["players"])]
        return {"type": "revealed", "pain": [names(pain) for pain in state["pain"]],
                "pain_colors": [None if c is None else [COLORS[x] for x in c] for c in colours]}

    def _play(self, state: State, seat: int, action: Action) -> list[dict]:
        card = CARD_IDS[action["card"]]
        hand = state["hands"][seat]
        if card not in hand:
            raise IllegalAction(f"you do not hold {CARD_NAMES[card]}")
        hand.remove(card)
        trick = state["trick"]
        trick.append([seat, card])
        number = state["tricks_played"] + 1
        events = [{"type": "played", "seat": seat, "card": CARD_NAMES[card],
                   "led_color": COLORS[trick[0][1] // SPAN], "trick": number}]
        n = state["players"]
        if len(trick) < n:
            state["turn"] = (seat + 1) % n
            return events
        winner = trick[trick_winner([c for _, c in trick], state["options"]["reverse"])][0]
        state["won"][winner].extend(c for _, c in trick)
        state["last_trick"] = {"cards": trick, "winner": winner}
        # Every trick was played face up: a player may remember who played what.
        # (A deal stored before this record existed lists its tricks from the next one.)
        state.setdefault("tricks", []).append(state["last_trick"])
        state["trick"] = []
        state["leader"] = state["turn"] = winner
        state["tricks_played"] += 1
        events.append({"type": "trick_won", "winner": winner, "trick": number,
                       "cards": [{"seat": s, "card": CARD_NAMES[c]} for s, c in trick],
                       "tricks_per_deal": state["tricks_per_deal"]})
        if state["hands"][winner]:
            return events
        if state["options"]["late"]:
            state["phase"] = "name"
            return events
        return events + self._finish_deal(state)

    def _name_pain(self, state: State, seat: int, action: Action) -> list[dict]:
        won = {c // SPAN for c in state["won"][seat]}
        if state["options"]["tough"]:
            given = action.get("colors")
            wanted = min(2, len(won))
            if given is None or len(given) != wanted:
                raise IllegalAction(f"under 'tough' name {wanted} colour(s): {{'colors': [...]}}")
            colours = sorted(COLOR_IDS[name] for name in given)
        else:
            if "color" not in action:
                raise IllegalAction("name one colour: {'color': name}")
            colours = [COLOR_IDS[action["color"]]]
        for colour in colours:
            if colour not in won:
                raise IllegalAction(f"you won no {COLORS[colour]} card, so you cannot name it")
        if colours == state["named"][seat]:
            raise IllegalAction("that is already your choice")
        changed = state["chosen"][seat]
        state["named"][seat] = colours
        state["chosen"][seat] = True
        events = self._choice_events(seat, "name", changed,
                                     {"colors": [COLORS[c] for c in colours]})
        if not self.to_act(state):
            events.append({"type": "all_chosen", "phase": "name"})
            events += self._finish_deal(state)
        return events

    def _finish_deal(self, state: State) -> list[dict]:
        n, options = state["players"], state["options"]
        # Under "late" the naming was just revealed; under "dark" the pain cards only now.
        events = [self._revealed_event(state)] if options["dark"] or options["late"] else []
        scores = [deal_score(state["pain"][s] + state["won"][s], self._pain_colours(state, s),
                             options) for s in range(n)]
        state["deal_scores"].append(scores)
        state["scores"] = [a + b for a, b in zip(state["scores"], scores)]
        recorded_deal(state)["scores"] = scores
        state["previous"] = {"deal": state["deal"], "pain": state["pain"],
                             "named": state["named"], "won": state["won"], "scores": scores,
                             "last_trick": state["last_trick"]}
        events.append({"type": "deal_end", "deal": state["deal"], "scores": list(scores),
                       "totals": list(state["scores"])})
        if state["deal"] < options["deals"]:
            self._start_deal(state, state["deal"] + 1)
            events.append({"type": "dealt", "deal": state["deal"], "dealer": state["dealer"],
                           "leader": state["leader"], "leftover": names(state["leftover"]),
                           "hand_size": len(state["hands"][0])})
        else:
            state["phase"] = "over"
            outcome = self.outcome(state)
            events.append({"type": "game_over", **outcome})
        return events

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
            "tricks": [self._trick_view(done) for done in state.get("tricks", [])],
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
        return {"seat": seat, "phase": phase, "deal": state["deal"],
                "scores": list(state["scores"]), "hand": hand, "table": table}

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
    def trick_number(self, state: State) -> int | None:
        return state["tricks_played"] + 1 if state["phase"] == "play" else None

    def outcome(self, state: State) -> dict | None:
        if state["phase"] != "over":
            return None
        return {"scores": list(state["scores"]), "winners": winners_of(state["scores"], False)}

    def record(self, state: State) -> dict:
        return {"seed": state["seed"],
                "deals": [{"dealer": d["dealer"], "hands": [list(h) for h in d["hands"]],
                           "leftover": list(d["leftover"]),
                           "scores": None if d["scores"] is None else list(d["scores"])}
                          for d in state[DEALT]]}
