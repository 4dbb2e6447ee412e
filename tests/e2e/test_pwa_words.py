"""The words a player reads: a replay step says a 6 nimmt! row as the table counts it (from 1)
in the player's language; bots are named in Finnish in a result too; a Sticheln variant is
said in words rather than by its option's name; Finnish says one word for one thing
(häränpää; Asetukset only for Settings); dates follow the player's language."""
from __future__ import annotations

import re

from phone import call, outside, play_by_api, start
from playwright import sync_api

EASY = {"bot": "easy"}


def test_a_replay_step_counts_rows_from_one_in_the_players_words(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", EASY], "pace": "none",
        "options": {"threshold": 1}})
    took = None
    for _ in range(20):  # until someone took a row by choice
        play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
        record = call(page, live_server, "GET", f"/games/{game['id']}/record")
        took = next((i for i, a in enumerate(record["actions"]) if a["action"]["type"] == "take_row"), None)
        if took is not None:
            break
        game = call(page, live_server, "POST", "/games", {
            "type": "sixnimmt", "players": 2, "seats": ["human", EASY], "pace": "none",
            "options": {"threshold": 1}})
    assert took is not None, "nobody ever took a row by choice"
    row = record["actions"][took]["action"]["row"] + 1
    page.goto(f"{live_server}/#/replay/{game['id']}")
    expect(page.locator("#replay-step")).to_have_text(f"Step 0 of {len(record['actions'])}")
    page.get_by_label("Step", exact=True).fill(str(took + 1))
    expect(page.locator(".replay-action")).to_have_text(re.compile(rf": took row {row}$"))
    play = next(i for i, a in enumerate(record["actions"]) if a["action"]["type"] == "play")
    page.get_by_label("Step", exact=True).fill(str(play + 1))
    expect(page.locator(".replay-action")).to_have_text(re.compile(r": played \d+$"))


def test_finnish_names_bots_and_bullheads_alike_and_dates_in_its_own_way(new_page, live_server):
    expect = sync_api.expect
    page = new_page(locale="fi-FI")
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", EASY], "pace": "none",
        "options": {"threshold": 1}})
    play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
    page.goto(f"{live_server}/#/game/{game['id']}")
    outcome = page.locator(".outcome")
    expect(outcome).to_contain_text("Botti 2 (helppo)")
    assert "Bot 2" not in outcome.inner_text() and "easy" not in outcome.inner_text()
    text = page.locator("main").inner_text()
    assert not re.search(r"\bhärk", text, re.IGNORECASE), "häränpää, one word for one thing"

    # The new-game form: Asetukset is the app's Settings, a game's options are its own word.
    page.goto(f"{live_server}/#/")
    expect(page.get_by_role("link", name="Asetukset")).to_be_visible()
    assert "Asetukset" not in page.locator("main").inner_text()

    # A friend's last activity: a Finnish date and time.
    bert = outside(live_server, "POST", "/players", body={"name": "Bert"})
    code = call(page, live_server, "GET", "/players/me/friend-link")["code"]
    outside(live_server, "POST", f"/players/friend-links/{code}", bert["token"])
    page.goto(f"{live_server}/#/friends")
    when = page.locator("li.friend small")
    expect(when).to_have_text(re.compile(r"^viimeksi paikalla \d+\.\d+\.\d{4} klo \d+\.\d\d$"))


def test_a_sticheln_variant_is_said_in_words(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "sticheln", "players": 3, "seats": ["human", EASY, EASY], "pace": "none",
        "options": {"dark": True}})
    page.goto(f"{live_server}/#/game/{game['id']}")
    info = page.locator(".st-info")
    expect(info).to_contain_text("Dark: pain cards hidden until the deal ends")
    assert "Variants: dark" not in info.inner_text()
