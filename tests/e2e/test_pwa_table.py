"""Around the table on the phone: quick reactions and short messages (shown as text, muteable),
resigning: a bot takes the seat, and the game and its result say who resigned (a two-player game
ends there, for both phones); and leaving a game that has not started."""
from __future__ import annotations

import re

import pytest
from phone import call, outside, play_by_api, start
from playwright import sync_api

NO_GAMES = "No games yet."


def test_reactions_chat_mute_and_resign(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", {"bot": "easy"}],
        "options": {"threshold": 1}})
    bo = outside(live_server, "POST", "/players", body={"name": "Bo"})["token"]
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bo, {})
    outside(live_server, "POST", f"/games/{game['id']}/chat", bo, {"text": '<img src=x onerror="alert(1)"> Hi!'})
    page.goto(f"{live_server}/#/game/{game['id']}")

    # Bo's message, as text; a quick reaction from Anna goes to the table.
    talk = page.get_by_role("region", name="Messages at the table")
    expect(talk).to_contain_text('Bo: <img src=x onerror="alert(1)"> Hi!')
    assert talk.locator("img").count() == 0
    page.get_by_role("group", name="Quick reactions").get_by_role("button", name="Good game!").click()
    expect(talk).to_contain_text("You: Good game!")
    heard = outside(live_server, "GET", f"/games/{game['id']}/chat?after=0", bo)["messages"]
    assert [(m["name"], m["text"]) for m in heard][-1] == ("Anna", "Good game!")
    page.get_by_label("Message to the table").fill("x" * 250)
    assert len(page.get_by_label("Message to the table").input_value()) == 200

    # Muted: the others' messages are hidden in this game, even after a reload.
    page.get_by_label("Mute the others' messages in this game").check()
    expect(talk.get_by_text("Hi!")).to_be_hidden()
    page.reload()
    expect(talk).to_contain_text("You: Good game!")
    expect(talk.get_by_text("Hi!")).to_be_hidden()

    # Resigning cannot be undone: it is asked first; then a bot plays Anna's seat.
    page.get_by_role("button", name="Resign").click()
    ask = page.get_by_role("dialog", name=re.compile(r"^Resign this game\?"))
    ask.get_by_role("button", name="Cancel").click()
    expect(ask).to_have_count(0)
    assert call(page, live_server, "GET", f"/games/{game['id']}")["seats"][0]["resigned"] is False
    page.get_by_role("button", name="Resign").click()
    ask.get_by_role("button", name="Resign").click()
    expect(page.get_by_text("You resigned: a bot plays your seat to the end.")).to_be_visible()
    expect(page.locator(".seat.mine")).to_contain_text("resigned")
    expect(page.locator(".log-lines")).to_contain_text("You resigned: a bot plays your seat")
    expect(page.get_by_role("button", name="Resign")).to_have_count(0)

    # The bot takes the seat: its next move shows in the log as played for Anna.
    expect(page.locator(".log-lines")).to_contain_text("The stand-in bot played for you.")


def test_resigning_a_two_player_game_ends_it_for_both_phones(new_page, live_server):
    expect = sync_api.expect
    anna, bo = new_page(), new_page()
    start(anna, live_server, "Anna")
    start(bo, live_server, "Bo")
    game = call(anna, live_server, "POST", "/games", {"type": "sixtysix", "players": 2, "seats": ["human", "human"]})
    call(bo, live_server, "POST", f"/games/invites/{game['invites'][0]['code']}")
    anna.goto(f"{live_server}/#/game/{game['id']}")
    bo.goto(f"{live_server}/#/game/{game['id']}")
    expect(bo.get_by_role("button", name="Resign")).to_be_visible()

    # Asked first, with what follows: Anna wins and the game ends.
    bo.get_by_role("button", name="Resign").click()
    ask = bo.get_by_role("dialog", name="Resign this game? Anna wins and the game ends. This cannot be undone.")
    ask.get_by_role("button", name="Resign").click()
    expect(bo.locator(".outcome")).to_contain_text("You resigned, so the game ended.")
    expect(bo.locator("#status-line")).to_have_text("Game over")
    expect(bo.locator(".log-lines")).to_contain_text("You resigned: the game is over")
    expect(bo.get_by_text("a bot plays your seat")).to_have_count(0)

    # Anna's phone: the game is over and she won; nothing to play on.
    result = anna.locator(".outcome")
    expect(result).to_contain_text("Bo resigned, so the game ended.")
    expect(result).to_contain_text("You won!")
    expect(anna.locator("#status-line")).to_have_text("Game over")
    expect(anna.locator(".log-lines")).to_contain_text("Bo resigned: the game is over")
    expect(anna.get_by_role("button", name="Resign")).to_have_count(0)
    expect(anna.locator(".seat .badge", has_text="bot stands in")).to_have_count(0)

    # The inbox says who resigned and who won, and no longer offers Bo as the opponent.
    anna.goto(f"{live_server}/#/")
    line = anna.locator(f'a.game-link[href="#/game/{game["id"]}"]')
    expect(line).to_contain_text("Sixty-six · finished")
    expect(line.locator("small")).to_contain_text(re.compile(r"^Bo resigned · You won · your score 0 · \w+ \d+, \d{4}$"))
    expect(line).not_to_contain_text("with Bo")


