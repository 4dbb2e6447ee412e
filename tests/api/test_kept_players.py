"""Nothing a player owns is forgotten, over HTTP: Redis forgets everything it may, and a player
with a passkey, ratings and a friend signs in with the passkey and finds their profile, ratings,
friends, leaderboard place, inbox and every finished game with its record and replay; a throwaway
player is gone. A sign-in that needs PostgreSQL while it is away answers 503."""
import random

import pytest
from authenticator import Authenticator
from forgetting import forget_what_is_not_live
from test_passkeys import register, sign_in, site  # noqa: F401 (a fixture)
from test_ratings import play_out
from waiting import wait_until

from api.http import create_app
from api.storage import sql
from api.tables import Tables

FRIEND = "/api/v1/players/me/friends"


@pytest.mark.cluster
def test_a_player_redis_forgot_signs_in_and_finds_all_they_own(
        app, client, store, redis, store_env, postgres, database, site):
    origin, _ = site
    tables = Tables(store, queue_redis=redis)
    anna = client.post("/api/v1/players", json={"name": "Anna"}).get_json()
    mine = {"Authorization": f"Bearer {anna['token']}"}
    bert = client.post("/api/v1/players", json={"name": "Bert"}).get_json()
    theirs = {"Authorization": f"Bearer {bert['token']}"}
    throwaway = client.post("/api/v1/players", json={"name": "Carl"}).get_json()
    phone = Authenticator()
    assert register(client, mine, phone, origin).status_code == 201
    code = client.get("/api/v1/players/me/friend-link", headers=mine).get_json()["code"]
    added = client.post(f"/api/v1/players/friend-links/{code}", headers=theirs)
    assert added.status_code in (200, 201), added.get_json()

    player = tables.players.for_token(anna["token"])
    rng = random.Random(3)
    games = []
    for _ in range(3):
        game_id = tables.seating.create_game(player, "sixnimmt", 2, {"threshold": 1},
                                             ["human", {"bot": "easy"}], pace="none").id
        play_out(tables, game_id, {0: player}, rng)
        assert tables.ratings.record(game_id) and tables.archive.archive(game_id)
        games.append(game_id)

    def seen() -> dict:
        return {"profile": client.get(f"/api/v1/players/{anna['id']}", headers=mine).get_json(),
                "friends": client.get(FRIEND, headers=mine).get_json(),
                "inbox": client.get("/api/v1/players/me/games", headers=mine).get_json(),
                "board": client.get("/api/v1/games/types/sixnimmt/leaderboard",
                                    headers=mine).get_json(),
                "games": {game_id: (client.get(f"/api/v1/games/{game_id}/record",
                                               headers=mine).get_json(),
                                    client.get(f"/api/v1/games/{game_id}/replay/3",
                                               headers=mine).get_json())
                          for game_id in games}}
    before = seen()
    assert before["profile"]["ratings"]["sixnimmt"]["games"] == 3
    assert [game["id"] for game in before["profile"]["recent_games"]] == games[::-1]
    assert [friend["id"] for friend in before["friends"]] == [bert["id"]]
    assert sorted(game["id"] for game in before["inbox"]) == sorted(games)

    assert sorted(forget_what_is_not_live(store, tables)) == sorted(games)
    fresh = create_app({**store_env, "TESTING": True}).test_client()  # trusts no token yet

    # With PostgreSQL away, a sign-in that needs it answers 503, never 500.
    postgres.stop("immediate")
    try:
        away = fresh.get("/api/v1/players/me", headers=mine)
        assert away.status_code == 503 and away.headers["Retry-After"], away.get_json()
    finally:
        postgres.start()
    wait_until(lambda: not _refused(database), "PostgreSQL answers again", seconds=30)
    sql._away_until.clear()

    signed_in, _ = sign_in(fresh, phone, origin)
    assert signed_in.status_code == 201, signed_in.get_json()
    assert signed_in.get_json()["id"] == anna["id"]
    mine = {"Authorization": f"Bearer {signed_in.get_json()['token']}"}
    client = fresh
    after = seen()
    assert after["profile"] == before["profile"]
    assert after["friends"] == before["friends"]
    assert after["inbox"] == before["inbox"], "the inbox's finished games, from the archive"
    assert after["board"] == before["board"]
    assert after["games"] == before["games"]
    gone = fresh.get("/api/v1/players/me",
                     headers={"Authorization": f"Bearer {throwaway['token']}"})
    assert gone.status_code == 401


def _refused(database) -> bool:
    try:
        sql.ping(database, 1)
    except sql.DATABASE_ERRORS:
        return True
    return False
