"""Asynchronous play on two phones: two browser contexts (two players, 390x844) against a live
server whose long-polls carry every change, with a 5-second pace so a deadline can pass."""
from __future__ import annotations

import re

import pytest
from phone import call, play_by_api, start
from playwright import sync_api

TIMEOUT = 20_000  # ms; well below the 40 s plain polling, so updates can only come by long-poll
PLAY = re.compile(r"^(Play \d+, \d bullheads?|Play \d+ instead, \d bullheads?)$")


@pytest.fixture
def paced_server(serve):
    """A live server where a 5-second pace exists, so a deadline can pass during the test."""
    return serve({"PACES": {"5s": 5}})


@pytest.fixture
def phones(new_page, paced_server):
    """Opens phones: each call is a fresh browser context (its own player) at 390x844."""
    def open_phone(name: str, color_scheme: str = "light"):
        page = new_page(color_scheme, timeout=TIMEOUT)
        start(page, paced_server, name)
        return page

    sync_api.expect.set_options(timeout=TIMEOUT)
    return open_phone


def held_requests(page) -> list[str]:
    """Start recording the game and inbox requests that ask the server to wait."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url) if "wait=25" in request.url else None)
    return seen


def first_card(page) -> tuple:
    button = page.get_by_role("button", name=PLAY).first
    return button, int(re.search(r"\d+", button.get_attribute("aria-label")).group())


def finish_by_api(phones_, base: str, game_id: str) -> None:
    """Each phone's player in turn makes its moves until the game is over."""
    def done_or_waiting(view: dict) -> bool:
        return view["status"] == "finished" or view["your_seat"] not in view["to_act"]

    for _ in range(200):
        for phone in phones_:
            if play_by_api(phone, base, game_id, done_or_waiting)["status"] == "finished":
                return
        phones_[0].wait_for_timeout(50)  # a bot's or the other player's move
    raise AssertionError("the game did not finish")


