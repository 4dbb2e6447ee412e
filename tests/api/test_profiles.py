"""Profiles and leaderboards over HTTP: typed answers, only the games the caller may see, and a
leaderboard of the players with ten rated games."""
import random

import pytest
from jsonschema import Draft202012Validator
from test_ratings import play_out

from api.tables import Tables


def finish(client, tables, run_bots, headers, body, humans, rng):
    """A game created over HTTP, played to the end, its results recorded by a real worker."""
    answer = client.post("/api/v1/games", headers=headers, json=body)
    assert answer.status_code == 201, answer.get_json()
    view = answer.get_json()
    for seat, (player, their_headers) in humans.items():
        if seat:
            code = next(invite["code"] for invite in view["invites"] if invite["seat"] == seat)
            client.post(f"/api/v1/games/invites/{code}", headers=their_headers)
    play_out(tables, view["id"], {seat: player for seat, (player, _) in humans.items()}, rng)
    run_bots()
    return client.get(f"/api/v1/games/{view['id']}", headers=headers).get_json()


def fits(client, name: str, answer: dict) -> None:
    """The answer fits its schema in the served contract."""
    spec = client.get("/api/openapi.json").get_json()
    Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                          "components": spec["components"]}).validate(answer)


def player(tables, client, name):
    body = client.post("/api/v1/players", json={"name": name}).get_json()
    return tables.players.for_token(body["token"]), {"Authorization": f"Bearer {body['token']}"}


@pytest.mark.cluster
def test_a_profile_shows_results_ratings_and_only_the_games_the_caller_may_see(
        client, store, redis, run_bots):
    tables = Tables(store, queue_redis=redis)
    rng = random.Random(5)
    anna, bert, cecil = (player(tables, client, name) for name in ("Anna", "Bert", "Cecil"))
    private = finish(client, tables, run_bots, anna[1], {
        "type": "sixnimmt", "players": 3, "options": {"threshold": 1}, "pace": "1h",
        "seats": ["human", "human", {"bot": "easy"}]}, {0: anna, 1: bert}, rng)
    public = finish(client, tables, run_bots, anna[1], {
        "type": "sixnimmt", "players": 2, "options": {"threshold": 1}, "pace": "none",
        "public": True, "seats": ["human", {"bot": "hard"}]}, {0: anna}, rng)
    friendly = finish(client, tables, run_bots, anna[1], {
        "type": "sixnimmt", "players": 2, "options": {"threshold": 1}, "pace": "none",
        "rated": False, "seats": ["human", {"bot": "easy"}]}, {0: anna}, rng)

    assert private["rated"] is True and friendly["rated"] is False
    results = private["results"]
    assert [seat["player"] for seat in results["seats"]] == [anna[0].id, bert[0].id, "bot-easy"]
    assert [seat["player"] for seat in private["seats"]] == [anna[0].id, bert[0].id, "bot-easy"]
    assert all(seat["rating"]["change"] == seat["rating"]["ordinal"] for seat in results["seats"]
               ), "a first rated game changes the ordinal from 0"
    assert friendly["results"] == {"rated": False, "seats": [
        {"seat": seat, "player": who, "place": place, "rating": None} for seat, who, place in
        zip((0, 1), (anna[0].id, "bot-easy"), (seat["place"] for seat in
                                                 friendly["results"]["seats"]))]}

    def profile(headers=None):
        answer = client.get(f"/api/v1/players/{anna[0].id}", headers=headers or {})
        assert answer.status_code == 200
        return answer.get_json()

    seen_by_bert = profile(bert[1])
    assert seen_by_bert["name"] == "Anna" and seen_by_bert["bot"] is False
    assert seen_by_bert["member_since"]
    assert seen_by_bert["games"]["sixnimmt"]["finished"] == 3, "a friendly game counts here"
    rating = seen_by_bert["ratings"]["sixnimmt"]
    assert rating["games"] == 2 and rating["provisional"] is True, "but not in the rating"
    assert rating["ordinal"] == rating["mu"] - 3 * rating["sigma"]
    assert rating["display"] == max(0, round(1500 + 40 * rating["ordinal"]))
    history = seen_by_bert["rating_history"]["sixnimmt"]
    assert [change["game"] for change in history] == [public["id"], private["id"]]
    assert history[0]["ordinal"] == rating["ordinal"]
    assert history[0]["display"] == rating["display"]
    assert history[-1]["display_change"] == history[-1]["display"] - 1500, "from 1500 at first"
    assert [game["id"] for game in seen_by_bert["recent_games"]] == [public["id"], private["id"]]
    assert [game["id"] for game in profile(anna[1])["recent_games"]] == [
        friendly["id"], public["id"], private["id"]]
    stranger = [game["id"] for game in profile(cecil[1])["recent_games"]]
    assert stranger == [public["id"]], "a private game only to the players who sat there"
    assert [game["id"] for game in profile()["recent_games"]] == [public["id"]]

    fits(client, "Profile", seen_by_bert)
    fits(client, "SixNimmtGameView", private)
    fits(client, "SixNimmtGameView", friendly)
    hard = client.get("/api/v1/players/bot-hard").get_json()
    assert hard["name"] == "Hard bot" and hard["bot"] is True
    assert hard["ratings"]["sixnimmt"]["games"] == 1
    assert hard["member_since"] is None
    for unknown in ("0123456789abcdef", "bot-clever"):
        answer = client.get(f"/api/v1/players/{unknown}")
        assert answer.status_code == 404 and answer.get_json()["message"]


