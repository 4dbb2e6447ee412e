"""Ratings on the phone: the result shows each seat's rating change, a name at the table, in the
result or on a leaderboard opens its profile, and each game type's leaderboard is reachable from
home, in English and in Finnish. A rating is shown from the first game on, from 1500 and never
negative, marked "?" while provisional and explained in a sentence; the leaderboard lists the
provisional players apart."""
from __future__ import annotations

import re

from phone import call, layout_problems, play_by_api, snap, start
from playwright import sync_api
from test_pwa_accessibility import axe_installed, serious_violations  # noqa: F401 (a fixture)

GAME = {"type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}],
        "options": {"threshold": 1}, "pace": "none"}
CHANGE = re.compile(r"^([+−]\d+|±0)$")
EXPLAINED = ("Everyone starts at 1500 and each rated game moves the rating; a “?” marks it "
             "provisional until 10 rated games.")


def finished_game(page, base: str) -> dict:
    game = call(page, base, "POST", "/games", GAME)
    return play_by_api(page, base, game["id"], lambda view: view["status"] == "finished")


def display(ordinal: float) -> int:
    return max(0, round(1500 + 40 * ordinal))


def shown_change(rating: dict) -> str:
    change = display(rating["ordinal"]) - display(rating["ordinal"] - rating["change"])
    return "±0" if change == 0 else ("+" if change > 0 else "−") + str(abs(change))


def test_result_profile_and_leaderboard(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Anna")
    # The new-game form makes a rated game unless asked for a friendly one.
    expect(page.get_by_label("Rated: the result changes the players' ratings")).to_be_checked()
    page.get_by_label("Rated: the result changes the players' ratings").uncheck()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"#/game/"))
    friendly = page.url.split("#/game/")[1]
    assert call(page, live_server, "GET", f"/games/{friendly}")["rated"] is False

    game = finished_game(page, live_server)
    page.goto(f"{live_server}/#/game/{game['id']}")

    # The result: each seat's rating change, once the worker has recorded it.
    result = page.locator(".outcome")
    changes = result.locator("td.rating-change")
    expect(changes).to_have_count(2)
    for cell in (changes.nth(0), changes.nth(1)):
        expect(cell).to_have_text(CHANGE)
    recorded = call(page, live_server, "GET", f"/games/{game['id']}")["results"]["seats"]
    anna_row = result.locator("tr", has=page.get_by_role("link", name="Anna: profile"))
    expect(anna_row.locator("td.rating-change")).to_have_text(shown_change(recorded[0]["rating"]))
    assert layout_problems(page) == []

    # Tapping a name in the result opens the profile.
    result.get_by_role("link", name="Anna: profile").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Anna")
    expect(page.get_by_text(re.compile(r"^Playing since"))).to_be_visible()
    sixnimmt = page.get_by_role("region", name="6 nimmt!")
    expect(sixnimmt).to_contain_text(re.compile(r"Rating\s*\d+\? · rated games: 1"))
    expect(sixnimmt).to_contain_text(EXPLAINED)
    expect(sixnimmt).to_contain_text("Finished games")
    expect(page.locator(".recent-games")).to_contain_text("6 nimmt! · ")
    assert layout_problems(page) == []

    sixnimmt.get_by_role("link", name="Leaderboard of 6 nimmt!").click()
    expect(heading).to_have_text("Leaderboard: 6 nimmt!")
    expect(page.locator(".your-place")).to_have_text(re.compile(
        r"^Your rating is \d+\? \(rated games: 1\)\. You are listed after 10; until then, among "
        r"the provisional ratings\.$"))
    expect(page.get_by_text("Nobody has 10 rated games yet.")).to_be_visible()

    # A name at the table: the bot's seat opens its level's profile.
    page.goto(f"{live_server}/#/game/{game['id']}")
    page.locator(".seat-list").get_by_role("link", name=re.compile(r"^Bot 2")).click()
    expect(heading).to_have_text("Easy bot")
    expect(page.get_by_text("A bot: each of its levels has a rating of its own in every game")).to_be_visible()

    # Nine more rated games put Anna and the easy bot on the leaderboard.
    for _ in range(9):
        last = finished_game(page, live_server)
    # The worker records the last game's results a moment after it ends, one player at a time:
    # the game carries them once every player's standing is applied.
    for _ in range(300):
        if call(page, live_server, "GET", f"/games/{last['id']}").get("results"):
            break
        page.wait_for_timeout(100)
    listed = call(page, live_server, "GET", "/games/types/sixnimmt/leaderboard")
    assert listed["you"]["games"] == 10
    assert listed["you"]["place"] in (1, 2)

    # From home, in Finnish: the leaderboards, and a name there opens its profile.
    page.evaluate("localStorage.setItem('poyta.lang', 'fi')")
    page.goto(f"{live_server}/#/")
    page.reload()
    page.get_by_role("region", name="Tulostaulut").get_by_role("link", name="6 nimmt!").click()
    expect(heading).to_have_text("Tulostaulu: 6 nimmt!")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator(".your-place")).to_have_text(
        f"Olet {listed['you']['place']}. vahvuusluvulla {listed['you']['display']}.")
    assert layout_problems(page) == []
    page.get_by_role("link", name="Helppo botti").click()  # the bot's name in Finnish too
    expect(heading).to_have_text("Helppo botti")
    expect(page.get_by_role("region", name="6 nimmt!")).to_contain_text("laskettuja pelejä: 10")


