"""A finished game on the phone: its line in the inbox tells the place, the score and the date,
and its replay jumps to any round, turn or step and plays forward on its own."""
from __future__ import annotations

import re

from phone import call, play_by_api, start
from playwright import sync_api


def test_a_finished_game_in_the_inbox_and_its_replay(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {"type": "sixnimmt", "players": 2, "pace": "none",
                                                      "seats": ["human", {"bot": "easy"}], "options": {"threshold": 50}})
    final = play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
    record = call(page, live_server, "GET", f"/games/{game['id']}/record")
    assert len(record["chapters"]) >= 2

    # The inbox: with whom, the place (lowest bullheads win), the score and the day it ended.
    mine, theirs = final["outcome"]["scores"]
    place = "You won" if 0 in final["outcome"]["winners"] else "place 2 of 2"
    page.goto(f"{live_server}/#/")
    line = page.locator(f'a.game-link[href="#/game/{game["id"]}"] small')
    expect(line).to_have_text(re.compile(rf"^with 1 bot · {place} · your score {mine} · \w+ \d+, \d{{4}}$"))

    # The replay: a round's first step from the list, any step by the slider.
    page.goto(f"{live_server}/#/replay/{game['id']}")
    step = page.locator("#replay-step")
    steps = len(record["actions"])
    expect(step).to_have_text(f"Step 0 of {steps}")
    jump = page.get_by_label("Jump to")  # 6 nimmt!'s rounds, each with its turns
    expect(jump.locator("optgroup")).to_have_count(len(record["chapters"]))
    expect(jump.locator('optgroup[label="Round 2"] option').first).to_have_text("Turn 1")
    second = record["chapters"][1]
    jump.select_option(value=str(second["step"]))
    expect(step).to_have_text(f"Step {second['step']} of {steps}")
    expect(page.locator(".round-turn")).to_contain_text("Round 2")
    slider = page.get_by_label("Step", exact=True)
    slider.fill(str(steps // 2))
    expect(step).to_have_text(f"Step {steps // 2} of {steps}")
    expect(jump).to_have_value(str(max(c["step"] for c in record["trick_chapters"] if c["step"] <= steps // 2)))

    # Play goes forward by itself until paused.
    page.get_by_role("button", name="Play", exact=True).click()
    expect(step).to_have_text(f"Step {steps // 2 + 2} of {steps}", timeout=5000)
    page.get_by_role("button", name="Pause").click()
    held = step.inner_text()
    page.wait_for_timeout(1500)
    expect(step).to_have_text(held)
