"""A new player on a 360 px phone, in English and in Finnish, from the first screen to a
challenge: a welcome without stray text; a first game of Sixty-six against a bot made with the
new-game form and played to its end, the first card confirmed (a slip taken back first); home
again with nothing left over it; a rating shown sensibly after one game, among the
leaderboard's provisional ones; a friend made on a second phone through the friend link (who
shared it, "now friends"); a challenge with a pace and a friendly game, the challenger waiting
for the friend by name, the friend accepting. axe finds no serious or critical violation on any
screen on the way; each step leaves a screenshot in artifacts/new-player-<language>-*.png."""
from __future__ import annotations

import re

import pytest
from phone import api_view, call, layout_problems, play_by_api, snap, start
from playwright import sync_api
from test_pwa_accessibility import axe_installed, serious_violations  # noqa: F401 (a fixture)
from waiting import wait_until

NARROW = {"width": 360, "height": 740}
WORDS = {
    "en": {
        "locale": "en-GB", "welcome": "Welcome to Pöytä", "game": "Game", "seat2": "Seat 2",
        "match": "Game points to win the match", "create": "Create game", "confirm": "Confirm your move",
        "play": r"^Play \w+ of \w+", "cancel": "Cancel", "yes": "Confirm", "over": "Game over",
        "new": "New game", "profile": "Anna: profile", "rating": r"Rating\s*(\d+)\? · rated games: 1",
        "explained": "Everyone starts at 1500", "leaderboard": "Leaderboard of Sixty-six",
        "provisional": "Provisional ratings", "friends": "Friends",
        "link": "Your friend link: whoever opens it becomes your friend",
        "shared": "Anna shared their friend link with you", "added": "Anna is now your friend",
        "challenge": "Challenge", "to": "Challenge Bert to", "pace": "Time per move", "hour": "1 hour",
        "rated": "Rated: the result changes the players' ratings", "send": "Send challenge",
        "waiting": "Waiting for Bert", "invitations": "Invitations",
        "invited": "Anna invites you to Sixty-six", "accept": "Accept",
    },
    "fi": {
        "locale": "fi-FI", "welcome": "Tervetuloa Pöytään", "game": "Peli", "seat2": "Paikka 2",
        "match": "Voittopisteet ottelun voittoon", "create": "Luo peli", "confirm": "Vahvista siirto",
        "play": r"^Pelaa \w+", "cancel": "Peruuta", "yes": "Vahvista", "over": "Peli päättyi",
        "new": "Uusi peli", "profile": "Anna: profiili",
        "rating": r"Vahvuusluku\s*(\d+)\? · laskettuja pelejä: 1", "explained": "Jokainen aloittaa 1500:sta",
        "leaderboard": "Tulostaulu: Sixty-six", "provisional": "Alustavat vahvuusluvut",
        "friends": "Kaverit", "link": "Kaverilinkkisi: joka avaa sen, tulee kaveriksesi",
        "shared": "Anna jakoi sinulle kaverilinkkinsä", "added": "Anna on nyt kaverisi",
        "challenge": "Haasta", "to": "Haasta Bert peliin", "pace": "Aikaa siirtoa kohden", "hour": "1 tunti",
        "rated": "Laskettu peli: tulos muuttaa pelaajien vahvuuslukuja", "send": "Lähetä haaste",
        "waiting": "Odotetaan: Bert", "invitations": "Kutsut",
        "invited": "Anna kutsuu sinut peliin Sixty-six", "accept": "Hyväksy",
    },
}


