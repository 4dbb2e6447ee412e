"""The table by keyboard and by voice: after Enter plays a card the focus stays in the hand, on a
card next to it, rather than falling to the top of the page; and every control's visible words
are part of its accessible name (axe's label-content-name-mismatch), so that a voice-control
user can say what they see."""
from __future__ import annotations

import re

import pytest
from phone import call, snap, start
from playwright import sync_api
from test_pwa_accessibility import AXE, axe_installed  # noqa: F401 (a fixture)

EASY = {"bot": "easy"}
GAMES = {
    "sixnimmt": {"players": 2, "options": {"threshold": 1}},
    "sixtysix": {"players": 2, "options": {"preset": "classic"}},
    "sticheln": {"players": 3, "options": {"deals": 1}},
    "hattrick": {"players": 4, "options": {"deals": 1}},
}
IN_HAND = "() => !!document.activeElement.closest('[data-part=\"hand\"]')"
ON_A_CARD = "() => document.activeElement.matches('[data-part=\"hand\"] button:not([disabled])')"


def new_game(page, base: str, kind: str) -> str:
    return call(page, base, "POST", "/games", {
        "type": kind, "players": GAMES[kind]["players"], "options": GAMES[kind]["options"],
        "pace": "none", "seats": ["human"] + [EASY] * (GAMES[kind]["players"] - 1)})["id"]


@pytest.mark.parametrize("kind", ["sixtysix", "hattrick", "sticheln"])
def test_after_enter_plays_a_card_the_focus_stays_in_the_hand(new_page, live_server, kind):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server)
    page.goto(f"{live_server}/#/game/{new_game(page, live_server, kind)}")
    for _ in range(2):
        expect(page.locator(".status-line.yours")).to_be_visible()
        card = page.locator('[data-part="hand"] button:not([disabled])').first
        card.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => !document.querySelector('.game-area[aria-busy]')")
        assert page.evaluate(IN_HAND), page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        expect(page.locator(".status-line.yours")).to_be_visible()
        page.wait_for_function(ON_A_CARD)
    snap(page, f"focus-after-enter-{kind}")


def mismatched_names(page) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => {
        const result = await axe.run(document, { runOnly: { type: "rule", values: ["label-content-name-mismatch"] } });
        return result.violations.flatMap((v) => v.nodes.map((n) => n.html.slice(0, 160)));
    }""")


@pytest.mark.parametrize("kind", ["sixtysix", "hattrick", "sticheln", "sixnimmt"])
def test_every_controls_visible_words_are_in_its_name(axe_installed, new_page, live_server, kind):
    expect = sync_api.expect
    page = new_page(bypass_csp=True)  # the page's CSP would refuse the injected axe
    start(page, live_server)
    game_id = new_game(page, live_server, kind)
    page.goto(f"{live_server}/#/game/{game_id}")
    expect(page.locator(".status-line.yours")).to_be_visible()
    assert mismatched_names(page) == []
    # Mid-game: a few moves on, with cards on the table.
    for _ in range(3):  # a card, or a row to take when 6 nimmt! asks for one
        page.locator('[data-part="hand"] button:not([disabled]), [data-part="table"] button:not([disabled])').first.click()
        expect(page.locator(".status-line.yours")).to_be_visible()
    assert mismatched_names(page) == []
    assert re.search(r"#/game/", page.url)


def test_a_marriage_declared_is_named_as_it_reads(axe_installed, new_page, live_server):
    """Sixty-six's "declare with a marriage" button, drawn by the renderer from the player's own
    view with that action added (the deal rarely offers it on cue)."""
    page = new_page(bypass_csp=True)
    start(page, live_server)
    game_id = new_game(page, live_server, "sixtysix")
    page.goto(f"{live_server}/#/game/{game_id}")
    sync_api.expect(page.locator(".status-line.yours")).to_be_visible()
    view = call(page, live_server, "GET", f"/games/{game_id}")
    view["legal_actions"].append({"type": "declare", "card": "K" + view["table"]["trump"]})
    page.evaluate("""async (view) => {
      const { t } = await import("/i18n.js");
      const mod = await import("/games/sixtysix/renderer.js");
      const ctx = { t, ui: {}, yourSeat: view.your_seat, busy: false, redraw() {},
        seatName: (seat) => `Seat ${seat + 1}`, nameTag: (seat) => document.createTextNode(`Seat ${seat + 1}`) };
      document.querySelector("main").append(mod.render(view, () => Promise.resolve(), ctx));
    }""", view)
    sync_api.expect(page.get_by_role("button", name=re.compile(r"^Declare with the \w+ marriage \(\+40\)$"))).to_be_visible()
    assert mismatched_names(page) == []
