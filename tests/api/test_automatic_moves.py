"""Moves that play themselves, as the player: forced moves (opt-in), and cards chosen ahead,
which reach no other seat before they are played: no view, ETag or event of anybody else
changes, and no long-poll wakes."""
import json

import pytest


@pytest.fixture
def player(clocked_client):
    def register(name, **clock):
        token = clocked_client.post("/api/v1/players", json={"name": name}).get_json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        if clock:
            assert clocked_client.patch("/api/v1/players/me/clock", json=clock,
                                        headers=headers).status_code == 200
        return headers
    return register


def table(client, game_type, players, public=False):
    """A game of only these humans; returns its id."""
    game = client.post("/api/v1/games", headers=players[0], json={
        "type": game_type, "players": len(players), "seats": ["human"] * len(players),
        "public": public}).get_json()
    for headers, invite in zip(players[1:], game["invites"]):
        assert client.post(f"/api/v1/games/invites/{invite['code']}",
                           headers=headers).status_code == 200
    return game["id"]


def view_of(client, game_id, headers=None):
    return client.get(f"/api/v1/games/{game_id}", headers=headers or {}).get_json()


def events_of(client, game_id, headers):
    return client.get(f"/api/v1/games/{game_id}/events", headers=headers).get_json()["events"]


def act(client, game_id, headers, action):
    moved = client.post(f"/api/v1/games/{game_id}/actions", json={"action": action},
                        headers=headers)
    assert moved.status_code == 200, moved.get_json()
    return moved.get_json()


def preselect(client, game_id, headers, action):
    if action is None:
        return client.delete(f"/api/v1/games/{game_id}/preselection", headers=headers)
    return client.put(f"/api/v1/games/{game_id}/preselection", json={"action": action},
                      headers=headers)


def test_a_forced_move_plays_itself_for_whoever_asked_and_the_log_says_so(
        clocked_client, player, run_worker):
    anna, bert = player("Anna", forced_moves=True), player("Bert")
    game_id = table(clocked_client, "sixnimmt", [anna, bert])
    automatic = []
    # Ten turns; a row to take can hold a seat's card to the next round of this loop.
    for _ in range(40):
        run_worker()
        for seat, headers in enumerate((anna, bert)):
            view = view_of(clocked_client, game_id, headers)
            if seat in view["to_act"]:
                assert len(view["hand"]) > 1 or seat == 1 or view["phase"] == "take_row"
                act(clocked_client, game_id, headers, view["legal_actions"][0])
        automatic = [e for e in events_of(clocked_client, game_id, anna)
                     if e["type"] == "automatic"]
        if automatic:
            break
    # Anna's last card played itself; Bert, who did not ask, played his own.
    assert [(e["seat"], e["how"]) for e in automatic] == [(0, "forced")]
    events = events_of(clocked_client, game_id, anna)
    at = events.index(automatic[0])
    assert events[at + 1]["type"] == "chose" and events[at + 1]["seat"] == 0


def snapshot(client, game_id, watchers):
    """What each watcher can learn: the view, its ETag and the events."""
    seen = []
    for headers in watchers:
        answer = client.get(f"/api/v1/games/{game_id}", headers=headers)
        seen.append((json.dumps(answer.get_json(), sort_keys=True), answer.headers["ETag"],
                     json.dumps(events_of(client, game_id, headers), sort_keys=True)))
    return seen


