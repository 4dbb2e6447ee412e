"""The HTTP bot example plays a whole game against the server's bots."""
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "http_bot.py"


def test_the_example_bot_plays_a_game_to_its_end(live_server):
    finished = subprocess.run(
        [sys.executable, str(EXAMPLE), "--server", live_server, "--create", "sixnimmt",
         "--players", "3", "--option", "threshold=8"],
        capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert "finished: scores" in finished.stdout
