"""Open data (`api.tables.open_data`, docs/open-data.md): every finished public game of the
archive in a gzipped JSON Lines file per game type and month, by the command and the endpoint;
each line replays through the rules to its published result, and private games are left out."""
import gzip
import json
import random
from datetime import datetime, timezone

import pytest
from test_ratings import play_out

from api.export_open_data import export
from api.http import create_app
from api.tables import Tables
from api.tables.errors import NotFound
from rules import GAMES

MARCH = datetime(2026, 3, 14, 12, tzinfo=timezone.utc).timestamp()
APRIL = datetime(2026, 4, 2, 9, tzinfo=timezone.utc).timestamp()


def finished_game(tables, anna, type_name, seed, public=True) -> str:
    """A quick whole game of the type, a human (random legal moves) against easy bots, its
    results recorded and archived."""
    game = GAMES[type_name]
    seats = ["human"] + [{"bot": "easy"}] * (game.typical_players - 1)
    game_id = tables.seating.create_game(anna, type_name, game.typical_players,
                                         dict(game.quick_options), seats, pace="none",
                                         public=public).id
    play_out(tables, game_id, {0: anna}, random.Random(seed))
    tables.ratings.record(game_id)
    assert tables.archive.archive(game_id)
    return game_id


def read_lines(data: bytes) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(data).splitlines()]


def replays_to_its_result(line: dict) -> None:
    """The line's own data, through `rules/` alone: the seed deals what the line says was dealt,
    every action is legal in turn, and the game ends with the published outcome."""
    game = GAMES[line["type"]]
    assert game.normalise_options(line["players"], line["options"]) == line["options"]
    state = game.new_game(line["players"], line["options"], line["seed"], recording=True)
    for entry in line["actions"]:
        assert entry["seat"] in game.to_act(state) or game.may_change_choice(state, entry["seat"])
        game.apply_action(state, entry["seat"], entry["action"])
    assert game.outcome(state) == line["outcome"], line["id"]
    assert game.record(state)["deals"] == line["deals"], line["id"]


@pytest.fixture
def archived(clock, store, redis, database):
    """Games of every type finished in March and in April 2026 (the clock now in April), a
    private one among them, all archived."""
    tables = Tables(store, queue_redis=redis)
    anna = tables.players.create("Anna")
    games = {}
    for month, instant in (("2026-03", MARCH), ("2026-04", APRIL)):
        clock.set(instant)
        for seed, type_name in enumerate(GAMES):
            games.setdefault((type_name, month), []).append(
                finished_game(tables, anna, type_name, seed))
    private = finished_game(tables, anna, "sixnimmt", 99, public=False)
    return tables, anna, games, private


def test_the_export_holds_every_public_game_by_type_and_month_each_replaying_to_its_result(
        archived, tmp_path):
    tables, _, games, private = archived
    written = export(tables, tmp_path)
    assert {(opened.type, opened.month) for opened in written} == set(games)
    index = json.loads((tmp_path / "index.json").read_text())
    assert {(entry["type"], entry["month"], entry["games"], entry["complete"])
            for entry in index["files"]} == {
        (type_name, month, len(ids), month == "2026-03") for (type_name, month), ids in
        games.items()}

    for entry in index["files"]:
        lines = read_lines((tmp_path / entry["file"]).read_bytes())
        assert [line["id"] for line in lines] == games[(entry["type"], entry["month"])]
        for line in lines:
            assert line["format"] == 1 and line["type"] == entry["type"]
            assert line["finished_at"].startswith(entry["month"])
            assert line["seats"][0] == {"seat": 0, "bot": None}
            assert "Anna" not in json.dumps(line), "no player is named"
            replays_to_its_result(line)
    published = {line_id for ids in games.values() for line_id in ids}
    assert private not in published

    # Nothing changed: nothing is written again.
    assert export(tables, tmp_path) == []
    with pytest.raises(NotFound):
        export(tables, tmp_path, "sixnimmt", "2026-02")


def test_the_endpoint_lists_the_files_and_serves_each_with_an_etag_a_budget_and_a_cache(
        archived, clock, store_env, tmp_path):
    tables, anna, games, private = archived
    client = create_app({**store_env, "TESTING": True,
                         "RATE_LIMITS": {"read_open_data": "8/minute"}}).test_client()
    listed = client.get("/api/v1/open-data")
    assert listed.status_code == 200 and listed.headers["Cache-Control"] == "public, max-age=60"
    assert client.get("/api/v1/open-data", headers={
        "If-None-Match": listed.headers["ETag"]}).status_code == 304
    files = listed.get_json()["files"]
    assert {(entry["type"], entry["month"], entry["games"]) for entry in files} == {
        (type_name, month, len(ids)) for (type_name, month), ids in games.items()}

    export(tables, tmp_path)
    march = next(entry for entry in files if (entry["type"], entry["month"]) == ("sixnimmt",
                                                                                "2026-03"))
    got = client.get(march["url"])
    assert got.status_code == 200 and got.mimetype == "application/gzip"
    assert got.headers["Cache-Control"] == "public, max-age=86400"
    assert got.headers["Content-Disposition"] == (
        'attachment; filename="poyta-sixnimmt-2026-03.jsonl.gz"')
    assert got.data == (tmp_path / "sixnimmt" / march["file_name"]).read_bytes()
    assert client.get(march["url"], headers={"If-None-Match": got.headers["ETag"]}
                      ).status_code == 304

    april = "/api/v1/open-data/sixnimmt/2026-04"
    before = client.get(april)
    assert before.headers["Cache-Control"] == "public, max-age=3600", "the month is not over"
    assert [line["id"] for line in read_lines(before.data)] == games[("sixnimmt", "2026-04")]
    clock.advance(3600)
    late = finished_game(tables, anna, "sixnimmt", 7)
    after = client.get(april, headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    assert [line["id"] for line in read_lines(after.data)] == [
        *games[("sixnimmt", "2026-04")], late]

    for path, reason in (("/api/v1/open-data/chess/2026-03", "not_found"),
                         ("/api/v1/open-data/sixnimmt/2026-13", "not_found"),
                         ("/api/v1/open-data/sixnimmt/march", "not_found"),
                         ("/api/v1/open-data/sixnimmt/2026-05", "not_found")):
        refused = client.get(path)
        assert refused.status_code == 404 and refused.get_json()["reason"] == reason, path
    limited = client.get(march["url"])
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0


def test_without_a_database_there_is_no_open_data_and_a_read_answers_503(
        store, redis, store_env, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/poyta")
    client = create_app({**store_env, "TESTING": True}).test_client()
    for path in ("/api/v1/open-data", "/api/v1/open-data/sixnimmt/2026-03"):
        away = client.get(path)
        assert away.status_code == 503 and away.headers["Retry-After"], path
