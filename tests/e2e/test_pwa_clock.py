"""The player's clock on the phone: waking hours and a vacation set in Settings, refused when
too short, kept after a reload; the other players see the seat "on vacation" at the table; a
card chosen ahead waits for the turn."""
from __future__ import annotations

import re

from phone import call, start
from playwright import sync_api


def two_phones_at_a_table(new_page, base):
    """Anna's and Bert's phones, and the 6 nimmt! game for two they sit at."""
    anna, bert = new_page(), new_page()
    start(anna, base, "Anna")
    start(bert, base, "Bert")
    game = call(anna, base, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]})
    call(bert, base, "POST", f"/games/invites/{game['invites'][0]['code']}")
    return anna, bert, game


def test_waking_hours_and_a_vacation_in_settings_show_at_the_table(new_page, live_server):
    expect = sync_api.expect
    anna, bert, game = two_phones_at_a_table(new_page, live_server)

    bert.goto(f"{live_server}/#/settings")
    day = bert.get_by_role("region", name="Your day")
    day.get_by_label("Time zone").select_option("Europe/Helsinki")
    day.get_by_label("Count my time all day").uncheck()
    day.get_by_label("Awake from").fill("08:00")
    day.get_by_label("Until").fill("12:00")
    day.get_by_role("button", name="Set my waking hours").click()
    expect(bert.locator("#messages")).to_contain_text("they must last at least 6")
    day.get_by_label("Until").fill("22:30")
    day.get_by_role("button", name="Set my waking hours").click()
    expect(day.get_by_role("status")).to_have_text(
        "Saved: your time counts from 08:00 to 22:30, Europe/Helsinki.")

    away = bert.get_by_role("region", name="Vacation")
    expect(away).to_contain_text("30 of 30 vacation days left")
    away.get_by_label("Days away (whole days from now)").fill("3")
    away.get_by_role("button", name="Start vacation").click()
    expect(away).to_contain_text(re.compile(r"You are on vacation until .+\. Your deadlines stand still\."))
    expect(away).to_contain_text("27 of 30 vacation days left")

    bert.reload()
    day = bert.get_by_role("region", name="Your day")
    expect(day.get_by_label("Time zone")).to_have_value("Europe/Helsinki")
    expect(day.get_by_label("Awake from")).to_have_value("08:00")
    expect(day.get_by_label("Until")).to_have_value("22:30")
    expect(bert.get_by_role("button", name="End vacation now")).to_be_visible()

    anna.goto(f"{live_server}/#/game/{game['id']}")
    seat = anna.locator(".seat").filter(has_text="Bert")
    expect(seat.locator(".badge.vacation")).to_contain_text(re.compile(r"^on vacation until "))
    expect(anna.locator(".seat.mine .badge.vacation")).to_have_count(0)
    # The time left is said once: in the bar, and in the note of the player's day only when
    # that is another time (a night lies before the deadline).
    bar_time = anna.locator("#table-bar .bar-time")
    expect(bar_time).to_have_text(re.compile(r"^\d+ (h|min) left$"))
    if anna.locator("#day-left").count():
        expect(anna.locator("#day-left")).to_contain_text(re.compile(r"^Your turn: \d+ h of your day left\.$"))
        day = re.search(r"(\d+ h) of your day", anna.locator("#day-left").inner_text()).group(1)
        assert not bar_time.inner_text().startswith(f"{day} ")


def test_a_card_chosen_ahead_is_played_when_the_turn_comes(new_page, live_server):
    expect = sync_api.expect
    anna, bert, game = two_phones_at_a_table(new_page, live_server)
    bert.goto(f"{live_server}/#/settings")
    bert.get_by_label("Let me choose my next card before my turn").check()
    expect(bert.get_by_label("Let me choose my next card before my turn")).to_be_checked()

    # High cards, so that most likely nobody takes a row (if Anna must, she does).
    hand = call(bert, live_server, "GET", f"/games/{game['id']}")["hand"]
    call(bert, live_server, "POST", f"/games/{game['id']}/actions",
         {"action": {"type": "play", "card": hand[-1]}})
    bert.goto(f"{live_server}/#/game/{game['id']}")
    ahead = bert.get_by_role("region", name="Your next card")
    ahead.get_by_label("Card to play next").select_option(str(hand[-2]))
    ahead.get_by_role("button", name="Choose").click()
    expect(ahead.get_by_role("status")).to_have_text(f"Chosen: {hand[-2]}.")

    anna_card = call(anna, live_server, "GET", f"/games/{game['id']}")["legal_actions"][-1]
    view = call(anna, live_server, "POST", f"/games/{game['id']}/actions", {"action": anna_card})
    if view["phase"] == "take_row" and view["to_act"] == [0]:
        call(anna, live_server, "POST", f"/games/{game['id']}/actions",
             {"action": {"type": "take_row", "row": 0}})
    log = bert.locator(".log-lines")
    expect(log).to_contain_text("Your card chosen ahead was played.", timeout=20_000)
    expect(log.locator("li").last).to_have_text("You chose a card")
    assert hand[-2] not in call(bert, live_server, "GET", f"/games/{game['id']}")["hand"]
