"""`Games.transact` and what follows a commit, on a real Valkey and RQ's queues, without HTTP:
the domain's own tests, below the API's."""
import pytest
from rq import Queue

from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE, NOTICE_QUEUE
from api.tables import Tables
from api.tables.errors import Unprocessable
from api.tables.games import Logged


@pytest.fixture
def tables(store, redis):
    return Tables(store, queue_redis=redis)


def jobs_on(redis, queue: str) -> list[tuple[str, tuple]]:
    return [(job.func_name.rsplit(".", 1)[-1], job.args) for job in
            Queue(queue, connection=redis).jobs]


def test_a_move_that_makes_a_bot_due_records_its_job_and_queues_it_once(tables, redis):
    anna = tables.players.create("Anna")
    game = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "easy"}],
                                      pace="none")
    assert jobs_on(redis, BOT_QUEUE) == [("play_bots", (game.id,))], "the bot chooses first"
    assert tables.bots.play_due(game.id, BOT_QUEUE) == 1
    Queue(BOT_QUEUE, connection=redis).empty()

    loaded = tables.games.load(game.id)
    hand = loaded.game.view(loaded.state, 0)["hand"]
    moved = tables.play.act(game.id, anna, {"type": "play", "card": max(hand)}, None)
    assert moved.bots_to_act() == [1]
    assert moved.record.bots_job == f"bots-{game.id}-{moved.version}"
    assert jobs_on(redis, BOT_QUEUE) == [("play_bots", (game.id,))]
    assert [job.id for job in Queue(BOT_QUEUE, connection=redis).jobs] == [moved.record.bots_job]
    assert tables.storage.schedule.due(moved.updated + 60, 10), "and the game is marked due"


def test_a_hard_bot_due_goes_on_the_deep_queue(tables, redis):
    anna = tables.players.create("Anna")
    game = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "hard"}],
                                      pace="none")
    assert jobs_on(redis, DEEP_BOT_QUEUE) == [("play_bots", (game.id,))]
    assert jobs_on(redis, BOT_QUEUE) == jobs_on(redis, HEAVY_BOT_QUEUE) == []


def test_a_human_whose_turn_starts_is_told_once(tables, redis):
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    game = tables.seating.create_game(anna, "sixtysix", 2, {}, ["human", "human"], pace="1d",
                                      public=True)
    tables.seating.join(game.id, bert, None)
    notices = jobs_on(redis, NOTICE_QUEUE)
    assert sorted(args[1] for name, args in notices if name == "notify_turn") == [0], (
        "the first to act, once")


def test_a_refused_change_commits_nothing_and_queues_nothing(tables, redis):
    anna = tables.players.create("Anna")
    game = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "easy"}],
                                      pace="none")
    Queue(BOT_QUEUE, connection=redis).empty()
    before = tables.games.load(game.id)

    def refuse(stored):
        raise Unprocessable("no")
    with pytest.raises(Unprocessable):
        tables.games.transact(game.id, refuse)
    after = tables.games.load(game.id)
    assert after.version == before.version and after.texts() == before.texts()
    assert jobs_on(redis, BOT_QUEUE) == []


def test_a_commit_that_loses_the_race_is_tried_again_on_the_newer_game(tables):
    anna = tables.players.create("Anna")
    game = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "easy"}],
                                      pace="none")
    stale = tables.games.load(game.id)
    tables.games.transact(game.id, lambda stored: Logged([{"type": "note", "n": 1}]))
    tries = []

    def note(stored):
        tries.append(stored.version)
        return Logged([{"type": "note", "n": 2}])
    committed = tables.games.transact(game.id, note, stale)
    assert tries == [stale.version, stale.version + 1]
    assert committed.version == stale.version + 2


def test_the_finishing_commit_queues_its_results(tables, redis):
    anna = tables.players.create("Anna")
    game = tables.seating.create_game(anna, "sixnimmt", 2, {"threshold": 1},
                                      ["human", {"bot": "easy"}], pace="none")
    for _ in range(200):
        stored = tables.games.load(game.id)
        if stored.status() == "finished":
            break
        if stored.moves_due():
            tables.bots.play_due(game.id)
        else:
            seat = stored.to_act()[0]
            tables.play.act(game.id, anna, stored.game.legal_actions(stored.state, seat)[0],
                            None)
    assert stored.status() == "finished"
    assert ("record_results", (game.id,)) in jobs_on(redis, BOT_QUEUE)
