"""README is the front door: short, and its first two commands are the two that matter."""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
MAX_README_LINES = 150
CODE_BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)


def commands(markdown: str) -> list[str]:
    """Every command line of the fenced code blocks, in order, without its comment."""
    lines = (line.split("#", 1)[0].strip()
             for block in CODE_BLOCK.findall(markdown) for line in block.splitlines())
    return [line for line in lines if line]


def test_readme_is_short():
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines"


def test_readme_starts_with_make_run_then_make_test():
    assert commands(README.read_text("utf-8"))[:2] == ["make run", "make test"]


def test_commands_are_read_from_code_blocks_only():
    markdown = "Run `make clean` first.\n\n```sh\nmake run   # serve\n\nmake test\n```\n"
    assert commands(markdown) == ["make run", "make test"]
