"""A player's name inside chat-platform text: it can neither mention anybody nor make a link.

Slack reads `<...>` as mentions (`<!channel>`) and links (`<https://x|text>`):
escaping `&`, `<` and `>` as Slack asks takes that away. Discord reads Markdown,
including masked links `[text](url)`, and `@everyone`: its Markdown characters
are escaped with a backslash. For both, a zero-width space after `@`, `.`, `:`
and `/` stops a name such as `evil.example/login` from turning into a link.
"""
from __future__ import annotations

import re

_BREAK_AFTER = re.compile(r"([@.:/])")
_DISCORD_MARKDOWN = re.compile(r"([\\*_~`|>\[\]()#<-])")
_SLACK_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _unlinkable(text: str) -> str:
    return _BREAK_AFTER.sub("\\1\u200b", text)


def discord_text(name: str) -> str:
    return _unlinkable(_DISCORD_MARKDOWN.sub(r"\\\1", name))


def slack_text(name: str) -> str:
    return _unlinkable("".join(_SLACK_ESCAPES.get(ch, ch) for ch in name))