def test_leaving_a_game_that_has_not_started(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Bo")
    anna = outside(live_server, "POST", "/players", body={"name": "Anna"})["token"]
    game = outside(live_server, "POST", "/games", anna, {
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", "human"]})
    call(page, live_server, "POST", f"/games/invites/{game['invites'][0]['code']}")
    listed = page.locator(f'a.game-link[href="#/game/{game["id"]}"]')
    page.reload()
    expect(listed).to_have_count(1)
    listed.click()

    # Asked first; cancelled, Bo keeps his seat.
    expect(page.get_by_role("button", name="Resign")).to_have_count(0)
    page.get_by_role("button", name="Leave this game").click()
    ask = page.get_by_role("dialog", name="Leave this game? Your seat opens again for someone else.")
    ask.get_by_role("button", name="Cancel").click()
    expect(ask).to_have_count(0)
    assert outside(live_server, "GET", f"/games/{game['id']}", anna)["seats"][1]["name"] == "Bo"
    # Left: back home, the inbox without it, the seat open to a new invite link.
    page.get_by_role("button", name="Leave this game").click()
    ask.get_by_role("button", name="Leave").click()
    mine = page.get_by_role("region", name="My games")
    expect(mine).to_contain_text(NO_GAMES)
    expect(listed).to_have_count(0)
    view = outside(live_server, "GET", f"/games/{game['id']}", anna)
    assert view["seats"][1]["name"] is None and {i["seat"] for i in view["invites"]} == {1, 2}

    # Alone in a game of his own, leaving deletes it, and says so first.
    own = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]})
    page.goto(f"{live_server}/#/game/{own['id']}")
    page.get_by_role("button", name="Leave this game").click()
    page.get_by_role("dialog", name="Leave this game? Nobody else has joined, so the game is deleted.") \
        .get_by_role("button", name="Leave").click()
    expect(mine).to_contain_text(NO_GAMES)
    token = page.evaluate("JSON.parse(localStorage.getItem('poyta.player')).token")
    gone = page.request.get(f"{live_server}/api/v1/games/{own['id']}", headers={"Authorization": f"Bearer {token}"})
    assert gone.status == 404


def test_a_message_arrives_at_once_and_is_marked_until_seen(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {"type": "sixtysix", "players": 2, "seats": ["human", "human"]})
    bo = outside(live_server, "POST", "/players", body={"name": "Bo"})["token"]
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bo, {})
    outside(live_server, "POST", f"/games/{game['id']}/chat", bo, {"text": "Hello before"})
    page.goto(f"{live_server}/#/game/{game['id']}")
    talk = page.get_by_role("region", name="Messages at the table")
    expect(talk).to_contain_text("Bo: Hello before")
    unread = page.locator(".game-tools .unread")
    expect(unread).to_be_hidden()  # what was said before is not news
    page.evaluate("window.scrollTo(0, 0)")
    assert not talk.evaluate("(el) => el.getBoundingClientRect().top < window.innerHeight")

    # Said while Anna looks at the table: it arrives while the first look still waits (the
    # old ten-second poll would not have brought it yet), and the top of the page counts it.
    page.wait_for_timeout(500)
    outside(live_server, "POST", f"/games/{game['id']}/chat", bo, {"text": "Your turn!"})
    outside(live_server, "POST", f"/games/{game['id']}/chat", bo, {"text": "Good luck"})
    expect(unread).to_have_text("2 new messages", timeout=4000)
    expect(talk).to_contain_text("Bo: Good luck")
    unread.click()
    expect(unread).to_be_hidden()
    assert talk.evaluate("(el) => el.getBoundingClientRect().top < window.innerHeight")
    expect(page.get_by_label("Message to the table")).to_be_focused()

    # The log numbers the lines Anna sees one by one (the card Bo draws is not hers to see).
    view = call(page, live_server, "GET", f"/games/{game['id']}")
    call(page, live_server, "POST", f"/games/{game['id']}/actions", {"action": view["legal_actions"][0]})
    answer = outside(live_server, "GET", f"/games/{game['id']}", bo)["legal_actions"][0]
    outside(live_server, "POST", f"/games/{game['id']}/actions", bo, {"action": answer})
    lines = page.locator(".log-lines li")
    expect(lines.filter(has_text="Cards drawn")).to_have_count(1)
    assert any(e["type"] == "drew" for e in outside(live_server, "GET", f"/games/{game['id']}/events?after=0", bo)["events"])
    numbers = lines.evaluate_all("(items) => items.map((li) => li.getAttribute('value'))")
    assert numbers and all(number is None for number in numbers)


