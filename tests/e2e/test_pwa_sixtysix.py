"""The PWA in Debian's headless Chromium against the real app, Redis and RQ worker:
create a 2-player Sixty-six game against the easy bot and tap through a whole match."""
from __future__ import annotations

import re
import time

from phone import api_view, start
from playwright import sync_api

MATCH_POINTS = 7
MATCH_SECONDS = 150  # a runaway guard, far above a normal match


def test_play_a_whole_two_player_match_against_the_easy_bot(page, live_server):
    expect = sync_api.expect
    start(page, live_server)
    page.get_by_label("Game", exact=True).select_option(label="Sixty-six")
    page.get_by_label("Number of players").fill("2")
    page.get_by_label("Seat 2", exact=True).select_option(label="Bot (easy)")
    page.get_by_label("game points that win the match").fill(str(MATCH_POINTS))
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"#/game/"))

    table = page.locator(".sixtysix")
    expect(table.get_by_text(re.compile(r"^Trump [♠♥♦♣] (spades|hearts|diamonds|clubs)$"))).to_be_visible()
    expect(table.get_by_role("button", name=re.compile(r"^Play \w+ of \w+$"))).to_have_count(6)

    playable = table.get_by_role("button", name=re.compile(r"^Play "), disabled=False)
    declare = table.get_by_role("button", name="I have enough: declare")
    close = table.get_by_role("button", name="Close the stock")
    confirm = page.get_by_role("group", name="Confirm your move")
    closing_asked = False
    result = page.get_by_role("heading", name="Result", exact=True)
    my_points = table.locator(".sx-mine")
    taps = 0
    started = time.monotonic()
    while True:
        expect(playable.or_(declare).or_(result).first).to_be_visible()
        if result.is_visible():
            break
        assert time.monotonic() - started < MATCH_SECONDS, "the match did not end"
        points = re.search(r"(\d+) card points", my_points.inner_text())
        if declare.is_visible() and points and int(points.group(1)) >= 66:
            declare.click()
            expect(confirm).to_contain_text("I have enough: declare? This cannot be undone.")
            confirm.get_by_role("button", name="Confirm").click()
        elif close.is_visible() and not closing_asked:
            # Closing cannot be undone: it is asked first, and Cancel leaves the stock open.
            close.click()
            expect(confirm).to_contain_text("Close the stock? This cannot be undone.")
            confirm.get_by_role("button", name="Cancel").click()
            expect(confirm).to_be_hidden()
            assert api_view(page, live_server, page.url.split("#/game/")[1])["table"]["closed_by"] is None
            closing_asked = True
            continue
        else:
            playable.first.click()
        # The shell marks the table busy while our action is posted; its answer re-renders it.
        expect(page.locator(".game-area[aria-busy]")).to_have_count(0)
        taps += 1

    # The match result: the shell's outcome table, and our table's last hand result.
    expect(page.get_by_text(re.compile(r"^(You won! )?Winner: "))).to_be_visible()
    scores = [int(cell) for cell in page.locator(".outcome tbody td:last-child").all_inner_texts()]
    assert max(scores) >= MATCH_POINTS and len(scores) == 2
    expect(table.get_by_role("heading", name=re.compile(r"^Result of hand \d+$"))).to_be_visible()
    expect(table.get_by_role("button", name=re.compile(r"^Play "))).to_have_count(0)
    assert taps > 6 and closing_asked
