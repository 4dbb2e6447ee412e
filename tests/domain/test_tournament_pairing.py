"""Pairing and scoring a tournament's round (`api.tables.tournament_pairing`): pure, so its
promises are held as properties over many fields."""
import itertools

from hypothesis import given, settings, strategies as st

from api.tables.tournament_pairing import (
    BOT, Record, matchpoints, places_of, round_robin, standing_order, swiss_round, table_points,
    table_sizes,
)

players_of = st.integers(min_value=2, max_value=64).map(
    lambda n: [f"p{index:03d}" for index in range(n)])


def humans(table):
    return [seat for seat in table if seat is not BOT]


@given(players_of, st.integers(min_value=2, max_value=10))
def test_a_swiss_round_seats_everyone_once_at_full_tables_with_few_bots(players, size):
    tables = swiss_round(players, size, {})
    seated = [player for table in tables for player in humans(table)]
    assert sorted(seated) == sorted(players)
    assert all(len(table) == size for table in tables)
    counts = [len(humans(table)) for table in tables]
    assert max(counts) - min(counts) <= 1 and min(counts) >= 1
    assert len(tables) == -(-len(players) // size)


@given(players_of, st.integers(min_value=2, max_value=6))
def test_without_history_a_swiss_round_seats_neighbours_in_standing(players, size):
    tables = swiss_round(players, size, {})
    assert [player for table in tables for player in humans(table)] == players


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=4, max_value=12).map(lambda tables: tables * 4),
       st.randoms(use_true_random=False))
def test_swiss_rounds_of_a_large_field_repeat_no_table_mate(count, rng):
    """Rounds of 4-player tables in any standing order: no pair meets twice in three rounds of
    16 or more players, nor in four of 24 or more. (With 12, the second round must repeat:
    three earlier tables cannot fill a table of four without two of one.)"""
    players = [f"p{index:03d}" for index in range(count)]
    met: dict[str, dict[str, int]] = {}
    for _ in range(4 if count >= 24 else 3):
        order = players[:]
        rng.shuffle(order)
        for table in swiss_round(order, 4, met):
            for a, b in itertools.combinations(humans(table), 2):
                assert not met.get(a, {}).get(b), (a, b)
                met.setdefault(a, {})[b] = met.setdefault(b, {})[a] = 1


@given(st.integers(min_value=2, max_value=8))
def test_a_two_player_round_robin_meets_every_pair_once(count):
    players = [f"p{index}" for index in range(count)]
    schedule = round_robin(players, 2)
    pairs = [frozenset(table) for tables in schedule for table in tables if BOT not in table]
    assert sorted(map(sorted, pairs)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(players, 2))))
    for tables in schedule:
        seated = [player for table in tables for player in humans(table)]
        assert sorted(seated) == sorted(players)
    assert len(schedule) == (count - 1 if count % 2 == 0 else count)


@given(st.integers(min_value=3, max_value=8), st.integers(min_value=3, max_value=4))
def test_a_larger_table_round_robin_meets_as_evenly_as_it_can(count, size):
    players = [f"p{index}" for index in range(count)]
    schedule = round_robin(players, size)
    met = {frozenset(pair): 0 for pair in itertools.combinations(players, 2)}
    for tables in schedule:
        assert sorted(p for table in tables for p in humans(table)) == sorted(players)
        for table in tables:
            for pair in itertools.combinations(humans(table), 2):
                met[frozenset(pair)] += 1
    if len(table_sizes(count, size)) > 1 and count >= size + 1:
        assert max(met.values()) - min(met.values()) <= 2


def test_placement_points_and_shared_ties():
    assert table_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert table_points([1, 2, 2, 4]) == [3, 1.5, 1.5, 0]
    assert table_points([1, 1, 1, 1]) == [1.5] * 4
    assert table_points([2, 1]) == [0, 1]


@given(st.lists(st.integers(min_value=0, max_value=30), min_size=2, max_size=10), st.booleans())
def test_places_give_every_table_its_points_in_total(scores, lower_wins):
    places = places_of(scores, lower_wins)
    size = len(scores)
    assert sum(table_points(places)) == size * (size - 1) / 2
    best = min(scores) if lower_wins else max(scores)
    assert all(place == 1 for place, score in zip(places, scores) if score == best)


def test_a_resigned_seat_places_last():
    assert places_of([5, 1, 9], lower_wins=True, last=[1]) == [1, 3, 2]


def test_standings_by_points_then_opponents_points_then_rating():
    records = {"a": Record(3, met={"c": 1}), "b": Record(3, met={"d": 1}),
               "c": Record(1, met={"a": 1}), "d": Record(0, met={"b": 1}, rating=9),
               "e": Record(0, rating=10), "f": Record(0, rating=11)}
    assert standing_order(records) == ["a", "b", "c", "d", "f", "e"]


DEAL = st.lists(st.integers(min_value=0, max_value=9), min_size=3, max_size=3)


@given(st.lists(st.lists(st.one_of(st.none(), DEAL), max_size=4), min_size=1, max_size=6),
       st.booleans())
def test_matchpoints_share_out_every_comparison_of_every_deal(deals, lower_wins):
    """Each deal played to its end at k tables shares out k (k - 1) / 2 matchpoints per seat."""
    points = matchpoints(deals, 3, lower_wins)
    played = [sum(1 for table in deals if deal < len(table) and table[deal] is not None)
              for deal in range(max(map(len, deals)))]
    for seat in range(3):
        assert sum(row[seat] for row in points) == sum(k * (k - 1) / 2 for k in played)


def test_matchpoints_compare_deal_by_deal_with_the_same_seat():
    # Two tables, lower wins: deal 1 seat 0 beats (2 < 5), seat 1 ties; deal 2 only the first
    # table finished, so it counts for nobody; a third table played none to its end.
    first = [[2, 4], [1, 1]]
    second = [[5, 4], None]
    assert matchpoints([first, second, []], 2, True) == [[1.0, 0.5], [0.0, 0.5], [0.0, 0.0]]
    assert matchpoints([first, second], 2, False) == [[0.0, 0.5], [1.0, 0.5]]
