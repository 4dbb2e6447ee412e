"""Paced play on the phone: other seats' cards appear one by one, a completed trick stays on the
table a while before it is cleared (in Sixty-six and Sticheln with its winning card marked, the
status line telling the cards meanwhile), and a round's summary comes before the next deal. The
server answers at once: only the phone takes its time."""
from __future__ import annotations

import re

import pytest
from phone import call, play_by_api, start
from playwright import sync_api

EASY = {"bot": "easy"}
STEP = 0.55  # s between two cards at the normal pace
# Every change of the cards on the table, with its time and whether a card was animated in.
RECORD = """() => {
  window.seen = [];
  const look = () => {
    const cards = [...document.querySelectorAll('[data-part="table"] [data-card]')].map((el) => el.dataset.card);
    const last = window.seen[window.seen.length - 1];
    if (last && last.cards.join() === cards.join()) return;
    const arrived = document.querySelector('[data-part="table"] .arrived');
    window.seen.push({ at: performance.now(), cards,
      animation: arrived ? getComputedStyle(arrived).animationName : null });
  };
  new MutationObserver(look).observe(document.querySelector('main'), { childList: true, subtree: true });
  look();
}"""


def play_one_card_and_watch(page, base: str, game_id: str) -> tuple[list[dict], list[dict]]:
    """Tap the first playable card, wait for the turn to come back; what the table showed
    meanwhile and the events the server recorded."""
    expect = sync_api.expect
    expect(page.locator(".status-line.yours")).to_be_visible()
    page.evaluate(RECORD)
    after = call(page, base, "GET", f"/games/{game_id}/events?after=0")["last"]
    page.locator('[data-part="hand"] button:enabled').first.click()
    expect(page.locator(".game-area[data-revealing]")).to_be_visible()
    expect(page.locator(".game-area[data-revealing]")).to_have_count(0)
    expect(page.locator(".status-line.yours")).to_be_visible()
    events = call(page, base, "GET", f"/games/{game_id}/events?after={after}")["events"]
    return page.evaluate("window.seen"), events


def test_bot_cards_appear_one_by_one_and_the_trick_stays_until_seen(new_page, live_server):
    page = new_page(paced=True)
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "hattrick", "players": 4, "seats": ["human", EASY, EASY, EASY], "pace": "none",
        "options": {"deals": 1}})
    page.goto(f"{live_server}/#/game/{game['id']}")
    seen, events = play_one_card_and_watch(page, live_server, game["id"])

    # The trick as the server played it: our card, then the bots' one by one. A passed card is
    # laid face down before its player, not in the trick. The second card is never a pass: a
    # trick of one colour cannot be passed on.
    plays = []
    for event in events:
        if event["type"] == "played":
            plays.append(event["card"])
        if event["type"] == "trick_taken":
            break
    assert len(plays) >= 2
    shown = [entry["cards"] for entry in seen]
    moments = {}
    for count in range(2, len(plays) + 1):  # each bot card appears on its own, in order
        assert plays[:count] in shown, (plays[:count], shown)
        moments[count] = seen[shown.index(plays[:count])]["at"]
    for count in range(3, len(plays) + 1):
        assert moments[count] - moments[count - 1] >= STEP * 900
    # The completed trick stays before it is cleared: at least two steps' time.
    complete = shown.index(plays)
    assert complete + 1 < len(seen), "the completed trick was never cleared"
    assert seen[complete + 1]["at"] - seen[complete]["at"] >= 2 * STEP * 1000
    assert any(entry["animation"] == "arrive" for entry in seen)

    # With reduced motion the cards still come one by one, but nothing slides.
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate("""() => {
        const card = document.querySelector('[data-part="table"] [data-card], [data-part="hand"] button');
        card.classList.add('arrived');
        return getComputedStyle(card).animationName;
    }""") == "none"


def test_a_round_summary_comes_before_the_next_deal(new_page, live_server):
    expect = sync_api.expect
    page = new_page(paced=True)
    start(page, live_server)
    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Other players' cards").select_option(label="One by one, quickly")
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 2, "seats": ["human", EASY], "pace": "none",
        "options": {"threshold": 200}})
    # The first nine turns through the API; the last card of the round on the phone.
    play_by_api(page, live_server, game["id"], lambda view: len(view["hand"]) == 1 and view["legal_actions"])
    page.goto(f"{live_server}/#/game/{game['id']}")
    summary = page.get_by_role("dialog", name="Round 1 is over")
    round_two = page.locator(".round-turn").filter(has_text="Round 2 · turn 1 of 10")
    page.locator('[data-part="hand"] button:enabled').first.click()
    take = page.get_by_role("button", name=re.compile(r"^Take row"))
    expect(take.first.or_(summary)).to_be_visible()
    if take.count():  # our card was too low for every row
        take.first.click()
    # The next deal waits behind the summary: the table still shows the round just played.
    expect(round_two).to_have_count(0)
    view = call(page, live_server, "GET", f"/games/{game['id']}")
    assert view["table"]["round"] == 2
    mine = view["table"]["round_scores"][0][view["your_seat"]]
    expect(summary.get_by_role("row").filter(has=page.get_by_role("rowheader", name="You"))).to_contain_text(
        re.compile(rf"^You\s*{mine} bullheads?"))
    # Behind it the status line names it; in it, the round's last turn: who took what on turn 10.
    expect(page.locator("#status-line")).to_have_text("Round 1 is over")
    last_turn = view["table"]["last_turn"]
    expect(summary.get_by_role("heading", name="Last turn")).to_be_visible()
    expect(summary.locator(".played li")).to_have_count(len(last_turn))
    for placement in last_turn:
        expect(summary.locator(".played li").filter(has_text=re.compile(rf": {placement['card']} (to row|was)"))).to_have_count(1)
    summary.get_by_role("button", name="Continue").click()
    expect(round_two).to_be_visible()
    expect(summary).to_have_count(0)


