"""Text that other people see, names and table talk alike: one line that shows what it says.

The text is NFC-normalised, trimmed, and each run of spaces becomes one. It is refused when it
holds a control, format (bidi overrides and isolates, zero-width and invisible marks),
surrogate, private-use, unassigned or line-separator character (`unicodedata` categories), a
character that is drawn as nothing, or more than three combining marks on one character; and
when nothing of it would show. The zero-width joiners that some scripts and emoji need are
kept, but only between two characters that show.

A player's name may also not look like a bot's seat ("Bot 2 (hard)", "Botti ...") or a bot
level's profile ("Hard bot", `api.tables.ratings.bot_name`): it is compared by its look
(`confusable_homoglyphs`: a Cyrillic В or a digit 0 reads as B and O).
"""
from __future__ import annotations

import re
import unicodedata

from functools import lru_cache

from rules import GAMES

MAX_MARKS_PER_CHARACTER = 3
_JOINERS = {"\u200c", "\u200d"}
_FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_MARKS = {"Mn", "Mc", "Me"}
# Letters and symbols drawn as nothing, whose categories say they show: the Hangul fillers
# (default-ignorable, a property `unicodedata` does not give), Khitan's filler, the braille blank.
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\U00016fe4", "\u2800"}
_SHOWS = ("L", "N", "P", "S")  # the first letters of the categories of characters that show
_BOT_WORDS = ("bot", "botti")  # a bot's seat in English and Finnish
_LEVELS = {level.name.casefold() for game in GAMES.values() for level in game.bot_levels}


class Refused(ValueError):
    """The text cannot be shown as it is; the message says why."""


def shown_text(value: str, what: str, max_length: int) -> str:
    """The text as stored, or Refused naming `what` ("name", "message") and what is wrong."""
    text = unicodedata.normalize("NFC", value)
    marks = 0
    for index, character in enumerate(text):
        category = unicodedata.category(character)
        if character in _JOINERS:
            if not (_shows(text[index - 1:index]) and _shows(text[index + 1:index + 2])):
                raise Refused(f"a {what} may join only two characters that show")
        elif category in _FORBIDDEN or character in _BLANK:
            raise Refused(f"a {what} is one line of text that shows: it may not contain "
                          f"U+{ord(character):04X} ({unicodedata.name(character, category)})")
        marks = marks + 1 if category in _MARKS else 0
        if marks > MAX_MARKS_PER_CHARACTER:
            raise Refused(f"a {what} may stack at most {MAX_MARKS_PER_CHARACTER} combining "
                          "marks on one character")
    text = " ".join(text.split())
    if not text:
        raise Refused(f"the {what} is empty")
    if len(text) > max_length:
        raise Refused(f"a {what} has at most {max_length} characters")
    if not any(_shows(character) for character in text):
        raise Refused(f"the {what} shows nothing")
    return text


def refuse_bot_lookalike(name: str) -> None:
    """Refused when a player's name reads like a bot's seat or profile: it starts with the word
    Bot (or Botti), is a bot level's name ("Hard bot"), or ends with a bot level in
    parentheses. Read by its look, ignoring case, spaces, punctuation and symbols, and a word
    spelt out letter by letter ("B o t", "B.o.t") reads as that word."""
    seen = _look(name)
    words = " ".join(_words(seen)).replace("0", "o")
    bot_word = "|".join(_BOT_WORDS)
    if re.match(rf"(?:{bot_word})(?![^\W\d_])", words):
        raise Refused("a player's name may not start with \"Bot\": bots' seats are named so")
    if re.fullmatch(rf"(?:{'|'.join(_LEVELS)})(?:{bot_word})\d*", words.replace(" ", "")):
        raise Refused("a player's name may not be a bot level's name, as \"Hard bot\"")
    ending = re.search(r"\(\s*([^\W\d_]+)\s*\)$", seen)
    if ending and ending.group(1) in _LEVELS:
        raise Refused("a player's name may not end with a bot level in parentheses")


def _words(seen: str) -> list[str]:
    """The words of the text, split at anything but letters and digits, with a run of single
    characters joined into the one word it spells."""
    words: list[str] = []
    spelt = ""
    for token in re.split(r"[\W_]+", seen):
        if len(token) == 1:
            spelt += token
            continue
        if spelt:
            words.append(spelt)
            spelt = ""
        if token:
            words.append(token)
    return words + [spelt] if spelt else words


def _shows(character: str) -> bool:
    return (len(character) == 1 and unicodedata.category(character)[0] in _SHOWS
            and character not in _BLANK)


def _look(text: str) -> str:
    """How the text reads in plain Latin letters, lower case: compatibility forms folded
    (fullwidth, ligatures), marks dropped, each look-alike as the ASCII letter it imitates."""
    folded = unicodedata.normalize("NFKD", text)
    plain = "".join(character for character in folded
                    if unicodedata.category(character) not in _MARKS)
    return "".join(_ascii_twin(character) for character in plain).casefold()


@lru_cache(maxsize=4096)
def _ascii_twin(character: str) -> str:
    """The ASCII letter the character imitates (a small capital reads as its letter), else the
    character itself."""
    if character.isascii():
        return character
    # Imported at the first name that needs it: its tables take 16 MB, which a bot worker, never
    # checking a name, need not hold.
    from confusable_homoglyphs import confusables
    for found in confusables.is_confusable(character, greedy=True,
                                           preferred_aliases=["latin"]) or ():
        for glyph in found["homoglyphs"]:
            twin = glyph["c"]
            small_capital = re.fullmatch(r"LATIN LETTER SMALL CAPITAL ([A-Z])", glyph["n"])
            if small_capital:
                return small_capital.group(1)
            if twin.isascii() and twin.isalpha():
                return twin
    return character
