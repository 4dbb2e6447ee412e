"""The turn clock with the players' own clocks, the clock under the test's control: vacations
stop a player's deadlines and show at the table, waking hours keep deadlines out of the night,
a deadline already passed is still played, and a game's time never runs backwards."""
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

# On the cluster too: the due set, vacations and deadlines swept.
pytestmark = pytest.mark.cluster

DAY = 86400
HELSINKI = ZoneInfo("Europe/Helsinki")


def instant(text: str | None) -> float | None:
    return None if text is None else datetime.fromisoformat(text).timestamp()


def local(*parts) -> float:
    return datetime(*parts, tzinfo=HELSINKI).timestamp()


@pytest.fixture
def player(clocked_client):
    def register(name):
        token = clocked_client.post("/api/v1/players", json={"name": name}).get_json()["token"]
        return {"Authorization": f"Bearer {token}"}
    return register


def table(client, creator, others, seats=None, **extra):
    """A 6 nimmt! game of `creator` and the `others` (and `seats` beyond them): everyone to
    act at once."""
    seats = seats or ["human"] * (1 + len(others))
    game = client.post("/api/v1/games", headers=creator, json={
        "type": "sixnimmt", "players": len(seats), "seats": seats, **extra})
    assert game.status_code == 201, game.get_json()
    game = game.get_json()
    for headers, invite in zip(others, game["invites"]):
        assert client.post(f"/api/v1/games/invites/{invite['code']}",
                           headers=headers).status_code == 200
    return game["id"]


def seen(client, headers, game_id):
    return client.get(f"/api/v1/games/{game_id}", headers=headers).get_json()


def deadline(client, headers, game_id, seat):
    return instant(seen(client, headers, game_id)["seats"][seat]["deadline"])


def timeouts(client, headers, game_id):
    return [seat["timeouts"] for seat in seen(client, headers, game_id)["seats"]]


def test_a_vacation_stops_a_deadline_and_the_table_sees_it(clocked_client, clock, player,
                                                          run_worker):
    anna, bert = player("Anna"), player("Bert")
    game_id = table(clocked_client, anna, [bert])
    started = clock.now()
    assert deadline(clocked_client, anna, game_id, 1) == pytest.approx(started + DAY, abs=1)
    clock.advance(6 * 3600)
    away = clocked_client.post("/api/v1/players/me/vacation", json={"days": 3}, headers=bert)
    until = instant(away.get_json()["vacation"]["until"])
    for viewer in (anna, bert):
        seats = seen(clocked_client, viewer, game_id)["seats"]
        assert instant(seats[1]["vacation_until"]) == until and seats[0]["vacation_until"] is None
        # 18 hours were left: they count from the vacation's end.
        assert instant(seats[1]["deadline"]) == pytest.approx(until + 18 * 3600, abs=1)
        assert instant(seats[0]["deadline"]) == pytest.approx(started + DAY, abs=1)

    clock.set(started + DAY + 60)   # Anna's time is up, Bert's stands still
    run_worker()
    assert timeouts(clocked_client, anna, game_id) == [1, 0]
    clock.advance(DAY)
    home = clocked_client.delete("/api/v1/players/me/vacation", headers=bert)
    assert home.status_code == 200
    seats = seen(clocked_client, anna, game_id)["seats"]
    assert seats[1]["vacation_until"] is None
    assert instant(seats[1]["deadline"]) == pytest.approx(clock.now() + 18 * 3600, abs=1)


def test_a_game_without_vacations_keeps_the_clock_running(clocked_client, clock, player,
                                                         run_worker):
    anna, bert = player("Anna"), player("Bert")
    game_id = table(clocked_client, anna, [bert], vacation=False)
    due = deadline(clocked_client, anna, game_id, 1)
    clocked_client.post("/api/v1/players/me/vacation", json={"days": 3}, headers=bert)
    seats = seen(clocked_client, anna, game_id)["seats"]
    assert seats[1]["vacation_until"] is None and instant(seats[1]["deadline"]) == due
    clock.set(due + 1)
    run_worker()
    assert timeouts(clocked_client, anna, game_id) == [1, 1]


