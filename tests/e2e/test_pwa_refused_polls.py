"""A phone whose long-polls are refused (429: too many held, or the long-poll budget spent)
keeps its table fresh with plain polls, without an error on the screen, and holds requests
again once the server's Retry-After has passed."""
from __future__ import annotations

import json
import re

from phone import call, outside, start
from playwright import sync_api

REFUSAL = json.dumps({"code": 429, "status": "Too Many Requests",
                      "message": "at most 8 waiting requests at once"})


def test_refused_long_polls_fall_back_to_plain_polls(new_page, live_server):
    expect = sync_api.expect
    page = new_page(timeout=15_000)
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]})
    refused, plain = [], []

    def answer(route):
        if "wait=" in route.request.url:
            refused.append(route.request.url)
            route.fulfill(status=429, headers={"Retry-After": "40"}, content_type="application/json",
                          body=REFUSAL)
        else:
            plain.append(route.request.url)
            route.continue_()
    page.route(re.compile(rf"/api/v1/games/{game['id']}(\?.*)?$"), answer)
    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.get_by_role("textbox", name="Invite link for seat 2")).to_be_visible()
    bo = outside(live_server, "POST", "/players", body={"name": "Bo"})["token"]
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bo, {})
    # Bo's arrival reaches Anna by a plain poll (the PWA's hidden-tab period is 45 s).
    expect(page.locator("#status-line")).to_have_text("Your turn: choose a card", timeout=12_000)
    assert refused, "the page held requests before"
    assert len(plain) >= 2
    expect(page.locator("#messages .error")).to_have_count(0)
