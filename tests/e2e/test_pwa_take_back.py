"""A slip of the thumb never reaches the table: a new player confirms each card played to a
trick (Cancel takes it back; one tap plays it and stops asking), while a secret choice of
6 nimmt! needs no confirming, for it can be changed until every player has chosen."""
from __future__ import annotations

import re

from phone import api_view, call, outside, snap, start
from playwright import sync_api

NARROW = {"width": 360, "height": 740}


def test_a_new_player_takes_back_a_slipped_card_in_a_trick_game(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW, confirming=True)
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "sixtysix", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"preset": "seed"}})
    page.goto(f"{live_server}/#/game/{game['id']}")
    playable = page.locator(".sixtysix").get_by_role("button", name=re.compile(r"^Play "), disabled=False)
    expect(playable.first).to_be_visible()
    before = api_view(page, live_server, game["id"])
    hand = before["hand"]
    playable.first.click()
    confirm = page.get_by_role("group", name="Confirm your move")
    expect(confirm).to_contain_text(re.compile(r"^Play \w+ of \w+"))
    snap(page, "take-back-asked")
    page.wait_for_timeout(500)
    assert api_view(page, live_server, game["id"])["hand"] == hand  # nothing sent yet
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    assert api_view(page, live_server, game["id"])["hand"] == hand

    # One tap plays it and turns the question off (Settings can turn it on again).
    playable.first.click()
    confirm.get_by_role("button", name="Play it, and stop asking").click()
    expect(confirm).to_be_hidden()
    expect(playable.first).to_be_visible()
    assert api_view(page, live_server, game["id"])["version"] > before["version"]  # played
    playable.first.click()
    expect(confirm).to_be_hidden()
    page.goto(f"{live_server}/#/settings")
    expect(page.get_by_label(re.compile("^Confirm before playing"))).not_to_be_checked()


def test_a_secret_choice_is_changed_rather_than_confirmed(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW, confirming=True)
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "pace": "1d"})
    bert = outside(live_server, "POST", "/players", body={"name": "Bert"})
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bert["token"])
    page.goto(f"{live_server}/#/game/{game['id']}")
    cards = page.locator('[data-part="hand"] button:enabled')
    expect(cards.first).to_be_visible()
    cards.nth(0).click()
    expect(page.get_by_role("group", name="Confirm your move")).to_be_hidden()
    first = api_view(page, live_server, game["id"])["table"]["my_choice"]
    assert first is not None
    expect(page.get_by_text(re.compile(r"You chose \d+\. Until everyone has chosen"))).to_be_visible()
    page.get_by_role("button", name=re.compile(rf"^Play (?!{first} )\d+ instead")).first.click()
    expect(page.get_by_text(re.compile(rf"You chose (?!{first}\.)\d+\."))).to_be_visible()
    assert api_view(page, live_server, game["id"])["table"]["my_choice"] != first
