"""Nothing another seat does happens off-screen. In Sixty-six the trick the bot took stays on the
table beside its next lead until the player plays or taps it away; the bot's trump exchange
shows at the stock, its marriage on the card that showed it; a closed stock is marked; the
player's own exchangeable nine is marked before it is tapped. In Sticheln and Hattrick a trick
the bots took stays on the felt; in 6 nimmt! the last turn is said under the rows, its cards
marked where they went. All of it on a 360 px screen without scrolling."""
from __future__ import annotations

import re

from phone import api_view, call, in_viewport, layout_problems, snap, start
from playwright import sync_api
from test_pwa_accessibility import axe_installed, serious_violations  # noqa: F401 (a fixture)

NARROW = {"width": 360, "height": 740}
GAME = {"type": "sixtysix", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"preset": "classic", "match_points": 7}}


def test_the_trick_the_bot_took_stays_until_the_player_moves_on(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW)
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", GAME)
    page.goto(f"{live_server}/#/game/{game['id']}")
    felt = page.locator('[data-part="table"]')
    previous = felt.locator(".sx-previous")
    playable = page.locator('.sixtysix [data-part="hand"] button:not([disabled])')
    hidden_once = False
    for _ in range(120):
        expect(page.locator(".status-line.yours").or_(page.locator(".outcome"))).to_be_visible()
        if page.locator(".outcome").is_visible():
            break
        view = api_view(page, live_server, game["id"])
        table = view["table"]
        if table["trick"] and table["last_trick"] and table["last_trick"]["winner"] == 1:
            # The bot took the last trick and led the next: both are on the table.
            expect(previous).to_be_visible()
            expect(previous).to_contain_text(re.compile(r"^Bot 2 \(easy\) took the trick with the \w+ of \w+: \d+ card points"))
            expect(previous.locator(".sx-card")).to_have_count(2)
            assert layout_problems(page) == []
            if not hidden_once:
                snap(page, "sixtysix-last-trick-kept")
                previous.get_by_role("button", name="Hide").click()
                expect(previous).to_have_count(0)
                hidden_once = True
                playable.first.click()
                continue
            playable.first.click()
            expect(previous).to_have_count(0)
            break
        playable.first.click()
    assert hidden_once, "the bot never took a trick and led"


def draw(page, view: dict) -> None:
    """The renderer's table for `view`, as the player of seat 0 sees it beside Bot 2."""
    page.evaluate("""async (view) => {
      const { t } = await import("/i18n.js");
      const mod = await import("/games/sixtysix/renderer.js");
      const name = (seat) => (seat === 0 ? "you" : `Bot ${seat + 1}`);
      const ctx = { t, ui: {}, yourSeat: 0, busy: false, redraw() {}, seatName: name,
        nameTag: (seat) => document.createTextNode(name(seat)) };
      const box = document.createElement("div");
      box.id = "drawn";
      box.append(mod.render(view, () => Promise.resolve(), ctx));
      document.querySelector("main").replaceChildren(box);
    }""", view)


def test_an_exchange_a_marriage_and_a_closed_stock_show_where_they_happened(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW)
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", GAME)
    page.goto(f"{live_server}/#/game/{game['id']}")
    expect(page.locator(".sixtysix")).to_be_visible()
    view = api_view(page, live_server, game["id"])
    trump = view["table"]["trump"]
    other = next(suit for suit in "SHDC" if suit != trump)
    view["legal_actions"] = [{"type": "play", "card": card} for card in view["hand"]]
    table = view["table"]
    table.update(trick=[{"seat": 1, "card": "K" + other}], trick_holder=1, leader=1, turn=0,
                 exchanged={"seat": 1, "gave": "9" + trump, "took": table["trump_card"]},
                 marriages=[{"seat": 1, "suit": other, "points": 20, "counted": False}])
    draw(page, view)
    felt = page.locator('#drawn [data-part="table"]')
    expect(felt).to_contain_text(re.compile(r"Bot 2 exchanged the nine of \w+ for the face-up \w+ of \w+"))
    expect(felt.locator(f'[data-card="K{other}"]')).to_contain_text("+20")
    expect(felt.locator(f'[data-card="K{other}"] .visually-hidden')).to_have_text(
        re.compile(r"^Bot 2: king of \w+, showing the \w+ marriage \(\+20\)$"))
    assert layout_problems(page) == []
    snap(page, "sixtysix-exchange-and-marriage")

    table.update(trump_card=None, stock_size=0, closed_by=1, exchanged=None, marriages=[],
                 face_up={"card": "T" + trump, "drawn_by": None})
    draw(page, view)
    stock = page.locator("#drawn .sx-stock")
    expect(stock.locator(".sx-closed-mark")).to_be_visible()
    expect(stock).to_contain_text("Closed by Bot 2")

    # The player's own trump nine, while the exchange is allowed, is marked on the card.
    table.update(trick=[], turn=0, closed_by=None, trump_card="T" + trump, stock_size=8, face_up=None)
    view["hand"] = ["9" + trump] + [card for card in view["hand"] if card != "9" + trump][:5]
    view["legal_actions"] = [{"type": "exchange"}] + [{"type": "play", "card": c} for c in view["hand"]]
    draw(page, view)
    nine = page.get_by_role("button", name=re.compile(r"^nine of \w+: exchange it for the trump card, or play it$"))
    expect(nine.locator(".sx-nine-mark")).to_be_visible()


