"""Play now on 360 px phones, one in Finnish and one in English: each seeks a two-player game of
Sixty-six from the home page, the first sees its seek waiting, and once the second asks both
find the game in their inbox; the form remembers the choice. The Friends page's search box finds
a player by the start of the name, with Challenge."""
from __future__ import annotations

import re

from phone import layout_problems, start
from playwright import sync_api

SMALL = {"width": 360, "height": 740}


def seek_sixtysix(page, games_label: str, fewest: str, most: str, seek: str) -> None:
    form = page.locator("form.playnow")
    for box in form.locator("fieldset").first.get_by_role("checkbox").all():
        box.set_checked(False)
    form.get_by_role("checkbox", name="Sixty-six").check()
    form.get_by_label(fewest).fill("2")
    form.get_by_label(most).fill("2")
    form.get_by_role("button", name=seek).click()


def test_two_phones_play_now_and_meet_at_a_table(new_page, live_server):
    expect = sync_api.expect
    anna = new_page(locale="fi-FI", viewport=SMALL)
    start(anna, live_server, "Anna")
    expect(anna.get_by_role("heading", name="Pelaa nyt")).to_be_visible()
    seek_sixtysix(anna, "Pelit", "Pelaajia vähintään", "Pelaajia enintään", "Etsi pöytä")
    waiting = anna.locator("li.seek")
    expect(waiting).to_contain_text("Sixty-six · 2–2 pelaajaa")
    expect(waiting).to_contain_text("odottanut 0 min")
    assert layout_problems(anna) == []

    bert = new_page(viewport=SMALL)
    start(bert, live_server, "Bert")
    seek_sixtysix(bert, "Games", "Fewest players", "Most players", "Seek a table")
    game_line = re.compile(r"Sixty-six")
    expect(bert.locator("ul.game-list").first).to_contain_text(game_line, timeout=30_000)
    expect(anna.locator("ul.game-list").first).to_contain_text(game_line, timeout=30_000)
    assert layout_problems(bert) == []

    bert.reload()
    form = bert.locator("form.playnow")
    expect(form.get_by_role("checkbox", name="Sixty-six")).to_be_checked()
    expect(form.get_by_label("Most players")).to_have_value("2")

    bert.get_by_role("link", name="Friends").click()
    bert.get_by_label("Find players by name").fill("an")
    found = bert.locator("li.found")
    expect(found.get_by_role("link", name="Anna")).to_be_visible()
    expect(found.get_by_role("button", name="Challenge")).to_be_visible()
    assert layout_problems(bert) == []
