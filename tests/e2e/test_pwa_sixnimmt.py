"""The PWA in Debian's headless Chromium against the real app, Redis and RQ worker:
create a 6 nimmt! game against three easy bots and play a whole round by tapping cards."""
from __future__ import annotations

import re
import time

from phone import api_view, start, wait_for_control
from playwright import sync_api

TIMEOUT = 30_000  # ms: bots move through the RQ worker a moment after us


def test_play_a_round_of_sixnimmt_against_bots(page, live_server):
    expect = sync_api.expect
    # A first visit asks for the player's name before anything else, and shows it.
    page.goto(live_server + "/")
    expect(page.get_by_role("heading", level=1, name="Welcome to Pöytä")).to_be_visible()
    expect(page.get_by_label("Game", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Start playing").click()  # no name yet: nothing happens
    expect(page.locator("#who")).to_be_empty()
    start(page, live_server, "Anna")

    # Installable: the manifest is linked and served; the service worker registers.
    assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    manifest = page.request.get(live_server + "/manifest.webmanifest").json()
    assert manifest["name"] == "Pöytä"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == live_server + "/"

    # Create a 4-player game against three easy bots (high threshold: the game outlives the round).
    page.get_by_label("Game", exact=True).select_option(label="6 nimmt!")
    page.get_by_label("Number of players").fill("4")
    for seat in (2, 3, 4):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label="Bot (easy)")
    page.get_by_label(re.compile("ends at this many bullheads")).fill("200")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"#/game/"))
    game_id = page.url.split("#/game/")[1]
    assert api_view(page, live_server, game_id)["options"]["threshold"] == 200

    # How to play opens over the table and closes back to it; its full rules link comes back here.
    page.get_by_role("button", name="How to play").click()
    sheet = page.get_by_role("dialog", name="How to play 6 nimmt!")
    expect(sheet).to_contain_text("The sixth card in a row takes the five cards before it")
    sheet.get_by_role("link", name="Every rule in detail").click()
    expect(sheet).to_have_count(0)
    expect(page.get_by_role("heading", level=1, name="Rules of 6 nimmt!")).to_be_visible()
    page.get_by_role("link", name="Back to the game").click()
    page.get_by_role("button", name="How to play").click()
    sheet.get_by_role("button", name="Close").click()
    expect(sheet).to_have_count(0)
    expect(page.get_by_role("button", name="How to play")).to_be_focused()

    play = page.get_by_role("button", name=re.compile(r"^Play \d+, \d bullheads?$"))
    take = page.get_by_role("button", name=re.compile(r"^Take row [1-4]: [\d, ]+ — \d+ bullheads?$"))
    round_turn = page.locator(".round-turn")
    status = page.locator("#status-line")
    took_rows = 0
    for turn in range(1, 11):
        expect(round_turn).to_have_text(f"Round 1 · turn {turn} of 10")
        expect(status).to_have_text("Your turn: choose a card")
        expect(play).to_have_count(11 - turn)
        if turn == 4:
            check_cards_played(page, live_server, game_id)
        if turn == 5:  # still open on the next turn's view, one turn longer
            page.get_by_role("button", name="Hide cards played (16)").click()
            expect(page.locator("#sn-played-cards")).to_be_hidden()
        card = play.first
        label = card.get_attribute("aria-label")
        number = int(re.match(r"Play (\d+)", label).group(1))
        card.click()
        following = "Round 2 · turn 1 of 10" if turn == 10 else f"Round 1 · turn {turn + 1} of 10"
        # Either the turn completes, or our card was too low for every row: take a row.
        expect(take.first.or_(round_turn.filter(has_text=following))).to_be_visible()
        if take.count():
            expect(status).to_contain_text("Choose the row to take")
            expect(take).to_have_count(4)
            take.first.click()
            took_rows += 1
        expect(round_turn).to_have_text(following)
        # Our card shows in the last turn's line under the rows.
        expect(page.locator('[data-part="table"] .sn-just')).to_contain_text(
            re.compile(rf"You (placed {number} in row \d|took row \d with {number},)"))

    # After the round: the penalties of round 1 are shown and agree with the server.
    view = api_view(page, live_server, game_id)
    assert view["table"]["round"] == 2
    round_one = view["table"]["round_scores"][0]
    assert sum(round_one) > 0  # 40 cards on four rows: someone took a row
    penalties = page.get_by_role("table").filter(has=page.get_by_role("columnheader", name="Round 1"))
    expect(penalties).to_be_visible()
    for seat in view["seats"]:
        name = "You" if seat["seat"] == view["your_seat"] else seat["name"]
        row = penalties.get_by_role("row").filter(has=page.get_by_role("rowheader", name=name, exact=True))
        cells = row.get_by_role("cell")
        expect(cells.first).to_have_text(str(round_one[seat["seat"]]))
        expect(cells.last).to_have_text(str(seat["score"]))
        assert seat["score"] == round_one[seat["seat"]]
        expect(page.locator(".seat-list").get_by_text(f"Score {seat['score']}").first).to_be_visible()

    # The rules page is linked from the game page.
    page.get_by_role("link", name="Rules of 6 nimmt!").click()
    expect(page.get_by_role("heading", level=1, name="Rules of 6 nimmt!")).to_be_visible()

    # Home lists the game under "My games", with its state.
    page.get_by_role("link", name="Pöytä").click()
    expect(page.get_by_role("link", name=re.compile(r"^6 nimmt! · your turn"))).to_be_visible()


