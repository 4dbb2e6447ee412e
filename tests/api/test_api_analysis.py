"""The analysis of a finished game through the API: asked for once, computed by the reviews'
worker, kept for good with the archive, read by the game's players (and anybody for a public
game), refused while the game is in play; and each player's accuracy over their analysed games
on their profile."""
import random

import psycopg
import pytest
from jsonschema import Draft202012Validator, ValidationError
from rq import Queue
from playing import play_out
from waiting import wait_until

from api.http import create_app
from api.http.contract import prefix
from api.storage import keys
from api.storage.jobs import ANALYSIS_QUEUE, ARCHIVE_QUEUE, analysis_job_id
from rules import GAMES
from rules.analysis import Record, analysable, as_json, review
from rules.search import Budget
from worker.runner import PromptWorker


@pytest.fixture
def run_analyses(redis, monkeypatch):
    """Run the queued reviews in a real RQ worker, each within a small CPU budget."""
    monkeypatch.setenv("POYTA_ANALYSIS_SECONDS", "1")

    def run() -> None:
        PromptWorker([Queue(ANALYSIS_QUEUE, connection=redis)], connection=redis).work(burst=True)
    return run


def fits(client, name, answer):
    """The answer fits the contract's schema `name`."""
    spec = client.get("/api/openapi.json").get_json()
    Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                          "components": spec["components"]}).validate(answer)


def test_an_analysis_is_queued_once_then_read_by_the_players(client, new_player, run_bots,
                                                              run_analyses):
    _, anna = new_player("Anna")
    game_id = play_out(client, anna, run_bots)
    path = f"/api/v1/games/{game_id}/analysis"
    assert client.get(path, headers=anna).status_code == 404
    asked = client.post(path, headers=anna)
    assert asked.status_code == 202
    assert asked.get_json() == {"status": "queued", "job": analysis_job_id(game_id)}
    assert client.post(path, headers=anna).get_json() == asked.get_json()
    assert client.get(path, headers=anna).get_json()["status"] == "queued"
    fits(client, "Analysis", asked.get_json())
    run_analyses()
    done = client.get(path, headers=anna).get_json()
    fits(client, "Analysis", done)
    fits(client, "SixNimmtAnalysis", done)
    assert done["status"] == "done" and done["type"] == "sixnimmt" and done["better"] == "lower"
    record = client.get(f"/api/v1/games/{game_id}/record", headers=anna).get_json()
    assert [seat["seat"] for seat in done["seats"]] == [0, 1]
    for seat in done["seats"]:
        steps = [entry for entry in record["actions"] if entry["seat"] == seat["seat"]]
        assert len(seat["decisions"]) == len(steps)
        for decision in seat["decisions"]:
            assert record["actions"][decision["step"]]["seat"] == seat["seat"]
            assert decision["loss"] >= 0
            assert decision["forced"] or decision["best"] in [v["action"] for v in
                                                              decision["values"]]
        assert seat["total_loss"] == pytest.approx(sum(d["loss"] for d in seat["decisions"]),
                                                   abs=1e-3)
        assert seat["luck"] and {"deal", "value", "error"} <= set(seat["luck"][0])
    again = client.post(path, headers=anna)
    assert again.status_code == 200 and again.get_json()["status"] == "done"


def test_a_game_in_play_is_refused_and_a_private_game_is_its_players_alone(
        client, new_player, run_bots, run_analyses):
    _, anna = new_player("Anna")
    _, eve = new_player("Eve")
    playing = play_out(client, anna, run_bots, finish=False)
    for method in (client.post, client.get):
        refused = method(f"/api/v1/games/{playing}/analysis", headers=anna)
        assert refused.status_code == 409 and "over" in refused.get_json()["message"]
    private = play_out(client, anna, run_bots)
    for method in (client.post, client.get):
        denied = method(f"/api/v1/games/{private}/analysis", headers=eve)
        assert denied.status_code == 403 and "private" in denied.get_json()["message"]
    public = play_out(client, anna, run_bots, public=True)
    assert client.post(f"/api/v1/games/{public}/analysis", headers=eve).status_code == 202
    assert client.post(f"/api/v1/games/{public}/analysis").status_code == 401


