"""Sticheln in the PWA, in Debian's headless Chromium against the real app, Redis and RQ worker:
a whole deal against three easy bots by tapping cards, and a changeable two-card pain choice."""
from __future__ import annotations

import re

from phone import api_view, start
from playwright import sync_api



def create_game(page, base: str, seats: list[str], **switches) -> str:
    start(page, base)
    page.get_by_label("Game", exact=True).select_option(label="Sticheln")
    page.get_by_label("Number of players").fill(str(len(seats) + 1))
    for number, seat in enumerate(seats, start=2):
        page.get_by_label(f"Seat {number}", exact=True).select_option(label=seat)
    page.get_by_label("Deals in the match").fill("1")
    for name in switches:
        page.locator(f"#opt-{name}").check()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"#/game/"))
    return page.url.split("#/game/")[1]


def spoken(card: str) -> str:
    colour, value = card.split("-")
    return f"{colour} {value}"


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_play_a_whole_deal_of_sticheln_against_bots(new_page, live_server):
    expect = sync_api.expect
    page = new_page("dark")
    game_id = create_game(page, live_server, ["Bot (easy)"] * 3)
    status = page.locator("#status-line")
    expect(status).to_have_text("Your turn: put down your pain card")
    put_down = page.get_by_role("button", name=re.compile(r"^Put down (blue|red|green|yellow|brown) \d+$"))
    expect(put_down).to_have_count(15)
    hand = api_view(page, live_server, game_id)["hand"]
    page.get_by_role("button", name=f"Put down {spoken(hand[0])}", exact=True).click()
    expect(page.locator(".st-deal")).to_have_text("Deal 1 of 1 · trick 1 of 14")
    expect(page.locator(".st-seat.mine .st-pain")).to_contain_text(hand[0].split("-")[0])
    assert no_horizontal_scroll(page)

    play = page.get_by_role("button", name=re.compile(r"^Play [a-z]+ \d+$"), disabled=False)
    for trick in range(1, 15):
        expect(play).to_have_count(15 - trick)
        card = play.first
        name = card.locator(".visually-hidden").text_content()
        card.click()
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)
    expect(status).to_have_text("Game over")

    view = api_view(page, live_server, game_id)
    scores = view["table"]["deal_scores"][0]
    assert sum(view["table"]["collected_count"]) == 4 * 14
    sheet = page.get_by_role("table").filter(has=page.get_by_role("columnheader", name="Deal 1"))
    for seat in view["seats"]:
        name = "You" if seat["seat"] == view["your_seat"] else seat["name"]
        row = sheet.get_by_role("row").filter(has=page.get_by_role("rowheader", name=name, exact=True))
        expect(row.get_by_role("cell").first).to_have_text(str(scores[seat["seat"]]))
        expect(row.get_by_role("cell").last).to_have_text(str(seat["score"]))
        assert seat["score"] == scores[seat["seat"]]
    expect(page.get_by_text(re.compile(r"^Deal 1 over: You -?\d+"))).to_be_visible()  # game log

    # Each seat's deal score adds up on screen, the pain card put down included.
    for seat in view["seats"]:
        panel = page.locator(".st-seat").nth(seat["seat"])
        sum_line = panel.locator(".st-sum").inner_text().replace("−", "-")
        parts, total = sum_line.rsplit(" = ", 1)
        assert int(total) == scores[seat["seat"]], sum_line
        added = 0
        for part in parts.split(", "):
            plain = re.fullmatch(r"(\d+) other cards? × ([+-]1)", part)
            added += int(plain.group(1)) * int(plain.group(2)) if plain else int(part.rsplit(" ", 1)[1])
        assert added == int(total), sum_line
        if seat["seat"] == view["your_seat"]:
            value = int(hand[0].split("-")[1])
            assert f"{spoken(hand[0])} put down {-value if value else 0}" in sum_line, sum_line


def test_tough_pain_cards_can_be_changed_until_everybody_has_chosen(new_page, live_server):
    expect = sync_api.expect
    anna = new_page()
    game_id = create_game(anna, live_server, ["Friend (human)", "Bot (easy)"], tough=True)
    bo = new_page()
    link = anna.get_by_role("textbox", name="Invite link for seat 2").input_value()
    start(bo, live_server, "Bo", link.removeprefix(live_server))
    bo.wait_for_url(re.compile(rf"#/game/{re.escape(game_id)}$"))
    expect(anna.locator("#status-line")).to_have_text(
        "Your turn: put down two cards of different colours")

    def pick_two(hand: list[str], avoid: list[str]) -> list[str]:
        first = next(card for card in hand if card not in avoid)
        second = next(card for card in hand if card.split("-")[0] != first.split("-")[0]
                      and card not in avoid)
        for card in (first, second):
            anna.get_by_role("button", name=f"Pick {spoken(card)}", exact=True).click()
        return [first, second]

    hand = api_view(anna, live_server, game_id)["hand"]
    chosen = pick_two(hand, [])
    expect(anna.get_by_text(re.compile("^You put down: "))).to_contain_text(spoken(chosen[0]))
    expect(bo.locator(".seat-list li").first).to_contain_text("has chosen")
    assert api_view(bo, live_server, game_id)["table"]["pain"][0] == []  # never what

    # Still changeable: Bo has not chosen. The two put-down cards are back in the pool.
    changed = pick_two(hand, chosen)
    expect(anna.get_by_text(re.compile("^You put down: "))).to_contain_text(spoken(changed[0]))
    mine = api_view(anna, live_server, game_id)
    assert sorted(mine["table"]["pain"][0]) == sorted(changed)
    assert set(chosen) <= set(mine["hand"])

    # Bo's table shows the bot's choice before Bo taps: a redraw under a tap would lose it.
    expect(bo.locator(".seat-list li").nth(2)).to_contain_text("has chosen")
    bo_hand = api_view(bo, live_server, game_id)["hand"]
    first = bo_hand[0]
    second = next(card for card in bo_hand if card.split("-")[0] != first.split("-")[0])
    bo.get_by_role("button", name=f"Pick {spoken(first)}", exact=True).click()
    expect(bo.get_by_role("status").filter(has_text="Picked: ")).to_contain_text(spoken(first))
    bo.get_by_role("button", name=f"Pick {spoken(second)}", exact=True).click()
    # Everybody has chosen: the pain colours are shown to all, and play begins.
    colours = sorted({card.split("-")[0] for card in changed})
    seat = bo.locator(".st-seat").first
    for colour in colours:
        expect(seat).to_contain_text(colour)
    expect(anna.get_by_role("button", name=re.compile(r"^Play "), disabled=False).first).to_be_visible()
    assert no_horizontal_scroll(anna)