def looked_at(page, language: str, step: str) -> None:
    """A screen the new player sees (its screenshot taken first, to look at if it fails): no
    serious accessibility violation, nothing out of place."""
    snap(page, f"new-player-{language}-{step}")
    assert serious_violations(page) == [], step
    assert layout_problems(page) == [], step


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_new_player_from_the_first_screen_to_a_challenge(axe_installed, new_page, live_server, language):
    expect = sync_api.expect
    words = WORDS[language]
    anna = new_page(locale=words["locale"], viewport=NARROW, bypass_csp=True, confirming=True)

    # The first visit: a welcome, and nothing the player should not read.
    anna.goto(live_server)
    expect(anna.get_by_role("heading", level=1)).to_have_text(words["welcome"])
    assert "null" not in anna.locator("main").inner_text()
    looked_at(anna, language, "01-welcome")
    start(anna, live_server, "Anna")

    # A first game against a bot, from the new-game form, to the end of a one-point match.
    anna.get_by_label(words["game"], exact=True).select_option(label="Sixty-six")
    expect(anna.get_by_label(words["seat2"], exact=True)).to_have_value(re.compile(r"^bot:"))
    anna.get_by_label(words["match"]).fill("1")
    expect(anna.get_by_label(words["rated"])).to_be_checked()
    looked_at(anna, language, "02-new-game")
    anna.get_by_role("button", name=words["create"]).click()
    anna.wait_for_url(re.compile(r"#/game/"))
    game_id = anna.url.split("#/game/")[1]
    cards = anna.locator('.sixtysix [data-part="hand"] button:not([disabled])')
    expect(cards.first).to_be_visible()
    before = api_view(anna, live_server, game_id)["version"]
    # A slip of the thumb asks first, and is taken back...
    cards.first.click()
    confirm = anna.get_by_role("group", name=words["confirm"])
    expect(confirm).to_contain_text(re.compile(words["play"]))
    looked_at(anna, language, "03-confirm")
    confirm.get_by_role("button", name=words["cancel"], exact=True).click()
    expect(confirm).to_be_hidden()
    assert api_view(anna, live_server, game_id)["version"] == before
    # ...and a card meant is played once confirmed.
    cards.first.click()
    confirm.get_by_role("button", name=words["yes"], exact=True).click()
    expect(confirm).to_be_hidden()
    wait_until(lambda: api_view(anna, live_server, game_id)["version"] > before, "the confirmed card played")
    play_by_api(anna, live_server, game_id, lambda view: view["status"] == "finished")
    expect(anna.locator("#status-line")).to_have_text(words["over"])
    outcome = anna.locator(".outcome")
    expect(outcome.locator("td.rating-change").first).to_have_text(re.compile(r"^([+−]\d+|±0)$"))
    looked_at(anna, language, "04-game-over")

    # Leaving by the app's address: home, with nothing of the game left over the form.
    anna.goto(f"{live_server}/#/")
    expect(anna.get_by_role("heading", name=words["new"])).to_be_visible()
    expect(anna.locator("dialog")).to_have_count(0)

    # The rating after one game: on the familiar scale, provisional, explained.
    anna.goto(f"{live_server}/#/game/{game_id}")
    anna.locator(".outcome").get_by_role("link", name=words["profile"]).click()
    sixtysix = anna.get_by_role("region", name="Sixty-six")
    expect(sixtysix).to_contain_text(re.compile(words["rating"]))
    shown = int(re.search(words["rating"], sixtysix.inner_text()).group(1))
    me = call(anna, live_server, "GET", "/players/me")["id"]
    rating = call(anna, live_server, "GET", f"/players/{me}")["ratings"]["sixtysix"]
    assert shown == rating["display"] and 1000 < shown < 2000, (shown, rating)
    expect(sixtysix).to_contain_text(words["explained"])
    looked_at(anna, language, "05-rating")
    sixtysix.get_by_role("link", name=words["leaderboard"]).click()
    provisional = anna.get_by_role("region", name=words["provisional"])
    expect(provisional.get_by_role("row").filter(has=anna.get_by_role("link", name="Anna"))).to_contain_text(f"{shown}?")
    looked_at(anna, language, "06-leaderboard")

    # A friend through the link, on a second phone.
    anna.get_by_role("link", name=words["friends"], exact=True).click()
    link = anna.get_by_role("textbox", name=words["link"]).input_value()
    bert = new_page(locale=words["locale"], viewport=NARROW, bypass_csp=True)
    bert.goto(link)
    expect(bert.get_by_role("heading", level=1)).to_have_text(words["shared"])
    looked_at(bert, language, "07-friend-link")
    start(bert, live_server, "Bert", path="/" + link.split("/", 3)[3])
    expect(bert.locator("main .notice")).to_have_text(words["added"])
    looked_at(bert, language, "08-friends")

    # A challenge with a pace, a friendly game: Anna waits for Bert by name.
    anna.reload()
    friend = anna.locator("li.friend").filter(has=anna.get_by_role("link", name="Bert"))
    friend.get_by_role("button", name=words["challenge"]).click()
    anna.get_by_label(words["to"]).select_option(label="Sixty-six")
    anna.get_by_label(words["pace"]).select_option(label=words["hour"])
    anna.get_by_label(words["rated"]).uncheck()
    looked_at(anna, language, "09-challenge")
    anna.get_by_role("button", name=words["send"]).click()
    anna.wait_for_url(re.compile(r"#/game/"))
    challenge = anna.url.split("#/game/")[1]
    game = call(anna, live_server, "GET", f"/games/{challenge}")
    assert (game["pace"], game["rated"]) == ("1h", False)
    expect(anna.locator("#status-line")).to_have_text(words["waiting"])
    looked_at(anna, language, "10-waiting")

    # Bert finds the invitation at home and takes the seat: the game is on.
    bert.goto(f"{live_server}/#/")
    invitations = bert.get_by_role("region", name=words["invitations"])
    expect(invitations).to_contain_text(words["invited"])
    looked_at(bert, language, "11-invitation")
    invitations.get_by_role("button", name=words["accept"]).click()
    bert.wait_for_url(re.compile(f"#/game/{challenge}"))
    expect(anna.locator("#status-line")).not_to_have_text(words["waiting"])  # Anna's screen moves on
    assert call(bert, live_server, "GET", f"/games/{challenge}")["status"] == "active"
