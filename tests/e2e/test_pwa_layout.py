"""Every table on the smallest and the reference phone, in English and Finnish, light and dark:
the hand and the trick (or rows) on one screen, nothing wider than the screen, no word broken,
every tap target at least 44 px, the score sheet's totals in view and seat names told apart."""
from __future__ import annotations

import json
import re

import pytest
from phone import call, in_viewport, layout_problems, play_by_api, start
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


def grow_score_sheets(page, game_id: str | None = None) -> None:
    """Every game's (or one game's) real view, with eight more finished deals in its score sheet."""
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

    game = re.escape(game_id) if game_id else r"[\w-]+"
    page.route(re.compile(rf"/api/v1/games/{game}(\?wait=\d+)?$"), handle)


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
    # Read and tap the names while it is our turn, so no other seat changes the table meanwhile:
    # until then, we play and the others follow.
    for _ in range(15):
        expect(page.locator(".status-line.yours")).to_be_visible()
        expect(page.locator(".game-area[data-revealing]")).to_have_count(0)
        if names.count():
            break
        page.locator('[data-part="hand"] button:enabled').first.click()
    expect(names.first).to_be_visible()
    texts = names.all_inner_texts()
    assert len(set(texts)) == len(texts)
    assert page.evaluate("""() => [...document.querySelectorAll('.short-name')].every((el) =>
        el.getBoundingClientRect().right <= el.parentElement.getBoundingClientRect().right + 1)""")
    full = names.first.get_attribute("data-full-name")
    names.first.click()
    expect(page.locator(".name-tip")).to_have_text(full)


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


def test_the_final_penalty_table_reads_on_the_smallest_phone(new_page, live_server):
    """6 nimmt! at its end at 360 px: the penalty table fits, or says that it scrolls sideways
    and shows its fixed columns' edges; no round's header is cut inside its own cell, and
    scrolled to the end the last round stands clear of the Total column."""
    expect = sync_api.expect
    page = new_page(viewport={"width": 360, "height": 740})
    start(page, live_server, LONG_NAME)
    game = call(page, live_server, "POST", "/games", {"type": "sixnimmt", "players": 4, "pace": "none",
                                                      "seats": ["human"] + [EASY] * 3, "options": {"threshold": 1}})
    play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
    wrap = page.locator(".table-wrap").filter(has=page.locator("table.penalties"))
    hint = page.get_by_text("The table is wider than the screen: swipe it sideways for every column.")

    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.locator("#status-line")).to_have_text("Game over")
    expect(wrap).to_be_visible()
    assert not wrap.evaluate("(el) => el.scrollWidth > el.clientWidth + 1")
    expect(hint).to_have_count(0)

    grow_score_sheets(page, game["id"])  # eight more rounds: wider than the phone
    page.reload()
    # The view kept from before shows first: wait for the grown one.
    expect(page.get_by_role("columnheader", name="Round 9", exact=True)).to_have_count(1)
    assert wrap.evaluate("(el) => el.scrollWidth > el.clientWidth + 1")
    expect(hint).to_be_visible()
    assert wrap.evaluate("(el) => getComputedStyle(el.querySelector('th:last-child')).boxShadow") != "none"
    assert wrap.evaluate("""(el) => [...el.querySelectorAll('thead th')].every((th) => th.scrollWidth <= th.clientWidth)""")
    clear = wrap.evaluate("""(el) => {
        el.scrollLeft = el.scrollWidth;
        const heads = el.querySelectorAll('thead th');
        const lastRound = heads[heads.length - 2].getBoundingClientRect();
        const total = heads[heads.length - 1].getBoundingClientRect();
        return lastRound.right <= total.left + 1 && lastRound.left >= el.getBoundingClientRect().left;
    }""")
    assert clear
    assert layout_problems(page) == []


