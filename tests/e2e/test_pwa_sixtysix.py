"""The PWA in Debian's headless Chromium against the real app, Redis and RQ worker:
create a 2-player Sixty-six game against the easy bot and tap through a whole match (declaring
only with 66, each hand's score explained); the special moves keep the hand above the fold."""
from __future__ import annotations

import re
import time

from phone import api_view, call, play_by_api, start
from playwright import sync_api

MATCH_POINTS = 7
MATCH_SECONDS = 300  # a runaway guard, far above a normal match on a loaded machine


def test_play_a_whole_two_player_match_against_the_easy_bot(page, live_server):
    expect = sync_api.expect
    start(page, live_server)
    page.get_by_label("Game", exact=True).select_option(label="Sixty-six")
    page.get_by_label("Number of players").fill("2")
    page.get_by_label("Seat 2", exact=True).select_option(label="Bot (easy)")
    page.get_by_label("Game points to win the match").fill(str(MATCH_POINTS))
    # Classic rules with two players: the 24-card deck, said and not offered otherwise.
    expect(page.get_by_label("Rules", exact=True)).to_have_value('"classic"')
    expect(page.get_by_label("Rules", exact=True).locator("option:checked")).to_have_text(
        "Classic: marriages and the trump exchange")
    expect(page.get_by_label("Deck", exact=True)).to_be_disabled()
    expect(page.get_by_label("Deck", exact=True).locator("option:checked")).to_have_text("24 cards (9 to ace)")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"#/game/"))

    table = page.locator(".sixtysix")
    expect(table.get_by_text(re.compile(r"^Trump [♠♥♦♣] (spades|hearts|diamonds|clubs)$"))).to_be_visible()
    expect(table.get_by_role("button", name=re.compile(r"^Play \w+ of \w+( and show the marriage \(\+\d+\))?$"))).to_have_count(6)

    playable = table.get_by_role("button", name=re.compile(r"^Play "), disabled=False)
    declare = table.get_by_role("button", name=re.compile(r"^I have enough: declare \(\d+ of 66 card points\)$"))
    declare_short = table.get_by_role("button", name=re.compile(r"^Declare with only \d+ of 66 card points"))
    hand = table.locator('[data-part="hand"]')
    close = table.get_by_role("button", name="Close the stock")
    # The trump nine, while the exchange is allowed, opens a choice instead of playing.
    nine = table.get_by_role("button", name=re.compile(r"^nine of \w+: exchange it for the trump card, or play it$"))
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
        points = int(re.search(r"(\d+) card points", my_points.inner_text()).group(1))
        # Declaring is the big button only with 66; below, it waits under the hand, plain.
        if declare_short.is_visible():
            assert points < 66 and "primary" not in declare_short.get_attribute("class")
            assert declare_short.bounding_box()["y"] > hand.bounding_box()["y"] + hand.bounding_box()["height"]
        if declare.is_visible():
            assert points >= 66 and "primary" in declare.get_attribute("class")
            declare.click()
            expect(confirm).to_contain_text(f"I have enough: declare ({points} of 66 card points)? This cannot be undone.")
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
        elif nine.is_visible():
            nine.click()
            table.get_by_role("group", name=re.compile(r": exchange it")).get_by_role(
                "button", name=re.compile(r"^Exchange nine of \w+ for ")).click()
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
    # The hand's result says why its game points were given, each reason once.
    why = table.locator(".sx-result p").filter(has_text=re.compile(r"^(You|Bot 2 \(easy\)): \d game points?: "))
    expect(why).to_have_count(1)
    expect(why).to_have_text(re.compile(r"^(You|Bot 2 \(easy\)): \d game points?: (the other side took (no trick|fewer than 33"
                                        r" card points \(\d+\)|33 card points or more \(\d+\))|.+declared with only \d+ of 66"
                                        r" card points|the closer's side did not reach 66 card points.*)( \(\d of them carried over"
                                        r" from earlier hands\))?\.$"))
    assert "ran out. The cards ran out" not in table.locator(".sx-result").inner_text()
    expect(table.get_by_role("button", name=re.compile(r"^Play "))).to_have_count(0)
    assert taps > 6 and closing_asked


def test_special_moves_stay_compact_under_the_hand(new_page, live_server):
    """After a won trick with a marriage in hand (and the exchange, maybe), the hand stays
    above the fold, its special moves as small buttons under it, none of them primary."""
    expect = sync_api.expect
    for viewport in ({"width": 390, "height": 844}, {"width": 360, "height": 740}):
        page = new_page(viewport=viewport)
        start(page, live_server)
        game = call(page, live_server, "POST", "/games", {"type": "sixtysix", "players": 2, "pace": "none",
                                                          "seats": ["human", {"bot": "easy"}],
                                                          "options": {"preset": "classic", "match_points": 21}})
        play_by_api(page, live_server, game["id"], lambda view: any(a["type"] == "marry" for a in view["legal_actions"]))
        page.goto(f"{live_server}/#/game/{game['id']}")
        marriage = page.get_by_role("button", name=re.compile(r"^Play (king|queen) of \w+ and show the marriage \(\+[24]0\)$"))
        expect(marriage.first).to_be_visible()
        hand = page.locator('.sixtysix [data-part="hand"]').bounding_box()
        assert hand["y"] + hand["height"] <= viewport["height"], (hand, viewport)
        for button in page.locator(".sx-special button").all():
            box = button.bounding_box()
            assert box["y"] > hand["y"] + hand["height"] and 44 <= box["height"] < 60, box
            assert "primary" not in (button.get_attribute("class") or "")