def check_cards_played(page, live_server, game_id):
    """"Cards played" lists every card of the round so far by number, and stays open."""
    expect = sync_api.expect
    view = api_view(page, live_server, game_id)
    played = view["table"]["played"]
    assert len(played) == 12
    toggle = page.get_by_role("button", name="Cards played (12)")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(page.get_by_role("button", name="Hide cards played (12)")).to_have_attribute(
        "aria-expanded", "true")
    cards = page.locator("#sn-played-cards li")
    expect(cards).to_have_count(12)
    by_number = sorted(played, key=lambda entry: entry["card"])
    assert [int(number) for number in cards.locator(".nc-num").all_inner_texts()] == [
        entry["card"] for entry in by_number]
    names = ["You" if seat["seat"] == view["your_seat"] else seat["name"] for seat in view["seats"]]
    expect(cards.locator(".visually-hidden")).to_have_text([
        f"{entry['card']}: {names[entry['seat']]}, turn {entry['turn']}" for entry in by_number])


def test_invite_a_friend_then_play_and_go_offline(new_page, live_server):
    expect = sync_api.expect
    anna = new_page()
    start(anna, live_server, "Anna")
    anna.get_by_label("Game", exact=True).select_option(label="6 nimmt!")
    anna.get_by_label("Number of players").fill("3")
    anna.get_by_label("Seat 2", exact=True).select_option(label="Friend (human)")
    anna.get_by_label("Seat 3", exact=True).select_option(label="Bot (easy)")
    anna.get_by_role("button", name="Create game").click()
    anna.wait_for_url(re.compile(r"#/game/"))
    game_id = anna.url.split("#/game/")[1]
    expect(anna.locator("#status-line")).to_have_text("Waiting for players to join")
    link = anna.get_by_role("textbox", name="Invite link for seat 2")
    invite = api_view(anna, live_server, game_id)["invites"][0]
    assert invite["seat"] == 1
    expect(link).to_have_value(f"{live_server}/#/invite/{invite['code']}")
    expect(anna.get_by_role("button", name="Copy")).to_be_visible()
    # Nothing can be played while a seat is open.
    expect(anna.get_by_role("button", name=re.compile(r"^Play "))).to_have_count(0)

    # A friend on another phone opens the invite link and takes the open seat.
    bo = new_page("dark")
    bo.goto(link.input_value())
    expect(bo.get_by_role("heading", level=1, name="A friend invited you to a game")).to_be_visible()
    # Before giving a name: who invited, to which game, with whom, at what pace.
    offer = bo.get_by_role("region", name="Anna invited you to 6 nimmt!")
    expect(offer).to_contain_text("3 players: Anna, you and Bot 3 (easy)")
    expect(offer).to_contain_text("Time per move: 1 day")
    start(bo, live_server, "Bo", link.input_value().removeprefix(live_server))
    bo.wait_for_url(re.compile(rf"#/game/{re.escape(game_id)}$"))
    expect(bo.locator("#status-line")).to_have_text("Your turn: choose a card")
    assert api_view(bo, live_server, game_id)["your_seat"] == 1

    # Anna's page notices by polling; the invite box goes away.
    expect(anna.locator("#status-line")).to_have_text("Your turn: choose a card")
    expect(link).to_have_count(0)

    # Bo chooses a card: Anna sees that Bo has chosen (never which card).
    play = bo.get_by_role("button", name=re.compile(r"^Play \d+"))
    number = int(re.match(r"Play (\d+)", play.first.get_attribute("aria-label")).group(1))
    play.first.click()
    expect(bo.get_by_text(f"You chose {number}.")).to_be_visible()
    bo_seat = anna.locator(".seat-list li").nth(1)
    expect(bo_seat).to_contain_text("has chosen")
    expect(anna.get_by_text(f"You chose {number}.")).to_have_count(0)

    # Offline: the page says so, even reloaded the shell comes from the service worker's
    # cache, and the page recovers by itself once the network is back.
    wait_for_control(anna)
    anna.context.set_offline(True)
    expect(anna.locator("#offline")).to_contain_text("offline")
    anna.reload()
    expect(anna.locator("#offline")).to_contain_text("offline")
    expect(anna.get_by_role("link", name="Pöytä")).to_be_visible()
    anna.context.set_offline(False)
    expect(anna.locator("#offline")).to_be_hidden()
    expect(anna.locator("#status-line")).to_have_text("Your turn: choose a card")
    anna.get_by_role("button", name=re.compile(r"^Play \d+")).first.click()
    # The lowest card of the turn (Anna's or Bo's) may be below every row: its owner takes one.
    turn_two = anna.locator(".round-turn").filter(has_text="Round 1 · turn 2 of 10")
    deadline = time.monotonic() + TIMEOUT / 1000
    while not turn_two.count():
        assert time.monotonic() < deadline, "the turn did not complete"
        for phone in (anna, bo):
            take = phone.get_by_role("button", name=re.compile(r"^Take row [1-4]"), disabled=False)
            if take.count():
                take.first.click()
        anna.wait_for_timeout(250)
    expect(turn_two).to_be_visible()


