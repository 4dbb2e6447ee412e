"""Pairing seeks into tables (`api.tables.matching`): worked cases, then properties over random
pools: every table is one each of its seekers accepts, nobody sits twice, blocked pairs never
meet."""
from hypothesis import given, settings, strategies as st

from api.tables.matching import BotFill, Pool, Seek, pair

SIZES = {"sixnimmt": (2, 10), "sixtysix": (2, 4), "sticheln": (3, 8), "hattrick": (4, 7)}
NOW = 100_000.0
GRACE = 600.0


def seek(number, player=None, types=("sticheln",), fewest=3, most=4, paces=("1d",), age=0.0,
         **extra):
    return Seek(f"s{number}", player or f"p{number}", NOW - age,
                {kind: None for kind in types} if isinstance(types, tuple) else types,
                fewest, most, paces, **extra)


def pool(**extra):
    return Pool(SIZES, GRACE, **extra)


def test_a_table_starts_at_the_largest_count_all_accept():
    tables = pair([seek(n, age=10 - n) for n in range(5)], NOW, pool())
    assert [table.seeks for table in tables] == [("s0", "s1", "s2", "s3")]


def test_the_smallest_count_starts_only_after_the_grace():
    waiting = [seek(n, age=60 - n) for n in range(3)]
    assert pair(waiting, NOW, pool()) == []
    waited = [seek(n, age=GRACE + 60 - n) for n in range(3)]
    assert [table.players for table in pair(waited, NOW, pool())] == [("p0", "p1", "p2")]


def test_blocks_hold_both_ways():
    seeks = [seek(n, age=10 - n, most=3) for n in range(4)]
    tables = pair(seeks, NOW, pool(blocks={"p1": frozenset({"p0"})}))
    assert [table.players for table in tables] == [("p0", "p2", "p3")]


def test_recent_tablemates_are_kept_apart_where_the_pool_allows():
    seeks = [seek(n, types=("sixtysix",), fewest=2, most=2, age=10 - n) for n in range(4)]
    tables = pair(seeks, NOW, pool(partners={"p0": frozenset({"p1"})}))
    assert sorted(table.players for table in tables) == [("p0", "p2"), ("p1", "p3")]
    alone = pair(seeks[:2], NOW, pool(partners={"p0": frozenset({"p1"})}))
    assert [table.players for table in alone] == [("p0", "p1")]


def test_rating_windows_and_options():
    seeks = [seek(0, types=("sixtysix",), fewest=2, most=2, age=9, ratings={"sixtysix": 10.0},
                  window=5.0),
             seek(1, types=("sixtysix",), fewest=2, most=2, age=8, ratings={"sixtysix": 20.0}),
             seek(2, types={"sixtysix": '{"a":1}'}, fewest=2, most=2, age=7,
                  ratings={"sixtysix": 12.0})]
    [table] = pair(seeks, NOW, pool())
    assert table.players == ("p0", "p2") and table.options == '{"a":1}'


def test_bot_fill_after_its_wait():
    lonely = seek(0, most=5, age=3700, bot_fill=BotFill("easy", 3600))
    [table] = pair([lonely], NOW, pool())
    assert (table.players, table.bots, table.bot_level, table.seats) == (("p0",), 2, "easy", 3)
    assert pair([seek(0, most=5, age=3500, bot_fill=BotFill("easy", 3600))], NOW, pool()) == []


@st.composite
def pools(draw):
    players = [f"p{n}" for n in range(draw(st.integers(1, 14)))]
    seeks = []
    for number in range(draw(st.integers(0, 30))):
        types = draw(st.lists(st.sampled_from(sorted(SIZES)), min_size=1, max_size=3,
                              unique=True))
        fewest = draw(st.integers(2, 7))
        seeks.append(Seek(
            f"s{number}", draw(st.sampled_from(players)), NOW - draw(st.floats(0, 7200)),
            {kind: draw(st.sampled_from([None, '{"x":1}', '{"x":2}'])) for kind in types},
            fewest, fewest + draw(st.integers(0, 3)),
            tuple(draw(st.lists(st.sampled_from(["1h", "1d", "3d"]), min_size=1, max_size=2,
                                unique=True))),
            draw(st.booleans()),
            {kind: draw(st.floats(-5, 40)) for kind in types},
            draw(st.sampled_from([None, 3.0, 10.0])),
            draw(st.sampled_from([None, BotFill("easy", 1800), BotFill("hard", 5000)]))))
    blocks = {player: frozenset(draw(st.lists(st.sampled_from(players), max_size=3))) - {player}
              for player in players}
    partners = {player: frozenset(draw(st.lists(st.sampled_from(players), max_size=2)))
                for player in players}
    return seeks, Pool(SIZES, draw(st.sampled_from([0.0, GRACE, 3600.0])), blocks, partners)


@settings(max_examples=200, deadline=None)
@given(pools())
def test_every_table_is_one_each_seeker_accepts(drawn):
    seeks, drawn_pool = drawn
    by_id = {seek.id: seek for seek in seeks}
    tables = pair(seeks, NOW, drawn_pool)
    seated = [player for table in tables for player in table.players]
    assert len(seated) == len(set(seated)), "nobody sits twice"
    for table in tables:
        at_table = [by_id[seek_id] for seek_id in table.seeks]
        assert tuple(seek.player for seek in at_table) == table.players
        low, high = SIZES[table.game_type]
        assert low <= table.seats <= high
        for seek in at_table:
            assert table.game_type in seek.choices and table.pace in seek.paces
            assert seek.choices[table.game_type] in (None, table.options)
            assert seek.rated == table.rated
            assert seek.fewest <= table.seats <= seek.most
            assert table.bots == 0 or seek.bot_fill is not None
            for other in at_table:
                assert other.player not in drawn_pool.blocks[seek.player]
                if seek.window is not None:
                    gap = abs(seek.rating(table.game_type) - other.rating(table.game_type))
                    assert gap <= seek.window
        oldest = at_table[0]
        waited = NOW - oldest.created
        if table.bots:
            assert waited >= oldest.bot_fill.after and table.bot_level == oldest.bot_fill.level
        elif table.seats < min([high] + [seek.most for seek in at_table]):
            assert waited >= drawn_pool.grace