@pytest.mark.cluster
def test_a_leaderboard_lists_players_with_ten_rated_games_by_ordinal(
        client, store, redis, run_bots):
    tables = Tables(store, queue_redis=redis)
    rng = random.Random(11)
    anna, bert = player(tables, client, "Anna"), player(tables, client, "Bert")
    board = client.get("/api/v1/games/types/sixnimmt/leaderboard", headers=anna[1]).get_json()
    assert board == {"type": "sixnimmt", "fewest_games": 10, "days": None, "entries": [],
                     "provisional": [], "you": None}
    game = {"type": "sixnimmt", "players": 2, "options": {"threshold": 1}, "pace": "none",
            "seats": ["human", {"bot": "easy"}]}
    for number in range(10):
        finish(client, tables, run_bots, anna[1], game, {0: anna}, rng)
        if number == 8:
            nine = client.get("/api/v1/games/types/sixnimmt/leaderboard",
                              headers=anna[1]).get_json()
            assert nine["entries"] == [] and nine["you"]["place"] is None
            assert nine["you"]["provisional"] is True
            # Not yet listed, but among the provisional players, each with a display rating.
            waiting = {entry["player_id"]: entry for entry in nine["provisional"]}
            assert set(waiting) == {anna[0].id, "bot-easy"}
            assert waiting[anna[0].id]["games"] == 9
            assert waiting[anna[0].id]["display"] == nine["you"]["display"] == max(
                0, round(1500 + 40 * nine["you"]["ordinal"]))
            assert [entry["place"] for entry in nine["provisional"]] == [1, 2]
    board = client.get("/api/v1/games/types/sixnimmt/leaderboard", headers=anna[1]).get_json()
    assert [entry["player_id"] for entry in board["entries"]] == sorted(
        [anna[0].id, "bot-easy"], key=lambda who: -tables.profiles.profile(who, None)[
            "ratings"]["sixnimmt"]["ordinal"])
    mine = next(entry for entry in board["entries"] if entry["player_id"] == anna[0].id)
    assert mine["name"] == "Anna" and mine["games"] == 10 and mine["bot"] is False
    assert board["you"] == {"place": mine["place"], "ordinal": mine["ordinal"],
                            "display": mine["display"], "games": 10, "provisional": False}
    assert board["provisional"] == [], "listed now, not provisional any more"
    assert [entry["place"] for entry in board["entries"]] == [1, 2]
    fits(client, "Leaderboard", board)
    assert board["entries"][0]["ordinal"] >= board["entries"][1]["ordinal"]
    assert client.get("/api/v1/games/types/sixnimmt/leaderboard", headers=bert[1]
                      ).get_json()["you"] is None
    assert client.get("/api/v1/games/types/hattrick/leaderboard").get_json()["entries"] == []
    unknown = client.get("/api/v1/games/types/chess/leaderboard")
    assert unknown.status_code == 404 and "chess" in unknown.get_json()["message"]


def test_rated_must_be_a_boolean(client, new_player):
    _, anna = new_player()
    answer = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "rated": "no"})
    assert answer.status_code == 422 and "rated" in answer.get_json()["message"]
