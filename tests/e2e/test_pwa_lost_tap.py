"""A tap that straddles a poll's answer still lands: the finger goes down on a card, another
player's move arrives and the table is drawn again, the finger comes up, and the card is played.
The table is morphed in place, so the button under the finger is the same element throughout."""
from __future__ import annotations

import re

from phone import call, outside, start
from playwright import sync_api

PLAY = re.compile(r"^Play \d+, \d bullheads?$")


def test_a_tap_during_a_poll_answer_plays_the_card(page, live_server):
    expect = sync_api.expect
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "options": {"threshold": 200}})
    bo = outside(live_server, "POST", "/players", body={"name": "Bo"})
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bo["token"], {})
    sent = []
    page.on("request", lambda request: sent.append(request.post_data_json)
            if request.method == "POST" and request.url.endswith(f"/games/{game['id']}/actions") else None)

    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.locator("#status-line")).to_have_text("Your turn: choose a card")
    card = page.get_by_role("button", name=PLAY).first
    number = int(re.search(r"\d+", card.get_attribute("aria-label")).group())
    # Marks: one on the button under the finger, one in the table that any redraw removes.
    card.evaluate("(button) => { button.underTheFinger = true; }")
    page.locator(".game-area").evaluate(
        "(area) => area.append(Object.assign(document.createElement('i'), { id: 'before-the-answer' }))")

    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Bo chooses meanwhile: Anna's long-poll answers and her table is drawn again under the finger.
    view = outside(live_server, "GET", f"/games/{game['id']}", bo["token"])
    outside(live_server, "POST", f"/games/{game['id']}/actions", bo["token"], {"action": view["legal_actions"][0]})
    expect(page.locator(".seats")).to_contain_text("has chosen")
    expect(page.locator("#before-the-answer")).to_have_count(0)
    assert card.evaluate("(button) => button.underTheFinger === true"), "the button was replaced"
    page.mouse.up()

    # The tap landed: the card was sent once and left Anna's hand.
    for _ in range(100):
        if sent:
            break
        page.wait_for_timeout(100)
    assert [body["action"] for body in sent] == [{"type": "play", "card": number}]
    for _ in range(100):
        view = call(page, live_server, "GET", f"/games/{game['id']}")
        if number not in view["hand"]:
            break
        page.wait_for_timeout(100)
    assert number not in view["hand"] and view["table"]["hand_sizes"][view["your_seat"]] == 9
