"""The bot in 30 lines of docs/integrating.md plays its game to the end on a live server, as
the page shows it (only the server's address differs)."""
import re
import subprocess
import sys
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "integrating.md"


def test_the_guides_bot_plays_its_game_to_the_end(live_server, tmp_path):
    bot = re.search(r"```python\n(.*?)```", GUIDE.read_text("utf-8"), re.DOTALL).group(1)
    assert len(bot.splitlines()) <= 40
    (tmp_path / "bot.py").write_text(bot.replace("http://127.0.0.1:8000", live_server))
    played = subprocess.run([sys.executable, str(tmp_path / "bot.py")],
                            capture_output=True, text=True, timeout=60)
    assert played.returncode == 0, played.stderr
    assert "finished in place" in played.stdout
