"""Bot moves as RQ jobs, run by a real RQ worker against a real Redis."""
import random
import time

import pytest
from rq import Queue
from rq.registry import StartedJobRegistry

from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE, FINISHED_JOB_SECONDS
from api.tables import Tables
from rules import GAMES
from rules.search import Budget
from worker.runner import PromptWorker
from playing import play_to_the_end
from worker_processes import start_worker, within

BOTS3 = ["human", {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]


def new_game(client, headers, seats=BOTS3, options=None):
    body = {"type": "sixnimmt", "players": len(seats), "seats": seats, "options": options or {}}
    return client.post("/api/v1/games", json=body, headers=headers).get_json()


@pytest.mark.cluster
def test_bots_choose_in_the_worker_and_the_turn_resolves(client, new_player, run_bots, redis):
    _, anna = new_player()
    view = new_game(client, anna)
    queued = [job for job in Queue(BOT_QUEUE, connection=redis).jobs
              if job.func_name == "worker.jobs.play_bots"]
    assert [job.args for job in queued] == [(view["id"],)], "one job moves every bot of the game"
    assert queued[0].retries_left == 3 and queued[0].result_ttl == FINISHED_JOB_SECONDS
    run_bots()
    after_bots = client.get(f"/api/v1/games/{view['id']}", headers=anna).get_json()
    assert after_bots["table"]["chosen"] == [False, True, True, True]
    assert after_bots["to_act"] == [0]

    client.post(f"/api/v1/games/{view['id']}/actions",
                json={"action": {"type": "play", "card": view["hand"][0]}}, headers=anna)
    run_bots()
    resolved = client.get(f"/api/v1/games/{view['id']}", headers=anna).get_json()
    assert len(resolved["hand"]) == 9
    assert resolved["table"]["last_turn"] is not None or resolved["phase"] == "take_row"


@pytest.mark.cluster
def test_a_bots_job_with_nothing_left_to_do_does_nothing(client, new_player, store, redis):
    _, anna = new_player()
    view = new_game(client, anna)
    service = Tables(store, queue_redis=redis)
    assert service.bots.play_due(view["id"]) == 3, "each bot seat chose, one after another"
    version_after = service.games.load(view["id"]).version
    assert service.bots.play_due(view["id"]) == 0, "the job ran twice: only seat 0, a human, is to act"
    assert service.bots.play_due("no-such-game") == 0
    assert service.games.load(view["id"]).version == version_after


def test_a_whole_game_against_bots_and_its_record_replays_it(client, new_player, run_bots):
    _, anna = new_player()
    view = new_game(client, anna, options={"threshold": 10})
    final = play_to_the_end(client, anna, view["id"], run_bots)
    assert final["outcome"]["winners"]

    record = client.get(f"/api/v1/games/{view['id']}/record", headers=anna).get_json()
    six = GAMES["sixnimmt"]
    replay = six.new_game(record["players"], record["options"], record["seed"], recording=True)
    assert [deal["hands"] for deal in six.record(replay)["deals"]] == [record["deals"][0]["hands"]]
    for entry in record["actions"]:
        six.apply_action(replay, entry["seat"], entry["action"])
    assert six.outcome(replay) == final["outcome"] == record["outcome"]
    assert six.record(replay)["deals"] == record["deals"]


def test_a_finished_game_replays_step_by_step_with_every_hand(client, new_player, run_bots):
    _, anna = new_player()
    view = new_game(client, anna, options={"threshold": 5})
    assert client.get(f"/api/v1/games/{view['id']}/replay/0", headers=anna).status_code == 403
    play_to_the_end(client, anna, view["id"], run_bots)
    record = client.get(f"/api/v1/games/{view['id']}/record", headers=anna).get_json()
    start = client.get(f"/api/v1/games/{view['id']}/replay/0", headers=anna).get_json()
    assert start["steps"] == len(record["actions"]) and start["seat"] is None
    assert start["hands"] == [sorted(hand) for hand in record["deals"][0]["hands"]]
    assert [row[0] for row in start["view"]["table"]["rows"]] == record["deals"][0]["rows"]
    first = client.get(f"/api/v1/games/{view['id']}/replay/1", headers=anna).get_json()
    assert (first["seat"], first["action"]) == (record["actions"][0]["seat"], record["actions"][0]["action"])
    end = client.get(f"/api/v1/games/{view['id']}/replay/{start['steps']}", headers=anna).get_json()
    assert end["view"]["scores"] == record["outcome"]["scores"]
    assert client.get(f"/api/v1/games/{view['id']}/replay/{start['steps'] + 1}", headers=anna).status_code == 404


def test_the_record_says_where_each_round_begins(client, new_player, run_bots):
    _, anna = new_player()
    view = new_game(client, anna, seats=["human", {"bot": "easy"}], options={"threshold": 50})
    play_to_the_end(client, anna, view["id"], run_bots)
    chapters = client.get(f"/api/v1/games/{view['id']}/record", headers=anna).get_json()["chapters"]
    assert len(chapters) >= 2, chapters  # two players take 50 bullheads in more than one round
    assert chapters[0] == {"deal": 1, "step": 0} and [c["deal"] for c in chapters] == list(range(1, len(chapters) + 1))
    for chapter in chapters[1:]:  # a replay jumps to the step before the round's first action
        before = client.get(f"/api/v1/games/{view['id']}/replay/{chapter['step'] - 1}", headers=anna).get_json()
        begun = client.get(f"/api/v1/games/{view['id']}/replay/{chapter['step']}", headers=anna).get_json()
        assert (before["view"]["deal"], begun["view"]["deal"]) == (chapter["deal"] - 1, chapter["deal"])


def test_events_tell_each_player_what_happened_without_secrets(client, new_player, run_bots):
    _, anna = new_player()
    view = new_game(client, anna)
    run_bots()
    before = client.get(f"/api/v1/games/{view['id']}/events", headers=anna).get_json()
    assert [e["type"] for e in before["events"]] == ["chose"] * 3
    assert all("card" not in e for e in before["events"])
    client.post(f"/api/v1/games/{view['id']}/actions",
                json={"action": {"type": "play", "card": view["hand"][0]}}, headers=anna)
    after = client.get(f"/api/v1/games/{view['id']}/events?after={before['last']}",
                       headers=anna).get_json()
    types = [e["type"] for e in after["events"]]
    assert types[:2] == ["chose", "revealed"] and after["last"] > before["last"]
    assert all(e["number"] > before["last"] for e in after["events"])


@pytest.mark.parametrize("game_type", sorted(GAMES))
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_worker_moves_for_every_game_and_level(client, new_player, run_bots, monkeypatch,
                                                   game_type, level):
    monkeypatch.setenv("POYTA_MEDIUM_SECONDS", "0.02")
    monkeypatch.setenv("POYTA_HARD_SECONDS", "0.02")
    _, anna = new_player()
    players = GAMES[game_type].min_players
    view = client.post("/api/v1/games", headers=anna, json={
        "type": game_type, "players": players,
        "seats": ["human"] + [{"bot": level}] * (players - 1)}).get_json()
    for _ in range(3):
        if view["legal_actions"] and 0 in view["to_act"]:
            client.post(f"/api/v1/games/{view['id']}/actions",
                        json={"action": view["legal_actions"][0]}, headers=anna)
        run_bots()
        view = client.get(f"/api/v1/games/{view['id']}", headers=anna).get_json()
    events = client.get(f"/api/v1/games/{view['id']}/events", headers=anna).get_json()["events"]
    bot_seats = set(range(1, players))
    assert bot_seats & {event.get("seat") for event in events}, "no bot made a move"


# --- quick and deep queues --------------------------------------------------------------------
def bot_jobs(redis, queue: str) -> list[str]:
    return [job.args[0] for job in Queue(queue, connection=redis).jobs
            if job.func_name == "worker.jobs.play_bots"]


def test_a_game_whose_bots_due_include_a_hard_one_is_queued_deep(client, new_player, redis):
    _, anna = new_player()
    easy = new_game(client, anna)["id"]
    hard = new_game(client, anna, seats=["human", {"bot": "easy"}, {"bot": "hard"}])["id"]
    assert bot_jobs(redis, BOT_QUEUE) == [easy]
    assert bot_jobs(redis, DEEP_BOT_QUEUE) == [hard]


def test_an_easy_game_moves_while_a_hard_bot_thinks_on_the_deep_queue(
        client, new_player, store, redis, redis_url, processes):
    _, anna = new_player()
    service = Tables(store, queue_redis=redis)
    start_worker(processes, redis, redis_url, queues=(BOT_QUEUE,))
    hard = new_game(client, anna, seats=["human", {"bot": "hard"}])["id"]
    easy = new_game(client, anna)
    within(10, lambda: not service.games.load(easy["id"]).bots_to_act())
    assert service.games.load(hard).bots_to_act() == [1], "the quick worker never takes a hard move"

    # The deep worker (as `make run` starts it) takes the hard move and thinks for long.
    deep = start_worker(processes, redis, redis_url, queues=(DEEP_BOT_QUEUE, BOT_QUEUE),
                        POYTA_HARD_SECONDS="120")
    within(30, lambda: StartedJobRegistry(DEEP_BOT_QUEUE, connection=redis).count == 1)
    client.post(f"/api/v1/games/{easy['id']}/actions",
                json={"action": {"type": "play", "card": max(easy["hand"])}}, headers=anna)
    within(10, lambda: service.games.load(easy["id"]).bots_to_act() == [])
    assert StartedJobRegistry(DEEP_BOT_QUEUE, connection=redis).count == 1
    assert service.games.load(hard).bots_to_act() == [1], "the easy game moved while hard thought"
    deep.kill()  # rather than wait for its two minutes of thought


def test_a_quick_job_hands_a_hard_bot_on_to_the_deep_queue(new_player, store, redis,
                                                            monkeypatch):
    monkeypatch.setenv("POYTA_HARD_SECONDS", "0.02")
    service = Tables(store, queue_redis=redis)
    anna = service.players.create("Anna")
    game_id = service.seating.create_game(anna, "sticheln", 3, {},
                                  ["human", {"bot": "easy"}, {"bot": "hard"}], pace="none").id
    quick = [Queue(BOT_QUEUE, connection=redis)]
    rng = random.Random(1)
    handed_on = 0
    for _ in range(60):
        stored = service.games.load(game_id)
        if 0 in stored.to_act():
            service.play.act(game_id, anna, rng.choice(stored.game.legal_actions(stored.state, 0)),
                             None)
        before = service.games.load(game_id)
        PromptWorker(quick, connection=redis).work(burst=True)
        after = service.games.load(game_id)
        if 2 in after.bots_to_act():
            assert bot_jobs(redis, DEEP_BOT_QUEUE) == [game_id], "the hard seat's move waits deep"
            handed_on += after.version > before.version  # the easy bot moved, then handed on
            PromptWorker([Queue(DEEP_BOT_QUEUE, connection=redis)], connection=redis).work(
                burst=True)
        assert not bot_jobs(redis, BOT_QUEUE) and not bot_jobs(redis, DEEP_BOT_QUEUE)
    assert handed_on, "no quick job met the hard seat due"


def test_bots_that_choose_at_once_share_one_thinking_time(store, redis):
    """Three hard bots of 6 nimmt! choose, each from its own view, within one budget, not
    three after another."""
    service = Tables(store, queue_redis=redis, budgets={"hard": Budget(seconds=1.0)})
    anna = service.players.create("Anna")
    began = time.monotonic()
    stored = service.seating.create_game(anna, "sixnimmt", 4, {}, ["human"] + [{"bot": "hard"}] * 3,
                                 pace="none")
    assert service.bots.play_due(stored.id) == 3
    took = time.monotonic() - began
    assert took < 2.5, f"three hard bots took {took:.2f} s: one after another, 3 s of CPU"
    assert service.games.load(stored.id).game.view(service.games.load(stored.id).state, 0)["table"][
        "chosen"] == [False, True, True, True]
