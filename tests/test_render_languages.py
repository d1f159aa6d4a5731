"""The console results in Swedish and Norwegian: the game's words, numbers as each language writes
them, and every line within 80 columns; English stays as the documented examples show it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.cells import cell_len

from drawodds import i18n
from drawodds.analyses.condensed import check_hand, strategy_report
from drawodds.analyses.keep import keep
from drawodds.analyses.openers import p_somebody_else_opens
from drawodds.analyses.openers import table as openers_table
from drawodds.analyses.read import read_draw
from drawodds.analyses.reference import hand_report, policy_book, preset_list
from drawodds.cards import as_hand
from drawodds.engine.session import simulate
from drawodds.render.eval import render_eval
from drawodds.render.keep import render_keep
from drawodds.render.openers import render_openers, render_somebody_else
from drawodds.render.policies import render_policies
from drawodds.render.read import render_read
from drawodds.render.rules import render_presets
from drawodds.render.simulate import render_simulation
from drawodds.render.solve import render_solve
from drawodds.render.strategy import render_hand_check, render_strategy
from drawodds.rules import preset

LOCAL_PERCENT = re.compile(r"\d,\d+\u00a0%")     # 52,9 % (a no-break space before the sign)
LOCAL_DECIMAL = re.compile(r"\b\d+,\d+\b")


@pytest.fixture
def printed(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """What ``render(result)`` prints in ``lang`` on an 80-column page (checked to fit it)."""
    monkeypatch.setenv("COLUMNS", "80")

    def run(lang: str, render: Callable[..., None], result: Any, **options: Any) -> str:
        capsys.readouterr()
        with i18n.use(lang):
            render(result, **options)
        out = capsys.readouterr().out
        wide = [line for line in out.splitlines() if cell_len(line) > 80]
        assert not wide, f"{lang}: lines wider than 80 columns:\n" + "\n".join(wide)
        return out
    return run


@pytest.fixture(scope="module")
def sampled() -> Any:
    return keep("AsAhKs7s3s", opponents=2, trials=2000, seed=1)


@pytest.fixture(scope="module")
def jacks_strategy() -> Any:
    return strategy_report("jacks", "morkpoker")


def test_keep_speaks_swedish_and_norwegian_with_local_numbers(printed: Callable[..., str], sampled: Any) -> None:
    english = printed("en", render_keep, sampled, top=5)
    assert english.startswith("Keep A♠ A♥ K♠, draw 2 — 64.0% ± 1.1% equity against 2 opponents;")
    swedish = printed("sv", render_keep, sampled, top=5)
    assert swedish.startswith("Behåll A♠ A♥ K♠, köp 2 — 64,0\u00a0% ± 1,1\u00a0% pottandel mot 2 motståndare;")
    assert "ett par ess" in swedish and "medelfel" in swedish and "2\u00a0000 försök" in swedish
    norwegian = printed("nb", render_keep, sampled, top=5)
    assert norwegian.startswith("Behold A♠ A♥ K♠, bytt 2 — 64,0\u00a0% ± 1,1\u00a0% pottandel mot 2 motstandere;")
    assert "standardfeil" in norwegian and "2\u00a0000 forsøk" in norwegian
    # the same figures, only the words and the decimal sign change
    assert re.findall(r"\d+", english.replace(",", "")) == re.findall(r"\d+", norwegian.replace("\u00a0", ""))


@pytest.mark.parametrize(("lang", "pat", "one"), [("sv", "Stå", "motståndare"), ("nb", "Stå", "motstander")])
def test_a_pat_hand_is_told_to_stand_pat(printed: Callable[..., str], lang: str, pat: str, one: str) -> None:
    result = keep("KsQsJsTs9s", opponents=1, trials=500, seed=1, by="equity")
    out = printed(lang, render_keep, result, top=3)
    assert out.startswith(f"{pat} — ") and f"mot 1 {one};" in out
    exact = printed(lang, render_keep, keep("KsQsJsTs9s", opponents=0, by="improve"), top=3)
    assert exact.startswith(f"{pat} — ") and LOCAL_PERCENT.search(exact.splitlines()[0])


def test_plural_forms_of_opponents(printed: Callable[..., str]) -> None:
    with i18n.use("nb"):
        assert i18n.ngettext("{n} opponent", "{n} opponents", 1).format(n=1) == "1 motstander"
        assert i18n.ngettext("{n} opponent", "{n} opponents", 3).format(n=3) == "3 motstandere"
    with i18n.use("sv"):
        assert {i18n.ngettext("{n} opponent", "{n} opponents", n).format(n=1) for n in (1, 3)} == {"1 motståndare"}


def test_read_in_both_languages(printed: Callable[..., str]) -> None:
    result = read_draw(1, hand="AsAhKs7s3s", trials=2000, equity_trials=1000, seed=1)
    swedish = printed("sv", render_read, result)
    assert swedish.startswith("Motståndaren köpte 1") and "fyrfärg" in swedish and "Behåll A♠ A♥" in swedish
    assert LOCAL_PERCENT.search(swedish)
    norwegian = printed("nb", render_read, result)
    assert norwegian.startswith("Motstanderen byttet 1") and "firekorts flush" in norwegian
    assert "Behold A♠ A♥" in norwegian and "bytt" in norwegian


def test_openers_tables_fold_within_80_columns(printed: Callable[..., str]) -> None:
    result = openers_table("2-3", seed=1)
    swedish = printed("sv", render_openers, result)
    assert "Knektöppning" in swedish and "0,62819" in swedish and "536\u00a0100" in swedish
    norwegian = printed("nb", render_openers, result)
    assert "Knektåpning" in norwegian and "spillere" in norwegian
    odds = printed("nb", render_somebody_else, p_somebody_else_opens("AsAhKs7s3s", 3, seed=1))
    assert "noen andre kan åpne" in odds and "(eksakt)" in odds


def test_strategy_and_a_hand_against_it(printed: Callable[..., str], jacks_strategy: Any) -> None:
    swedish = printed("sv", render_strategy, jacks_strategy)
    assert swedish.startswith("Bästa spel för varje giv med morkpoker") and "knektpar" in swedish
    assert "2\u00a0598\u00a0960 givar" in swedish and "behåll 2, köp 3" in swedish and LOCAL_PERCENT.search(swedish)
    norwegian = printed("nb", render_strategy, jacks_strategy)
    assert "behold 2, bytt 3" in norwegian and "i samme farge" in norwegian
    check = check_hand(jacks_strategy, as_hand("Kh Qd Js 7c 3s", joker=True))
    assert "beste valg:" in printed("nb", render_hand_check, check)


def test_policies_rules_and_eval(printed: Callable[..., str]) -> None:
    policies = printed("sv", render_policies, policy_book())
    assert "handmönster" in policies and "de tre, köp 2" in policies and "stå" in policies
    assert "håndmønster" in printed("nb", render_policies, policy_book("loose"))
    assert "vanlig mörkpoker" in printed("sv", render_presets, preset_list())
    assert printed("sv", render_eval, hand_report("KsKhKd7s7c")) == \
        "K♠ K♥ K♦ 7♠ 7♣  kåk, kungar över sjuor  (kåk, styrka 7278 av 7462)\n"
    assert " ".join(printed("nb", render_eval, hand_report("9h9d4c4s2h")).split()) == \
        "9♥ 9♦ 4♣ 4♠ 2♥ to par, niere og firere, 2 som kicker (to par, styrke 4391 av 7462)"


def test_simulate_in_both_languages(printed: Callable[..., str]) -> None:
    result = simulate(preset("jackpot"), deals=200, seed=1)
    swedish = printed("sv", render_simulation, result)
    assert "givar" in swedish and "ingen öppnade (potten står kvar)" in swedish and LOCAL_DECIMAL.search(swedish)
    assert "vunne sjetonger" in printed("nb", render_simulation, result)


def test_solve_in_both_languages(printed: Callable[..., str], small_solution: Any) -> None:
    swedish = printed("sv", render_solve, small_solution)
    assert "Före köpet, efter given hand" in swedish and "ett par knektar" in swedish and "Står på luft" in swedish
    norwegian = printed("nb", render_solve, small_solution)
    assert "Før byttet, etter gitt hånd" in norwegian and "kaster seg" in norwegian


def test_json_data_stays_english_whatever_the_language(sampled: Any) -> None:
    from drawodds.results import json_data

    with i18n.use("sv"):
        book = json_data(policy_book("standard"))
        report = json_data(hand_report("KsKhKd7s7c"))
    assert book["standard"]["rows"][1] == {"pattern": "three of a kind", "hold": "the three, draw 2"}
    assert report["description"] == "full house, kings over sevens"
