"""The player directory: a search by the start of a name, bounded; blocks hide players both
ways, expired accounts and renamed names drop out; bot accounts show their description and
ratings."""
import pytest

from api.storage import keys
from api.tables import Tables
from api.tables.directory import MOST_RESULTS
from api.tables.errors import Unprocessable
from api.tables.ratings import Standing


@pytest.fixture
def tables(store, redis):
    return Tables(store, queue_redis=redis)


def names(results):
    return [result["name"] for result in results]


def test_a_prefix_finds_players_in_order_whatever_the_case(tables):
    for name in ("Anna", "annika", "Anselm", "Bert", "Änni"):
        tables.players.create(name)
    caller = tables.players.create("Zoe")
    assert names(tables.directory.search(caller, "an")) == ["Anna", "annika", "Anselm"]
    assert names(tables.directory.search(caller, "ÄN")) == ["Änni"]
    [anna] = tables.directory.search(caller, "Anna")
    assert anna["can_challenge"] and anna["profile"] == f"/api/v1/players/{anna['id']}"
    assert tables.directory.search(None, "Anna")[0]["can_challenge"] is False
    assert names(tables.directory.search(caller, "Zo")) == [], "not the caller"


def test_a_search_is_bounded_and_refuses_an_empty_name(tables):
    for number in range(MOST_RESULTS + 5):
        tables.players.create(f"Player {number}")
    assert len(tables.directory.search(None, "player")) == MOST_RESULTS
    with pytest.raises(Unprocessable):
        tables.directory.search(None, "  ")


def test_blocks_hide_both_ways_and_gone_or_renamed_names_drop_out(tables, store):
    anna, bert, cecil, dora = (tables.players.create(name)
                               for name in ("Anna", "Abel", "Aino", "Ada"))
    tables.friends.block(anna, bert.id)
    tables.friends.block(cecil, anna.id)
    assert names(tables.directory.search(anna, "a")) == ["Ada"]
    assert set(names(tables.directory.search(dora, "a"))) == {"Anna", "Abel", "Aino"}
    alma = tables.players.create("Alma")  # owns nothing: Redis alone keeps her
    store.delete(keys.player(alma.id))
    store.delete(keys.player(cecil.id))  # her block is hers: PostgreSQL keeps her
    tables.players.rename(bert, "Bruno")
    assert names(tables.directory.search(dora, "a")) == ["Aino", "Anna"]
    assert names(tables.directory.search(dora, "bru")) == ["Bruno"]
    assert store.zcard(keys.DIRECTORY) == 4


def test_a_bot_account_shows_its_description_and_ratings(tables, store):
    robo = tables.players.create("Robo", bot=True)
    with pytest.raises(Unprocessable):
        tables.directory.describe(tables.players.create("Anna"), "hello")
    tables.directory.describe(robo, "Plays 6 nimmt! by Monte Carlo; by Anna")
    store.hset(keys.standings(robo.id), "sixnimmt", Standing(mu=30, sigma=2, rated=12).to_json())
    [found] = tables.directory.search(None, "rob")
    assert found["bot"] and found["description"].startswith("Plays 6 nimmt!")
    assert found["ratings"] == {"sixnimmt": {"ordinal": pytest.approx(24.0), "games": 12}}
