"""The HTTP bot example plays a whole game against the server's bots, also over a link that
loses answers."""
import re
import subprocess
import sys
from pathlib import Path

import requests

from tests.api.lossy_link import LossyLink

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "http_bot.py"


def test_the_example_bot_plays_a_game_to_its_end(live_server):
    finished = subprocess.run(
        [sys.executable, str(EXAMPLE), "--server", live_server, "--create", "sixnimmt",
         "--players", "3", "--option", "threshold=8"],
        capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert "finished: scores" in finished.stdout


def test_the_example_bot_plays_on_through_lost_answers_and_applies_each_move_once(serve):
    """Every fourth POST's answer is lost after the server applied it, and its retry is
    refused once with 429: the example sends it again with the same Idempotency-Key, the
    server answers the first answer again, and the game's log holds each of the bot's moves
    once."""
    links = []
    server = serve(wrap=lambda app: links.append(LossyLink(app)) or links[0])
    finished = subprocess.run(
        [sys.executable, str(EXAMPLE), "--server", server, "--create", "sixnimmt",
         "--players", "3", "--option", "threshold=8", "--seed", "3"],
        capture_output=True, text=True, timeout=180)
    assert finished.returncode == 0, finished.stderr
    assert "finished: scores" in finished.stdout
    link = links[0]
    assert len(link.lost) >= 3 and set(link.replayed) == set(link.lost)
    game_id, seat = re.search(r" (\S+) in seat (\d+)", finished.stdout).groups()
    log = requests.get(f"{server}/api/v1/games/{game_id}/events", timeout=10,
                       headers={"Authorization": link.authorization}).json()
    chosen = [event for event in log["events"] if event["type"] == "chose"
              and event["seat"] == int(seat)]
    placed = [event for event in log["events"] if event["type"] == "placed"
              and event["seat"] == int(seat)]
    # One card a turn, each chosen once: a retried POST that was applied twice would have
    # changed the choice (`changed`) or failed the game's version check.
    assert not any(event["changed"] for event in chosen)
    assert len(chosen) == len(placed)
