"""axe-core (the npm package in tests/e2e, installed by `make test`) audits the PWA's pages in
Chromium: home, the create form, every game's table mid-game and at its end, How to play,
settings, replay and an invite link's preview, light and dark. No serious or critical violation is
allowed."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from phone import call, play_by_api, start
from playwright import sync_api

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
EASY = {"bot": "easy"}
# Small games that end quickly when played through the API.
GAMES = {
    "sixnimmt": {"players": 2, "options": {"threshold": 1}},
    "sixtysix": {"players": 2, "options": {"match_points": 1}},
    "sticheln": {"players": 3, "options": {"deals": 1}},
    "hattrick": {"players": 4, "options": {"deals": 1}},
}


def serious_violations(page) -> list[str]:
    """What axe finds (WCAG 2.1 A and AA rules) of serious or critical impact, one line each."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const result = await axe.run(document, { runOnly: { type: "tag",
            values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
    }""")
    return found


@pytest.fixture(scope="module")
def axe_installed():
    if not AXE.exists():
        pytest.fail("axe-core is missing: `make test` installs it (npm ci in tests/e2e)")


def audit_games(page, base: str, kinds: list[str]) -> None:
    expect = sync_api.expect
    games = {kind: call(page, base, "POST", "/games", {
        "type": kind, "players": GAMES[kind]["players"], "options": GAMES[kind]["options"], "pace": "none",
        "seats": ["human"] + [EASY] * (GAMES[kind]["players"] - 1)})["id"] for kind in kinds}
    for kind, game_id in games.items():
        page.goto(f"{base}/#/game/{game_id}")
        expect(page.locator(".status-line.yours")).to_be_visible()
        assert serious_violations(page) == [], f"{kind} mid-game"
        play_by_api(page, base, game_id, lambda view: view["status"] == "finished")
        expect(page.locator("#status-line")).to_have_text("Game over")
        assert serious_violations(page) == [], f"{kind} at its end"


def test_home_create_settings_and_two_games(axe_installed, new_page, live_server):
    expect = sync_api.expect
    page = new_page(bypass_csp=True)  # the page's CSP would refuse the injected axe
    start(page, live_server)
    assert serious_violations(page) == [], "home"
    page.get_by_label("Game", exact=True).select_option(label="Sticheln")
    page.get_by_label("Seat 2", exact=True).select_option(label="Friend (human)")
    assert serious_violations(page) == [], "create form"
    page.get_by_role("button", name="How to play Sticheln").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    assert serious_violations(page) == [], "How to play"
    page.keyboard.press("Escape")
    page.get_by_role("link", name="Settings").click()
    expect(page.get_by_role("heading", level=1, name="Settings")).to_be_visible()
    expect(page.get_by_role("region", name="Daily digest")).to_be_visible()  # the clock's, loaded
    assert serious_violations(page) == [], "settings"
    audit_games(page, live_server, ["sixnimmt", "hattrick"])
    page.get_by_role("link", name="Replay").click()
    expect(page.locator("#replay-step")).to_be_visible()
    page.get_by_role("button", name="Next").click()
    assert serious_violations(page) == [], "replay"


def test_two_games_in_the_dark(axe_installed, new_page, live_server):
    page = new_page("dark", bypass_csp=True)
    start(page, live_server)
    assert serious_violations(page) == [], "home, dark"
    # The audit finds what it should: a button without a name is a critical violation.
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    assert any(line.startswith("button-name:") for line in serious_violations(page))
    audit_games(page, live_server, ["sixtysix", "sticheln"])
    # An invite link's preview, before the seat is taken.
    anna = call(page, live_server, "POST", "/players", {"name": "Anna"})["token"]
    invited = page.request.post(f"{live_server}/api/v1/games", headers={"Authorization": f"Bearer {anna}"},
                                data={"type": "sixtysix", "players": 2, "seats": ["human", "human"]}).json()
    page.goto(f"{live_server}/#/invite/{invited['invites'][0]['code']}")
    sync_api.expect(page.get_by_role("button", name="Take the seat")).to_be_visible()
    assert serious_violations(page) == [], "invite preview, dark"
