"""Every table on the smallest and the reference phone, in English and Finnish, light and dark:
the hand and the trick (or rows) on one screen, nothing wider than the screen, no word broken,
every tap target at least 44 px, the score sheet's totals in view and seat names told apart."""
from __future__ import annotations

import json
import re

import pytest
from phone import call, in_viewport, layout_problems, start
from playwright import sync_api

EASY = {"bot": "easy"}
GAMES = {
    "sixnimmt": {"players": 4, "options": {}},
    "sixtysix": {"players": 2, "options": {"preset": "classic"}},
    "sticheln": {"players": 8, "options": {"deals": 1}},
    "hattrick": {"players": 4, "options": {"deals": 1}},
}
# The score sheet of each game (in view.table), grown to many deals to test its width.
SHEETS = {"sixnimmt": "round_scores", "sticheln": "deal_scores", "hattrick": "sheet"}
SCREENS = {
    "360-en-light": ({"width": 360, "height": 740}, "en-GB", "light"),
    "390-fi-dark": ({"width": 390, "height": 844}, "fi-FI", "dark"),
}
LONG_NAME = "Annikki Virtanen-Korhonen"


def grow_score_sheets(page) -> None:
    """Every game's real view, with eight more finished deals in its score sheet."""
    def handle(route):
        response = route.fetch()
        if response.status != 200:  # 304: the page still has what it was given
            route.fulfill(response=response)
            return
        view = response.json()
        key = SHEETS.get(view["type"])
        if key:
            view["table"][key] = view["table"][key] + [[seat - 12 for seat in range(len(view["seats"]))]] * 8
        route.fulfill(response=response, body=json.dumps(view))

    page.route(re.compile(r"/api/v1/games/[\w-]+(\?wait=\d+)?$"), handle)


@pytest.mark.parametrize("screen", SCREENS)
def test_every_table_fits_the_phone(new_page, live_server, screen):
    expect = sync_api.expect
    viewport, locale, scheme = SCREENS[screen]
    page = new_page(scheme, viewport=viewport, locale=locale)
    start(page, live_server, LONG_NAME)
    # All four games first, so that their bots move meanwhile.
    games = {}
    for game_type, spec in GAMES.items():
        games[game_type] = call(page, live_server, "POST", "/games", {
            "type": game_type, "players": spec["players"], "options": spec["options"], "pace": "none",
            "seats": ["human"] + [EASY] * (spec["players"] - 1)})["id"]
    pain = call(page, live_server, "GET", f"/games/{games['sticheln']}")["legal_actions"][0]
    call(page, live_server, "POST", f"/games/{games['sticheln']}/actions", {"action": pain})
    grow_score_sheets(page)

    for game_type, game_id in games.items():
        page.goto(f"{live_server}/#/game/{game_id}")
        expect(page.locator(".status-line.yours")).to_be_visible()
        expect(page.locator(f'.{game_type} [data-part="hand"] button:enabled').first).to_be_visible()
        assert in_viewport(page, '[data-part="table"]'), f"{game_type}: the trick or the rows are off screen"
        assert in_viewport(page, '[data-part="hand"]'), f"{game_type}: the hand is off screen"
        assert layout_problems(page) == [], game_type
        if game_type in SHEETS:
            total = page.locator("table.sheet th").last
            total.scroll_into_view_if_needed()
            box = total.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], f"{game_type}: totals off screen"

    # Sticheln at 8 players: every other seat on the table by a short name of its own, the
    # full one on a tap.
    page.goto(f"{live_server}/#/game/{games['sticheln']}")
    names = page.locator('[data-part="table"] .short-name')
    expect(page.locator(".status-line.yours")).to_be_visible()
    if not names.count():  # we lead: play, and the others follow
        page.locator('[data-part="hand"] button:enabled').first.click()
    expect(names.first).to_be_visible()
    # Read and tap a name once the bots' cards have all been shown: each shown card redraws
    # the table, and a name read before a redraw may belong to another seat when tapped.
    expect(page.locator(".game-area[data-revealing]")).to_have_count(0)
    texts = names.all_inner_texts()
    assert len(set(texts)) == len(texts)
    assert page.evaluate("""() => [...document.querySelectorAll('.short-name')].every((el) =>
        el.getBoundingClientRect().right <= el.parentElement.getBoundingClientRect().right + 1)""")
    names.first.click()
    expect(page.locator(".name-tip")).to_have_text(names.first.get_attribute("data-full-name"))


def test_home_settings_and_rules_fit_the_smallest_phone(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport={"width": 360, "height": 740}, locale="fi-FI")
    start(page, live_server, LONG_NAME)
    expect(page.locator("#game-about")).to_contain_text("häränpäitä")
    assert layout_problems(page) == []
    page.get_by_label("Peli", exact=True).select_option(label="Sixty-six")
    expect(page.get_by_label("Pelaajien määrä")).to_have_value("2")
    assert layout_problems(page) == []
    # How to play, in Finnish, as a sheet over the page; closing it returns to where it was.
    opener = page.get_by_role("button", name="Näin pelaat: Sixty-six")
    opener.click()
    sheet = page.get_by_role("dialog", name="Näin pelaat: Sixty-six")
    expect(sheet).to_contain_text("66 korttipisteen")
    assert layout_problems(page) == []
    sheet.get_by_role("button", name="Sulje").click()
    expect(sheet).to_have_count(0)
    expect(opener).to_be_focused()
    page.get_by_role("link", name="Asetukset").click()
    expect(page.get_by_role("heading", level=1, name="Asetukset")).to_be_visible()
    expect(page.get_by_role("region", name="Päivän kooste")).to_be_visible()  # the clock's, loaded
    assert layout_problems(page) == []

    # The measure finds what it looks for: a small button, a word broken, a box too wide.
    page.evaluate("""() => document.querySelector('main').append(
        Object.assign(document.createElement('button'), { textContent: 'x', style: 'min-height: 0; min-width: 0; padding: 0' }),
        Object.assign(document.createElement('p'), { textContent: 'Pelaaminen', style: 'width: 2rem; overflow-wrap: anywhere' }),
        Object.assign(document.createElement('div'), { textContent: 'wide', style: 'width: 500px' }))""")
    problems = " ".join(layout_problems(page))
    assert "small target: button" in problems
    assert 'word broken: "Pelaaminen"' in problems
    assert "overflows: div" in problems
