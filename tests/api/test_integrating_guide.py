"""The first bot of docs/integrating.md, on the bot runner (examples/poyta_bot), plays its game
to the end on a live server, as the page shows it (only the server's address differs)."""
import os
import re
import subprocess
import sys
from pathlib import Path

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