@pytest.mark.cluster
def test_a_card_chosen_ahead_reaches_no_other_seat_until_it_is_played(clocked_client, player,
                                                                      run_worker):
    players = [player(name, preselect=True) for name in ("Anna", "Bert", "Carl")]
    players.append(player("Dora"))
    game_id = table(clocked_client, "hattrick", players, public=True)
    view = view_of(clocked_client, game_id)
    leader = view["to_act"][0]
    chooser = (leader + 1) % 4   # any card is legal for the second of a trick
    others = [headers for seat, headers in enumerate(players) if seat != chooser]
    watchers = [*others, {}]     # the other seats, and a spectator
    hand = view_of(clocked_client, game_id, players[chooser])["hand"]
    before = snapshot(clocked_client, game_id, watchers)
    own_etag = clocked_client.get(f"/api/v1/games/{game_id}",
                                  headers=players[chooser]).headers["ETag"]

    for card in (hand[0], hand[1], None, hand[2]):   # chosen, changed, cleared, chosen again
        action = None if card is None else {"type": "play", "card": card}
        answer = preselect(clocked_client, game_id, players[chooser], action)
        assert answer.status_code == (204 if card is None else 200), answer.get_json()
        assert clocked_client.get(f"/api/v1/games/{game_id}/preselection",
                                  headers=players[chooser]).get_json() == {"action": action}
        assert snapshot(clocked_client, game_id, watchers) == before
    assert clocked_client.get(f"/api/v1/games/{game_id}",
                              headers=players[chooser]).headers["ETag"] == own_etag
    waited = clocked_client.get(f"/api/v1/games/{game_id}?wait=1",
                                headers={**others[0], "If-None-Match": before[0][1]})
    assert waited.status_code == 304

    lead = view_of(clocked_client, game_id, players[leader])["legal_actions"][0]
    act(clocked_client, game_id, players[leader], lead)
    run_worker()
    after = view_of(clocked_client, game_id, players[chooser])
    assert hand[2] not in after["hand"] and len(after["hand"]) == len(hand) - 1
    events = events_of(clocked_client, game_id, others[0])
    [at] = [index for index, event in enumerate(events) if event["type"] == "automatic"]
    assert (events[at]["seat"], events[at]["how"]) == (chooser, "preselected")
    played = events[at + 1]
    assert (played["type"], played["seat"], played["card"]) == ("played", chooser, hand[2])
    assert clocked_client.get(f"/api/v1/games/{game_id}/preselection",
                              headers=players[chooser]).get_json() == {"action": None}


def test_choosing_ahead_is_refused_with_the_reason(clocked_client, player):
    players = [player("Anna", preselect=True), player("Bert", preselect=True),
               player("Carl"), player("Dora", preselect=True)]
    game_id = table(clocked_client, "hattrick", players)
    views = [view_of(clocked_client, game_id, headers) for headers in players]
    leader = views[0]["to_act"][0]
    waiting = next(seat for seat in range(4) if seat not in (leader, 2))
    mine = views[waiting]["hand"]
    not_mine = next(card for card in views[leader]["hand"] if card not in mine)
    outsider = player("Eve", preselect=True)
    for headers, action, status, reason in (
            (players[leader], {"type": "play", "card": views[leader]["hand"][0]}, 409,
             "it is your turn"),
            (players[2], {"type": "play", "card": views[2]["hand"][0]}, 409,
             "turn it on in your settings"),
            (players[waiting], {"type": "play", "card": not_mine}, 422, "not in your hand"),
            (players[waiting], {"type": "pass", "card": mine[0]}, 422, "a 'play' action"),
            (players[waiting], {"type": "play", "card": "purple-99"}, 422, "field 'card'"),
            (players[waiting], {"type": "play", "card": mine[0], "x": 1}, 422, "unexpected"),
            (outsider, {"type": "play", "card": mine[0]}, 403, "no seat"),
    ):
        refused = preselect(clocked_client, game_id, headers, action)
        assert refused.status_code == status and reason in refused.get_json()["message"]
    assert clocked_client.get(f"/api/v1/games/{game_id}/preselection",
                              headers=players[waiting]).get_json() == {"action": None}
    assert clocked_client.put(f"/api/v1/games/{game_id}/preselection",
                              json={"action": {"type": "play", "card": mine[0]}}).status_code == 401


def test_a_card_chosen_ahead_that_is_no_longer_in_hand_is_dropped(clocked_client, player,
                                                                  run_worker):
    anna, bert = player("Anna"), player("Bert", preselect=True)
    game_id = table(clocked_client, "sixnimmt", [anna, bert])
    hand = view_of(clocked_client, game_id, bert)["hand"]
    act(clocked_client, game_id, bert, {"type": "play", "card": hand[0]})
    ahead = {"type": "play", "card": hand[1]}
    assert preselect(clocked_client, game_id, bert, ahead).status_code == 200
    act(clocked_client, game_id, bert, ahead)   # this turn's card changed to the one ahead
    act(clocked_client, game_id, anna, view_of(clocked_client, game_id, anna)["legal_actions"][0])
    for _ in range(2):   # a row to take, perhaps, then the next turn
        run_worker()
        view = view_of(clocked_client, game_id, anna)
        if view["phase"] == "take_row" and 0 in view["to_act"]:
            act(clocked_client, game_id, anna, view["legal_actions"][0])
        elif view["phase"] == "take_row":
            act(clocked_client, game_id, bert,
                view_of(clocked_client, game_id, bert)["legal_actions"][0])
    view = view_of(clocked_client, game_id, bert)
    assert view["phase"] == "choose" and 1 in view["to_act"]
    assert not any(e["type"] == "automatic" for e in events_of(clocked_client, game_id, bert))
    assert clocked_client.get(f"/api/v1/games/{game_id}/preselection",
                              headers=bert).get_json() == {"action": None}