def test_a_game_whose_every_human_is_on_vacation_waits(clocked_client, clock, player,
                                                       run_worker):
    anna, bert = player("Anna"), player("Bert")
    game_id = table(clocked_client, anna, [bert], seats=["human", "human", {"bot": "easy"}])
    run_worker()  # the bot's card
    for headers in (anna, bert):
        assert clocked_client.post("/api/v1/players/me/vacation", json={"days": 2},
                                   headers=headers).status_code == 200
    version = seen(clocked_client, anna, game_id)["version"]
    for _ in range(2):
        clock.advance(23 * 3600)
        run_worker()
        assert seen(clocked_client, anna, game_id)["version"] == version
    clock.advance(2 * DAY)  # the vacations ended after two days, then a day's pace ran out
    run_worker()
    assert timeouts(clocked_client, anna, game_id)[:2] == [1, 1]


def test_a_deadline_already_passed_is_played_whatever_vacation_comes_after(clocked_client, clock,
                                                                          player, run_worker):
    anna, bert = player("Anna"), player("Bert")
    game_id = table(clocked_client, anna, [bert])
    due = deadline(clocked_client, anna, game_id, 1)
    clock.set(due + 30)   # passed, and no sweep yet
    clocked_client.post("/api/v1/players/me/vacation", json={"days": 5}, headers=bert)
    assert deadline(clocked_client, anna, game_id, 1) == due
    run_worker()
    assert timeouts(clocked_client, anna, game_id)[1] == 1


def test_waking_hours_keep_deadlines_out_of_the_night_across_a_change_of_clocks(
        clocked_client, clock, player, run_worker):
    # Saturday 30 March 2030, 20:00 in Helsinki; the clocks go forward at 03:00 that night.
    clock.set(local(2030, 3, 30, 20))
    anna, bert = player("Anna"), player("Bert")
    assert clocked_client.patch("/api/v1/players/me/clock", headers=bert, json={
        "time_zone": "Europe/Helsinki", "waking": {"from": "08:00", "to": "22:00"}}
    ).status_code == 200
    game_id = table(clocked_client, anna, [bert])
    # A one-day pace is one waking day: 2 hours on Saturday, 12 on Sunday.
    due = local(2030, 3, 31, 20)
    assert deadline(clocked_client, anna, game_id, 1) == due
    assert deadline(clocked_client, anna, game_id, 0) == clock.now() + DAY
    assert seen(clocked_client, bert, game_id)["your_waking"] == [
        {"from": "2030-03-30T18:00:00+00:00", "to": "2030-03-30T20:00:00+00:00"},
        {"from": "2030-03-31T05:00:00+00:00", "to": "2030-03-31T17:00:00+00:00"}]
    assert seen(clocked_client, anna, game_id)["your_waking"] == [
        {"from": "2030-03-30T18:00:00+00:00", "to": "2030-03-31T18:00:00+00:00"}]

    clock.set(local(2030, 3, 31, 3, 30))   # the night: nothing falls due
    run_worker()
    assert timeouts(clocked_client, anna, game_id) == [0, 0]
    # At 09:00, 11 waking hours are left; with no window from now on they are 11/14 of a day.
    clock.set(local(2030, 3, 31, 9))
    clocked_client.patch("/api/v1/players/me/clock", headers=bert, json={"waking": None})
    assert deadline(clocked_client, anna, game_id, 1) == pytest.approx(
        clock.now() + DAY * 11 / 14, abs=1)


def test_a_games_time_never_runs_backwards(clocked_client, clock, player):
    anna, bert = player("Anna"), player("Bert")
    game_id = table(clocked_client, anna, [bert], seats=["human", "human", {"bot": "easy"}])
    clock.advance(3600)
    card = seen(clocked_client, anna, game_id)["legal_actions"][0]
    clocked_client.post(f"/api/v1/games/{game_id}/actions", json={"action": card}, headers=anna)
    moved = clock.now()
    inbox = clocked_client.get("/api/v1/players/me/games", headers=bert).get_json()
    assert instant(inbox[0]["updated"]) == pytest.approx(moved, abs=1)
    clock.set(moved - DAY)   # this host's clock jumps a day back
    card = seen(clocked_client, bert, game_id)["legal_actions"][0]
    clocked_client.post(f"/api/v1/games/{game_id}/actions", json={"action": card}, headers=bert)
    inbox = clocked_client.get("/api/v1/players/me/games", headers=bert).get_json()
    assert instant(inbox[0]["updated"]) == pytest.approx(moved, abs=1)
