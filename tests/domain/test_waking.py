"""Waking windows against the wall clock: the time counted inside a player's windows equals
their pace for random zones, windows and start instants, across daylight-saving changes.

The oracle reads each minute's local time with `zoneinfo` and asks whether it lies in the
window, independently of the offset arithmetic under test. Start instants and windows are
whole minutes and modern zones change their clocks on whole minutes, so counting minutes (and
the part of the deadline's own minute) is exact. A whole window counts as a day, so the waking
time a pace takes is the pace times the window's share of a day.
"""
import math
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings, strategies as st

from api.tables.waking import Waking, zone_names

# Zones with daylight saving on both hemispheres, half-hour offsets and odd rules, beside any.
CHANGING = ["Europe/Helsinki", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham",
            "America/Santiago", "Australia/Adelaide", "Asia/Tehran", "Europe/London",
            "America/St_Johns", "Africa/Casablanca", "Pacific/Auckland", "America/Havana"]
ZONES = st.one_of(st.sampled_from(CHANGING), st.sampled_from(sorted(zone_names())))
ANY_MINUTE = st.integers(946684800 // 60, 2051222400 // 60).map(lambda minute: minute * 60.0)


def changes(zone: ZoneInfo, year: int) -> list[float]:
    """The instants (to the minute) the zone changed its clocks in a year."""
    def offset(instant):
        return datetime.fromtimestamp(instant, zone).utcoffset()
    days = [datetime(year, 1, 1, tzinfo=timezone.utc).timestamp() + 86400 * day
            for day in range(366)]
    found = []
    for before, after in zip(days, days[1:]):
        if offset(before) != offset(after):
            while after - before > 60:
                middle = before + (after - before) // 120 * 60
                before, after = (middle, after) if offset(middle) == offset(before) else (
                    before, middle)
            found.append(after)
    return found


@st.composite
def zone_and_start(draw, pace: int = 3 * 86400):
    """A zone, and most often a start shortly before one of its changes of clocks: within the
    wall-clock time `pace` takes at least."""
    name = draw(st.one_of(st.sampled_from(CHANGING), ZONES))
    near = changes(ZoneInfo(name), draw(st.integers(2005, 2035)))
    if not near or draw(st.integers(0, 4)) == 0:
        return name, draw(ANY_MINUTE)
    change = draw(st.sampled_from(near))
    return name, change - 60 * draw(st.integers(0, max(pace // 60, 1)))


@st.composite
def timed_turns(draw):
    """(zone, start, window, pace)."""
    pace = draw(PACES)
    return (*draw(zone_and_start(pace)), draw(WINDOWS), pace)


WINDOWS = st.tuples(st.integers(0, 1439), st.integers(360, 1380)).map(
    lambda start_length: (start_length[0], (start_length[0] + start_length[1]) % 1440))
PACES = st.one_of(st.sampled_from([300, 3600, 86400, 3 * 86400]),
                  st.integers(1, 5 * 1440).map(lambda minutes: minutes * 60))


def awake_minute(zone: ZoneInfo, window: tuple[int, int], minute_start: float) -> bool:
    local = datetime.fromtimestamp(minute_start, zone)
    start, end = window
    return (local.hour * 60 + local.minute - start) % 1440 < (end - start) % 1440


def waking_seconds(zone_name, window, start, end) -> float:
    """Seconds from `start` (a whole minute) to `end` whose local time lies in the window."""
    zone = ZoneInfo(zone_name)
    last = math.floor(end / 60) * 60
    whole = sum(awake_minute(zone, window, at) for at in range(int(start), int(last), 60))
    return 60 * whole + (end - last) * awake_minute(zone, window, last)


def share(window) -> float:
    return ((window[1] - window[0]) % 1440) / 1440


@settings(max_examples=150, deadline=None)
@given(timed_turns())
# Three whole windows end exactly at a window's close: rounding once carried it to the next
# morning.
@example(("Africa/Abidjan", 946684800.0, (0, 658), 259200))
def test_the_time_counted_to_a_deadline_is_the_pace_and_it_falls_due_awake(turn):
    zone, start, window, pace = turn
    waking = Waking(zone, window)
    deadline = waking.advance(start, pace)
    assert deadline > start
    assert waking_seconds(zone, window, start, deadline) == pytest.approx(pace * share(window))
    # Due in waking time: the moment before the deadline counted.
    assert awake_minute(ZoneInfo(zone), window, math.floor((deadline - 1e-3) / 60) * 60)
    assert waking.counted(start, deadline) == pytest.approx(pace)


@settings(max_examples=60, deadline=None)
@given(zone_and_start(), WINDOWS, st.integers(1, 2 * 1440).map(lambda minutes: minutes * 60))
def test_counting_back_from_a_deadline_meets_counting_forward(zone_start, window, seconds):
    zone, start = zone_start
    waking = Waking(zone, window)
    end = waking.advance(start, 2 * seconds)
    back = waking.rewind(end, seconds)
    assert waking.counted(back, end) == pytest.approx(seconds)
    assert waking.counted(start, back) == pytest.approx(seconds)
    assert awake_minute(ZoneInfo(zone), window, math.floor(back / 60) * 60)


@given(ANY_MINUTE, PACES)
def test_without_a_window_all_time_counts_and_a_vacation_stops_it(start, pace):
    assert Waking().advance(start, pace) == start + pace
    away = Waking(away_until=start + 86400)
    assert away.advance(start, pace) == start + 86400 + pace
    assert away.counted(start, start + 86400) == 0


def test_a_one_day_pace_is_one_waking_day_and_a_night_shift_crosses_midnight():
    zone = ZoneInfo("Europe/Helsinki")
    day = Waking("Europe/Helsinki", (8 * 60, 22 * 60 + 30))
    ten = datetime(2024, 1, 10, 10, tzinfo=zone).timestamp()
    assert day.advance(ten, 86400) == datetime(2024, 1, 11, 10, tzinfo=zone).timestamp()
    assert day.advance(datetime(2024, 1, 10, 23, tzinfo=zone).timestamp(), 86400) == \
        datetime(2024, 1, 11, 22, 30, tzinfo=zone).timestamp()
    night = Waking("Europe/Helsinki", (22 * 60, 6 * 60))
    noon = datetime(2024, 1, 10, 12, tzinfo=zone).timestamp()
    # 8 waking hours a day: a quarter of a day's pace is 2 of them, from 22:00.
    assert night.advance(noon, 21600) == datetime(2024, 1, 11, 0, tzinfo=zone).timestamp()


def test_the_night_the_clocks_go_forward_has_a_shorter_window():
    # Helsinki, 2024-03-31: at 03:00 the clocks go to 04:00. A 02:00-10:00 window lasts 7 h.
    waking = Waking("Europe/Helsinki", (2 * 60, 10 * 60))
    zone = ZoneInfo("Europe/Helsinki")
    opens = datetime(2024, 3, 31, 2, tzinfo=zone).timestamp()
    closes = datetime(2024, 3, 31, 10, tzinfo=zone).timestamp()
    assert closes - opens == 7 * 3600
    assert waking.counted(opens - 3600, closes + 3600) == pytest.approx(86400 * 7 / 8)