def test_rules_markdown_is_rendered_safely(page, live_server):
    expect = sync_api.expect
    page.goto(live_server + "/#/rules/sixnimmt")
    expect(page.get_by_role("heading", level=1, name="Rules of 6 nimmt!")).to_be_visible()
    expect(page.locator("main table").first).to_be_visible()  # the bullhead table of the rules page
    result = page.evaluate("""async () => {
        const { renderMarkdown } = await import("/markdown.js");
        const md = "# Title\\n\\nSome **bold** and *it* <script>alert(1)</script> <img src=x onerror=alert(2)>\\n\\n"
          + "- one\\n- two\\n  - nested\\n\\n1. first\\n2. second\\n\\n| a | b |\\n| --- | --- |\\n| 1 | 2 |\\n\\n"
          + "[bad](javascript:alert(3)) [good](https://example.org/)";
        const root = renderMarkdown(md);
        return {
          scripts: root.querySelectorAll("script, img").length,
          strong: root.querySelector("strong").textContent,
          em: root.querySelector("em").textContent,
          text: root.textContent,
          items: [...root.querySelectorAll(":scope > ul > li")].length,
          nested: root.querySelectorAll("ul ul li").length,
          ordered: root.querySelectorAll("ol li").length,
          cells: [...root.querySelectorAll("td")].map((td) => td.textContent),
          hrefs: [...root.querySelectorAll("a")].map((a) => a.getAttribute("href")),
          heading: root.querySelector("h2").textContent,
        };
    }""")
    assert result["scripts"] == 0
    assert "<script>alert(1)</script>" in result["text"]  # shown as text, never run
    assert result["strong"] == "bold" and result["em"] == "it"
    assert result["items"] == 2 and result["nested"] == 1 and result["ordered"] == 2
    assert result["cells"] == ["1", "2"]
    assert result["hrefs"] == ["https://example.org/"]
    assert result["heading"] == "Title"
