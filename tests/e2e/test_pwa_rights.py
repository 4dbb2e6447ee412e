"""A player's rights on the phone: "Download my data" saves the export, "Delete my account" asks
once more and then deletes it (the phone starts afresh, the old token answers 401), and the other
player's replay of a game they shared names the seat "deleted player"; in Finnish too, with the
accessibility audit."""
from __future__ import annotations

import json
import urllib.error
from pathlib import Path

import pytest
from playwright import sync_api

from phone import call, outside, play_by_api, start
from test_pwa_accessibility import axe_installed, serious_violations  # noqa: F401 (a fixture)

SHARED_GAME = {"type": "sixnimmt", "players": 2, "seats": ["human", "human"],
               "options": {"threshold": 1}, "pace": "5m"}


def shared_finished_game(anna, bert, base: str) -> str:
    game = call(anna, base, "POST", "/games", SHARED_GAME)
    call(bert, base, "POST", f"/games/invites/{game['invites'][0]['code']}")
    for _ in range(200):
        view = play_by_api(anna, base, game["id"], lambda view: view["status"] == "finished"
                           or not (view["your_seat"] in view["to_act"]))
        if view["status"] == "finished":
            return game["id"]
        play_by_api(bert, base, game["id"], lambda view: view["status"] == "finished"
                    or not (view["your_seat"] in view["to_act"]))
    raise AssertionError("the game never finished")


def signed_out(page) -> None:
    """Until the phone forgot its player (polled from here, as the page's CSP refuses
    Playwright's in-page polling)."""
    for _ in range(300):
        try:
            if page.evaluate("() => localStorage.getItem('poyta.player') === null"):
                return
        except sync_api.Error:
            pass  # the page reloading meanwhile
        page.wait_for_timeout(100)
    raise AssertionError("the phone kept its player")


def token_of(page) -> str:
    return page.evaluate("JSON.parse(localStorage.getItem('poyta.player')).token")


def deleted_for_good(page, section, base: str, token: str, confirm: str, start: str) -> None:
    """Confirms the deletion asked in `section`: the phone starts afresh (its `start` button)
    and the old token answers 401."""
    section.get_by_role("button", name=confirm).click()
    signed_out(page)
    sync_api.expect(page.get_by_role("button", name=start)).to_be_visible()
    with pytest.raises(urllib.error.HTTPError) as refused:
        outside(base, "GET", "/players/me", token)
    assert refused.value.code == 401


def test_download_then_delete_my_account_in_english(new_page, live_server):
    expect = sync_api.expect
    anna, bert = new_page(), new_page()
    start(anna, live_server, "Anna")
    start(bert, live_server, "Bert")
    game_id = shared_finished_game(anna, bert, live_server)
    token = token_of(anna)

    anna.goto(f"{live_server}/#/settings")
    section = anna.get_by_role("region", name="Your data")
    with anna.expect_download() as downloading:
        section.get_by_role("button", name="Download my data").click()
    saved = downloading.value
    assert saved.suggested_filename == "poyta-my-data.jsonl"
    lines = [json.loads(line) for line in Path(saved.path()).read_text("utf-8").splitlines()]
    assert lines[0]["kind"] == "player" and lines[0]["name"] == "Anna"
    expect(section.get_by_role("status")).to_have_text("Your data is downloaded.")

    section.get_by_role("button", name="Delete my account").click()
    ask = section.get_by_role("group")
    expect(ask).to_contain_text("Delete the account Anna for good?")
    ask.get_by_role("button", name="Cancel").click()
    expect(section.get_by_role("group")).to_have_count(0)
    assert outside(live_server, "GET", "/players/me", token)["name"] == "Anna"

    section.get_by_role("button", name="Delete my account").click()
    deleted_for_good(anna, section, live_server, token, "Delete for good", "Start playing")

    bert.goto(f"{live_server}/#/replay/{game_id}")
    expect(bert.locator("main")).to_contain_text("deleted player")
    expect(bert.locator("main")).not_to_contain_text("Anna")


def test_the_rights_speak_finnish_and_pass_the_accessibility_audit(axe_installed, new_page,
                                                                   live_server):
    expect = sync_api.expect
    phone = new_page(locale="fi-FI", bypass_csp=True)
    start(phone, live_server, "Anna")
    token = token_of(phone)
    phone.goto(f"{live_server}/#/settings")
    section = phone.get_by_role("region", name="Tietosi")
    expect(section.get_by_role("button", name="Lataa tietoni")).to_be_visible()
    section.get_by_role("button", name="Poista tilini").click()
    expect(section.get_by_role("group")).to_contain_text("Poistetaanko tili Anna lopullisesti?")
    assert serious_violations(phone) == [], "settings, the deletion asked"
    deleted_for_good(phone, section, live_server, token, "Poista lopullisesti", "Aloita")