def test_in_sticheln_too_a_trick_a_bot_took_stays_until_the_player_plays(new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW)
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "sticheln", "players": 3, "seats": ["human", {"bot": "easy"}, {"bot": "easy"}],
        "pace": "none", "options": {"deals": 1}})
    page.goto(f"{live_server}/#/game/{game['id']}")
    kept = page.locator('[data-part="table"] .st-last')
    for _ in range(60):
        expect(page.locator(".status-line.yours").or_(page.locator(".outcome"))).to_be_visible()
        assert not page.locator(".outcome").is_visible(), "no bot took a trick and led"
        view = api_view(page, live_server, game["id"])
        table = view["table"]
        if view["phase"] == "play" and table["trick"] and table.get("last_trick") \
                and table["last_trick"]["winner"] != 0:
            expect(kept).to_be_visible()
            expect(kept).to_contain_text(re.compile(r"Bot \d \(easy\) took the trick with"))
            assert layout_problems(page) == []
            snap(page, "sticheln-last-trick-kept")
            kept.get_by_role("button", name="Hide").click()
            expect(kept).to_have_count(0)
            break
        page.locator('[data-part="hand"] button:not([disabled]), .sticheln button.primary:not([disabled])').first.click()


def test_in_hattrick_the_trick_the_bots_took_stays_on_the_felt_in_view(axe_installed, new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW, bypass_csp=True)  # the page's CSP would refuse the injected axe
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "hattrick", "players": 4, "seats": ["human"] + [{"bot": "easy"}] * 3,
        "pace": "none", "options": {"deals": 1}})
    page.goto(f"{live_server}/#/game/{game['id']}")
    kept = page.locator('[data-part="table"] .ht-kept')
    below = page.get_by_role("heading", name="Last trick", exact=True)
    playable = page.locator('.hattrick [data-part="hand"] button:not([disabled])')
    for _ in range(14):
        expect(page.locator(".status-line.yours")).to_be_visible()
        table = api_view(page, live_server, game["id"])["table"]
        last = table["last_trick"]
        if table["trick"] and last and any(seat != 0 for seat in last["taken"].values()):
            # A bot took the last trick and the next is under way: both on the felt, in view.
            expect(kept).to_be_visible()
            taker = next(seat for seat in last["taken"].values() if seat != 0)
            expect(kept.locator("li.ht-took span:not([aria-hidden])").filter(has_text=f"Bot {taker + 1} (easy)")).to_have_text(
                re.compile(rf"^Bot {taker + 1} \(easy\) took (red|blue|green)$"))
            expect(kept.locator(".hc")).to_have_count(len(last["cards"]))
            assert in_viewport(page, '[data-part="table"] .ht-kept')
            assert in_viewport(page, "#ht-hand")  # and where the hand begins
            expect(below).to_have_count(0)  # not twice
            assert layout_problems(page) == []
            assert serious_violations(page) == []
            snap(page, "hattrick-last-trick-kept")
            kept.get_by_role("button", name="Hide").click()
            expect(kept).to_have_count(0)
            expect(below).to_be_visible()  # still there for whoever looks for it
            break
        playable.first.click()
    else:
        raise AssertionError("no bot took a trick while the next was under way")


def test_in_sixnimmt_the_last_turn_is_said_under_the_rows(axe_installed, new_page, live_server):
    expect = sync_api.expect
    page = new_page(viewport=NARROW, bypass_csp=True)  # the page's CSP would refuse the injected axe
    start(page, live_server)
    game = call(page, live_server, "POST", "/games", {
        "type": "sixnimmt", "players": 3, "seats": ["human", {"bot": "easy"}, {"bot": "easy"}],
        "pace": "none"})
    page.goto(f"{live_server}/#/game/{game['id']}")
    line = page.locator('[data-part="table"] .sn-just')
    expect(line).to_have_count(0)  # nothing has happened yet
    page.locator('[data-part="hand"] button:enabled').first.click()
    take = page.get_by_role("button", name=re.compile(r"^Take row"))
    expect(take.first.or_(line)).to_be_visible()
    if take.count():  # our card was too low for every row
        take.first.click()
    expect(line).to_be_visible()
    placements = api_view(page, live_server, game["id"])["table"]["last_turn"]
    said = line.inner_text()
    assert said.startswith("Last turn: ")
    for placement in placements:
        who = "You" if placement["seat"] == 0 else f"Bot {placement['seat'] + 1} (easy)"
        done = (f"took row {placement['row'] + 1} with {placement['card']}, " if placement["took"]
                else f"placed {placement['card']} in row {placement['row'] + 1}")
        assert f"{who} {done}" in said, said
    marked = page.locator('[data-part="table"] .nc.just')
    expect(marked).to_have_count(len(placements))
    assert sorted(int(card) for card in marked.evaluate_all("(cards) => cards.map((c) => c.dataset.card)")) \
        == sorted(placement["card"] for placement in placements)
    assert in_viewport(page, '[data-part="table"] .sn-just')
    expect(page.get_by_role("heading", name="Last turn", exact=True)).to_have_count(0)  # not twice
    assert layout_problems(page) == []
    assert serious_violations(page) == []
    snap(page, "sixnimmt-last-turn-under-the-rows")
