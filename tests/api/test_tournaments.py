"""Tournaments through the API, to the end: a Swiss of 6 nimmt! at 4-player tables, a round robin
of Sixty-six, a round of duplicate deals; players scripted, some timing out; standings and
matchpoints recomputed here from the games' records."""
import itertools
import random
from datetime import datetime, timezone

import pytest

HOUR = 3600


def register(client, name):
    """Each from an address of its own: registrations are counted per address."""
    address = {"REMOTE_ADDR": f"192.0.2.{sum(map(ord, name)) % 250 + 1}"}
    body = client.post("/api/v1/players", json={"name": name}, environ_base=address).get_json()
    return body["id"], {"Authorization": f"Bearer {body['token']}"}


def field(client, count, prefix):
    players = dict(register(client, f"{prefix} {index}") for index in range(count))
    return players


def create(client, headers, **body):
    response = client.post("/api/v1/tournaments", json=body, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def tournament(client, tournament_id, headers=None):
    response = client.get(f"/api/v1/tournaments/{tournament_id}", headers=headers or {})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def play_out(client, clock, run_worker, tournament_id, players, absent, rng, most=400):
    """Every present player plays a legal action whenever it is their turn; when nobody present
    can act, the clock moves on past the pace, and the absent players' turns time out."""
    for _ in range(most):
        run_worker()
        state = tournament(client, tournament_id)
        if state["status"] in ("finished", "cancelled"):
            return state
        moved = False
        current = state["rounds"][-1]
        for table in current["tables"]:
            for player in table["players"]:
                if player in absent:
                    continue
                view = client.get(f"/api/v1/games/{table['game_id']}",
                                  headers=players[player]).get_json()
                if view["status"] == "active" and view["your_seat"] in view["to_act"] \
                        and view["legal_actions"]:
                    answer = client.post(f"/api/v1/games/{table['game_id']}/actions",
                                         json={"action": rng.choice(view["legal_actions"])},
                                         headers=players[player])
                    assert answer.status_code in (200, 409, 422), answer.get_json()
                    moved = True
        if not moved:
            clock.advance(2 * HOUR)
    raise AssertionError("the tournament did not finish")


def records_of(client, state, players):
    """Each round's tables as their records tell them: seat by seat, the player and score."""
    names = {}
    for player, headers in players.items():
        names[client.get("/api/v1/players/me", headers=headers).get_json()["name"]] = player
    rounds = []
    for played in state["rounds"]:
        tables = []
        for table in played["tables"]:
            reader = players[table["players"][0]]
            record = client.get(f"/api/v1/games/{table['game_id']}/record",
                                headers=reader).get_json()
            tables.append({"record": record,
                           "seats": [None if seat["bot"] else names[seat["name"]]
                                     for seat in record["seats"]]})
        rounds.append(tables)
    return rounds


def placement_points(scores, lower_wins):
    """n - place at a table of n, ties sharing the points of the places they cover."""
    size = len(scores)
    better = [sum((other < score) if lower_wins else (other > score) for other in scores)
              for score in scores]
    points = []
    for seat in range(size):
        tied = sum(1 for other in range(size) if better[other] == better[seat])
        points.append(sum(size - 1 - place for place in range(better[seat], better[seat] + tied))
                      / tied)
    return points


def recomputed(rounds, lower_wins):
    points, met = {}, {}
    for tables in rounds:
        for table in tables:
            scores = table["record"]["outcome"]["scores"]
            for seat, earned in enumerate(placement_points(scores, lower_wins)):
                player = table["seats"][seat]
                if player is not None:
                    points[player] = points.get(player, 0) + earned
            humans = [player for player in table["seats"] if player is not None]
            for a, b in itertools.permutations(humans, 2):
                met.setdefault(a, []).append(b)
    return points, met


def check_standings(state, rounds, lower_wins):
    points, met = recomputed(rounds, lower_wins)
    standings = {line["player_id"]: line for line in state["standings"]}
    for player, line in standings.items():
        assert line["points"] == pytest.approx(points.get(player, 0))
        assert line["opponents_points"] == pytest.approx(
            sum(points.get(other, 0) for other in met.get(player, [])))
    order = [line["player_id"] for line in state["standings"]]
    keys = [(-points.get(player, 0), -standings[player]["opponents_points"],
             -standings[player]["rating"], player) for player in order]
    assert keys == sorted(keys)


def test_a_12_player_swiss_of_sixnimmt_plays_four_rounds_to_the_end(clocked_client, clock,
                                                                     run_worker):
    client = clocked_client
    players = field(client, 12, "Swiss")
    ids = list(players)
    absent = set(ids[:2])   # they never play: timed out a whole round, then withdrawn
    host = players[ids[0]]
    made = create(client, host, name="Swiss", type="sixnimmt", table_size=4, rounds=4, cap=12,
                  options={"threshold": 1}, pace="1h", round_hours=24)
    assert made["status"] == "open" and made["rounds"] == []
    for player in ids:
        joined = client.post(f"/api/v1/tournaments/{made['id']}/entrants", json={},
                             headers=players[player])
        assert joined.status_code == 200, joined.get_json()
    late, late_headers = register(client, "Late")
    refused = client.post(f"/api/v1/tournaments/{made['id']}/entrants", json={},
                          headers=late_headers)
    assert refused.status_code == 409
    state = play_out(client, clock, run_worker, made["id"], players, absent, random.Random(1))

    assert state["status"] == "finished" and len(state["rounds"]) == 4
    first = state["rounds"][0]
    assert len(first["tables"]) == 3 and all(len(t["players"]) == 4 for t in first["tables"])
    for played in state["rounds"][1:]:
        seated = [player for table in played["tables"] for player in table["players"]]
        assert sorted(seated) == sorted(set(ids) - absent)   # the absent were withdrawn
        assert sum(table["bots"] for table in played["tables"]) == 2
    assert {line["player_id"] for line in state["standings"] if line["withdrawn"]} == absent
    check_standings(state, records_of(client, state, players), lower_wins=True)
    mine = client.get("/api/v1/tournaments?list=mine", headers=players[ids[3]]).get_json()
    assert [entry["id"] for entry in mine] == [made["id"]]
    finished = client.get("/api/v1/tournaments?list=finished").get_json()
    assert made["id"] in [entry["id"] for entry in finished]


def test_a_5_player_round_robin_of_sixtysix_meets_every_pair(clocked_client, clock, run_worker):
    client = clocked_client
    players = field(client, 5, "Robin")
    ids = list(players)
    made = create(client, players[ids[0]], name="Robin", type="sixtysix", table_size=2,
                  format="round_robin", cap=5, options={"match_points": 1}, pace="1h",
                  round_hours=24, bot_level="easy")
    for player in ids:
        assert client.post(f"/api/v1/tournaments/{made['id']}/entrants", json={},
                           headers=players[player]).status_code == 200
    absent = {ids[4]}
    state = play_out(client, clock, run_worker, made["id"], players, absent, random.Random(2))
    assert state["status"] == "finished"
    assert state["round_count"] == 5
    pairs = [frozenset(table["players"]) for played in state["rounds"]
             for table in played["tables"] if len(table["players"]) == 2]
    present = [player for player in ids if player not in absent]
    assert {frozenset(pair) for pair in itertools.combinations(present, 2)} <= set(pairs)
    assert len(pairs) == len(set(pairs))   # no pair meets twice
    check_standings(state, records_of(client, state, players), lower_wins=False)


def test_a_duplicate_round_deals_every_table_the_same_cards(clocked_client, clock, run_worker):
    client = clocked_client
    players = field(client, 8, "Dup")
    ids = list(players)
    made = create(client, players[ids[0]], name="Dup", type="sixnimmt", table_size=4, rounds=1,
                  cap=8, options={"threshold": 50}, pace="1h", duplicate=True,
                  rank_by="matchpoints")
    for player in ids:
        client.post(f"/api/v1/tournaments/{made['id']}/entrants", json={},
                    headers=players[player])
    run_worker()
    running = tournament(client, made["id"])
    assert running["rounds"][0]["seed"] is None
    tables = running["rounds"][0]["tables"]
    # the same cards at every table, seat by seat; none shown before the round is over
    hands = []
    for table in tables:
        by_seat = {}
        for player in table["players"]:
            view = client.get(f"/api/v1/games/{table['game_id']}",
                              headers=players[player]).get_json()
            by_seat[view["your_seat"]] = sorted(view["hand"])
        hands.append(by_seat)
    assert hands[0] == hands[1]
    other = tables[1]["game_id"]
    assert client.get(f"/api/v1/games/{other}", headers=players[tables[0]["players"][0]]
                      ).status_code == 403
    # one table finishes first: its record waits for the round's end
    rng = random.Random(3)
    first = tables[0]
    for _ in range(200):
        moved = False
        for player in first["players"]:
            view = client.get(f"/api/v1/games/{first['game_id']}",
                              headers=players[player]).get_json()
            if view["status"] == "active" and view["your_seat"] in view["to_act"]:
                client.post(f"/api/v1/games/{first['game_id']}/actions",
                            json={"action": rng.choice(view["legal_actions"])},
                            headers=players[player])
                moved = True
        run_worker()
        if not moved:
            break
    assert client.get(f"/api/v1/games/{first['game_id']}", headers=players[first["players"][0]]
                      ).get_json()["status"] == "finished"
    waits = client.get(f"/api/v1/games/{first['game_id']}/record",
                       headers=players[first["players"][0]])
    assert waits.status_code == 403
    state = play_out(client, clock, run_worker, made["id"], players, set(), rng)
    assert state["status"] == "finished"
    seed = state["rounds"][0]["seed"]
    assert seed is not None
    rounds = records_of(client, state, players)
    deals = []
    for table in rounds[0]:
        record = table["record"]
        assert record["seed"] == seed and record["tournament"]["round_seed"] == seed
        for mine, theirs in zip(record["deals"], rounds[0][0]["record"]["deals"]):
            assert mine["hands"] == theirs["hands"]   # deal by deal, the same cards
        deals.append([deal["scores"] for deal in record["deals"]])
    standings = {line["player_id"]: line for line in state["standings"]}
    for index, table in enumerate(rounds[0]):
        other = deals[1 - index]
        for seat, player in enumerate(table["seats"]):
            expected = 0.0   # each deal against the same seat's deal at the other table
            for deal, mine in enumerate(deals[index]):
                theirs = other[deal] if deal < len(other) else None
                if mine is not None and theirs is not None:
                    expected += (1.0 if mine[seat] < theirs[seat]
                                 else 0.5 if mine[seat] == theirs[seat] else 0.0)
            assert standings[player]["matchpoints"] == expected
    order = [line["matchpoints"] for line in state["standings"]]
    assert order == sorted(order, reverse=True)


def test_bad_tournaments_are_refused_clearly(client, new_player):
    _, headers = new_player("Host")
    base = {"name": "T", "type": "sixnimmt", "table_size": 4, "rounds": 3}
    cases = [({"cap": 257}, "too_many_entrants"), ({"table_size": 11}, "impossible_table_size"),
             ({"type": "sixtysix", "table_size": 4}, "impossible_table_size"),
             ({"format": "round_robin", "cap": 9}, "too_many_entrants")]
    for change, reason in cases:
        answer = client.post("/api/v1/tournaments", json={**base, **change}, headers=headers)
        assert answer.status_code == 422 and answer.get_json()["reason"] == reason, change
    assert client.post("/api/v1/tournaments", json={**base, "cap": "12"},
                       headers=headers).status_code == 422
    assert client.get("/api/v1/tournaments/nothing").status_code == 404


def enter_all(client, tournament_id, players):
    for headers in players.values():
        answer = client.post(f"/api/v1/tournaments/{tournament_id}/entrants", json={},
                             headers=headers)
        assert answer.status_code == 200, answer.get_json()


def move_once(client, table, players):
    """Each player at the table plays one legal action, if it is theirs to play."""
    for player in table["players"]:
        view = client.get(f"/api/v1/games/{table['game_id']}", headers=players[player]).get_json()
        if view["your_seat"] in view["to_act"]:
            client.post(f"/api/v1/games/{table['game_id']}/actions",
                        json={"action": view["legal_actions"][0]}, headers=players[player])


def test_a_round_ends_at_its_deadline_and_a_player_who_leaves_resigns(clocked_client, clock,
                                                                      run_worker):
    client = clocked_client
    players = field(client, 8, "Slow")
    ids = list(players)
    made = create(client, players[ids[0]], name="Slow", type="sixnimmt", table_size=4,
                  rounds=2, cap=8, options={"threshold": 66}, pace="3d", round_hours=1)
    enter_all(client, made["id"], players)
    run_worker()
    first = tournament(client, made["id"])["rounds"][0]
    for table in first["tables"]:
        move_once(client, table, players)   # everyone plays once, then nobody does
    run_worker()
    leaver = first["tables"][0]["players"][0]
    left = client.delete(f"/api/v1/tournaments/{made['id']}/entrants/me",
                         headers=players[leaver])
    assert left.status_code == 200 and left.get_json()["withdrawn"] is True
    game = client.get(f"/api/v1/games/{first['tables'][0]['game_id']}",
                      headers=players[leaver]).get_json()
    assert game["seats"][game["your_seat"]]["resigned"] is True
    clock.advance(HOUR + 60)   # the round's deadline, though the pace gives three days
    for _ in range(10):
        run_worker()
        state = tournament(client, made["id"])
        if len(state["rounds"]) == 2:
            break
    assert state["rounds"][0]["over"] and len(state["rounds"]) == 2
    for table in first["tables"]:
        finished = client.get(f"/api/v1/games/{table['game_id']}",
                              headers=players[table["players"][1]]).get_json()
        assert finished["status"] == "finished"
    second = [player for table in state["rounds"][1]["tables"] for player in table["players"]]
    assert sorted(second) == sorted(set(ids) - {leaver})
    assert client.post(f"/api/v1/tournaments/{made['id']}/entrants", json={},
                       headers=players[leaver]).status_code == 409


def test_a_tournament_starts_at_its_time_with_whoever_entered(clocked_client, clock,
                                                             run_worker):
    client = clocked_client
    players = field(client, 3, "Early")
    starts = clock.now() + 2 * HOUR
    made = create(client, list(players.values())[0], name="Timed", type="sixnimmt",
                  table_size=4, rounds=1, cap=8, starts_at=_iso(starts))
    enter_all(client, made["id"], players)
    run_worker()
    assert tournament(client, made["id"])["status"] == "open"
    clock.advance(2 * HOUR + 1)
    run_worker()
    run_worker()
    state = tournament(client, made["id"])
    assert state["status"] == "running"
    [table] = state["rounds"][0]["tables"]
    assert sorted(table["players"]) == sorted(players) and table["bots"] == 1


def _iso(instant):
    return datetime.fromtimestamp(instant, timezone.utc).isoformat()


def test_pairing_a_round_survives_a_worker_dying_midway(clocked_client, redis, monkeypatch):
    """A job that dies after making one table's game leaves the pairing stored; run again, it
    makes the missing games under the same ids, and none twice."""
    from api.storage import connections, keys
    from api.tables import Tables
    from api.tables import tournaments as module
    client = clocked_client
    players = field(client, 12, "Crash")
    ids = list(players)
    made = create(client, players[ids[0]], name="Crash", type="sixnimmt", table_size=4,
                  rounds=2, cap=12, options={"threshold": 1})
    enter_all(client, made["id"], players)
    tables = Tables(connections.store_client(connections.settings()), queue_redis=redis)
    real = module.Tournaments._make_game
    made_games = []

    def dies_at_the_second(self, tournament, current, index, table):
        if made_games:
            raise SystemExit("the worker died")
        made_games.append(table["game_id"])
        real(self, tournament, current, index, table)
    monkeypatch.setattr(module.Tournaments, "_make_game", dies_at_the_second)
    with pytest.raises(SystemExit):
        tables.tournaments.move_on(made["id"])
    monkeypatch.setattr(module.Tournaments, "_make_game", real)
    paired = tournament(client, made["id"])["rounds"]
    assert len(paired) == 1
    game_ids = [table["game_id"] for table in paired[0]["tables"]]
    for index in range(len(game_ids)):   # the dead worker's lease lapsed
        tables.storage.redis.delete(keys.tournament_table_lease(made["id"], 1, index))
    assert tables.tournaments.move_on(made["id"]) == "running"
    assert tables.tournaments.move_on(made["id"]) == "running"
    again = tournament(client, made["id"])["rounds"]
    assert [table["game_id"] for table in again[0]["tables"]] == game_ids
    for game_id, table in zip(game_ids, again[0]["tables"]):
        view = client.get(f"/api/v1/games/{game_id}",
                          headers=players[table["players"][0]]).get_json()
        assert view["status"] == "active"
        assert sorted(seat["name"] for seat in view["seats"]) == sorted(
            client.get("/api/v1/players/me", headers=players[player]).get_json()["name"]
            for player in table["players"])


def test_a_private_tournament_is_joined_with_its_invite_and_left_before_the_start(client):
    host_id, host = register(client, "Host")
    _, guest = register(client, "Guest")
    made = create(client, host, name="Club", type="sixnimmt", table_size=4, rounds=2, cap=8,
                  public=False)
    assert made["invite"]
    entrants = f"/api/v1/tournaments/{made['id']}/entrants"
    assert client.post(entrants, json={}, headers=guest).status_code == 403
    assert client.post(entrants, json={"invite": made["invite"]}, headers=guest).status_code == 200
    shown = tournament(client, made["id"], guest)
    assert shown["entered"] and shown["invite"] is None   # only its creator is shown the invite
    assert made["id"] not in [entry["id"] for entry in
                              client.get("/api/v1/tournaments?list=open").get_json()]
    left = client.delete(f"{entrants}/me", headers=guest)
    assert left.status_code == 200 and left.get_json()["entrants"] == 0
    assert client.delete(f"{entrants}/me", headers=guest).status_code == 409


def test_a_finished_tournament_is_kept_in_the_record_and_read_from_it_once_redis_lets_go(
        clocked_client, clock, run_worker, redis, database, monkeypatch):
    import psycopg

    from api.storage import connections, keys
    from api.tables import Tables
    monkeypatch.setenv("POYTA_HOT_DAYS", repr(600 / 86400))   # the jobs keep it ten minutes
    client = clocked_client
    players = field(client, 4, "Kept")
    ids = list(players)
    made = create(client, players[ids[0]], name="Kept", type="sixnimmt", table_size=4,
                  rounds=1, cap=4, options={"threshold": 1}, pace="1h", duplicate=True)
    enter_all(client, made["id"], players)
    finished = play_out(client, clock, run_worker, made["id"], players, set(),
                        random.Random(4))
    assert finished["status"] == "finished"
    store = connections.store_client(connections.settings())
    assert 0 < store.ttl(keys.tournament(made["id"])) <= 600
    assert made["id"] not in [each.decode() for each in store.zrange(keys.TOURNAMENTS_DUE, 0, -1)]
    with psycopg.connect(database) as connection:
        row = connection.execute(
            "SELECT name, entrants, game_ids FROM finished_tournaments WHERE tournament_id = %s",
            (made["id"],)).fetchone()
    game_id = finished["rounds"][0]["tables"][0]["game_id"]
    assert row == ("Kept", ids, [game_id])
    me = players[ids[1]]
    before = tournament(client, made["id"], me)
    record_before = client.get(f"/api/v1/games/{game_id}/record", headers=me).get_json()
    assert record_before["tournament"]["round_seed"] == finished["rounds"][0]["seed"]

    # Run again (a job repeated, a finished game's late job): archived once, nothing changes.
    tables = Tables(store, queue_redis=redis)
    assert tables.tournaments.move_on(made["id"]) == "finished"
    store.delete(keys.tournament(made["id"]), keys.player_tournaments(ids[1]))
    assert tournament(client, made["id"], me) == before
    assert client.get(f"/api/v1/games/{game_id}/record", headers=me).get_json() == record_before
    mine = client.get("/api/v1/tournaments?list=mine", headers=me).get_json()
    assert [line["id"] for line in mine] == [made["id"]] and mine[0]["entered"]
    listed = client.get("/api/v1/tournaments?list=finished").get_json()
    assert [line["id"] for line in listed] == [made["id"]]
    assert tables.tournaments.move_on(made["id"]) == "gone"
    assert client.post(f"/api/v1/tournaments/{made['id']}/entrants", json={},
                       headers=players[ids[0]]).status_code == 409


def next_games(client, headers):
    answer = client.get("/api/v1/players/me/tournaments/next", headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_the_next_tournament_game_heads_the_inbox_or_the_round_waited_for(clocked_client,
                                                                          clock, run_worker):
    client = clocked_client
    players = field(client, 8, "Next")
    ids = list(players)
    assert client.get("/api/v1/players/me/tournaments/next").status_code == 401
    starts = clock.now() + 5 * HOUR
    later = create(client, players[ids[0]], name="Later", type="sixnimmt", table_size=4,
                   rounds=1, cap=8, starts_at=_iso(starts))
    made = create(client, players[ids[0]], name="Next", type="sixnimmt", table_size=4,
                  rounds=2, cap=8, options={"threshold": 1}, pace="1h", round_hours=24)
    assert client.post(f"/api/v1/tournaments/{later['id']}/entrants", json={},
                       headers=players[ids[0]]).status_code == 200
    assert [(line["name"], line["status"], line["starts_at"])
            for line in next_games(client, players[ids[0]])] == [
        ("Later", "starting", datetime.fromtimestamp(int(starts), timezone.utc).isoformat())]
    # a game of their own, their turn in it, made before the tournament's
    own = client.post("/api/v1/games", headers=players[ids[0]], json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]})
    assert own.status_code == 201, own.get_json()
    enter_all(client, made["id"], players)
    run_worker()
    first = tournament(client, made["id"])["rounds"][0]
    table = next(table for table in first["tables"] if ids[0] in table["players"])
    lines = next_games(client, players[ids[0]])
    assert [(line["name"], line["status"]) for line in lines] == [("Next", "playing"),
                                                                  ("Later", "starting")]
    assert lines[0]["game_id"] == table["game_id"] and lines[0]["round"] == 1
    assert lines[0]["round_count"] == 2 and lines[0]["deadline"] == first["deadline"]
    inbox = client.get("/api/v1/players/me/games", headers=players[ids[0]]).get_json()
    assert inbox[0]["id"] == table["game_id"]
    assert inbox[0]["tournament"] == {"id": made["id"], "round": 1}
    assert inbox[1]["id"] == own.get_json()["id"] and inbox[1]["tournament"] is None

    # their table finishes first: they wait for round 2, which starts by the round's deadline
    rng = random.Random(5)
    for _ in range(200):
        for player in table["players"]:
            view = client.get(f"/api/v1/games/{table['game_id']}",
                              headers=players[player]).get_json()
            if view["status"] == "active" and view["your_seat"] in view["to_act"]:
                client.post(f"/api/v1/games/{table['game_id']}/actions",
                            json={"action": rng.choice(view["legal_actions"])},
                            headers=players[player])
        run_worker()
        if client.get(f"/api/v1/games/{table['game_id']}", headers=players[ids[0]]
                      ).get_json()["status"] == "finished":
            break
    waiting = next_games(client, players[ids[0]])[0]
    assert (waiting["status"], waiting["round"], waiting["game_id"], waiting["starts_at"]) == (
        "waiting", 2, None, first["deadline"])
    inbox = client.get("/api/v1/players/me/games", headers=players[ids[0]]).get_json()
    assert inbox[0]["id"] == own.get_json()["id"]   # a finished tournament game goes down
    other = next(player for player in ids if player not in table["players"])
    assert next_games(client, players[other])[0]["status"] == "playing"
