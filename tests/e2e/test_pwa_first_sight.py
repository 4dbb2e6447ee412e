"""What a new player meets on a narrow phone, screen by screen: no stray "null", names and dates
that do not run into each other, an old error gone once a later try succeeds, a round's sheet
that does not follow the player home, the unread-messages mark beside the title rather than on
it, and passkey buttons whose words stay whole at 360 px."""
from __future__ import annotations

import re

import pytest
from phone import call, layout_problems, outside, play_by_api, snap, start
from playwright import sync_api
from test_pwa_passkeys import localhost_server, virtual_authenticator  # noqa: F401 (a fixture)

NARROW = {"width": 360, "height": 740}
PHONES = [NARROW, {"width": 390, "height": 844}]


def boxes_overlap(page, first: str, second: str) -> bool:
    """Whether the text of the first element and the box of the second share any pixel."""
    return page.evaluate("""([first, second]) => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector(first));
      const b = document.querySelector(second).getBoundingClientRect();
      return [...range.getClientRects()].some((a) => a.width && a.left < b.right && b.left < a.right
        && a.top < b.bottom && b.top < a.bottom);
    }""", [first, second])


def test_the_first_screen_and_the_friends_page_say_no_null(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW)
    page.goto(live_server)
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome to Pöytä")
    assert "null" not in page.locator("main").inner_text()
    snap(page, "first-screen")
    start(page, live_server, "Anna")
    page.goto(f"{live_server}/#/friends")
    expect(page.get_by_text("No friends yet: share your link.")).to_be_visible()
    assert "null" not in page.locator("main").inner_text()


@pytest.mark.parametrize("viewport", PHONES, ids=["360", "390"])
def test_a_friends_name_and_when_they_were_last_active_stay_apart(new_page, live_server, viewport):
    expect = sync_api.expect
    page = new_page(viewport=viewport)
    start(page, live_server, "Bert")
    anna = outside(live_server, "POST", "/players", body={"name": "Anna"})
    code = call(page, live_server, "GET", "/players/me/friend-link")["code"]
    outside(live_server, "POST", f"/players/friend-links/{code}", anna["token"])
    page.goto(f"{live_server}/#/friends")
    friend = page.locator("li.friend")
    expect(friend.get_by_role("link", name="Anna")).to_be_visible()
    assert not re.search(r"Anna\s*last active", friend.inner_text().split("\n")[0]), friend.inner_text()
    assert not boxes_overlap(page, "li.friend a.profile-link", "li.friend small")
    name = friend.get_by_role("link", name="Anna").bounding_box()
    when = friend.locator("small").bounding_box()
    assert when["y"] >= name["y"] + name["height"] - 1, (name, when)
    assert layout_problems(page) == []


def test_an_old_error_goes_once_a_later_try_succeeds(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW)
    start(page, live_server, "Anna")
    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Your name").fill("Bot 2")
    page.get_by_role("button", name="Save").first.click()
    error = page.locator("#messages .error")
    expect(error).to_contain_text("This name cannot be used")
    page.get_by_label("Your name").fill("Anna B")
    page.get_by_role("button", name="Save").first.click()
    expect(page.get_by_text("Name saved, at the tables of your unfinished games too.")).to_be_visible()
    expect(error).to_have_count(0)


def test_a_rounds_sheet_does_not_follow_the_player_home(new_page, live_server):
    expect = sync_api.expect
    page = new_page(paced=True, viewport=NARROW)
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"threshold": 200}})
    play_by_api(page, live_server, game["id"], lambda view: len(view["hand"]) == 1 and view["legal_actions"])
    page.goto(f"{live_server}/#/game/{game['id']}")
    summary = page.get_by_role("dialog", name="Round 1 is over")
    page.locator('[data-part="hand"] button:enabled').first.click()
    take = page.get_by_role("button", name=re.compile(r"^Take row"))
    expect(take.first.or_(summary)).to_be_visible()
    if take.count():
        take.first.click()
    expect(summary).to_be_visible()
    page.goto(f"{live_server}/#/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.locator("dialog")).to_have_count(0)
    page.get_by_role("button", name="Create game").click()  # nothing covers the form
    page.wait_for_url(re.compile(r"#/game/"))


@pytest.mark.parametrize("viewport", PHONES, ids=["360", "390"])
def test_the_unread_messages_mark_leaves_the_title_readable(new_page, live_server, viewport):
    expect = sync_api.expect
    page = new_page(viewport=viewport)
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {"type": "sixtysix", "players": 2,
                                                      "seats": ["human", "human"], "pace": "1d"})
    bert = outside(live_server, "POST", "/players", body={"name": "Bert"})
    outside(live_server, "POST", f"/games/invites/{game['invites'][0]['code']}", bert["token"])
    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sixty-six")
    expect(page.locator(".chat")).to_be_visible()
    outside(live_server, "POST", f"/games/{game['id']}/chat", bert["token"], {"text": "Hello!"})
    unread = page.get_by_role("button", name="1 new message")
    expect(unread).to_be_visible()
    assert not boxes_overlap(page, ".game-head h1", ".game-tools .unread")
    assert not boxes_overlap(page, ".game-head h1", ".game-tools button:not(.unread)")
    assert layout_problems(page) == []
    snap(page, f"new-message-mark-{viewport['width']}")


def test_passkey_buttons_keep_their_words_whole_at_360(new_page, localhost_server):
    expect = sync_api.expect
    phone = new_page(viewport=NARROW)
    virtual_authenticator(phone)
    start(phone, localhost_server, "Anna")
    phone.goto(f"{localhost_server}/#/settings")
    section = phone.get_by_role("region", name="Keep your player with a passkey")
    section.get_by_role("button", name="Add a passkey").click()
    expect(section.get_by_role("button", name=re.compile(r"^Rename "))).to_be_visible()
    problems = [p for p in layout_problems(phone) if "word broken" in p or "overflows" in p]
    assert problems == []
    snap(phone, "passkey-buttons-360")