def take_rows_until(phones_, done, timeout_ms: int = TIMEOUT) -> None:
    """Whoever's card was too low for every row takes one, until `done` shows."""
    anyone = phones_[0]
    for _ in range(timeout_ms // 250):
        if done.count():
            return
        for phone in phones_:
            take = phone.get_by_role("button", name=re.compile(r"^Take row [1-4]"), disabled=False)
            if take.count():
                take.first.click()
        anyone.wait_for_timeout(250)
    sync_api.expect(done).to_be_visible()


def test_two_phones_invite_play_inbox_deadline_and_rematch(phones, paced_server):
    expect = sync_api.expect
    base = paced_server
    anna, bo = phones("Anna"), phones("Bo", "dark")
    anna_waits = held_requests(anna)

    # Anna creates a game for herself, a friend and a bot, an hour per move.
    anna.get_by_label("Number of players").fill("3")
    anna.get_by_label("Seat 2", exact=True).select_option(label="Friend (human)")
    anna.get_by_label("Seat 3", exact=True).select_option(label="Bot (easy)")
    pace = anna.get_by_label(re.compile("^Time per move"))
    expect(pace.locator('option[value="none"]')).to_be_disabled()  # a friend must never wait forever
    pace.select_option(label="1 hour")
    anna.get_by_label("The game ends at this many bullheads").fill("200")
    anna.get_by_role("button", name="Create game").click()
    anna.wait_for_url(re.compile(r"#/game/"))
    game = anna.url.split("#/game/")[1]
    assert call(anna, base, "GET", f"/games/{game}")["pace"] == "1h"

    # The friend's seat has its own invite link; Bo opens it on his phone.
    link = anna.get_by_role("textbox", name="Invite link for seat 2")
    expect(link).to_have_value(re.compile(rf"^{re.escape(base)}/#/invite/[\w-]+$"))
    expect(anna.get_by_role("group", name="Invite link for seat 2").get_by_role("button", name="Copy")).to_be_visible()
    bo.goto(link.input_value())
    # Bo already plays here: the link first says what it offers, and he takes the seat.
    offer = bo.get_by_role("region", name="Anna invited you to 6 nimmt!")
    expect(offer).to_contain_text("3 players: Anna, you and Bot 3 (easy)")
    expect(offer).to_contain_text("Time per move: 1 hour")
    bo.get_by_role("button", name="Take the seat").click()
    bo.wait_for_url(re.compile(rf"#/game/{re.escape(game)}$"))
    expect(bo.locator("#status-line")).to_have_text("Your turn: choose a card")
    # Anna's page learns it by long-poll: the invite goes, her turn starts, her deadline shows.
    expect(anna.locator("#status-line")).to_have_text("Your turn: choose a card")
    expect(link).to_have_count(0)
    expect(anna.locator(".seat.mine .time-left")).to_have_text(re.compile(r"^(60 min|1 h) left$"))
    assert any(f"/games/{game}?wait=25" in url for url in anna_waits)

    # Bo opens a second game of his own, against a bot with no time limit.
    bo.get_by_role("link", name="Pöytä").click()
    bo.get_by_label("Number of players").fill("2")
    bo.get_by_label("Seat 2", exact=True).select_option(label="Bot (easy)")
    bo.get_by_label(re.compile("^Time per move")).select_option(label="No time limit (only against bots)")
    bo.get_by_role("button", name="Create game").click()
    bo.wait_for_url(re.compile(r"#/game/"))
    solo = bo.url.split("#/game/")[1]
    assert solo != game

    # Turn 1 of the shared game: Bo chooses first; Anna sees that he has chosen, not what.
    bo.goto(f"{base}/#/game/{game}")
    card, number = first_card(bo)
    card.click()
    expect(bo.get_by_text(f"You chose {number}.")).to_be_visible()
    # A chosen card may be replaced until everyone has chosen: Bo taps another one.
    other, number = first_card(bo)
    expect(other).to_have_accessible_name(re.compile(r"^Play \d+ instead"))
    other.click()
    expect(bo.get_by_text(f"You chose {number}.")).to_be_visible()
    assert call(bo, base, "GET", f"/games/{game}")["table"]["my_choice"] == number
    expect(anna.locator(".seat-list li").nth(1)).to_contain_text("has chosen")
    expect(anna.get_by_text(f"You chose {number}.")).to_have_count(0)

    # Bo's inbox: the shared game waits for Anna now, so his solo game (his turn) comes first.
    bo.get_by_role("link", name="Pöytä").click()
    inbox = bo.locator(".game-list").first.get_by_role("link")
    expect(inbox).to_have_count(2)
    expect(inbox.first).to_have_attribute("href", f"#/game/{solo}")
    expect(inbox.nth(1)).to_have_text(re.compile(r"^6 nimmt! · in progress"))
    expect(bo).to_have_title("(1) Pöytä")

    # Anna plays. Bo's inbox reorders by itself once the shared game is his turn again (the next
    # turn, or a row to take): both games are his turn then, and the shared one has a deadline.
    card, _ = first_card(anna)
    card.click()
    shared_first = bo.locator(f'.game-list li:first-child a[href="#/game/{game}"]')
    take_rows_until([anna], shared_first)
    expect(shared_first).to_have_text(re.compile(r"^6 nimmt! · your turn.* left$"))
    expect(bo).to_have_title("(2) Pöytä")

    # Turn 2, from the inbox: Bo plays, Anna plays, and Bo's page follows without reloading.
    shared_first.click()
    bo_turn_two = bo.locator(".round-turn").filter(has_text="Round 1 · turn 2 of 10")
    take_rows_until([bo], bo_turn_two)
    card, _ = first_card(bo)
    card.click()
    expect(anna.locator(".seat-list li").nth(1)).to_contain_text("has chosen")
    card, _ = first_card(anna)
    card.click()
    take_rows_until([anna, bo], bo.locator(".round-turn").filter(has_text="Round 1 · turn 3 of 10"))
    expect(anna.locator(".log-lines li").first).to_be_visible()

    # A 5-second game: nobody moves, so the time runs out and bots play for both.
    fast = call(anna, base, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "pace": "5s",
        "options": {"threshold": 1}})
    call(bo, base, "POST", f"/games/invites/{fast['invites'][0]['code']}")  # the clocks start
    anna.goto(f"{base}/#/game/{fast['id']}")
    bo.goto(f"{base}/#/game/{fast['id']}")
    expect(bo.locator(".seat.mine .time-left")).to_have_text(re.compile(r"^(\d s left|time is up)$"))
    log = anna.locator(".log-lines")
    expect(log).to_contain_text(re.compile(r"Time ran out for Bo: a bot played instead\."))
    expect(log).to_contain_text("Your time ran out: a bot played for you.")
    expect(anna.locator(".round-turn")).to_have_text(re.compile(r"turn ([2-9]|10) of 10"))
    expect(anna.get_by_role("note").filter(has_text="Time ran out")).to_be_visible()

    # The two play the rest of the round straight through the API: game over (threshold 1).
    finish_by_api([anna, bo], base, fast["id"])
    expect(anna.locator("#status-line")).to_have_text("Game over")
    expect(bo.locator("#status-line")).to_have_text("Game over")

    # Rematch: Anna asks for it and lands in the new game; Bo's page offers it by itself.
    anna.get_by_role("button", name="Rematch").click()
    anna.wait_for_url(re.compile(rf"#/game/(?!{re.escape(fast['id'])}$)"))
    rematch = anna.url.split("#/game/")[1]
    assert rematch != fast["id"]
    expect(anna.locator("#status-line")).to_have_text("Waiting for Bo")  # the seat kept for Bo
    bo.get_by_role("link", name="Open the rematch").click()
    bo.wait_for_url(re.compile(rf"#/game/{re.escape(rematch)}$"))
    expect(bo.locator("#status-line")).to_have_text("Your turn: choose a card")
    expect(anna.locator("#status-line")).to_have_text("Your turn: choose a card")
    assert call(bo, base, "GET", f"/games/{rematch}")["your_seat"] == 1