def test_the_host_shares_an_invite_through_the_share_sheet(new_page, live_server):
    expect = sync_api.expect
    page = new_page()
    # Where the system share sheet exists (phones), it carries the link, the game and the host.
    page.context.add_init_script("navigator.share = (data) => { window.shared = data; return Promise.resolve(); }")
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {"type": "sixtysix", "players": 2, "seats": ["human", "human"]})
    page.goto(f"{live_server}/#/game/{game['id']}")
    box = page.get_by_role("group", name="Invite link for seat 2")
    box.get_by_role("button", name="Share").click()
    shared = page.evaluate("window.shared")
    assert shared["url"] == f"{live_server}/#/invite/{game['invites'][0]['code']}"
    assert shared["text"] == "Anna invites you to a game of Sixty-six on Pöytä"
    expect(box.get_by_role("button", name="Copy")).to_be_visible()  # and Copy beside it


def test_an_invite_is_previewed_in_finnish(new_page, live_server):
    expect = sync_api.expect
    anna = outside(live_server, "POST", "/players", body={"name": "Anna"})["token"]
    game = outside(live_server, "POST", "/games", anna, {
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", {"bot": "medium"}], "pace": "3d"})
    page = new_page(locale="fi-FI")
    page.goto(f"{live_server}/#/invite/{game['invites'][0]['code']}")
    offer = page.get_by_role("region", name="Anna kutsui sinut peliin 6 nimmt!")
    expect(offer).to_contain_text("3 pelaajaa: Anna, sinä ja Botti 3 (keskitaso)")
    expect(offer).to_contain_text("Aikaa siirtoa kohden: 3 päivää")


@pytest.mark.parametrize("locale", ["en-GB", "fi-FI"])
def test_reactions_are_words_and_the_mute_box_is_a_full_target(new_page, live_server, locale):
    """Every quick reaction reads without an emoji font (letters and punctuation only), and the
    mute checkbox itself is as large a target as the buttons beside it."""
    expect = sync_api.expect
    page = new_page(viewport={"width": 360, "height": 740}, locale=locale)
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none"})
    page.goto(f"{live_server}/#/game/{game['id']}")
    reactions = page.locator(".chat-reactions button")
    expect(reactions).to_have_count(5)
    for text in reactions.all_inner_texts():
        assert re.fullmatch(r"[A-Za-zÄÖäö ,.!'-]+", text), f"{text!r} needs a font of its own"
    mute = page.locator("#chat-mute")
    box = mute.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    mute.click()
    expect(mute).to_be_checked()


@pytest.mark.parametrize(("locale", "bot", "resigned", "resigns"), [
    ("en-GB", "Bot 2 (easy)", "Bo resigned", "Bo resigned: a bot plays the seat"),
    ("fi-FI", "Botti 2 (helppo)", "Bo luovutti", "Bo luovutti: botti pelaa paikan"),
])
def test_a_resigned_seat_is_named_by_its_bot(new_page, live_server, locale, bot, resigned, resigns):
    """Three players, Bo resigns: from then on his seat is its stand-in bot by the bot's level
    in the seat list, the log and the result, and the log up to the resignation keeps his name."""
    expect = sync_api.expect
    page = new_page(locale=locale)
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", {"bot": "easy"}],
        "pace": "1h", "options": {"threshold": 1}})
    bo = outside(live_server, "POST", "/players", body={"name": "Bo"})["token"]
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bo, {})
    view = outside(live_server, "GET", f"/games/{game['id']}", bo)
    outside(live_server, "POST", f"/games/{game['id']}/actions", bo, {"action": view["legal_actions"][0]})
    outside(live_server, "POST", f"/games/{game['id']}/resign", bo, {})

    page.goto(f"{live_server}/#/game/{game['id']}")
    seat = page.locator(".seat").nth(1)
    expect(seat.locator(".seat-name")).to_have_text(bot)
    expect(seat.locator(".badge.warn")).to_have_text(resigned)
    log = page.locator(".log-lines li")
    expect(log.filter(has_text=resigns)).to_have_count(1)
    expect(log.filter(has_text=re.compile(r"^Bo (chose|valitsi)"))).to_have_count(1)  # before: his own move

    play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
    expect(page.locator(".outcome")).to_contain_text(f"{bot} ({resigned})")
    expect(log.filter(has_text=f"{bot} ").first).to_be_visible()  # the bot's cards, after
    after = log.all_inner_texts()
    assert not [line for line in after[after.index(resigns) + 1:] if re.search(r"\bBo\b", line)], after
