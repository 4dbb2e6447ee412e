"""Around the table on the phone: quick reactions and short messages (shown as text, muteable),
and resigning: a bot takes the seat, and the game and its result say who resigned."""
from __future__ import annotations

import re

from phone import call, outside, start
from playwright import sync_api


def test_reactions_chat_mute_and_resign(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", {"bot": "easy"}],
        "options": {"threshold": 1}})
    bo = outside(live_server, "POST", "/players", body={"name": "Bo"})["token"]
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bo, {})
    outside(live_server, "POST", f"/games/{game['id']}/chat", bo, {"text": '<img src=x onerror="alert(1)"> Hi!'})
    page.goto(f"{live_server}/#/game/{game['id']}")

    # Bo's message, as text; a quick reaction from Anna goes to the table.
    talk = page.get_by_role("region", name="Messages at the table")
    expect(talk).to_contain_text('Bo: <img src=x onerror="alert(1)"> Hi!')
    assert talk.locator("img").count() == 0
    page.get_by_role("group", name="Quick reactions").get_by_role("button", name="Good game!").click()
    expect(talk).to_contain_text("You: Good game!")
    heard = outside(live_server, "GET", f"/games/{game['id']}/chat?after=0", bo)["messages"]
    assert [(m["name"], m["text"]) for m in heard][-1] == ("Anna", "Good game!")
    page.get_by_label("Message to the table").fill("x" * 250)
    assert len(page.get_by_label("Message to the table").input_value()) == 200

    # Muted: the others' messages are hidden in this game, even after a reload.
    page.get_by_label("Mute the others' messages in this game").check()
    expect(talk.get_by_text("Hi!")).to_be_hidden()
    page.reload()
    expect(talk).to_contain_text("You: Good game!")
    expect(talk.get_by_text("Hi!")).to_be_hidden()

    # Resigning cannot be undone: it is asked first; then a bot plays Anna's seat.
    page.get_by_role("button", name="Resign").click()
    ask = page.get_by_role("dialog", name=re.compile(r"^Resign this game\?"))
    ask.get_by_role("button", name="Cancel").click()
    expect(ask).to_have_count(0)
    assert call(page, live_server, "GET", f"/games/{game['id']}")["seats"][0]["resigned"] is False
    page.get_by_role("button", name="Resign").click()
    ask.get_by_role("button", name="Resign").click()
    expect(page.get_by_text("You resigned: a bot plays your seat to the end.")).to_be_visible()
    expect(page.locator(".seat.mine")).to_contain_text("resigned")
    expect(page.locator(".log-lines")).to_contain_text("You resigned: a bot plays your seat")
    expect(page.get_by_role("button", name="Resign")).to_have_count(0)

    # The bot takes the seat: its next move shows in the log as played for Anna.
    expect(page.locator(".log-lines")).to_contain_text("The stand-in bot played for you.")
