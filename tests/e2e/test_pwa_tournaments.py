"""Tournaments on a 360 px phone: made from the Tournaments page, joined, started when full,
with the standings, the round's table and a link to the player's own game."""
from __future__ import annotations

import re

from phone import layout_problems, outside, start
from playwright import sync_api


def test_a_tournament_made_joined_and_played_from_the_phone(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport={"width": 360, "height": 740})
    start(page, live_server, "Anna")
    page.get_by_role("link", name="Tournaments").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Tournaments")
    page.get_by_label("Name", exact=True).fill("Friday Swiss")
    page.get_by_label("Game", exact=True).select_option("sixnimmt")
    page.get_by_label("Players at a table", exact=True).fill("2")
    page.get_by_label("Rounds", exact=True).fill("1")
    page.get_by_label("Most players", exact=True).fill("2")
    page.get_by_label("Hours for a round", exact=True).fill("24")
    matchpoints = page.get_by_label("Rank by matchpoints (with duplicate deals)")
    expect(matchpoints).to_be_disabled()
    page.get_by_label("Duplicate deals: every table plays the same cards").check()
    matchpoints.check()
    assert layout_problems(page) == []
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_url(re.compile(r"#/tournament/"))
    tournament_id = page.url.split("#/tournament/")[1]
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday Swiss")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("button", name="Leave")).to_be_visible()

    bo = outside(live_server, "POST", "/players", body={"name": "Bo"})
    outside(live_server, "POST", f"/tournaments/{tournament_id}/entrants", bo["token"], {})
    for _ in range(100):  # the worker pairs the round
        if outside(live_server, "GET", f"/tournaments/{tournament_id}")["rounds"]:
            break
        page.wait_for_timeout(100)
    page.reload()
    expect(page.get_by_role("region", name="Standings")).to_contain_text("Anna")
    standings = page.get_by_role("region", name="Standings")
    expect(standings).to_contain_text("first place earns 1")
    expect(standings).to_contain_text("Matchpoints (duplicate deals): in each deal")
    expect(standings.get_by_role("columnheader")).to_have_text(
        ["#", "Player", "Matchpoints", "Points"])
    shown = outside(live_server, "GET", f"/tournaments/{tournament_id}")
    assert (shown["duplicate"], shown["rank_by"], shown["round_hours"]) == (
        True, "matchpoints", 24)
    expect(page.get_by_role("region", name="Round 1")).to_contain_text(
        re.compile(r"Anna, Bo|Bo, Anna"))
    assert layout_problems(page) == []
    page.get_by_role("link", name="Your game").click()
    page.wait_for_url(re.compile(r"#/game/"))

    page.goto(f"{live_server}/#/")   # the inbox: the tournament's table on top
    next_games = page.get_by_role("region", name="Your tournaments")
    expect(next_games).to_contain_text("Friday Swiss: round 1 of 1, your table")
    expect(page.get_by_role("region", name="My games")).to_contain_text(
        "Tournament game, round 1")
    assert layout_problems(page) == []
    next_games.get_by_role("link").click()
    page.wait_for_url(re.compile(r"#/game/"))

    page.goto(f"{live_server}/#/tournaments")
    expect(page.get_by_role("region", name="Yours")).to_contain_text("Friday Swiss")
    assert layout_problems(page) == []
