"""After a game, Review asks for its analysis and lists the player's costly decisions, each a
button to the position it was made in, and the luck of each deal."""
from __future__ import annotations

import re

from phone import call, layout_problems, play_by_api, start
from playwright import sync_api
from rq import Queue

from api.storage.jobs import ANALYSIS_QUEUE
from worker.runner import PromptWorker


def test_the_review_marks_costly_decisions_that_jump_to_their_step(new_page, live_server, redis,
                                                                   monkeypatch):
    expect = sync_api.expect
    monkeypatch.setenv("POYTA_ANALYSIS_SECONDS", "2")
    page = new_page()
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {"type": "sixnimmt", "players": 2, "pace": "none",
                                                      "seats": ["human", {"bot": "easy"}], "options": {"threshold": 1}})
    play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
    page.goto(f"{live_server}/#/game/{game['id']}")
    page.get_by_role("link", name="Review").click()
    expect(page.get_by_role("status").filter(has_text="waits")).to_be_visible()
    PromptWorker([Queue(ANALYSIS_QUEUE, connection=redis)], connection=redis).work(burst=True)
    review = call(page, live_server, "GET", f"/games/{game['id']}/analysis")
    mine = review["seats"][0]
    expect(page.get_by_text(re.compile(r"^Expected loss \d+\.\d\d over \d+ decisions"))).to_be_visible(timeout=10000)
    expect(page.get_by_text("Lower is better in this game.")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Round 1: [+-]?\d+\.\d\d \(the table's average is 0\)$"))).to_be_visible()
    costly = [d for d in mine["decisions"] if d["loss"] > 0]
    buttons = page.locator(".review-timeline button")
    expect(buttons).to_have_count(min(len(costly), 10))
    if costly:
        first = min(costly, key=lambda d: d["step"])
        button = buttons.first
        expect(button).to_have_text(re.compile(rf"^Step {first['step'] + 1}: played .+, best .+, cost \d+\.\d\d$"))
        button.click()
        expect(page.locator("#replay-step")).to_have_text(re.compile(rf"^Step {first['step']} of \d+$"))
    assert layout_problems(page) == []
