"""Around the table on the phone: quick reactions and short messages (shown as text, muteable),
resigning: a bot takes the seat, and the game and its result say who resigned; and leaving a game
that has not started."""
from __future__ import annotations

import re

from phone import call, outside, start
from playwright import sync_api

NO_GAMES = "No games yet."


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


def test_leaving_a_game_that_has_not_started(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Bo")
    anna = outside(live_server, "POST", "/players", body={"name": "Anna"})["token"]
    game = outside(live_server, "POST", "/games", anna, {
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", "human"]})
    call(page, live_server, "POST", f"/games/invites/{game['invites'][0]['code']}")
    listed = page.locator(f'a.game-link[href="#/game/{game["id"]}"]')
    page.reload()
    expect(listed).to_have_count(1)
    listed.click()

    # Asked first; cancelled, Bo keeps his seat.
    expect(page.get_by_role("button", name="Resign")).to_have_count(0)
    page.get_by_role("button", name="Leave this game").click()
    ask = page.get_by_role("dialog", name="Leave this game? Your seat opens again for someone else.")
    ask.get_by_role("button", name="Cancel").click()
    expect(ask).to_have_count(0)
    assert outside(live_server, "GET", f"/games/{game['id']}", anna)["seats"][1]["name"] == "Bo"
    # Left: back home, the inbox without it, the seat open to a new invite link.
    page.get_by_role("button", name="Leave this game").click()
    ask.get_by_role("button", name="Leave").click()
    mine = page.get_by_role("region", name="My games")
    expect(mine).to_contain_text(NO_GAMES)
    expect(listed).to_have_count(0)
    view = outside(live_server, "GET", f"/games/{game['id']}", anna)
    assert view["seats"][1]["name"] is None and {i["seat"] for i in view["invites"]} == {1, 2}

    # Alone in a game of his own, leaving deletes it, and says so first.
    own = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]})
    page.goto(f"{live_server}/#/game/{own['id']}")
    page.get_by_role("button", name="Leave this game").click()
    page.get_by_role("dialog", name="Leave this game? Nobody else has joined, so the game is deleted.") \
        .get_by_role("button", name="Leave").click()
    expect(mine).to_contain_text(NO_GAMES)
    token = page.evaluate("JSON.parse(localStorage.getItem('poyta.player')).token")
    gone = page.request.get(f"{live_server}/api/v1/games/{own['id']}", headers={"Authorization": f"Bearer {token}"})
    assert gone.status == 404
