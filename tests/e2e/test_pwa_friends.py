"""Friends on the phone: a friend link shared and opened on another phone, the friends list
with last active, a challenge declined and then accepted from the inbox's invitations, and
blocking; one phone in English, the other in Finnish. A player met at a table is challenged
from their profile, opened from the finished game's result."""
from __future__ import annotations

import re

from phone import call, layout_problems, outside, snap, start
from playwright import sync_api
from test_pwa_accessibility import axe_installed, serious_violations  # noqa: F401 (a fixture)


def test_friend_link_challenge_decline_accept_and_block(new_page, live_server):
    expect = sync_api.expect
    anna = new_page(locale="fi-FI")
    start(anna, live_server, "Anna")
    anna.get_by_role("link", name="Kaverit").click()
    expect(anna.get_by_role("heading", level=1)).to_have_text("Kaverit")
    expect(anna.get_by_text("Ei vielä kavereita: jaa linkkisi.")).to_be_visible()
    link = anna.get_by_role("textbox", name="Kaverilinkkisi: joka avaa sen, tulee kaveriksesi").input_value()
    assert re.fullmatch(re.escape(live_server) + r"/#/friend/[\w-]+", link), link
    assert layout_problems(anna) == []

    bert = new_page()
    start(bert, live_server, "Bert", path="/" + link.split("/", 3)[3])
    expect(bert.get_by_role("heading", level=1)).to_have_text("Friends")
    friend = bert.locator("li.friend")
    expect(friend.get_by_role("link", name="Anna")).to_be_visible()
    expect(friend).to_contain_text(re.compile(r"last active"))
    assert layout_problems(bert) == []

    def challenge() -> None:
        bert.goto(f"{live_server}/#/friends")
        bert.locator("li.friend").get_by_role("button", name="Challenge").click()
        bert.get_by_label("Challenge Anna to").select_option(label="Sixty-six")
        bert.get_by_role("button", name="Send challenge").click()
        bert.wait_for_url(re.compile(r"#/game/"))

    challenge()
    anna.goto(f"{live_server}/#/")
    invitations = anna.get_by_role("region", name="Kutsut")
    expect(invitations).to_contain_text("Bert kutsuu sinut peliin Sixty-six")
    invitations.get_by_role("button", name="Kieltäydy").click()
    expect(invitations).to_have_count(0)
    assert call(anna, live_server, "GET", "/players/me/games") == []
    # Bert, watching the waiting game, is told.
    expect(bert.get_by_text("The invitation to seat 2 was declined: the seat is open again")
           .first).to_be_visible()

    challenge()
    game_id = bert.url.split("#/game/")[1]
    anna.goto(f"{live_server}/#/")
    anna.get_by_role("region", name="Kutsut").get_by_role("button", name="Hyväksy").click()
    anna.wait_for_url(re.compile(f"#/game/{game_id}"))
    assert call(anna, live_server, "GET", f"/games/{game_id}")["status"] == "active"

    anna.goto(f"{live_server}/#/friends")
    anna.locator("li.friend").get_by_role("button", name="Estä").click()
    blocked = anna.get_by_role("region", name="Estetyt pelaajat")
    expect(blocked).to_contain_text("Bert")
    expect(anna.get_by_text("Ei vielä kavereita: jaa linkkisi.")).to_be_visible()
    bert.goto(f"{live_server}/#/friends")
    expect(bert.get_by_text("No friends yet: share your link.")).to_be_visible()
    blocked.get_by_role("button", name="Poista esto").click()
    expect(anna.get_by_role("region", name="Estetyt pelaajat")).to_have_count(0)


def test_the_friends_page_and_an_invitation_pass_the_accessibility_audit(axe_installed, new_page,
                                                                        live_server):
    expect = sync_api.expect
    for scheme in ("light", "dark"):
        page = new_page(scheme, bypass_csp=True)  # the page's CSP would refuse the injected axe
        start(page, live_server, "Anna")
        code = call(page, live_server, "GET", "/players/me/friend-link")["code"]
        bert = outside(live_server, "POST", "/players", body={"name": "Bert"})
        outside(live_server, "POST", f"/players/friend-links/{code}", bert["token"])
        outside(live_server, "POST", "/games", bert["token"], {
            "type": "sixtysix", "players": 2,
            "seats": ["human", {"player": call(page, live_server, "GET", "/players/me")["id"]}]})
        page.goto(f"{live_server}/#/friends")
        page.locator("li.friend").get_by_role("button", name="Challenge").click()
        assert serious_violations(page) == [], f"friends, {scheme}"
        page.goto(f"{live_server}/#/")
        expect(page.get_by_role("region", name="Invitations")).to_be_visible()
        assert serious_violations(page) == [], f"invitation, {scheme}"


