"""The player's guide in Swedish and Norwegian: the guide, its cheat sheets and charts speak the
reader's language, numbers are written the Scandinavian way (52,9 %), the links and files stay
the same, and the guide's data (its JSON) stays English.

One small guide is computed for the module (the quick sizes cut down as in test_report.py) and
written in each language; the Swedish one through a worker pool, so the language must reach the
processes that draw.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from matplotlib.figure import Figure

from drawodds import i18n
from drawodds.analyses import report as guide_module
from drawodds.analyses.report import Guide, guide
from drawodds.charts import reading
from drawodds.charts.cheatsheet import draw_cheatsheet, write_cheatsheet
from drawodds.charts.report import write_guide
from drawodds.render.report import cheatsheet_footer, guide_files, guide_markdown
from drawodds.results import json_data

SCALE = 0.02
SIZES: dict[str, Any] = {"classes": 0.005, "removal_trials": 100, "dilemma_trials": 200}

HEADINGS = {
    "en": ["1. What to keep", "2. Reading draw counts", "3. Jacks or Better: pass-outs and pot growth",
           "4. Standing pat", "5. Poengpoker and Chicago: what to keep"],
    "sv": ["1. Vad du ska behålla", "2. Att läsa köpen", "3. Knektöppning: givar utan öppning och växande pott",
           "4. Att stå", "5. Poengpoker och Chicago: vad du ska behålla"],
    "nb": ["1. Hva du skal beholde", "2. Å lese byttene", "3. Knektåpning: giv uten åpning og voksende pott",
           "4. Å stå", "5. Poengpoker og Chicago: hva du skal beholde"],
}


@pytest.fixture(scope="module")
def data() -> Guide:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(guide_module, "QUICK", dataclasses.replace(guide_module.QUICK.scaled(SCALE), **SIZES))
        return guide(quick=True, workers=2)


def _markdown(data: Guide, lang: str) -> str:
    with i18n.use(lang):
        return guide_markdown(data, guide_files(data))


def _prose(markdown: str) -> str:
    """The guide without its code spans and link targets (which keep English numbers and names)."""
    return re.sub(r"`[^`]*`|\]\([^)]*\)", "", markdown)


@pytest.mark.parametrize("lang", ["sv", "nb"])
def test_the_guide_reads_in_the_language_with_its_numbers(data, lang) -> None:
    text = _markdown(data, lang)
    assert re.findall(r"^## (.+)$", text, flags=re.MULTILINE)[:5] == HEADINGS[lang]
    words = {"sv": ("motståndare", "köp", "potten", "Mörkpoker, två spelare"),
             "nb": ("motstandere", "bytt", "potten", "Mørkpoker, to spillere")}[lang]
    assert all(w in text for w in words)
    prose = _prose(text)
    # Percentages with a decimal comma and a space before the sign; no English-written share left.
    assert re.search(r"\d,\d\u00a0%", prose)
    assert not re.search(r"\d\.\d+%", prose)
    assert "2\u00a0598\u00a0960" in text          # the count of hands, grouped the Scandinavian way


def test_every_language_links_the_same_files(data) -> None:
    targets = {lang: re.findall(r"\]\(([^)#\s]+)\)", _markdown(data, lang)) for lang in ("en", "sv", "nb")}
    assert targets["sv"] == targets["en"] == targets["nb"]
    assert set(targets["en"]) >= set(guide_files(data)) - {"README.md"}


def test_english_is_the_default_and_the_data_stays_english(data) -> None:
    english = _markdown(data, "en")
    assert guide_markdown(data, guide_files(data)) == english          # no language chosen: English
    assert re.findall(r"^## (.+)$", english, flags=re.MULTILINE)[:5] == HEADINGS["en"]
    assert "2,598,960" in english and re.search(r"\d\.\d%", english) and "\u00a0" not in english
    with i18n.use("sv"):
        swedish_json = json_data(data)
        sheet = data.keep.sheets[0]
        assert sheet.against_words != sheet.against          # shown in Swedish, kept in English
    assert swedish_json == json_data(data)
    assert sheet.against == "1 opponent who draws like most players"


def test_a_cheat_sheet_speaks_swedish(data) -> None:
    sheet = next(s for s in data.keep.sheets if s.players == 3)
    with i18n.use("sv"):
        fig = draw_cheatsheet(sheet.plan, sheet.title, sheet.against_words, cheatsheet_footer(sheet, data))
    texts = [t.get_text() for t in fig.texts]
    assert "Mörkpoker, 3 spelare" in texts and "din hand har" in texts
    assert any(t.startswith("Vad du ska behålla mot 2 motståndare") for t in texts)
    assert {"köp 1", "köp 3", "stå"} & set(texts) and "draw 3" not in texts
    shares = [t for t in texts if t.endswith("%") and t[0].isdigit()]
    assert shares and all("\u00a0%" in t and "." not in t for t in shares)


def test_a_chart_title_and_its_ticks_speak_norwegian(data, monkeypatch, tmp_path) -> None:
    drawn: list[Figure] = []

    def keep(fig: Figure, path: str | Path, dpi: int = 120) -> Path:
        drawn.append(fig)
        return Path(path)

    monkeypatch.setattr(reading, "save", keep)
    with i18n.use("nb"):
        reading.draw_read_draws(list(data.reading.plain), tmp_path / "read.png", "undertittel")
        ax = drawn[0].axes[0]
        ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ax.get_title().startswith("Hva en motstander ender med, etter antall byttede kort\nundertittel")
    assert ticks[0].startswith("byttet 0\n(") and ticks[0].endswith("\u00a0% av givene)")


def test_the_guide_written_in_swedish_by_a_worker_pool(data, tmp_path) -> None:
    sheet = next(s for s in data.keep.sheets if s.players == 4)
    data = dataclasses.replace(data, keep=dataclasses.replace(data.keep, sheets=(sheet,)))   # one sheet: faster
    with i18n.use("sv"):
        names = write_guide(data, tmp_path / "sv", workers=2)
        here = write_cheatsheet(sheet.plan, sheet.title, sheet.against_words, cheatsheet_footer(sheet, data),
                                tmp_path / "here")
    folder = tmp_path / "sv"
    assert names == guide_files(data)
    readme = folder.joinpath("README.md").read_text(encoding="utf-8")
    assert readme.startswith("# Mörkpoker vid köksbordet: en spelarguide")
    assert folder.joinpath("standing_pat.md").read_text(encoding="utf-8").startswith("# Att stå är ett drag")
    # The sheet the pool drew is the Swedish one drawn here, not the English one.
    assert folder.joinpath(f"{sheet.key}.png").read_bytes() == here[0].read_bytes()
    english = write_cheatsheet(sheet.plan, sheet.title, sheet.against_words, cheatsheet_footer(sheet, data),
                               tmp_path / "english")
    assert english[0].read_bytes() != here[0].read_bytes()
