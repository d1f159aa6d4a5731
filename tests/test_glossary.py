"""The Swedish and Norwegian catalogs use a card player's words: "behåll"/"behold" is a verb, never a
noun (a player says "val"/"valg" or "sätt att behålla kort"); the pot share is "pottandel"; a Swedish
pair is "ett par ess", "knektpar"; no number can be split across lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[1] / "src" / "drawodds" / "locale"


def translations(lang: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) of every entry of every part of ``lang``'s catalog (each plural form apart)."""
    found = []
    for part in sorted((LOCALE / lang).glob("*.po")):
        with part.open("rb") as f:
            for message in read_po(f):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                found += [(ids[0], s) for s in strings if s]
    return found


NOUN_HOLD = {
    "sv": [r"\b(?:varje|tillåten|tillåtet|tillåtna|bästa|andra|våra|ett|inget|två|listans|tabellens|per|tränar)"
           r" behåll\b", r"(?<!en )\bbehållen\b", r"\bbehållet\b", r"\bbehålls(?:mönster|nummer)\b", r"\bbehåll-"],
    "nb": [r"\b(?:hver|hvert|lovlige|lovlig|beste|andre|våre|et|ingen|to|listens|tabellens|per|tillatt|trener)"
           r" behold\b", r"\bbeholdene\b", r"\bbeholdet\b", r"\bbeholdsnummer\b", r"\bbehold-"],
}
# Phrases a player would not write, found in earlier catalogs.
NEVER = {
    "sv": [r"\bpar i (?:ess|kungar|damer|knektar|tior|\{ranks\})", r"vänster om given\b", "pat eller help",
           r"^Förklaring\b", r"\bJk\b", r"och köp (?:ett|\{n\}|\{count\})"],
    "nb": ["venstre for giver starter", "pat eller help", r"^Forklaring\b", r"\bJk\b",
           r"og bytte (?:ett|\{n\}|\{count\})"],
}


@pytest.mark.parametrize("lang", ["sv", "nb"])
def test_hold_is_never_a_noun(lang):
    wrong = [s for _, s in translations(lang) for pattern in NOUN_HOLD[lang] if re.search(pattern, s, re.IGNORECASE)]
    assert wrong == []


@pytest.mark.parametrize("lang", ["sv", "nb"])
def test_the_pot_share_is_pottandel(lang):
    shares = [s for _, s in translations(lang) if re.search(r"pot+andel", s, re.IGNORECASE)]
    assert shares, "the catalog names the pot share somewhere"
    assert [s for s in shares if re.search(r"\bpotandel", s, re.IGNORECASE)] == []


@pytest.mark.parametrize("lang", ["sv", "nb"])
def test_no_phrase_a_player_would_not_write(lang):
    wrong = [(mid, s) for mid, s in translations(lang) for pattern in NEVER[lang]
             if re.search(pattern, s, re.MULTILINE) and not re.search(pattern, mid, re.MULTILINE)]
    assert wrong == []


@pytest.mark.parametrize("lang", ["sv", "nb"])
def test_no_number_in_the_catalog_can_split_across_lines(lang):
    """A percent sign or a group of thousands is joined to its number by a no-break space."""
    split = [s for _, s in translations(lang) if re.search(r"\d %|(?<![\d,.])\d{1,3} \d{3}(?!\d)", s)]
    assert split == []


def test_wrapped_text_keeps_a_number_whole():
    from rich.console import Console

    import drawodds.render.console  # noqa: F401  (its wrapping keeps no-break spaces)
    from drawodds import i18n

    with i18n.use("sv"):
        text = "aaaa bbbb cccc " + i18n.percent(0.259) + " dddd " + i18n.number(100_000_000, grouped=True) + " x"
    console = Console(width=20, record=True)
    console.print(text)
    lines = console.export_text().splitlines()
    assert "25,9\u00a0%" in "\n".join(lines) and any("100\u00a0000\u00a0000" in line for line in lines)


@pytest.mark.parametrize("lang, words", [("sv", "ett par ess, D-10-3"), ("nb", "par i ess, D-10-3"),
                                         ("en", "pair of aces, Q-T-3")])
def test_kickers_are_written_with_the_languages_letters(lang, words):
    from drawodds import i18n
    from drawodds.analyses.reference import hand_report

    with i18n.use(lang):
        assert i18n.worded(hand_report("As Ah Qd Tc 3s").description) == words