def finish_together(first, second, base: str) -> str:
    """A 6 nimmt! game for the two phones' players, played to its end by the API (one round)."""
    game = call(first, base, "POST", "/games", {"type": "sixnimmt", "players": 2,
                                               "seats": ["human", "human"], "pace": "5m",
                                               "options": {"threshold": 1}})
    call(second, base, "POST", f"/games/invites/{game['invites'][0]['code']}")
    for _ in range(200):
        for phone in (first, second):
            view = call(phone, base, "GET", f"/games/{game['id']}")
            if view["status"] == "finished":
                return game["id"]
            if view["legal_actions"] and view["your_seat"] in view["to_act"]:
                call(phone, base, "POST", f"/games/{game['id']}/actions",
                     {"action": view["legal_actions"][0], "version": view["version"]})
    raise AssertionError("the game never finished")


def test_a_player_met_at_a_table_is_challenged_from_their_profile(axe_installed, new_page,
                                                                 live_server):
    expect = sync_api.expect
    anna = new_page(bypass_csp=True)  # the page's CSP would refuse the injected axe
    start(anna, live_server, "Anna")
    bert = new_page(locale="fi-FI")
    start(bert, live_server, "Bert")
    game_id = finish_together(anna, bert, live_server)

    anna.goto(f"{live_server}/#/player/{call(anna, live_server, 'GET', '/players/me')['id']}")
    expect(anna.get_by_role("heading", level=1)).to_have_text("Anna")
    expect(anna.get_by_role("button", name="Challenge")).to_have_count(0)   # not yourself
    anna.goto(f"{live_server}/#/game/{game_id}")
    anna.locator(".outcome").get_by_role("link", name="Bert: profile").click()
    expect(anna.get_by_role("heading", level=1)).to_have_text("Bert")
    profile = anna.url
    anna.get_by_role("button", name="Challenge").click()
    expect(anna.get_by_label("Challenge Bert to")).to_be_visible()
    assert layout_problems(anna) == []
    assert serious_violations(anna) == []
    anna.get_by_label("Challenge Bert to").select_option(label="Sixty-six")
    anna.get_by_role("button", name="Send challenge").click()
    anna.wait_for_url(re.compile(r"#/game/"))

    bert.goto(f"{live_server}/#/")
    invitations = bert.get_by_role("region", name="Kutsut")
    expect(invitations).to_contain_text("Anna kutsuu sinut peliin Sixty-six")
    # Once Bert blocks her, neither profile offers a challenge.
    call(bert, live_server, "PUT", f"/players/me/blocks/{call(anna, live_server, 'GET', '/players/me')['id']}")
    anna.goto(profile)
    expect(anna.get_by_role("heading", level=1)).to_have_text("Bert")
    expect(anna.get_by_role("button", name="Challenge")).to_have_count(0)


def test_a_friend_link_and_a_challenge_say_who_and_how(new_page, live_server):
    expect = sync_api.expect
    narrow = {"width": 360, "height": 740}
    anna = new_page(viewport=narrow)
    start(anna, live_server, "Anna")
    code = call(anna, live_server, "GET", "/players/me/friend-link")["code"]
    bert = new_page(viewport=narrow)
    bert.goto(f"{live_server}/#/friend/{code}")
    expect(bert.get_by_role("heading", level=1)).to_have_text("Anna shared their friend link with you")
    snap(bert, "friend-link-welcome")
    start(bert, live_server, "Bert", path=f"/#/friend/{code}")
    expect(bert.get_by_role("heading", level=1)).to_have_text("Friends")
    expect(bert.locator("main .notice")).to_have_text("Anna is now your friend")
    snap(bert, "friends-added")

    # A challenge with a pace and a friendly (unrated) game.
    bert.locator("li.friend").get_by_role("button", name="Challenge").click()
    bert.get_by_label("Challenge Anna to").select_option(label="Sixty-six")
    bert.get_by_label("Time per move").select_option(label="1 hour")
    bert.get_by_label("Rated: the result changes the players' ratings").uncheck()
    assert layout_problems(bert) == []
    snap(bert, "challenge-form")
    bert.get_by_role("button", name="Send challenge").click()
    bert.wait_for_url(re.compile(r"#/game/"))
    game = call(bert, live_server, "GET", f"/games/{bert.url.split('#/game/')[1]}")
    assert game["pace"] == "1h" and game["rated"] is False
    # The challenger waits for Anna by name; her seat has no link to pass around.
    expect(bert.locator("#status-line")).to_have_text("Waiting for Anna")
    expect(bert.get_by_role("textbox", name="Invite link for seat 2")).to_have_count(0)
    expect(bert.locator(".seat-list li").nth(1)).to_contain_text("Anna")
    expect(bert.locator(".seat-list li").nth(1)).to_contain_text("invited")
    assert layout_problems(bert) == []
    snap(bert, "challenge-waiting")