def test_the_rating_pages_pass_the_accessibility_audit_light_and_dark(axe_installed, new_page,
                                                                      live_server):
    expect = sync_api.expect
    for scheme in ("light", "dark"):
        page = new_page(scheme, bypass_csp=True)  # the page's CSP would refuse the injected axe
        start(page, live_server, "Anna")
        game = finished_game(page, live_server)
        page.goto(f"{live_server}/#/game/{game['id']}")
        expect(page.locator(".outcome td.rating-change").first).to_have_text(CHANGE)
        assert serious_violations(page) == [], f"result, {scheme}"
        page.locator(".outcome").get_by_role("link", name="Anna: profile").click()
        expect(page.get_by_role("region", name="6 nimmt!")).to_contain_text("rated games")
        assert serious_violations(page) == [], f"profile, {scheme}"
        page.get_by_role("link", name="Leaderboard of 6 nimmt!").click()
        expect(page.locator(".your-place")).to_be_visible()
        assert serious_violations(page) == [], f"leaderboard, {scheme}"


def test_a_new_player_sees_a_provisional_rating_after_one_game(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport={"width": 360, "height": 740})
    start(page, live_server, "Anna")
    game = finished_game(page, live_server)
    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.locator(".outcome td.rating-change").first).to_have_text(CHANGE)
    me = call(page, live_server, "GET", "/players/me")["id"]
    rating = call(page, live_server, "GET", f"/players/{me}")["ratings"]["sixnimmt"]
    assert rating["display"] == display(rating["ordinal"]) and rating["provisional"] is True
    page.goto(f"{live_server}/#/player/{me}")
    sixnimmt = page.get_by_role("region", name="6 nimmt!")
    expect(sixnimmt).to_contain_text(f"{rating['display']}? · rated games: 1")
    expect(sixnimmt).to_contain_text(EXPLAINED)
    assert "−" not in sixnimmt.inner_text().split("Rating changes")[0], "never negative"
    snap(page, "rating-after-one-game")
    assert layout_problems(page) == []

    page.goto(f"{live_server}/#/leaderboard/sixnimmt")
    expect(page.get_by_text("Nobody has 10 rated games yet.")).to_be_visible()
    provisional = page.get_by_role("region", name="Provisional ratings")
    anna = provisional.get_by_role("row").filter(has=page.get_by_role("link", name="Anna"))
    expect(anna).to_contain_text(f"{rating['display']}?")
    expect(anna).to_have_class("mine")
    expect(provisional.get_by_role("link", name="Easy bot")).to_be_visible()
    snap(page, "leaderboard-provisional")
    assert layout_problems(page) == []
