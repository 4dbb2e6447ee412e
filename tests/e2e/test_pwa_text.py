"""Text the server refuses to show others, on the phone: a name that passes for a bot's or shows
nothing, a message with a hidden direction change; said in the phone's language, and nothing
is saved; a line about your own seat agrees with "You"."""
from __future__ import annotations

import json
import re

import pytest
from phone import call, play_by_api, start
from playwright import sync_api


def test_a_finnish_phone_is_told_in_finnish_that_a_bot_like_name_cannot_be_used(new_page,
                                                                               live_server):
    expect = sync_api.expect
    page = new_page(locale="fi-FI")
    page.goto(live_server + "/")
    page.get_by_label(re.compile("^Nimesi")).fill("Botti 2 (hard)")
    page.get_by_role("button", name="Aloita").click()
    expect(page.locator("#messages")).to_contain_text("Tätä nimeä ei voi käyttää")
    assert page.evaluate("localStorage.getItem('poyta.player')") is None
    page.get_by_label(re.compile("^Nimesi")).fill("Anna")
    page.get_by_role("button", name="Aloita").click()
    expect(page.locator("#who")).to_contain_text("Anna")


def test_a_blank_name_and_a_hidden_direction_change_in_table_talk_are_refused(new_page,
                                                                              live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Anna")
    page.goto(f"{live_server}/#/settings")
    page.get_by_label("Your name").fill("\u3164\u3164")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#messages")).to_contain_text("This name cannot be used")
    assert call(page, live_server, "GET", "/players/me")["name"] == "Anna"

    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none"})
    page.goto(f"{live_server}/#/game/{game['id']}")
    page.get_by_label("Message to the table").fill("gg\u202e")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#messages")).to_contain_text("This message cannot be sent")
    assert call(page, live_server, "GET", f"/games/{game['id']}/chat")["messages"] == []
    page.get_by_label("Message to the table").fill("Hyvä peli!")
    page.get_by_role("button", name="Send").click()
    expect(page.locator(".chat-lines")).to_contain_text("Hyvä peli!")


@pytest.mark.parametrize(("locale", "line"), [("en-GB", "You lead."), ("fi-FI", "Aloitat.")])
def test_a_trick_you_lead_says_so_in_the_second_person(new_page, live_server, locale, line):
    """Sticheln, the trick empty and yours to lead: "You lead.", never "You leads." (the
    server's view, with the lead given to this phone's seat)."""
    expect = sync_api.expect
    page = new_page(locale=locale)
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sticheln", "players": 3, "seats": ["human", {"bot": "easy"}, {"bot": "easy"}],
        "pace": "none", "options": {"deals": 1}})
    pain = call(page, live_server, "GET", f"/games/{game['id']}")["legal_actions"][0]
    call(page, live_server, "POST", f"/games/{game['id']}/actions", {"action": pain})
    play_by_api(page, live_server, game["id"], lambda view: view["phase"] == "play")

    def yours_to_lead(route):
        response = route.fetch()
        if response.status != 200:
            route.fulfill(response=response)
            return
        view = response.json()
        view["table"].update(leader=view["your_seat"], trick=[], last_trick=None)
        route.fulfill(response=response, body=json.dumps(view))

    page.route(re.compile(rf"/api/v1/games/{game['id']}(\?wait=\d+)?$"), yours_to_lead)
    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.locator('.sticheln [data-part="table"]')).to_contain_text(line)
