"""After a game, Review asks for its analysis and lists the player's costly decisions, each a
button to the position it was made in, and the luck of each deal; the profile shows the player's
accuracy and luck month by month."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from phone import call, layout_problems, play_by_api, start
from playwright import sync_api
from rq import Queue
from test_pwa_accessibility import axe_installed, serious_violations  # noqa: F401 (a fixture)

from api.storage.archived_analyses import AnalysedSeat, ArchivedAnalyses
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


def test_the_profile_shows_accuracy_and_luck_month_by_month_in_english_and_finnish(
        axe_installed, new_page, live_server, redis, database, monkeypatch):
    expect = sync_api.expect
    monkeypatch.setenv("POYTA_ANALYSIS_SECONDS", "1")
    page = new_page(bypass_csp=True)  # the page's CSP would refuse the injected axe
    start(page, live_server, "Anna")
    me = call(page, live_server, "GET", "/players/me")["id"]
    game = call(page, live_server, "POST", "/games", {"type": "sixnimmt", "players": 2, "pace": "none",
                                                      "seats": ["human", {"bot": "easy"}], "options": {"threshold": 1}})
    play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
    call(page, live_server, "POST", f"/games/{game['id']}/analysis")
    PromptWorker([Queue(ANALYSIS_QUEUE, connection=redis)], connection=redis).work(burst=True)
    month = call(page, live_server, "GET", f"/players/{me}")["accuracy"]["sixnimmt"][0]
    # A game of the month before, reviewed then: 5 bullheads lost over 10 decisions, luck −2.
    this_month = datetime.strptime(month["month"], "%Y-%m").replace(tzinfo=timezone.utc)
    earlier = (this_month - timedelta(days=1)).replace(day=15)
    ArchivedAnalyses(database).keep("earliergame", "sixnimmt", earlier.timestamp(), False, [me, None],
                                    {"type": "sixnimmt", "better": "lower", "seats": []},
                                    [AnalysedSeat(0, me, 10, 5.0, 1, -2.0)])

    page.goto(f"{live_server}/#/player/{me}")
    region = page.get_by_role("region", name="6 nimmt!")
    expect(region.get_by_role("heading", name="Accuracy by month")).to_be_visible()
    months = region.locator(".accuracy-months li")
    expect(months).to_have_count(2)
    loss = f"{month['loss_per_decision']:.2f}"
    expect(months.nth(0)).to_have_text(re.compile(
        rf"^{this_month:%B %Y}: {loss} a decision in 1 game · luck [+−]?\d+\.\d\d a deal$"))
    expect(months.nth(1)).to_have_text(f"{earlier:%B %Y}: 0.50 a decision in 1 game · luck −2.00 a deal")
    expect(region.get_by_role("img", name=f"Loss per decision by month, oldest first: 0.50, {loss}")).to_be_visible()
    assert layout_problems(page) == []
    assert serious_violations(page) == []

    page.evaluate("localStorage.setItem('poyta.lang', 'fi')")
    page.reload()
    region = page.get_by_role("region", name="6 nimmt!")
    expect(region.get_by_role("heading", name="Tarkkuus kuukausittain")).to_be_visible()
    expect(region.locator(".accuracy-months li").nth(1)).to_have_text(re.compile(
        r"^\S+ 20\d\d: 0,50 päätöstä kohden 1 pelissä · tuuri −2,00 jakoa kohden$"))
    assert layout_problems(page) == []
