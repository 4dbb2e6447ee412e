"""A finished Sticheln game's replay on a 390×844 phone jumps to a trick of its second deal,
listed under that deal, and shows the table as the trick begins, in English and in Finnish; it
plays forward from there."""
from __future__ import annotations

from phone import call, layout_problems, play_by_api, start
from playwright import sync_api
from test_pwa_accessibility import AXE, serious_violations

PHONE = {"width": 390, "height": 844}
WORDS = {"en": {"jump": "Jump to", "deal": "Deal", "trick": "Trick", "step": "Step {} of {}",
                "info": "Deal 2 of 2 · trick {} of {}", "leads": "leads.", "play": "Play", "pause": "Pause"},
         "fi": {"jump": "Siirry", "deal": "Jako", "trick": "Tikki", "step": "Vaihe {}/{}",
                "info": "Jako 2/2 · tikki {}/{}", "leads": "aloittaa."}}


def test_the_replay_jumps_to_a_trick_of_a_later_deal_and_plays_on(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=PHONE, bypass_csp=True)
    start(page, live_server, "Anna")
    game = call(page, live_server, "POST", "/games", {"type": "sticheln", "players": 3, "pace": "none",
                                                      "seats": ["human", {"bot": "easy"}, {"bot": "easy"}],
                                                      "options": {"deals": 2}})
    play_by_api(page, live_server, game["id"], lambda view: view["status"] == "finished")
    record = call(page, live_server, "GET", f"/games/{game['id']}/record")
    steps = len(record["actions"])
    second = [chapter for chapter in record["trick_chapters"] if chapter["deal"] == 2]
    third = second[2]
    per_deal = second[-1]["trick"]

    for language, words in WORDS.items():
        page.evaluate(f"localStorage.setItem('poyta.lang', '{language}')")
        page.goto(f"{live_server}/#/replay/{game['id']}")
        page.reload()
        step = page.locator("#replay-step")
        expect(step).to_have_text(words["step"].format(0, steps))
        jump = page.get_by_label(words["jump"])
        group = jump.locator(f'optgroup[label="{words["deal"]} 2"]')
        expect(group.locator("option")).to_have_text(
            [f"{words['deal']} 2: {'start' if language == 'en' else 'alku'}"]
            + [f"{words['trick']} {n}" for n in range(1, per_deal + 1)])
        jump.select_option(value=str(third["step"]))
        # The table as trick 3 of deal 2 begins: the trick's leader to lead, none of its cards down.
        expect(step).to_have_text(words["step"].format(third["step"], steps))
        expect(page.locator(".st-deal")).to_have_text(words["info"].format(3, per_deal))
        expect(page.locator(".game-area")).to_contain_text(words["leads"])
        expect(jump).to_have_value(str(third["step"]))
        assert layout_problems(page) == []
        if language == "en" and AXE.exists():
            assert serious_violations(page) == []

        if language != "en":
            continue
        # Play goes on from the trick; the list follows into the next trick.
        page.get_by_role("button", name=words["play"], exact=True).click()
        fourth = second[3]["step"]
        expect(step).to_have_text(words["step"].format(fourth, steps), timeout=(fourth - third["step"]) * 1000 + 3000)
        page.get_by_role("button", name=words["pause"]).click()
        expect(jump).to_have_value(str(fourth))
