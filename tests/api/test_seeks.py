"""Seeks and the pairing run on a real store (single server and cluster): making, reading,
cancelling seeks and their limits; a round that seats a table, lapses what is due, fills with
bots; a run that died after claiming a table, finished by the next, and a worker killed
mid-round."""
import signal

import pytest
from rq import Queue

from api import faults
from api.storage.jobs import BOT_QUEUE
from api.tables import Tables
from api.tables.errors import Conflict, NotFound, TooManyRequests, Unprocessable
from api.tables.seeks import MOST_SEEKS
from worker.runner import PromptWorker
from worker_processes import start_worker, within

STICHELN = [{"type": "sticheln"}]


@pytest.fixture
def tables(store, redis, clock):
    return Tables(store, queue_redis=redis)


def seek(tables, player, games=STICHELN, fewest=3, most=4, paces=("1d",), **extra):
    return tables.seeks.create(player, list(games), {"min": fewest, "max": most}, list(paces),
                               **extra)


def test_a_seek_is_its_players_alone_and_cancelled_once(tables):
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    made = seek(tables, anna, lapse_hours=2)
    assert made["state"] == "open" and made["waiting_in_pool"] == 1 and made["game"] is None
    assert tables.seeks.get(anna, made["id"])["id"] == made["id"]
    assert [mine["id"] for mine in tables.seeks.mine(anna)] == [made["id"]]
    with pytest.raises(NotFound):
        tables.seeks.get(bert, made["id"])
    with pytest.raises(NotFound):
        tables.seeks.cancel(bert, made["id"])
    assert tables.seeks.cancel(anna, made["id"])["state"] == "cancelled"
    assert tables.seeks.cancel(anna, made["id"])["state"] == "cancelled"
    assert tables.seeks.mine(anna) == []


@pytest.mark.parametrize("change, field", [
    ({"games": [{"type": "sixtysix"}], "fewest": 5, "most": 6}, "players"),
    ({"games": [{"type": "nope"}]}, "games"),
    ({"games": [{"type": "sticheln", "options": {"nope": 1}}]}, "games"),
    ({"paces": ("none",)}, "paces"),
    ({"rating_window": 5.0}, "rating_window"),
    ({"bot_fill": {"level": "grandmaster", "after_hours": 1}}, "bot_fill"),
    ({"lapse_hours": 24 * 30}, "lapse_hours"),
])
def test_impossible_seeks_are_refused_naming_the_field(tables, change, field):
    anna = tables.players.create("Anna")
    with pytest.raises(Unprocessable) as refused:
        seek(tables, tables.players.create("Anna"), **change)
    assert refused.value.details == {"field": field}
    assert tables.seeks.mine(anna) == []


def test_a_player_holds_a_bounded_number_of_seeks_and_none_on_vacation(tables):
    anna = tables.players.create("Anna")
    made = [seek(tables, anna) for _ in range(MOST_SEEKS)]
    with pytest.raises(TooManyRequests):
        seek(tables, anna)
    tables.seeks.cancel(anna, made[0]["id"])
    seek(tables, anna)
    bert = tables.players.create("Bert")
    tables.clocks.start_vacation(bert, 3)
    with pytest.raises(Conflict):
        seek(tables, bert)


def made_in_turn(tables, clock, players):
    made = []
    for player in players:
        made.append(seek(tables, player))
        clock.advance(1)
    return made


def test_a_round_seats_the_largest_table_all_accept(tables, redis, clock):
    players = [tables.players.create(name) for name in ("Anna", "Bert", "Cecil", "Dora", "Eero")]
    made = made_in_turn(tables, clock, players)
    PromptWorker([Queue(BOT_QUEUE, connection=redis)], connection=redis).work(burst=True)
    states = [tables.seeks.get(player, one["id"]) for player, one in zip(players, made)]
    assert [state["state"] for state in states] == ["seated"] * 4 + ["open"]
    game = tables.games.load(states[0]["game"])
    assert game.status() == "active" and game.humans() == [player.id for player in players[:4]]
    for player in players[:4]:
        assert game.id in tables.storage.players.game_ids(player.id)
    assert tables.seeks.mine(players[0]) == [] and len(tables.seeks.mine(players[4])) == 1


