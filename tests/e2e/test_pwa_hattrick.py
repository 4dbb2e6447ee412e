"""The PWA in Debian's headless Chromium against the real app, Redis and RQ worker:
create a one-deal Hattrick game against three easy bots and play it out by tapping cards."""
from __future__ import annotations

import re

from phone import api_view, start
from playwright import sync_api

HAND = 15  # four players
CARD = r"(red|blue|green) \d+"


def test_play_a_deal_of_hattrick_against_bots(page, live_server):
    expect = sync_api.expect
    start(page, live_server)
    page.get_by_label("Game", exact=True).select_option(label="Hattrick")
    page.get_by_label("Number of players").fill("4")
    for seat in (2, 3, 4):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label="Bot (easy)")
    page.get_by_label("Deals in the match").fill("1")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"#/game/"))
    game_id = page.url.split("#/game/")[1]
    assert api_view(page, live_server, game_id)["options"]["deals"] == 1

    # Every hand card is a button; only the legal ones are enabled, and they say what they do.
    hand = page.get_by_role("button", name=re.compile(rf"^(Play )?{CARD}(, not playable now|, pass)?$"))
    actions = page.get_by_role("button", name=re.compile(rf"^(Play {CARD}|{CARD}, pass)$"))
    status = page.locator("#status-line")
    passed = None
    for turn in range(HAND - 1):
        expect(status).to_contain_text("Your turn")
        expect(hand).to_have_count(HAND - turn)
        assert all(button.is_enabled() for button in actions.all())
        labels = [button.get_attribute("aria-label") for button in actions.all()]
        disabled = [button for button in hand.all() if not button.is_enabled()]
        assert all(b.get_attribute("aria-label").endswith(", not playable now") for b in disabled)
        # Pass once when the rules offer it, so both kinds of action go through the table.
        choice = next((label for label in labels if label.endswith(", pass") and passed is None), labels[0])
        if choice.endswith(", pass"):
            passed = choice.removesuffix(", pass").replace(" ", "-")
        page.get_by_role("button", name=choice, exact=True).click()
        if turn < HAND - 2:
            expect(hand).to_have_count(HAND - turn - 1)

    expect(status).to_have_text("Game over")
    view = api_view(page, live_server, game_id)
    scores = view["outcome"]["scores"]
    end = view["table"]["previous_deal"]
    assert len(end["last_trick"]["cards"]) == 4
    if passed is not None:
        assert passed in end["passed"][view["your_seat"]]

    # The score sheet and the shell's result table both show the API's outcome.
    sheet = page.get_by_role("table").filter(has=page.get_by_role("columnheader", name="Deal 1"))
    result = page.get_by_role("table").filter(has=page.get_by_role("columnheader", name="Rank"))
    for seat in view["seats"]:
        score = scores[seat["seat"]]
        mine = seat["seat"] == view["your_seat"]
        shown = f"+{score}" if score > 0 else f"−{-score}" if score < 0 else "0"
        row = sheet.get_by_role("row").filter(
            has=page.get_by_role("rowheader", name="You" if mine else seat["name"], exact=True))
        expect(row.get_by_role("cell").first).to_have_text(shown)
        expect(row.get_by_role("cell").last).to_have_text(shown)
        outcome_row = result.get_by_role("row").filter(
            has=page.get_by_role("rowheader", name=re.compile("^" + re.escape(seat["name"]))))
        expect(outcome_row.get_by_role("cell").last).to_have_text(str(score))
    # The end of the deal shows every set-aside card.
    for card in end["set_aside"]:
        colour, value = card.split("-")
        expect(page.get_by_text(re.compile(rf": set aside {colour} {value}, scored "))).to_be_visible()
    # Each score shows its sum, and the collected cards stay on the table at the game's end.
    for seat in view["seats"]:
        pile, passed_cards = end["piles"][seat["seat"]], end["passed"][seat["seat"]]
        best = max(len(cards) for cards in pile.values())
        others = sum(len(cards) for cards in pile.values()) - best
        assert best - others - 2 * len(passed_cards) == scores[seat["seat"]]
        line = page.locator(".hattrick .ht-list li > span:not([aria-hidden])").filter(has_text=re.compile(
            rf"^{'You' if seat['seat'] == view['your_seat'] else re.escape(seat['name'])}: set aside"))
        other = "other card" if others == 1 else "other cards"
        expect(line).to_contain_text(re.compile(rf"scored .+ \({best} [a-z]+ − {others} {other} − 2 × {len(passed_cards)} passed\)$"))
    piles = page.locator(".table-wrap").and_(page.get_by_role("region", name="Collected cards in deal 1"))
    expect(piles).to_be_visible()
    expect(piles.get_by_role("row")).to_have_count(5)
