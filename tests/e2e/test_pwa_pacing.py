"""Paced play on the phone: other seats' cards appear one by one, a completed trick stays on the
table a while before it is cleared, and a round's summary comes before the next deal. The
server answers at once: only the phone takes its time."""
from __future__ import annotations

import re

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
        "options": {"threshold": 500}})
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
    summary.get_by_role("button", name="Continue").click()
    expect(round_two).to_be_visible()
    expect(summary).to_have_count(0)
