"""What the browser tests share besides fixtures: a phone's player and the API as it sees it."""
import json
import re
import urllib.request
from pathlib import Path

from playwright import sync_api


def start(page, base: str, name: str = "Anna", path: str = "/") -> None:
    """Open the app on a new phone and answer the first visit's name prompt."""
    page.goto(base + path)
    page.get_by_label(re.compile(r"^(Your name|Nimesi)")).fill(name)
    page.get_by_role("button", name=re.compile(r"^(Start playing|Aloita)$")).click()
    sync_api.expect(page.locator("#who")).to_contain_text(name)


def wait_for_control(page) -> None:
    """Until the service worker controls the page. Polled from here: Playwright's in-page polling
    evaluates a string after its first try, which the page's Content-Security-Policy refuses."""
    for _ in range(300):
        if page.evaluate("() => navigator.serviceWorker.controller !== null"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never took control of the page")


ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def snap(page, name: str) -> None:
    """A screenshot of what the phone shows, for a person to look at: artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def call(page, base: str, method: str, path: str, body: dict | None = None) -> dict:
    """The API as this phone's player (its token in localStorage)."""
    token = page.evaluate("JSON.parse(localStorage.getItem('poyta.player')).token")
    response = page.request.fetch(f"{base}/api/v1{path}", method=method, data=body,
                                  headers={"Authorization": f"Bearer {token}"})
    assert response.ok, response.text()
    return response.json() if response.status != 204 else {}


def play_by_api(page, base: str, game_id: str, until) -> dict:
    """This phone's player makes its first legal move until `until(view)`; a bot moving first
    (409) just means looking again. Returns the view that satisfied `until`."""
    token = page.evaluate("JSON.parse(localStorage.getItem('poyta.player')).token")
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(1000):
        view = page.request.get(f"{base}/api/v1/games/{game_id}", headers=headers).json()
        if until(view):
            return view
        # A 6 nimmt! player who has chosen may still change the choice: that is not a move due.
        if view["legal_actions"] and view["your_seat"] in view["to_act"]:
            page.request.post(f"{base}/api/v1/games/{game_id}/actions", headers=headers,
                              data={"action": view["legal_actions"][0], "version": view["version"]})
        else:
            page.wait_for_timeout(50)  # another seat's move
    raise AssertionError("the game never got there")


def outside(base: str, method: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    """The API for another player, from outside the phone (so never offline with it)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{base}/api/v1{path}", method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def api_view(page, base: str, game_id: str) -> dict:
    """The game as the player of this phone gets it from the API."""
    return call(page, base, "GET", f"/games/{game_id}")


# Everything a phone screen must not do, measured in the page: sideways overflow outside a
# scrolling box, a word broken across lines, a tap target under 44 px.
LAYOUT_PROBLEMS = """() => {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const shown = (el) => !el.closest(".visually-hidden, [hidden], .skip, script, style, head, dialog:not([open])");
  const name = (el) => `${el.tagName.toLowerCase()}.${String(el.className).trim().replace(/ +/g, ".")} `
    + JSON.stringify((el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 40));
  const inScroller = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const overflow = getComputedStyle(up).overflowX;
      if (overflow === "auto" || overflow === "scroll") return true;
    }
    return false;
  };
  if (document.documentElement.scrollWidth > vw) problems.push(`page is ${document.documentElement.scrollWidth} px wide`);
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || !shown(el)) continue;
    if ((box.right > vw + 0.5 || box.left < -0.5) && !inScroller(el)) {
      problems.push(`overflows: ${name(el)} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement || !shown(node.parentElement)) continue;
    // Words with a hyphen, dash, slash or soft hyphen may break there.
    for (const word of node.data.matchAll(/[^\\s\\u00ad\\-\\u2010-\\u2014\\/]+/g)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width);
      // After a soft hyphen the line broke at, Chromium counts the hyphen it draws at the end of
      // the line above as part of the next word: that narrow box is no break of the word.
      if (node.data[word.index - 1] === "\u00ad" && rects.length > 1 && rects[0].width < 8) rects.shift();
      const tops = new Set(rects.map((r) => Math.round(r.top / 3)));
      if (tops.size > 1) problems.push(`word broken: ${JSON.stringify(word[0])} in ${name(node.parentElement)}`);
    }
  }
  for (const el of document.querySelectorAll("a[href], button, select, input, summary, textarea")) {
    if (!shown(el) || (el.tagName === "A" && el.closest(".markdown"))) continue;
    const target = (el.type === "checkbox" || el.type === "radio") && el.labels.length ? el.labels[0] : el;
    const box = target.getBoundingClientRect();
    if (!box.width) continue;
    if (box.width < 43.5 || box.height < 43.5) {
      problems.push(`small target: ${name(el)} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return problems;
}"""


def layout_problems(page) -> list[str]:
    return page.evaluate(LAYOUT_PROBLEMS)


def in_viewport(page, selector: str) -> bool:
    """Whether the whole element is on screen, without scrolling."""
    return page.evaluate("""(selector) => {
      const box = document.querySelector(selector).getBoundingClientRect();
      return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
    }""", selector)
