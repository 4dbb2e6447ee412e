"""Friends and blocks over HTTP: friend links, mutual friendships with when each friend was last
active, the limits (guessing, 500 friends, 500 blocks) and what a block keeps a player from."""
import pytest
from test_ratelimits import assert_429

from api.storage import keys
from api.tables.friends import MOST_BLOCKS, MOST_FRIENDS

# On the cluster too: links between two players' keys.
pytestmark = pytest.mark.cluster

PUBLIC_GAME = {"type": "sixtysix", "players": 2, "seats": ["human", "human"], "public": True}


def friend_code(client, headers) -> str:
    answer = client.get("/api/v1/players/me/friend-link", headers=headers)
    assert answer.status_code == 200
    link = answer.get_json()
    assert link["link"] == f"/#/friend/{link['code']}"
    return link["code"]


def friends_of(client, headers) -> list[dict]:
    answer = client.get("/api/v1/players/me/friends", headers=headers)
    assert answer.status_code == 200
    return answer.get_json()


def test_a_friend_link_makes_both_players_friends_until_one_removes_the_other(
        client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    code = friend_code(client, anna_auth)
    assert friend_code(client, anna_auth) == code, "the link stays until renewed"

    added = client.post(f"/api/v1/players/friend-links/{code}", headers=bert_auth)
    assert added.status_code == 201
    assert added.get_json()["id"] == anna["id"] and added.get_json()["name"] == "Anna"
    assert client.post(f"/api/v1/players/friend-links/{code}",
                       headers=bert_auth).status_code == 201, "adding twice changes nothing"
    [annas_friend] = friends_of(client, anna_auth)
    [berts_friend] = friends_of(client, bert_auth)
    assert (annas_friend["id"], annas_friend["name"]) == (bert["id"], "Bert")
    assert berts_friend["id"] == anna["id"]
    assert annas_friend["last_active"] is not None, "Bert's requests count as activity"

    own = client.post(f"/api/v1/players/friend-links/{code}", headers=anna_auth)
    assert own.status_code == 422 and own.get_json()["reason"] == "invalid_request"

    assert client.delete(f"/api/v1/players/me/friends/{anna['id']}",
                         headers=bert_auth).status_code == 204
    assert friends_of(client, anna_auth) == [] and friends_of(client, bert_auth) == []
    gone = client.delete(f"/api/v1/players/me/friends/{anna['id']}", headers=bert_auth)
    assert gone.status_code == 404 and gone.get_json()["reason"] == "not_found"


def test_a_renewed_friend_link_retires_the_old_code(client, new_player):
    _, anna_auth = new_player("Anna")
    _, bert_auth = new_player("Bert")
    old = friend_code(client, anna_auth)
    renewed = client.post("/api/v1/players/me/friend-link", headers=anna_auth).get_json()["code"]
    assert renewed != old and friend_code(client, anna_auth) == renewed
    assert client.post(f"/api/v1/players/friend-links/{old}", headers=bert_auth).status_code == 404
    assert friends_of(client, bert_auth) == []
    assert client.post(f"/api/v1/players/friend-links/{renewed}",
                       headers=bert_auth).status_code == 201


def test_a_friend_links_preview_names_its_player_to_anyone_it_may_add(client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    code = friend_code(client, anna_auth)
    for headers in ({}, bert_auth):
        answer = client.get(f"/api/v1/players/friend-links/{code}", headers=headers)
        assert answer.status_code == 200 and answer.get_json() == {"name": "Anna"}
    assert client.get("/api/v1/players/friend-links/nosuchcode").status_code == 404
    assert client.put(f"/api/v1/players/me/blocks/{bert['id']}", headers=anna_auth).status_code == 204
    assert client.get(f"/api/v1/players/friend-links/{code}", headers=bert_auth).status_code == 404, \
        "a blocked player learns nothing of the link"
    assert friends_of(client, bert_auth) == []


def test_friend_codes_are_guessed_within_the_invite_budget(client, new_player):
    _, headers = new_player()
    # One budget with invite codes: alternating the two kinds of guess gains nothing.
    for i in range(5):
        assert client.post(f"/api/v1/players/friend-links/guess{i}",
                           headers=headers).status_code == 404
        assert client.post(f"/api/v1/games/invites/guess{i}", headers=headers).status_code == 404
    assert_429(client.post("/api/v1/players/friend-links/guess10", headers=headers))
    assert_429(client.get("/api/v1/players/friend-links/guess11", headers=headers))


def test_a_full_friends_list_answers_429_and_leaves_no_half_friendship(
        client, store, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    cecil, cecil_auth = new_player("Cecil")
    store.sadd(keys.friends(anna["id"]), *(f"{n:016x}" for n in range(MOST_FRIENDS)))
    assert_429(client.post(f"/api/v1/players/friend-links/{friend_code(client, anna_auth)}",
                           headers=bert_auth))
    assert friends_of(client, bert_auth) == []
    assert store.scard(keys.friends(anna["id"])) == MOST_FRIENDS

    store.sadd(keys.friends(bert["id"]), *(f"{n:016x}" for n in range(MOST_FRIENDS)))
    assert_429(client.post(f"/api/v1/players/friend-links/{friend_code(client, cecil_auth)}",
                           headers=bert_auth))
    assert friends_of(client, cecil_auth) == [], "Cecil's side is undone when Bert's is full"
    assert not store.sismember(keys.friends(bert["id"]), cecil["id"])


def test_at_most_500_blocks(client, store, new_player):
    anna, anna_auth = new_player("Anna")
    bert, _ = new_player("Bert")
    store.sadd(keys.blocks(anna["id"]), *(f"{n:016x}" for n in range(MOST_BLOCKS)))
    assert_429(client.put(f"/api/v1/players/me/blocks/{bert['id']}", headers=anna_auth))
    assert not store.sismember(keys.blocks(anna["id"]), bert["id"])


def test_blocking_ends_the_friendship_and_refuses_the_blocked_player_everything(
        client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    code = friend_code(client, anna_auth)
    client.post(f"/api/v1/players/friend-links/{code}", headers=bert_auth)
    table = client.post("/api/v1/games", headers=anna_auth, json={
        "type": "sixtysix", "players": 2, "seats": ["human", "human"]}).get_json()
    invite = table["invites"][0]["code"]
    lobby_game = client.post("/api/v1/games", headers=anna_auth, json=PUBLIC_GAME).get_json()

    assert client.put(f"/api/v1/players/me/blocks/{bert['id']}",
                      headers=anna_auth).status_code == 204
    assert [entry["id"] for entry in client.get("/api/v1/players/me/blocks",
                                                headers=anna_auth).get_json()] == [bert["id"]]
    assert friends_of(client, anna_auth) == [] and friends_of(client, bert_auth) == []
    refused = client.post(f"/api/v1/players/friend-links/{code}", headers=bert_auth)
    assert refused.status_code == 404, "a block looks like an unknown code"
    assert friends_of(client, anna_auth) == []

    profile = client.get(f"/api/v1/players/{anna['id']}", headers=bert_auth).get_json()
    assert profile["name"] == "Anna" and profile["member_since"] is None
    assert client.get(f"/api/v1/players/{anna['id']}").get_json()["member_since"] is not None

    for refused in (client.post(f"/api/v1/games/{lobby_game['id']}/join", headers=bert_auth),
                    client.post(f"/api/v1/games/invites/{invite}", headers=bert_auth)):
        assert refused.status_code == 403 and refused.get_json()["reason"] == "forbidden"
    assert client.get(f"/api/v1/games/{table['id']}", headers=anna_auth).get_json()[
        "seats"][1]["name"] is None, "the refused seat stays open"

    assert client.delete(f"/api/v1/players/me/blocks/{bert['id']}",
                         headers=anna_auth).status_code == 204
    assert client.post(f"/api/v1/games/invites/{invite}", headers=bert_auth).status_code == 200
    again = client.delete(f"/api/v1/players/me/blocks/{bert['id']}", headers=anna_auth)
    assert again.status_code == 404


def test_a_player_does_not_read_what_a_blocked_player_says_at_the_table(client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    table = client.post("/api/v1/games", headers=anna_auth, json={
        "type": "sixtysix", "players": 2, "seats": ["human", "human"]}).get_json()
    client.post(f"/api/v1/games/invites/{table['invites'][0]['code']}", headers=bert_auth)
    chat = f"/api/v1/games/{table['id']}/chat"
    client.post(chat, json={"text": "hello"}, headers=bert_auth)
    client.put(f"/api/v1/players/me/blocks/{bert['id']}", headers=anna_auth)
    client.post(chat, json={"text": "rude"}, headers=bert_auth)
    client.post(chat, json={"text": "bye"}, headers=anna_auth)
    heard = client.get(f"{chat}?after=0", headers=anna_auth).get_json()
    assert [message["text"] for message in heard["messages"]] == ["bye"]
    said = client.get(f"{chat}?after=0", headers=bert_auth).get_json()
    assert [message["text"] for message in said["messages"]] == ["hello", "rude", "bye"]


def test_bad_input_is_a_clear_4xx(client, new_player):
    anna, anna_auth = new_player("Anna")
    unknown = "0123456789abcdef"
    for answer in (client.put(f"/api/v1/players/me/blocks/{unknown}", headers=anna_auth),
                   client.delete(f"/api/v1/players/me/friends/{unknown}", headers=anna_auth)):
        assert answer.status_code == 404 and answer.get_json()["reason"] == "not_found"
    itself = client.put(f"/api/v1/players/me/blocks/{anna['id']}", headers=anna_auth)
    assert itself.status_code == 422
    assert client.put("/api/v1/players/me/blocks/not-an-id", headers=anna_auth).status_code == 404
    assert client.get("/api/v1/players/me/friends").status_code == 401