def test_a_player_waits_for_two_analyses_at_most(client, new_player, run_bots, run_analyses):
    _, anna = new_player("Anna")
    games = [play_out(client, anna, run_bots) for _ in range(3)]
    for game_id in games[:2]:
        assert client.post(f"/api/v1/games/{game_id}/analysis", headers=anna).status_code == 202
    refused = client.post(f"/api/v1/games/{games[2]}/analysis", headers=anna)
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    run_analyses()
    assert client.post(f"/api/v1/games/{games[2]}/analysis", headers=anna).status_code == 202


@pytest.mark.parametrize("name", sorted(name for name, game in GAMES.items() if analysable(game)))
def test_every_games_review_fits_its_schema_and_no_other(client, name):
    game = GAMES[name]
    players = game.typical_players
    options = game.normalise_options(players, game.quick_options)
    state, rng, actions = game.new_game(players, options, 5), random.Random(5), []
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        actions.append({"seat": seat, "action": action})
        game.apply_action(state, seat, action)
    reviewed = as_json(review(game, Record(players, options, 5, actions), Budget(iterations=20)))
    answer = {"status": "done", "job": "analysis-x", **reviewed}
    fits(client, f"{prefix(game)}Analysis", answer)
    fits(client, "Analysis", answer)
    other = next(g for g in GAMES.values() if g is not game and analysable(g))
    with pytest.raises(ValidationError):
        fits(client, f"{prefix(other)}Analysis", answer)


def test_a_review_whose_job_was_lost_is_queued_again_by_the_next_request(
        client, new_player, run_bots, run_analyses, redis):
    _, anna = new_player("Anna")
    game_id = play_out(client, anna, run_bots)
    path = f"/api/v1/games/{game_id}/analysis"
    assert client.post(path, headers=anna).status_code == 202
    Queue(ANALYSIS_QUEUE, connection=redis).empty()  # a worker died with it
    again = client.post(path, headers=anna)
    assert again.status_code == 202 and again.get_json()["status"] == "queued"
    run_analyses()
    assert client.get(path, headers=anna).get_json()["status"] == "done"


def reviewed_game(client, headers, run_bots, run_analyses, public=False):
    game_id = play_out(client, headers, run_bots, public=public)
    assert client.post(f"/api/v1/games/{game_id}/analysis", headers=headers).status_code == 202
    run_analyses()
    return game_id, client.get(f"/api/v1/games/{game_id}/analysis", headers=headers).get_json()


def kept_reviews(database):
    with psycopg.connect(database) as connection:
        return connection.execute("SELECT count(*) FROM game_analyses").fetchone()[0]


def test_a_review_is_kept_with_the_archive_and_read_after_redis_let_the_game_go(
        client, new_player, run_bots, run_analyses, redis, store, store_env, database,
        monkeypatch):
    monkeypatch.setenv("POYTA_HOT_DAYS", repr(3 / 86400))  # Redis keeps an archived game 3 s
    _, anna = new_player("Anna")
    game_id, done = reviewed_game(client, anna, run_bots, run_analyses)
    assert done["status"] == "done" and kept_reviews(database) == 1
    assert not store.exists(keys.analysis(game_id)), "once kept, Redis holds nothing of it"

    PromptWorker([Queue(ARCHIVE_QUEUE, connection=redis)], connection=redis).work(burst=True)
    wait_until(lambda: not store.exists(keys.game(game_id)), "Redis let the game go")
    fresh = create_app({**store_env, "TESTING": True}).test_client()
    path = f"/api/v1/games/{game_id}/analysis"
    assert fresh.get(path, headers=anna).get_json() == done
    asked = fresh.post(path, headers=anna)
    assert asked.status_code == 200 and asked.get_json() == {"status": "done",
                                                              "job": analysis_job_id(game_id)}
    run_analyses()
    assert kept_reviews(database) == 1 and not Queue(ANALYSIS_QUEUE, connection=redis).count
    _, eve = new_player("Eve")
    assert fresh.get(path, headers=eve).status_code == 403


