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


def paragraphs(markdown: str) -> list[str]:
    """The prose paragraphs of a page, outside code blocks, each as one line."""
    prose = CODE_BLOCK.sub("", markdown)
    return [" ".join(part.split()) for part in re.split(r"\n\s*\n", prose)
            if part.strip() and not part.lstrip().startswith(("|", "#", "-"))]


def test_no_page_says_a_sentence_twice():
    """A paragraph copied, whole or in part, says its long sentences twice."""
    for page in sorted((README.parent / "docs").glob("*.md")):
        said = [sentence for text in paragraphs(page.read_text("utf-8"))
                for sentence in re.split(r"(?<=[.;:])\s", text) if len(sentence) > 80]
        repeated = {sentence for sentence in said if said.count(sentence) > 1}
        assert not repeated, (page.name, repeated)


def test_the_docs_say_stream_events_may_repeat_and_how_to_tell_them_apart():
    for page in ("api.md", "integrating.md"):
        text = " ".join((README.parent / "docs" / page).read_text("utf-8").split())
        assert "may repeat" in text and "deduplicate" in text, page
        assert "twice, never not at all" not in text, page
