"""Offline on the phone: the last inbox and each game's last view are kept and shown marked as
not current; a card tapped offline is held and sent, with the version it was made on, when the
network returns; a game that moved on meanwhile (409) is told to the player."""
from __future__ import annotations

import re

from phone import call, outside, play_by_api, start, wait_for_control
from playwright import sync_api

PLAY = re.compile(r"^Play \d+(, | instead, )\d bullheads?$")


def test_kept_inbox_and_view_and_held_moves(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "options": {"threshold": 200}})
    bo = outside(live_server, "POST", "/players", body={"name": "Bo"})
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bo["token"], {})

    # Seen once online: the inbox, then the game.
    page.goto(f"{live_server}/#/")
    expect(page.locator(".game-list").first.get_by_role("link")).to_have_text(re.compile(r"^6 nimmt! · your turn"))
    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.locator("#status-line")).to_have_text("Your turn: choose a card")
    wait_for_control(page)

    # Offline, reopened: the game as it was, marked as not current, and the inbox too.
    page.context.set_offline(True)
    page.reload()
    expect(page.locator(".stale-note")).to_contain_text("Offline: shown as it was at")
    expect(page.get_by_role("button", name=PLAY)).to_have_count(10)
    page.get_by_role("link", name="Pöytä").click()
    expect(page.locator(".stale-note")).to_be_visible()
    expect(page.locator(".game-list").first.get_by_role("link")).to_have_text(re.compile(r"^6 nimmt! · your turn"))
    page.go_back()

    # A card tapped offline is held, then sent once the network is back.
    card = page.get_by_role("button", name=PLAY).first
    number = int(re.search(r"\d+", card.get_attribute("aria-label")).group())
    card.click()
    held = page.get_by_role("status").filter(has_text="is held and will be sent")
    expect(held).to_contain_text(f"Play {number}, ")
    page.context.set_offline(False)
    expect(page.get_by_text(f"You chose {number}.")).to_be_visible()
    expect(held).to_have_count(0)
    expect(page.locator(".stale-note")).to_have_count(0)
    assert call(page, live_server, "GET", f"/games/{game['id']}")["table"]["my_choice"] == number

    # Offline again, Anna changes her card; meanwhile Bo plays and the turn is over, so the held
    # change was made on a game that has moved on: it is not sent, and she is told.
    page.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    other = page.get_by_role("button", name=re.compile(r"^Play \d+ instead")).first
    other.click()
    expect(held).to_be_visible()
    view = outside(live_server, "GET", f"/games/{game['id']}", bo["token"])
    outside(live_server, "POST", f"/games/{game['id']}/actions", bo["token"], {"action": view["legal_actions"][0]})
    page.context.set_offline(False)
    expect(page.get_by_role("status").filter(has_text="The game moved on while you were offline")).to_be_visible()
    events = call(page, live_server, "GET", f"/games/{game['id']}/events?after=0")["events"]
    revealed = next(event for event in events if event["type"] == "revealed")
    assert {"seat": 0, "card": number} in revealed["cards"]  # her first card, not the held change




def test_a_finnish_phone_offline_tells_the_time_and_holds_the_card_by_its_name(new_page, live_server):
    """Sixty-six offline in Finnish: the kept view says the clock time ("klo 22.03", not a
    weekday that reads as a date), and the held card is named as it is spoken, without the
    letters of its face."""
    expect = sync_api.expect
    page = new_page(locale="fi-FI")
    start(page, live_server, "Anni")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixtysix", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"preset": "classic"}})
    play_by_api(page, live_server, game["id"], lambda view: view["your_seat"] in view["to_act"])
    page.goto(f"{live_server}/#/game/{game['id']}")
    card = page.locator('[data-part="hand"] button:enabled').first
    expect(card).to_be_visible()
    wait_for_control(page)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator(".stale-note")).to_have_text(
        re.compile(r"^Ei yhteyttä: näytetään tilanne klo \d{2}\.\d{2}; se on voinut muuttua\.$"))
    name = card.locator(".visually-hidden").inner_text()
    assert re.fullmatch(r"Pelaa [a-zäö]+( ja näytä mariaasi \(\+\d+\))?", name), name
    card.click()
    held = page.get_by_role("status").filter(has_text="odottaa ja lähetetään")
    expect(held).to_contain_text(f"siirtosi ”{name}” odottaa")
    page.context.set_offline(False)
    expect(held).to_have_count(0)
