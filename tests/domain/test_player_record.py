"""What a player owns is kept in PostgreSQL: Redis forgets it and reads it back, a throwaway
player lapses, leaderboards cover every rated game, and play goes on while PostgreSQL is away.
On a real Valkey and a real PostgreSQL, without HTTP."""
import random
import time

import psycopg
import pytest
from forgetting import forget_what_is_not_live
from waiting import wait_until

from api.storage import keys, sql
from api.storage.player_record import RETRY_SECONDS
from api.tables import Tables
from api.tables.model import FINISHED


def answers(database) -> bool:
    try:
        sql.ping(database, 1)
    except sql.DATABASE_ERRORS:
        return False
    return True


@pytest.fixture
def tables(store, redis):
    return Tables(store, queue_redis=redis)


def finish(tables, player, rng) -> str:
    """A rated game of the player against an easy bot, played out, its results recorded and the
    game archived."""
    game_id = tables.seating.create_game(player, "sixnimmt", 2, {"threshold": 1},
                                         ["human", {"bot": "easy"}], pace="none").id
    for _ in range(500):
        stored = tables.games.load(game_id)
        if stored.status() == FINISHED:
            break
        if 0 in stored.to_act():
            tables.play.act(game_id, player, rng.choice(
                stored.game.legal_actions(stored.state, 0)), None)
        tables.bots.play_due(game_id)
    assert tables.ratings.record(game_id)
    assert tables.archive.archive(game_id)
    return game_id


def test_redis_forgets_a_kept_player_and_reads_them_back_whole(tables, store, redis):
    rng = random.Random(5)
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    throwaway = tables.players.create("Carl")
    tables.friends.add(bert, tables.friends.link(anna)["code"])
    games = [finish(tables, anna, rng) for _ in range(2)]
    assert tables.storage.player_record.owed() == 0, "every change saved at once"
    before = {"profile": tables.profiles.profile(anna.id, anna),
              "friends": tables.friends.list_friends(anna),
              "board": tables.profiles.leaderboard("sixnimmt", anna),
              "records": [tables.history.record(game_id, anna) for game_id in games]}
    assert before["profile"]["ratings"]["sixnimmt"]["games"] == 2
    assert [entry["player_id"] for entry in before["board"]["provisional"]] != []

    assert sorted(forget_what_is_not_live(store, tables)) == sorted(games)
    assert not store.exists(keys.player(anna.id), keys.standings(anna.id))

    again = Tables(store, queue_redis=redis)  # a process that never saw them
    assert again.players.for_token(throwaway.token) is None, "a throwaway player lapses"
    found = again.players.for_token(anna.token)
    assert (found.id, found.name) == (anna.id, "Anna")
    assert again.profiles.profile(anna.id, found) == before["profile"]
    assert again.friends.list_friends(found) == before["friends"]
    assert [entry["id"] for entry in again.friends.list_friends(bert)] == [anna.id]
    assert again.profiles.leaderboard("sixnimmt", found) == before["board"]
    assert [again.history.record(game_id, found) for game_id in games] == before["records"]
    # Read back, the player's next result counts on from their kept standing.
    finish(again, found, rng)
    assert again.profiles.profile(anna.id, found)["ratings"]["sixnimmt"]["games"] == 3


def test_a_leaderboard_covers_every_rated_game_or_those_played_within_days(
        tables, database):
    rng = random.Random(6)
    anna = tables.players.create("Anna")
    finish(tables, anna, rng)
    with psycopg.connect(database, autocommit=True) as connection:
        connection.execute("UPDATE standings SET last_rated = now() - interval '40 days' "
                           "WHERE player_id = %s", (anna.id,))
    recent = tables.profiles.leaderboard("sixnimmt", anna, days=30)
    assert anna.id not in [entry["player_id"] for entry in recent["provisional"]]
    assert recent["you"]["place"] is None and recent["days"] == 30
    ever = tables.profiles.leaderboard("sixnimmt", anna)
    assert anna.id in [entry["player_id"] for entry in ever["provisional"]]
    assert ever["you"]["games"] == 1 and ever["you"]["place"] is None, "provisional"


def test_play_goes_on_while_postgresql_is_away_and_what_changed_is_saved_after(
        tables, store, redis, postgres, database):
    if postgres is None:
        pytest.skip("TEST_DATABASE_URL names a server this test cannot restart")
    rng = random.Random(7)
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    tables.friends.add(bert, tables.friends.link(anna)["code"])
    forget_what_is_not_live(store, tables)
    dora = tables.players.create("Dora")
    finish(tables, dora, rng)  # the bot level's standing is read back into Redis
    assert tables.players.for_token(bert.token).id == bert.id  # and Bert's keys

    postgres.stop("immediate")
    try:
        with pytest.raises(sql.DATABASE_ERRORS):
            Tables(store, queue_redis=redis).players.for_token(anna.token)
        # Dora is in Redis: she plays a game to its end and its results are recorded.
        game_id = tables.seating.create_game(dora, "sixnimmt", 2, {"threshold": 1},
                                             ["human", {"bot": "easy"}], pace="none").id
        while (stored := tables.games.load(game_id)).status() != FINISHED:
            if 0 in stored.to_act():
                tables.play.act(game_id, dora, rng.choice(
                    stored.game.legal_actions(stored.state, 0)), None)
            tables.bots.play_due(game_id)
        assert tables.ratings.record(game_id)
        tables.friends.add(dora, tables.friends.link(bert)["code"])
        assert tables.storage.player_record.owed() >= 2, "owed to PostgreSQL"
    finally:
        postgres.start()

    wait_until(lambda: answers(database), "PostgreSQL answers again", seconds=30)
    record = tables.storage.player_record

    def swept() -> bool:
        sql._away_until.clear()  # as AWAY_SECONDS passing would
        record.sweep(time.time() + RETRY_SECONDS)
        return record.owed() == 0
    wait_until(swept, "the players owed saved", seconds=30)
    forget_what_is_not_live(store, tables)
    again = Tables(store, queue_redis=redis)
    assert again.profiles.profile(dora.id, None)["ratings"]["sixnimmt"]["games"] == 2
    assert {entry["id"] for entry in again.friends.list_friends(
        again.players.for_token(bert.token))} == {anna.id, dora.id}