def test_settings_confirm_replay_and_signing_in_another_device(phones, paced_server):
    expect = sync_api.expect
    base = paced_server
    anna = phones("Ann")

    # Settings: a name (shown at once) and confirm-before-play.
    anna.get_by_role("link", name="Settings").click()
    anna.get_by_label("Your name").fill("Anna")
    anna.get_by_role("button", name="Save").click()
    expect(anna.get_by_text("You are Anna")).to_be_visible()
    anna.get_by_label(re.compile("^Confirm before playing")).check()

    # With confirm on, the first tap only selects; the bar's Confirm plays it.
    game = call(anna, base, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"threshold": 1}})
    anna.goto(f"{base}/#/game/{game['id']}")
    card, number = first_card(anna)
    card.click()
    expect(anna.get_by_role("group", name="Confirm your move")).to_contain_text(f"Play {number}, ")
    anna.wait_for_timeout(500)
    assert call(anna, base, "GET", f"/games/{game['id']}")["table"]["my_choice"] is None
    anna.get_by_role("group", name="Confirm your move").get_by_role("button", name="Confirm").click()
    expect(anna.get_by_role("group", name="Confirm your move")).to_be_hidden()
    expect(anna.get_by_role("button", name=re.compile(rf"^Play {number}[ ,]"))).to_have_count(0)  # played
    assert number not in call(anna, base, "GET", f"/games/{game['id']}")["hand"]

    # The game ends; its replay steps through every move with all hands shown.
    finish_by_api([anna], base, game["id"])
    expect(anna.locator("#status-line")).to_have_text("Game over")
    anna.get_by_role("link", name="Replay").click()
    step = anna.locator("#replay-step")
    expect(step).to_have_text(re.compile(r"^Step 0 of \d+$"))
    steps = int(step.inner_text().split()[-1])
    expect(anna.get_by_role("heading", name="Hands")).to_be_visible()
    expect(anna.locator("main li").filter(has_text=re.compile(r"^Anna: \d+(, \d+){9}$"))).to_be_visible()
    anna.get_by_role("button", name="Next").click()
    expect(step).to_have_text(f"Step 1 of {steps}")
    anna.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step 2 of {steps}")
    anna.keyboard.press("End")
    expect(step).to_have_text(f"Step {steps} of {steps}")
    expect(anna.get_by_role("button", name="Next")).to_be_disabled()

    # Another device: a one-use sign-in link (with its QR code) makes it Anna there too.
    anna.get_by_role("link", name="Settings").click()
    anna.get_by_role("button", name="Make a sign-in link").click()
    expect(anna.get_by_role("img", name="QR code of the sign-in link")).to_be_visible()
    link = anna.get_by_role("textbox", name="Sign-in link").input_value()
    assert re.fullmatch(rf"{re.escape(base)}/#/signin/[\w-]+", link)
    tablet = phones("Tablet", "dark")
    tablet.goto(link)
    tablet.get_by_role("button", name="Sign in").click()
    expect(tablet.get_by_text("You are Anna")).to_be_visible()
    expect(tablet.locator(".game-list").first.get_by_role("link")).to_have_text(re.compile(r"^6 nimmt! · finished"))
    anna.reload()
    devices = anna.get_by_role("region", name="Devices").locator(".device-list li")
    expect(devices).to_have_count(2)
    devices.get_by_role("button", name=re.compile("^Sign out")).click()
    expect(devices).to_have_count(1)
    expect(devices).to_contain_text("this device")

    # Finnish: every shell string follows.
    anna.get_by_label("Language of the app").select_option("fi")
    expect(anna.get_by_role("heading", level=1, name="Asetukset")).to_be_visible()
    assert anna.evaluate("document.documentElement.lang") == "fi"
    expect(anna.get_by_role("link", name="Asetukset")).to_be_visible()