def test_a_lapsed_seek_seats_nobody_and_a_lonely_one_gets_its_bots(tables, clock):
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    lapsing = seek(tables, anna, lapse_hours=1)
    filled = seek(tables, bert, games=[{"type": "sixnimmt"}], fewest=3, most=5,
                  bot_fill={"level": "easy", "after_hours": 2})
    clock.advance(3 * 3600)
    assert tables.seeks.pair("rated") == 1
    assert tables.seeks.get(anna, lapsing["id"])["state"] == "lapsed"
    seated = tables.seeks.get(bert, filled["id"])
    game = tables.games.load(seated["game"])
    assert [seat.bot for seat in game.seats] == [None, "easy", "easy"]


def test_a_run_that_died_after_claiming_is_finished_by_the_next(tables, monkeypatch, clock):
    players = [tables.players.create(name) for name in ("Anna", "Bert", "Cecil", "Dora")]
    made = made_in_turn(tables, clock, players)

    def dies(*args, **kwargs):
        raise SystemExit("killed")
    monkeypatch.setattr(tables.seating, "seat_table", dies)
    with pytest.raises(SystemExit):
        tables.seeks.pair("rated")
    assert {tables.seeks.get(player, one["id"])["state"]
            for player, one in zip(players, made)} == {"seating"}
    with pytest.raises(Conflict):
        tables.seeks.cancel(players[0], made[0]["id"])
    monkeypatch.undo()
    assert tables.seeks.pair("rated") == 0
    games = {tables.seeks.get(player, one["id"])["game"] for player, one in zip(players, made)}
    [game_id] = games
    assert tables.games.load(game_id).humans() == [player.id for player in players]
    assert tables.seeks.pair("rated") == 0


def test_a_pairing_worker_killed_mid_round_seats_nobody_twice_and_loses_nobody(
        store, redis, redis_url, processes, clock):
    """The worker dies (SIGKILL) after claiming the second table's seeks, before making its
    game; a worker started after finishes that table and seats the rest."""
    tables = Tables(store, queue_redis=redis)
    players = [tables.players.create(f"Player {number}") for number in range(12)]
    made = made_in_turn(tables, clock, players)  # three tables of four, one job queued

    dying = start_worker(processes, redis, redis_url, queues=(BOT_QUEUE,),
                         **faults.armed(faults.AFTER_SEEKS_CLAIMED, 2))
    assert dying.wait(30) == -signal.SIGKILL
    states = [tables.seeks.get(player, one["id"])["state"] for player, one in zip(players, made)]
    assert states == ["seated"] * 4 + ["seating"] * 4 + ["open"] * 4

    start_worker(processes, redis, redis_url, queues=(BOT_QUEUE,))
    within(60, lambda: all(tables.seeks.get(player, one["id"])["state"] == "seated"
                           for player, one in zip(players, made)))
    games = [tables.seeks.get(player, one["id"])["game"] for player, one in zip(players, made)]
    assert len(set(games)) == 3
    seated = [player_id for game_id in set(games)
              for player_id in tables.games.load(game_id).humans()]
    assert sorted(seated) == sorted(player.id for player in players), "each once"


def test_a_claimed_table_whose_game_cannot_be_made_gives_its_seeks_back(tables, clock):
    players = [tables.players.create(name) for name in ("Anna", "Bert")]
    made = [seek(tables, player, games=[{"type": "sixtysix"}], fewest=2, most=2)
            for player in players]
    plan = {"seeks": [one["id"] for one in made], "players": [player.id for player in players],
            "type": "sixtysix", "options": '{"nope":1}', "pace": "1d", "rated": True,
            "bots": 0, "bot_level": None}
    assert tables.storage.seeks.claim("rated", "broken", plan, plan["seeks"])
    assert tables.seeks.pair("rated") == 1, "given back, then paired afresh"
    [game_id] = {tables.seeks.get(player, one["id"])["game"] for player, one in zip(players, made)}
    assert tables.games.load(game_id).meta.options != {"nope": 1}
    assert tables.storage.seeks.claimed_tables("rated") == {}