def test_a_review_done_while_the_database_is_away_is_read_from_redis_then_kept_once_it_answers(
        client, new_player, run_bots, run_analyses, redis, store, database, monkeypatch):
    _, anna = new_player("Anna")
    game_id = play_out(client, anna, run_bots)
    path = f"/api/v1/games/{game_id}/analysis"
    assert client.post(path, headers=anna).status_code == 202
    with monkeypatch.context() as away:  # the job's database does not answer
        away.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/poyta")
        run_analyses()
    done = client.get(path, headers=anna).get_json()
    assert done["status"] == "done" and done["seats"]
    assert kept_reviews(database) == 0 and store.exists(keys.analysis(game_id))

    def queued_to_keep():  # once the failed job's retry is overdue, as when its retries ran out
        asked = client.post(path, headers=anna)
        assert asked.status_code == 200 and asked.get_json()["status"] == "done"
        return Queue(ANALYSIS_QUEUE, connection=redis).count
    wait_until(queued_to_keep, "the next request queues the job to keep it", every=0.5)
    run_analyses()
    assert kept_reviews(database) == 1 and not store.exists(keys.analysis(game_id))
    assert client.get(path, headers=anna).get_json() == done, "kept as it was done, not again"


def month_of(review, seat):
    """What a month of the profile's accuracy holds of one seat's review."""
    choices = [d for d in review["seats"][seat]["decisions"] if not d["forced"]]
    luck = review["seats"][seat]["luck"]
    return {"decisions": len(choices), "loss": sum(d["loss"] for d in choices),
            "deals": len(luck), "luck": sum(entry["value"] for entry in luck)}


def expected_month(month, reviews, seat):
    parts = [month_of(review, seat) for review in reviews]
    decisions, deals = sum(p["decisions"] for p in parts), sum(p["deals"] for p in parts)
    return {"month": month, "games": len(reviews), "decisions": decisions,
            "loss_per_decision": pytest.approx(sum(p["loss"] for p in parts) / decisions,
                                               abs=1e-3),
            "luck_per_deal": pytest.approx(sum(p["luck"] for p in parts) / deals, abs=1e-3)}


def test_a_profile_shows_the_accuracy_and_luck_of_the_analysed_games_the_caller_may_see(
        client, new_player, run_bots, run_analyses):
    anna_body, anna = new_player("Anna")
    _, eve = new_player("Eve")
    profile_path = f"/api/v1/players/{anna_body['id']}"
    assert client.get(profile_path, headers=anna).get_json()["accuracy"] == {}
    _, private = reviewed_game(client, anna, run_bots, run_analyses)
    _, public = reviewed_game(client, anna, run_bots, run_analyses, public=True)
    mine = client.get(profile_path, headers=anna).get_json()
    fits(client, "Profile", mine)
    month = mine["recent_games"][0]["finished"][:7]
    assert mine["accuracy"] == {"sixnimmt": [expected_month(month, [private, public], 0)]}
    for caller in (eve, {}):
        seen = client.get(profile_path, headers=caller).get_json()["accuracy"]
        assert seen == {"sixnimmt": [expected_month(month, [public], 0)]}, "the private one hidden"
    bot = client.get("/api/v1/players/bot-easy", headers=anna).get_json()["accuracy"]
    assert bot == {"sixnimmt": [expected_month(month, [private, public], 1)]}
    assert client.get("/api/v1/players/bot-easy").get_json()["accuracy"] == {
        "sixnimmt": [expected_month(month, [public], 1)]}
