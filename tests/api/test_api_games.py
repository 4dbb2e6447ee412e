"""Creating, joining, viewing and playing games over HTTP (6 nimmt! as the example game)."""
import json
import threading

import pytest

from api.http.contract import prefix
from rules import GAMES
from redis_servers import store_keys

BOTS3 = ["human", {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]


def create(client, headers, seats=None, players=None, options=None, type_="sixnimmt", public=False):
    seats = seats or BOTS3
    body = {"type": type_, "players": players or len(seats), "seats": seats, "public": public}
    if options is not None:
        body["options"] = options
    return client.post("/api/v1/games", json=body, headers=headers)


def test_game_types_list_every_game_with_its_options(client):
    types = {t["type"]: t for t in client.get("/api/v1/games/types").get_json()}
    assert set(types) == set(GAMES)
    six = types["sixnimmt"]
    assert (six["min_players"], six["max_players"]) == (2, 10)
    options = {o["name"]: o for o in six["options"]}
    assert options["tactical_deck"]["type"] == "bool" and options["tactical_deck"]["default"] is False
    assert options["threshold"]["default"] == 66
    assert [level["name"] for level in six["bot_levels"]] == ["easy", "medium", "hard"]


def test_every_game_has_a_rules_page(client):
    for name in GAMES:
        page = client.get(f"/api/v1/games/types/{name}/rules")
        assert page.status_code == 200
        assert page.get_json()["markdown"].startswith("#")
    assert client.get("/api/v1/games/types/chess/rules").status_code == 404


def test_creating_against_bots_starts_at_once(client, new_player):
    _, headers = new_player()
    view = create(client, headers).get_json()
    assert view["status"] == "active"
    assert view["your_seat"] == 0 and len(view["hand"]) == 10
    assert [seat["bot"] for seat in view["seats"]] == [None, "easy", "easy", "easy"]
    assert {"type": "play", "card": view["hand"][0]} in view["legal_actions"]


@pytest.mark.parametrize("body, message", [
    ({"type": "chess", "players": 2, "seats": ["human", "human"]}, "unknown game type"),
    ({"type": "sixnimmt", "players": 11, "seats": ["human"] * 11}, "2 to 10 players"),
    ({"type": "sixnimmt", "players": 2, "seats": ["human"]}, "exactly 2"),
    ({"type": "sixnimmt", "players": 2, "seats": [{"bot": "easy"}, "human"]}, "seat 0"),
    ({"type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "godlike"}]}, "level"),
    ({"type": "sixnimmt", "players": 2, "seats": ["human", "robot"]}, "seat 1"),
    ({"type": "sixnimmt", "players": 2, "seats": ["human", "human"], "options": {"x": 1}}, "unknown option"),
    ({"type": "sixnimmt", "players": 2, "seats": ["human", "human"],
      "options": {"draft": "yes"}}, "true or false"),
    ({"type": "sixnimmt", "players": "2", "seats": ["human", "human"]}, "players"),
    ({"type": "sixnimmt", "players": 2}, "seats"),
])
def test_bad_games_are_422_with_a_reason_and_store_nothing(client, new_player, store, body, message):
    _, headers = new_player()
    keys_before = set(store_keys(store, "game:*"))
    response = client.post("/api/v1/games", json=body, headers=headers)
    assert response.status_code == 422
    assert message in response.get_json()["message"]
    assert set(store_keys(store, "game:*")) == keys_before


@pytest.mark.cluster
def test_a_friend_joins_a_public_game_by_its_id_and_the_game_starts(client, new_player):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    view = create(client, anna, seats=["human", "human", {"bot": "easy"}], public=True).get_json()
    assert view["status"] == "waiting" and view["legal_actions"] == []
    waiting = client.post(f"/api/v1/games/{view['id']}/actions",
                          json={"action": {"type": "play", "card": view["hand"][0]}}, headers=anna)
    assert waiting.status_code == 422 and "waiting" in waiting.get_json()["message"]

    joined = client.post(f"/api/v1/games/{view['id']}/join", json={}, headers=bert).get_json()
    assert joined["your_seat"] == 1 and joined["status"] == "active"
    assert joined["seats"][1]["name"] == "Bert"
    again = client.post(f"/api/v1/games/{view['id']}/join", json={}, headers=bert)
    assert again.status_code == 409
    _, carl = new_player("Carl")
    full = client.post(f"/api/v1/games/{view['id']}/join", json={}, headers=carl)
    assert full.status_code == 409 and "no open seat" in full.get_json()["message"]


def test_joining_a_chosen_seat(client, new_player):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    game_id = create(client, anna, seats=["human", "human", "human"], public=True).get_json()["id"]
    assert client.post(f"/api/v1/games/{game_id}/join", json={"seat": 0}, headers=bert).status_code == 409
    assert client.post(f"/api/v1/games/{game_id}/join", json={"seat": 2}, headers=bert).get_json()["your_seat"] == 2
    assert client.post(f"/api/v1/games/{game_id}/join", json={"seat": -1}, headers=bert).status_code == 422


def test_etag_answers_304_until_the_game_changes(client, new_player):
    _, anna = new_player()
    view = create(client, anna, public=True).get_json()
    first = client.get(f"/api/v1/games/{view['id']}", headers=anna)
    etag = first.headers["ETag"]
    assert client.get(f"/api/v1/games/{view['id']}", headers={**anna, "If-None-Match": etag}).status_code == 304
    spectator = client.get(f"/api/v1/games/{view['id']}", headers={"If-None-Match": etag})
    assert spectator.status_code == 200, "another seat's ETag must not match"
    client.post(f"/api/v1/games/{view['id']}/actions",
                json={"action": {"type": "play", "card": view["hand"][0]}}, headers=anna)
    changed = client.get(f"/api/v1/games/{view['id']}", headers={**anna, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_an_unchanged_poll_is_a_bare_304_and_checks_what_a_view_checks(client, new_player):
    _, anna = new_player()
    _, bert = new_player()
    game_id = create(client, anna).get_json()["id"]
    etag = client.get(f"/api/v1/games/{game_id}", headers=anna).headers["ETag"]
    unchanged = client.get(f"/api/v1/games/{game_id}", headers={**anna, "If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert unchanged.headers["ETag"] == etag and unchanged.headers["X-Request-Id"]
    assert unchanged.headers["X-Content-Type-Options"] == "nosniff"
    # A private game stays closed to others, a bad token is refused and a bad `wait` is named,
    # whatever ETag they send.
    assert client.get(f"/api/v1/games/{game_id}", headers={**bert, "If-None-Match": etag}).status_code == 403
    assert client.get(f"/api/v1/games/{game_id}", headers={
        "Authorization": "Bearer nobody.secret", "If-None-Match": etag}).status_code == 401
    bad_wait = client.get(f"/api/v1/games/{game_id}?wait=x", headers={**anna, "If-None-Match": etag})
    assert bad_wait.status_code == 422 and "wait" in bad_wait.get_json()["message"]
    assert client.get(f"/api/v1/games/nosuchgame", headers={**anna, "If-None-Match": etag}).status_code == 404


@pytest.mark.parametrize("type_", sorted(GAMES))
def test_a_poll_answered_before_flask_is_the_view_flask_sends(client, new_player, type_):
    """A view without `wait` is answered by api/game_polls.py; a long-poll whose ETag is stale
    is answered at once by the GameView of flask-smorest. Both must send the same."""
    _, anna = new_player()
    seats = ["human"] + [{"bot": "easy"}] * (GAMES[type_].min_players - 1)
    game_id = create(client, anna, seats=seats, type_=type_, public=True).get_json()["id"]
    url = f"/api/v1/games/{game_id}"
    for caller in (anna, {}):  # seated, and an anonymous spectator
        fast = client.get(url, headers=caller)
        by_flask = client.get(f"{url}?wait=5", headers={**caller, "If-None-Match": '"stale"'})
        assert (fast.status_code, by_flask.status_code) == (200, 200)
        assert fast.data == by_flask.data
        assert fast.headers["ETag"] == by_flask.headers["ETag"]
        # Besides its request id, the long-poll tells the budget it drew on.
        own = {"X-Request-Id", "RateLimit", "RateLimit-Policy"}
        assert {name for name in fast.headers.keys() if name not in own} == \
            {name for name in by_flask.headers.keys() if name not in own}
        assert fast.headers["X-Request-Id"] != by_flask.headers["X-Request-Id"]
        mine = client.get(url, headers={**caller, "X-Request-Id": "phone-42"})
        assert mine.headers["X-Request-Id"] == "phone-42"


@pytest.mark.parametrize("type_", sorted(GAMES))
def test_a_view_is_sent_in_exactly_the_shape_of_its_schema(client, new_player, type_):
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    published = schemas[f"{prefix(GAMES[type_])}GameView"]["properties"]
    _, anna = new_player()
    seats = ["human"] + [{"bot": "easy"}] * (GAMES[type_].min_players - 1)
    view = create(client, anna, seats=seats, type_=type_).get_json()
    acted = client.post(f"/api/v1/games/{view['id']}/actions",
                        json={"action": view["legal_actions"][0]}, headers=anna).get_json()
    polled = client.get(f"/api/v1/games/{view['id']}", headers=anna).get_json()
    for sent in (acted, polled):
        assert set(sent) == set(published)
        assert all(set(seat) == set(schemas["Seat"]["properties"]) for seat in sent["seats"])


def test_illegal_actions_are_422_and_change_nothing(client, new_player, store):
    _, anna = new_player()
    view = create(client, anna).get_json()
    game_id = view["id"]
    not_in_hand = next(card for card in range(1, 105) if card not in view["hand"])
    before = store.hgetall(f"game:{{{game_id}}}")
    for action in ({"type": "play", "card": not_in_hand}, {"type": "take_row", "row": 0},
                   {"type": "dance"}, {"card": 5}, {"type": "play", "card": "x"},
                   {"type": "play", "card": [1]}, {"type": "play"}):
        response = client.post(f"/api/v1/games/{game_id}/actions", json={"action": action}, headers=anna)
        assert response.status_code == 422, action
        assert response.get_json()["message"]
    for body in ({"action": "play"}, {"action": {"type": "play"}, "version": "1"}, {}, []):
        assert client.post(f"/api/v1/games/{game_id}/actions", json=body, headers=anna).status_code == 422
    assert store.hgetall(f"game:{{{game_id}}}") == before


def test_stale_version_is_409(client, new_player):
    _, anna = new_player()
    view = create(client, anna).get_json()
    stale = client.post(f"/api/v1/games/{view['id']}/actions",
                        json={"action": {"type": "play", "card": view["hand"][0]},
                              "version": view["version"] - 1}, headers=anna)
    assert stale.status_code == 409
    fresh = client.post(f"/api/v1/games/{view['id']}/actions",
                        json={"action": {"type": "play", "card": view["hand"][0]},
                              "version": view["version"]}, headers=anna)
    assert fresh.status_code == 200 and fresh.get_json()["version"] == view["version"] + 1


def test_only_seated_players_act(client, new_player):
    _, anna = new_player("Anna")
    _, eve = new_player("Eve")
    view = create(client, anna).get_json()
    response = client.post(f"/api/v1/games/{view['id']}/actions",
                           json={"action": {"type": "play", "card": view["hand"][0]}}, headers=eve)
    assert response.status_code == 403
    assert client.post(f"/api/v1/games/{view['id']}/actions",
                       json={"action": {"type": "play", "card": 1}}).status_code == 401


def test_no_view_shows_another_hand_or_an_unrevealed_choice(client, new_player, store):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    game_id = create(client, anna, seats=["human", "human", {"bot": "easy"}], public=True).get_json()["id"]
    client.post(f"/api/v1/games/{game_id}/join", json={}, headers=bert)
    anna_hand = client.get(f"/api/v1/games/{game_id}", headers=anna).get_json()["hand"]
    client.post(f"/api/v1/games/{game_id}/actions",
                json={"action": {"type": "play", "card": anna_hand[3]}}, headers=anna)
    state = json.loads(store.hget(f"game:{{{game_id}}}", "state"))
    six = GAMES["sixnimmt"]

    bert_view = client.get(f"/api/v1/games/{game_id}", headers=bert).get_json()
    spectator = client.get(f"/api/v1/games/{game_id}").get_json()
    assert bert_view["table"]["chosen"] == [True, False, False]
    assert bert_view["hand"] == six.view(state, 1)["hand"]
    assert bert_view["table"] == six.view(state, 1)["table"]
    assert spectator["hand"] is None and spectator["your_seat"] is None
    assert spectator["table"] == six.view(state, None)["table"]
    for seen in (bert_view, spectator):
        table = seen["table"]
        shown = {card for row in table["rows"] for card in row} | set(table["draft_display"] or [])
        shown |= {entry["card"] for entry in table["revealed"] or []}
        assert not shown & set(anna_hand)
        assert str(state["seed"]) not in json.dumps(seen)


@pytest.mark.cluster
def test_concurrent_actions_never_lose_an_update(client, new_player):
    players = [new_player(f"P{i}") for i in range(6)]
    game = create(client, players[0][1], seats=["human"] * 6, public=True).get_json()
    for _, headers in players[1:]:
        client.post(f"/api/v1/games/{game['id']}/join", json={}, headers=headers)
    hands = [client.get(f"/api/v1/games/{game['id']}", headers=h).get_json()["hand"] for _, h in players]
    results = [None] * 6

    def play(seat):
        results[seat] = client.post(f"/api/v1/games/{game['id']}/actions",
                                    json={"action": {"type": "play", "card": hands[seat][0]}},
                                    headers=players[seat][1]).status_code

    threads = [threading.Thread(target=play, args=(seat,)) for seat in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [200] * 6
    after = client.get(f"/api/v1/games/{game['id']}", headers=players[0][1]).get_json()
    assert all(len(after["hand"]) == 9 for _ in range(1))
    assert after["table"]["turn"] == 2 or after["phase"] == "take_row"


def test_record_is_forbidden_until_the_end(client, new_player):
    _, anna = new_player()
    game_id = create(client, anna).get_json()["id"]
    response = client.get(f"/api/v1/games/{game_id}/record")
    assert response.status_code == 403 and "over" in response.get_json()["message"]
    assert client.get("/api/v1/games/nope/record").status_code == 404


def test_openapi_and_offline_docs_are_served(client):
    spec = client.get("/api/openapi.json").get_json()
    assert "/api/v1/games/{game_id}/actions" in spec["paths"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.data and b"//cdn" not in docs.data and b"unpkg" not in docs.data


def test_an_invite_link_previews_its_game_without_revealing_anything_hidden(client, new_player):
    _, anna = new_player("Anna")
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", {"bot": "easy"}], "pace": "3d"}).get_json()
    code = game["invites"][0]["code"]
    # Anyone holding the link may look before taking the seat, without a name yet.
    preview = client.get(f"/api/v1/games/invites/{code}")
    assert preview.status_code == 200
    body = preview.get_json()
    assert body == {"game": game["id"], "type": "sixnimmt", "title": "6 nimmt!", "players": 3, "seat": 1,
                    "host": "Anna", "options": game["options"], "pace": "3d", "time_bank": None,
                    "public": False, "seats": [
                        {"seat": 0, "name": "Anna", "bot": None, "open": False,
                         "kept_for_another": False},
                        {"seat": 1, "name": None, "bot": None, "open": True,
                         "kept_for_another": False},
                        {"seat": 2, "name": "Bot 3 (easy)", "bot": "easy", "open": False,
                         "kept_for_another": False}]}
    assert "hand" not in preview.get_data(as_text=True) and "seed" not in body
    # Looking takes nothing: the seat is still open; once taken, or for a made-up code, 404.
    _, bert = new_player("Bert")
    assert client.post(f"/api/v1/games/invites/{code}", headers=bert).status_code == 200
    for gone in (code, "not-a-code"):
        answer = client.get(f"/api/v1/games/invites/{gone}")
        assert answer.status_code == 404 and answer.get_json()["code"] == 404


def test_invite_previews_count_as_guesses_of_codes(client):
    statuses = [client.get(f"/api/v1/games/invites/guess{n}").status_code for n in range(10)]
    assert statuses == [404] * 10
    refused = client.get("/api/v1/games/invites/guess10")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
