"""A new Finnish player on a 360 px phone, from the first screen to a provisional rating: no
stray text on the welcome, a slipped card taken back, a finished game's rating marked "?", the
leaderboard's provisional players; axe finds no serious or critical violation on the way."""
from __future__ import annotations

import re

from phone import api_view, call, layout_problems, play_by_api, snap, start
from playwright import sync_api
from test_pwa_accessibility import axe_installed, serious_violations  # noqa: F401 (a fixture)

NARROW = {"width": 360, "height": 740}


def test_a_new_finnish_player_from_the_first_screen_to_a_provisional_rating(axe_installed, new_page,
                                                                            live_server):
    expect = sync_api.expect
    page = new_page(locale="fi-FI", viewport=NARROW, bypass_csp=True, confirming=True)
    page.goto(live_server)
    expect(page.get_by_role("heading", level=1)).to_have_text("Tervetuloa Pöytään")
    assert "null" not in page.locator("main").inner_text()
    assert serious_violations(page) == [], "welcome"
    start(page, live_server, "Anna")
    assert serious_violations(page) == [], "home"
    snap(page, "new-player-home-fi")

    game = call(page, live_server, "POST", "/games", {
        "type": "sixtysix", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"preset": "classic", "match_points": 1}})
    page.goto(f"{live_server}/#/game/{game['id']}")
    playable = page.locator('.sixtysix [data-part="hand"] button:not([disabled])')
    expect(playable.first).to_be_visible()
    before = api_view(page, live_server, game["id"])
    playable.first.click()
    confirm = page.get_by_role("group", name="Vahvista siirto")
    expect(confirm).to_contain_text(re.compile(r"^Pelaa "))
    assert serious_violations(page) == [], "a card awaiting confirmation"
    snap(page, "new-player-confirm-fi")
    confirm.get_by_role("button", name="Peruuta").click()
    expect(confirm).to_be_hidden()
    assert api_view(page, live_server, game["id"])["version"] == before["version"], "taken back"
    assert layout_problems(page) == []

    play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
    expect(page.locator("#status-line")).to_have_text("Peli päättyi")
    me = call(page, live_server, "GET", "/players/me")["id"]
    for _ in range(300):  # the worker records the ratings a moment after the end
        if call(page, live_server, "GET", f"/players/{me}")["ratings"].get("sixtysix"):
            break
        page.wait_for_timeout(100)
    page.goto(f"{live_server}/#/player/{me}")
    sixtysix = page.get_by_role("region", name="Sixty-six")
    expect(sixtysix).to_contain_text(re.compile(r"Vahvuusluku\s*\d+\? · laskettuja pelejä: 1"))
    assert serious_violations(page) == [], "profile"
    assert layout_problems(page) == []
    snap(page, "new-player-rating-fi")
    page.goto(f"{live_server}/#/leaderboard/sixtysix")
    provisional = page.get_by_role("region", name="Alustavat vahvuusluvut")
    expect(provisional.get_by_role("link", name="Anna")).to_be_visible()
    assert serious_violations(page) == [], "leaderboard"
    assert layout_problems(page) == []
