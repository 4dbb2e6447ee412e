"""The bot runner (examples/poyta_bot) plays a game of every type against the server's bots,
one random legal action a turn, through a bot killed halfway and started again: its stream
resumes from the `Last-Event-ID` it kept, every game ends, nothing is refused as stale or over
budget; and it takes or declines challenges by its rule."""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from rules import GAMES

RUNNER = Path(__file__).resolve().parents[2] / "examples" / "poyta_bot"
BOT = """
import logging, random, sys
from poyta_bot import Runner

server, token, state, *games = sys.argv[1:]
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
rng = random.Random()
runner = Runner(server, token, lambda view: rng.choice(view["legal_actions"]), state=state,
                accept=lambda summary: summary["type"] == "hattrick")
runner.run(until=lambda runner: set(games) <= set(runner.finished))
print("all finished", flush=True)
"""


class Bot:
    """The bot as a process of its own, its log read line by line."""

    def __init__(self, script: Path, args: list[str]):
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, str(script), *args], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONPATH": str(RUNNER)})
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip())

    def played(self) -> int:
        return sum(": played " in line for line in self.lines)

    def wait_for(self, condition, timeout: float) -> None:
        ends = time.monotonic() + timeout
        while not condition():
            assert self.process.poll() is None, "\n".join(self.lines[-40:])
            assert time.monotonic() < ends, "\n".join(self.lines[-40:])
            time.sleep(0.2)


def register(server: str, name: str, bot: bool = True) -> tuple[str, dict]:
    body = httpx.post(f"{server}/api/v1/players", json={"name": name, "bot": bot}).json()
    return body["id"], {"Authorization": f"Bearer {body['token']}"}


def test_the_runner_plays_every_game_through_a_killed_and_resumed_bot(live_server, tmp_path):
    bot_id, bot = register(live_server, "Runner bot")
    games = []
    for game in GAMES.values():
        made = httpx.post(f"{live_server}/api/v1/games", headers=bot, json={
            "type": game.name, "players": game.min_players, "options": game.quick_options,
            "pace": "none", "seats": ["human", *[{"bot": "easy"}] * (game.min_players - 1)]})
        assert made.status_code == 201, made.text
        games.append(made.json()["id"])
    anna_id, anna = register(live_server, "Anna", bot=False)
    challenges = {kind: httpx.post(f"{live_server}/api/v1/games", headers=anna, json={
        "type": kind, "players": 4, "seats": ["human", {"player": bot_id}, {"bot": "easy"},
                                                {"bot": "easy"}]}).json()["id"]
                  for kind in ("hattrick", "sixnimmt")}
    script, state = tmp_path / "bot.py", tmp_path / "state.json"
    script.write_text(BOT)
    args = [live_server, bot["Authorization"].split()[1], str(state), *games]

    first = Bot(script, args)
    first.wait_for(lambda: first.played() >= 6 and state.exists(), 90)
    first.process.send_signal(signal.SIGKILL)  # a crash: no goodbye, its stream left open
    first.process.wait()
    kept = json.loads(state.read_text())["last_event_id"]
    assert kept

    second = Bot(script, args)
    second.wait_for(lambda: "all finished" in second.lines, 240)
    assert second.process.wait(30) == 0
    log = first.lines + second.lines
    assert f"following the event stream from {kept}" in second.lines, second.lines[:10]
    for game_id in games:
        view = httpx.get(f"{live_server}/api/v1/games/{game_id}", headers=bot).json()
        assert view["status"] == "finished", view["status"]
    refused = [line for line in log if "moved on" in line or "Retry-After" in line
               or re.match(r"game \S+: [45]\d\d ", line)]
    assert refused == [], refused
    hattrick = httpx.get(f"{live_server}/api/v1/games/{challenges['hattrick']}",
                         headers=anna).json()
    assert hattrick["seats"][1]["player"] == bot_id and hattrick["seats"][1]["joined"]
    inbox = httpx.get(f"{live_server}/api/v1/players/me/games", headers=bot).json()
    assert challenges["sixnimmt"] not in {line["id"] for line in inbox}  # declined
    assert any("accepted" in line and challenges["hattrick"] in line for line in log)
    assert any("declined" in line and challenges["sixnimmt"] in line for line in log)
