"""A player's clock over HTTP: time zone and waking hours, automatic moves, the digest hour,
and vacations taken from a yearly allowance, all with the clock under the test's control."""
from datetime import datetime, timezone

import pytest

DAY = 86400


def iso(instant: float) -> str:
    return datetime.fromtimestamp(instant, timezone.utc).isoformat(timespec="seconds")


@pytest.fixture
def anna(clocked_client):
    body = clocked_client.post("/api/v1/players", json={"name": "Anna"}).get_json()
    return {"Authorization": f"Bearer {body['token']}"}


def clock_of(client, headers):
    answer = client.get("/api/v1/players/me/clock", headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_a_new_player_counts_all_day_with_a_full_allowance(clocked_client, clock, anna):
    joined = clock.now()
    assert clock_of(clocked_client, anna) == {
        "time_zone": None, "waking": None, "forced_moves": False, "preselect": False,
        "digest_hour": None,
        "vacation": {"until": None, "days_left": 30, "days_a_year": 30,
                     "refills": datetime.fromtimestamp(joined, timezone.utc).replace(
                         year=datetime.fromtimestamp(joined, timezone.utc).year + 1)
                     .isoformat(timespec="seconds")}}
    assert clocked_client.get("/api/v1/players/me/clock").status_code == 401


@pytest.mark.parametrize("change, reason", [
    ({"time_zone": "Mars/Olympus_Mons"}, "unknown time zone 'Mars/Olympus_Mons'"),
    ({"time_zone": "../../etc/passwd"}, "unknown time zone"),
    ({"waking": {"from": "08:00", "to": "13:59"}}, "last 5.98333 hours; they must last at least 6"),
    ({"waking": {"from": "23:00", "to": "04:00"}}, "last 5 hours"),
    ({"waking": {"from": "08:00", "to": "08:00"}}, "last 0 hours"),
    ({"waking": {"from": "8:00", "to": "22:00"}}, "waking.from: a time of day as HH:MM"),
    ({"waking": {"from": "08:00"}}, "waking.to"),
    ({"digest_hour": 24}, "digest_hour"),
    ({"forced_moves": "yes"}, "forced_moves"),
])
def test_bad_settings_are_422_with_the_reason_and_change_nothing(clocked_client, anna, change,
                                                                 reason):
    before = clock_of(clocked_client, anna)
    answer = clocked_client.patch("/api/v1/players/me/clock", json=change, headers=anna)
    assert answer.status_code == 422 and reason in answer.get_json()["message"]
    assert clock_of(clocked_client, anna) == before


def test_settings_are_kept_and_a_window_may_cross_midnight(clocked_client, anna):
    changed = clocked_client.patch("/api/v1/players/me/clock", headers=anna, json={
        "time_zone": "Europe/Helsinki", "waking": {"from": "22:00", "to": "06:00"},
        "forced_moves": True, "preselect": True, "digest_hour": 8}).get_json()
    assert changed == {**clock_of(clocked_client, anna), "time_zone": "Europe/Helsinki",
                       "waking": {"from": "22:00", "to": "06:00"}, "forced_moves": True,
                       "preselect": True, "digest_hour": 8}
    cleared = clocked_client.patch("/api/v1/players/me/clock", headers=anna,
                                   json={"waking": None, "digest_hour": None}).get_json()
    assert cleared["waking"] is None and cleared["digest_hour"] is None
    assert cleared["time_zone"] == "Europe/Helsinki" and cleared["forced_moves"] is True


def vacation(client, headers, days=None):
    if days is None:
        return client.delete("/api/v1/players/me/vacation", headers=headers)
    return client.post("/api/v1/players/me/vacation", json={"days": days}, headers=headers)


def test_a_vacation_takes_whole_days_and_ending_it_early_gives_back_the_rest(clocked_client,
                                                                             clock, anna):
    for days, reason in ((0, "1 to 14 whole days, not 0"), (15, "not 15"), ("3", "days")):
        refused = vacation(clocked_client, anna, days)
        assert refused.status_code == 422 and reason in refused.get_json()["message"]
    started = clock.now()
    away = vacation(clocked_client, anna, 3)
    assert away.status_code == 200, away.get_json()
    assert away.get_json()["vacation"]["until"] == iso(started + 3 * DAY)
    assert away.get_json()["vacation"]["days_left"] == 27
    again = vacation(clocked_client, anna, 2)
    assert again.status_code == 422
    assert f"on vacation until {iso(started + 3 * DAY)}" in again.get_json()["message"]

    clock.advance(1.5 * DAY)  # the second day has begun: two days are used
    back = vacation(clocked_client, anna)
    assert back.status_code == 200
    assert back.get_json()["vacation"] == {**away.get_json()["vacation"], "until": None,
                                           "days_left": 28}
    not_away = vacation(clocked_client, anna)
    assert not_away.status_code == 422 and "not on vacation" in not_away.get_json()["message"]


def test_the_allowance_ends_and_refills_on_the_anniversary_of_joining(clocked_client, clock,
                                                                       anna):
    joined = clock.now()
    for _ in range(2):
        assert vacation(clocked_client, anna, 14).status_code == 200
        clock.advance(14 * DAY)   # over by itself
    assert clock_of(clocked_client, anna)["vacation"]["days_left"] == 2
    too_long = vacation(clocked_client, anna, 3)
    refills = clock_of(clocked_client, anna)["vacation"]["refills"]
    assert refills == iso(datetime.fromtimestamp(joined, timezone.utc).replace(
        year=datetime.fromtimestamp(joined, timezone.utc).year + 1).timestamp())
    assert too_long.status_code == 422
    assert too_long.get_json()["message"] == (
        f"3 days is more than the 2 vacation days you have left until {refills[:10]}")
    clock.set(datetime.fromisoformat(refills).timestamp() + 1)
    assert clock_of(clocked_client, anna)["vacation"]["days_left"] == 30
    assert vacation(clocked_client, anna, 14).status_code == 200