# What the phone shows over time: the table's cards, the card marked as taking the trick, the
# line saying who took it, the status line and whether a reveal is running.
WATCH_TRICKS = """([best, took]) => {
  window.seen = [];
  const look = () => {
    const cards = [...document.querySelectorAll('[data-part="table"] [data-card]')].map((el) => el.dataset.card).join();
    const marked = document.querySelector(`[data-part="table"] ${best}`);
    const line = document.querySelector(`[data-part="table"] ${took}`);
    const entry = { cards, best: marked ? marked.dataset.card : null, took: line ? line.textContent : null,
      status: document.querySelector('#status-line').textContent,
      revealing: !!document.querySelector('.game-area[data-revealing]') };
    const last = window.seen[window.seen.length - 1];
    if (last && JSON.stringify({ ...last, at: 0 }) === JSON.stringify({ ...entry, at: 0 })) return;
    window.seen.push({ ...entry, at: performance.now() });
  };
  new MutationObserver(look).observe(document.querySelector('main'), { childList: true, subtree: true, characterData: true });
  look();
}"""

TRICK_GAMES = {
    "sixtysix": ({"type": "sixtysix", "players": 2, "seats": ["human", EASY], "pace": "none"},
                 "li.sx-best", ".sx-took", "trick", re.compile(r"^(You|Bot 2 \(easy\)) took the trick with the .+: \d+ card points$")),
    "sticheln": ({"type": "sticheln", "players": 3, "seats": ["human", EASY, EASY], "pace": "none",
                  "options": {"deals": 1}},
                 "li.win", ".st-took", "trick_won", re.compile(r"^(You|Bot \d \(easy\)) took the trick with \w+ \d+$")),
}


@pytest.mark.parametrize("kind", TRICK_GAMES)
def test_a_taken_trick_stays_with_its_winning_card_marked_and_the_status_tells_the_table(new_page, live_server, kind):
    expect = sync_api.expect
    body, best, took, taken_event, took_line = TRICK_GAMES[kind]
    page = new_page(paced=True)
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", body)
    play_by_api(page, live_server, game["id"], lambda view: any(a["type"] == "play" for a in view["legal_actions"]))
    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.locator(".status-line.yours")).to_be_visible()
    page.evaluate(WATCH_TRICKS, [best, took])
    after = call(page, live_server, "GET", f"/games/{game['id']}/events?after=0")["last"]
    # Tap cards until a trick is taken (the first card may only lead it).
    for _ in range(3):
        page.locator('[data-part="hand"] button:enabled').first.click()
        expect(page.locator(".game-area[data-revealing]")).to_have_count(0)
        expect(page.locator(".status-line.yours")).to_be_visible()
        events = call(page, live_server, "GET", f"/games/{game['id']}/events?after={after}")["events"]
        if any(e["type"] == taken_event for e in events):
            break
    trick = next(e for e in events if e["type"] == taken_event)
    seen = page.evaluate("window.seen")

    # The trick as taken: every card on the table, the winner's marked, one line saying who
    # took it with what, for at least 1.5 s (the normal pace holds it three steps).
    cards = ",".join(entry["card"] for entry in trick["cards"])
    winning = next(entry["card"] for entry in trick["cards"] if entry["seat"] == trick["winner"])
    shown = [i for i, entry in enumerate(seen) if entry["cards"] == cards and entry["best"] == winning]
    assert shown, (cards, winning, seen)
    first = shown[0]
    assert took_line.match(seen[first]["took"]), seen[first]
    ends = next((entry["at"] for entry in seen[first:] if entry["cards"] != cards), None)
    assert ends is None or ends - seen[first]["at"] >= 1500, seen[first:]

    # The status line describes the table from the tap until the cards are down, never the
    # turn to come: first the card on its way (by its name alone), then each card as it goes down.
    assert seen[0]["status"].startswith("Your turn")
    assert re.match(r"^Play [a-z ]+ \d*[a-z ]*: sending…$", seen[1]["status"]), seen[:3]
    during = [entry["status"] for entry in seen if entry["revealing"]]
    assert during and not any(status.startswith(("Your turn", "Waiting for")) for status in during), during
    assert any(re.match(r"^Bot \d \(easy\) played", status) for status in during), during