def test_the_new_game_form_speaks_finnish(new_page, live_server):
    """Options by the rules' own short names, their choices, the bot levels and the first
    device in Finnish; Sixty-six offers the deck only where it is a choice."""
    expect = sync_api.expect
    page = new_page(viewport={"width": 360, "height": 740}, locale="fi-FI")
    start(page, live_server, "Anni")
    page.get_by_label("Peli", exact=True).select_option(label="Sixty-six")
    expect(page.get_by_label("Säännöt", exact=True).locator("option:checked")).to_have_text(
        "Klassinen: mariaasit ja valttikortin vaihto")
    deck = page.get_by_label("Pakka", exact=True)
    expect(deck).to_be_disabled()
    expect(deck.locator("option:checked")).to_have_text("24 korttia (9–ässä)")
    expect(page.get_by_label("Voittopisteet ottelun voittoon")).to_have_value("7")
    expect(page.get_by_label("Paikka 2", exact=True).locator("option")).to_have_text(
        ["Botti (helppo)", "Botti (keskitaso)", "Botti (vaikea)", "Kaveri (ihminen)"])
    # The rules as written let two players choose the deck; three players have none to choose.
    page.get_by_label("Säännöt", exact=True).select_option(label="Kuten kirjoitettu: ei mariaaseja eikä vaihtoa")
    expect(deck).to_be_enabled()
    page.get_by_label("Pelaajien määrä").fill("3")
    expect(deck).to_be_hidden()
    page.get_by_label("Peli", exact=True).select_option(label="Sticheln")
    expect(page.get_by_label("Kova: kaksi kipuväriä, yksi tikki vähemmän")).to_be_visible()
    assert layout_problems(page) == []
    page.get_by_role("link", name=re.compile("^Asetukset")).click()
    expect(page.get_by_role("region", name="Laitteet").locator(".device-list")).to_contain_text("ensimmäinen laite")


BAR_GAMES = {"sixtysix": GAMES["sixtysix"], "sticheln": GAMES["sticheln"]}


@pytest.mark.parametrize("screen", SCREENS)
def test_the_table_bar_stays_at_the_top_and_covers_no_card(new_page, live_server, screen):
    """Scrolled down to the log or back up to the hand, the compact bar with the status, the
    score and the time left stays at the top of the screen, and every card of the hand shown
    below it can be tapped (nothing of the bar lies over it)."""
    expect = sync_api.expect
    viewport, locale, scheme = SCREENS[screen]
    page = new_page(scheme, viewport=viewport, locale=locale)
    start(page, live_server, "Anna")
    score = re.compile(r"^(Score|Pisteet) \d+$")
    time_left = re.compile(r"\d+ (min|h) (left|jäljellä)$")
    for game_type, spec in BAR_GAMES.items():
        game = call(page, live_server, "POST", "/games", {
            "type": game_type, "players": spec["players"], "options": spec["options"], "pace": "1h",
            "seats": ["human"] + [EASY] * (spec["players"] - 1)})
        page.goto(f"{live_server}/#/game/{game['id']}")
        bar = page.locator("#table-bar")
        expect(bar.locator(".status-line.yours")).to_be_visible()
        expect(bar.locator(".bar-score")).to_have_text(score)
        expect(bar.locator(".bar-time")).to_have_text(time_left)
        # The note of the player's day would say the same time again: it is left out.
        expect(page.locator("#day-left")).to_have_count(0)
        expect(page.locator('[data-part="hand"] button:enabled').first).to_be_visible()

        page.locator(".log").evaluate("(el) => el.scrollIntoView({ block: 'end' })")
        assert page.evaluate("scrollY") > 100, f"{game_type}: the page did not scroll"
        box = bar.bounding_box()
        assert abs(box["y"]) <= 1 and box["height"] <= 110, f"{game_type}: bar at {box} after scrolling to the log"
        assert in_viewport(page, "#status-line")

        page.locator('[data-part="hand"]').evaluate("(el) => el.scrollIntoView({ block: 'start' })")
        box = bar.bounding_box()
        assert abs(box["y"]) <= 1, f"{game_type}: bar at {box} after scrolling to the hand"
        covered = page.evaluate("""() => [...document.querySelectorAll('[data-part="hand"] button')].filter((card) => {
            const r = card.getBoundingClientRect();
            const x = r.left + r.width / 2;
            return r.top >= 0 && r.bottom <= innerHeight
              && [r.top + 2, r.top + r.height / 2].some((y) => !card.contains(document.elementFromPoint(x, y)));
        }).length""")
        assert covered == 0, f"{game_type}: the bar covers {covered} card(s) of the hand"
        assert page.evaluate("""() => {
            const top = document.querySelector('[data-part="hand"]').getBoundingClientRect().top;
            return top >= document.querySelector('#table-bar').getBoundingClientRect().bottom - 1;
        }"""), f"{game_type}: the hand starts under the bar"
        assert layout_problems(page) == [], game_type
