"""Every string of the app in every language: each English key of the shell, of every page's
module and of every game has a Finnish string with the same placeholders, none is left in
English by mistake, and each How to play guide has a Finnish text. Read from the modules as the
phone loads them (in Chromium, for they are ES modules that register their strings)."""
from __future__ import annotations

import re
from pathlib import Path

from playwright import sync_api

PWA = Path(__file__).resolve().parents[2] / "pwa"
# Modules that register strings of their own (addStrings / addLanguages), besides i18n.js.
REGISTERING = sorted(path.relative_to(PWA).as_posix() for path in PWA.rglob("*.js")
                     if "vendor" not in path.parts and path.name != "i18n.js"
                     and re.search(r"\badd(Strings|Languages)\(", path.read_text()))
GUIDES = sorted(path.relative_to(PWA).as_posix() for path in PWA.glob("games/*/howto.js"))
# Strings that read the same in both languages though they have words: the app's name.
SAME_IN_FINNISH = {"app.name"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def strings(page, code: str) -> dict[str, str]:
    return page.evaluate("""async ([modules, code]) => {
      for (const module of modules) await import(`/${module}`);
      const { catalogue } = await import("/i18n.js");
      return catalogue(code);
    }""", [REGISTERING, code])


def words(text: str) -> list[str]:
    """The text's words without its placeholders, symbols and numbers: what reads as language."""
    return re.findall(r"[^\W\d_]+", PLACEHOLDER.sub(" ", text))


def test_every_english_string_has_a_finnish_one(page, live_server):
    page.goto(live_server)
    sync_api.expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert any(module.startswith("games/") for module in REGISTERING) and "friends.js" in REGISTERING
    english, finnish = strings(page, "en"), strings(page, "fi")
    assert len(english) > 500
    assert sorted(set(english) - set(finnish)) == [], "English keys without a Finnish string"
    assert sorted(set(finnish) - set(english)) == [], "Finnish keys no English string has"
    placeholders = {key: (sorted(set(PLACEHOLDER.findall(english[key]))), sorted(set(PLACEHOLDER.findall(finnish[key]))))
                    for key in english}
    assert {key: both for key, both in placeholders.items() if both[0] != both[1]} == {}
    # A count's forms (tn): Intl.PluralRules says "one" and "other" in both languages.
    counts = {key.rsplit(".", 1)[0] for key in english if key.endswith(".one")}
    assert sorted(count for count in counts if f"{count}.other" not in english) == []
    untranslated = sorted(key for key in english if finnish[key] == english[key] and words(english[key])
                          and key not in SAME_IN_FINNISH)
    assert untranslated == [], "left in English"


def test_every_how_to_play_guide_has_a_finnish_text(page, live_server):
    page.goto(live_server)
    guides = page.evaluate("""async (modules) => {
      const found = {};
      for (const module of modules) found[module] = Object.keys((await import(`/${module}`)).default).sort();
      return found;
    }""", GUIDES)
    assert len(guides) == 4
    assert {module: languages for module, languages in guides.items() if languages != ["en", "fi"]} == {}
