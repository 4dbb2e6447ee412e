"""The bots of docs/integrating.md play their games to the end on a live server, as the page
shows them (only the server's address differs): the first on the bot runner (examples/poyta_bot),
the second seeking its games and taking its challenges from its stream."""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "integrating.md"
RUNNER = ROOT / "examples" / "poyta_bot"


def test_the_guides_bot_plays_its_game_to_the_end(live_server, tmp_path):
    bot = re.search(r"```python\n(.*?)```", GUIDE.read_text("utf-8"), re.DOTALL).group(1)
    assert len(bot.splitlines()) <= 40
    (tmp_path / "bot.py").write_text(bot.replace("http://127.0.0.1:8000", live_server))
    assert "from poyta_bot import" in bot
    played = subprocess.run([sys.executable, str(tmp_path / "bot.py")], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(RUNNER)},
                            capture_output=True, text=True, timeout=90)
    assert played.returncode == 0, played.stderr
    assert "finished in place" in played.stdout


def test_the_guides_seeking_bot_takes_a_challenge_and_finishes_both_games(live_server,
                                                                          tmp_path):
    """The second bot of the page: its seek is filled with an easy bot, a player challenges it,
    and it plays both games to the end from its stream."""
    bot = re.findall(r"```python\n(.*?)```", GUIDE.read_text("utf-8"), re.DOTALL)[1]
    assert len(bot.splitlines()) <= 40
    (tmp_path / "seeking_bot.py").write_text(bot.replace("http://127.0.0.1:8000", live_server))
    running = subprocess.Popen([sys.executable, str(tmp_path / "seeking_bot.py")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        bot_id = running.stdout.readline().split()[-1]
        api = f"{live_server}/api/v1"
        http = httpx.Client(timeout=30)
        token = http.post(f"{api}/players", json={"name": "Anna"}).json()["token"]
        anna = {"Authorization": f"Bearer {token}"}
        game = http.post(f"{api}/games", headers=anna, json={
            "type": "sixtysix", "players": 2, "pace": "1h",
            "seats": ["human", {"player": bot_id}]}).json()["id"]
        deadline = time.monotonic() + 90
        while (view := http.get(f"{api}/games/{game}", headers=anna).json())["status"] != (
                "finished"):
            assert time.monotonic() < deadline, view["status"]
            if view["your_seat"] in view["to_act"]:
                http.post(f"{api}/games/{game}/actions", headers=anna, json={
                    "action": view["legal_actions"][0], "version": view["version"]})
            else:
                time.sleep(0.05)
        out, err = running.communicate(timeout=90)
        assert running.returncode == 0, err
        assert out.count("finished in place") == 2
    finally:
        running.kill()
