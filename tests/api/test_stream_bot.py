"""A bot plays 20 games at once, of all four types, against the server's bots, over real HTTP
with a real RQ worker, and follows them all through ONE event stream: it acts on each
`your_turn` with the event's `version` and an `Idempotency-Key`, never polls, and meets not
one 409 nor one 429."""
import time
import uuid

import httpx
import pytest

from tests.api.test_streams import Stream

# On the cluster too: the event stream of twenty games on many slots.
pytestmark = pytest.mark.cluster

# (type, players, options): the shortest options the contract allows (each game's
# `quick_options`), 5 of each type, one of them Sixty-six's 4-player partnership game.
GAMES = (
    [("sixnimmt", players, {"threshold": 1}) for players in (2, 2, 3, 3, 4)]
    + [("sixtysix", players, {"match_points": 1}) for players in (2, 2, 2, 3, 4)]
    + [("sticheln", 3, {"deals": 1})] * 5
    + [("hattrick", 4, {"deals": 1})] * 5)


def test_a_bot_follows_twenty_games_of_every_type_through_one_stream(live_server):
    api = f"{live_server}/api/v1"
    http = httpx.Client(timeout=30)
    token = http.post(f"{api}/players", json={"name": "Stream bot", "bot": True}).json()["token"]
    me = {"Authorization": f"Bearer {token}"}
    stream = Stream(f"{api}/stream", me, ndjson=True)
    statuses: list[tuple[str, int]] = []   # every call the bot makes, with its answer
    try:
        assert stream.response.status_code == 200
        started = time.monotonic()
        games = {}
        for game_type, players, options in GAMES:
            answer = http.post(f"{api}/games", headers={**me, "Idempotency-Key": str(uuid.uuid4())},
                               json={"type": game_type, "players": players, "options": options,
                                     "seats": ["human"] + [{"bot": "easy"}] * (players - 1),
                                     "pace": "none"})
            statuses.append(("create", answer.status_code))
            assert answer.status_code == 201, answer.text
            games[answer.json()["id"]] = game_type

        finished, turns = {}, 0
        while len(finished) < len(games):
            event = stream.next(60)
            if event.get("game") not in games:
                continue
            if event["type"] == "game_finished":
                finished[event["game"]] = event
            elif event["type"] == "your_turn":
                # The event names the game and its version, not the legal actions: the view
                # has them (a GET of a view draws on no budget).
                view = http.get(f"{api}/games/{event['game']}", headers=me)
                statuses.append(("view", view.status_code))
                body = view.json()
                assert body["your_seat"] in body["to_act"], (event, body["to_act"])
                acted = http.post(f"{api}/games/{event['game']}/actions",
                                  headers={**me, "Idempotency-Key": str(uuid.uuid4())},
                                  json={"action": body["legal_actions"][0],
                                        "version": event["version"]})
                statuses.append(("act", acted.status_code))
                assert acted.status_code == 200, (event, acted.status_code, acted.text)
                turns += 1
        took = time.monotonic() - started
    finally:
        stream.close()
        http.close()

    print(f"20 games, {turns} turns, through one stream in {took:.1f} s")
    assert {status for _, status in statuses} <= {200, 201}, statuses
    assert not [call for call in statuses if call[1] in (409, 429)]
    assert sorted(games) == sorted(finished)
    assert {games[game] for game in finished} == {"sixnimmt", "sixtysix", "sticheln", "hattrick"}
    assert all(event["your_place"] >= 1 and event["outcome"]["scores"]
               for event in finished.values())
    assert turns >= len(games)