def test_a_marriage_is_shown_by_tapping_its_king_or_queen(new_page, live_server):
    """Leading a marriage's king or queen shows the marriage, marked on the card (+20, +40);
    the toggle under the hand turns that off and on; no separate marriage button."""
    expect = sync_api.expect
    page = new_page(viewport={"width": 360, "height": 740})
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {"type": "sixtysix", "players": 2, "pace": "none",
                                                      "seats": ["human", {"bot": "easy"}],
                                                      "options": {"preset": "classic", "match_points": 21}})
    view = play_by_api(page, live_server, game["id"], lambda view: any(a["type"] == "marry" for a in view["legal_actions"]))
    marry = next(a for a in view["legal_actions"] if a["type"] == "marry")
    page.goto(f"{live_server}/#/game/{game['id']}")
    hand = page.locator('.sixtysix [data-part="hand"]')
    card = hand.locator("[data-marry]").first
    expect(card).to_have_accessible_name(re.compile(r"^Play (king|queen) of \w+ and show the marriage \(\+[24]0\)$"))
    expect(card.locator(".sx-marry-mark")).to_have_text(re.compile(r"^\+[24]0$"))
    expect(page.get_by_role("button", name=re.compile("lead (king|queen)$"))).to_have_count(0)

    toggle = page.get_by_role("button", name="Show the marriage when I lead its king or queen")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(card).to_have_accessible_name(re.compile(r"^Play (king|queen) of \w+$"))
    expect(card.locator(".sx-marry-mark")).to_be_hidden()
    toggle.click()
    expect(card).to_have_accessible_name(re.compile("and show the marriage"))

    key = f"play-{marry['card']}-"
    played = hand.locator(f'[data-focus-key^="{key}"]')
    played.click()
    expect(page.locator(".log-lines")).to_contain_text(re.compile(r"You showed the \w+ marriage \(\+[24]0"))


def test_the_exchange_is_a_choice_on_the_trump_nine(new_page, live_server):
    """While the exchange is allowed, tapping the trump nine asks: exchange it for the
    face-up trump, or play it; the exchange goes to the server from there."""
    expect = sync_api.expect
    page = new_page(viewport={"width": 360, "height": 740})
    start(page, live_server)
    new_game = lambda: call(page, live_server, "POST", "/games", {  # noqa: E731
        "type": "sixtysix", "players": 2, "pace": "none", "seats": ["human", {"bot": "easy"}],
        "options": {"preset": "classic"}})
    game = new_game()
    # Win tricks and keep the trump nine until the exchange is allowed (hand after hand; a
    # match that ends without it, as a random deal may, gives way to another).
    for _ in range(1800):
        view = call(page, live_server, "GET", f"/games/{game['id']}")
        if {"type": "exchange"} in view["legal_actions"]:
            break
        if view["status"] == "finished":
            game = new_game()
            continue
        plays = [a for a in view["legal_actions"] if a["type"] == "play"]
        keep = [a for a in plays if a["card"] != "9" + view["table"]["trump"]] or plays
        if view["your_seat"] in view["to_act"] and keep:
            call(page, live_server, "POST", f"/games/{game['id']}/actions", {"action": keep[-1], "version": view["version"]})
        else:
            page.wait_for_timeout(50)
    assert {"type": "exchange"} in view["legal_actions"], "the match ended without an exchange allowed"
    nine = "9" + view["table"]["trump"]
    page.goto(f"{live_server}/#/game/{game['id']}")
    card = page.locator(f'.sixtysix [data-part="hand"] [data-focus-key^="play-{nine}-"]')
    expect(card).to_have_attribute("aria-expanded", "false")
    expect(card).to_have_accessible_name(re.compile(r"^nine of \w+: exchange it for the trump card, or play it$"))
    expect(page.locator(".sx-special").get_by_role("button", name=re.compile("^Exchange"))).to_have_count(0)
    card.click()
    choice = page.get_by_role("group", name=re.compile(r"^nine of \w+: exchange it for the trump card, or play it$"))
    expect(choice).to_be_visible()
    expect(card).to_have_attribute("aria-expanded", "true")
    expect(choice.get_by_role("button", name=re.compile(r"^Play nine of \w+$"))).to_be_visible()
    choice.get_by_role("button", name=re.compile(r"^Exchange nine of \w+ for ")).click()
    expect(page.locator(".log-lines")).to_contain_text(re.compile(r"You exchanged the nine of \w+ for the face-up"))
    assert nine not in call(page, live_server, "GET", f"/games/{game['id']}")["hand"]
