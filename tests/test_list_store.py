"""A printed list's answers kept in the cache: read back they answer every hand as the list does,
a damaged file is built again, the cache lists them, and ``strategy --hand`` reads them without
solving the table. The committed guide was written by the code that makes the lists now."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path

import pytest

from drawodds import paths
from drawodds.analyses.condensed import StrategyReport, check_hand
from drawodds.analyses.list_store import answers_of, answers_path, read_answers, write_answers
from drawodds.analyses.strategy import default_rules

HANDS = ("2s 9h Jh Qh As", "9h Js Qs Ks As", "Kh Qd Js 7c 3s", "As Ad Kh Qc 4s", "7c 2d 9s 4h Jd", "Th Jh Qh Kh Ah")


@pytest.fixture(scope="module")
def report(nine_six_plan) -> StrategyReport:
    table, plan = nine_six_plan
    return StrategyReport(table.objective, table, plan, 1, "standard", 1)


def test_stored_answers_answer_every_hand_as_the_list_does(report, tmp_path):
    path = tmp_path / "strategy-x.npz"
    write_answers(answers_of(report), path)
    answers = read_answers(path)
    assert answers is not None
    for hand in HANDS:
        assert answers.check(hand).to_dict() == check_hand(report, hand).to_dict()
    worst = report.condensed.worst
    assert worst is not None
    assert answers.check(" ".join(worst.hand)).cost == pytest.approx(report.condensed.max_regret, abs=1e-12)


def test_a_damaged_file_is_built_again(report, tmp_path):
    path = tmp_path / "strategy-x.npz"
    write_answers(answers_of(report), path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert read_answers(path) is None
    assert any(issubclass(w.category, paths.CacheNote) and "damaged" in str(w.message) for w in caught)
    assert not path.exists()


def test_every_option_that_shapes_the_list_names_another_file():
    rules = default_rules("equity")
    base = {"opponents": 3, "policy": "standard", "lines": 60, "card_removal": True, "seed": 1}
    first = answers_path("equity", rules, **base)
    assert first.name.startswith("strategy-morkpoker-") and first.suffix == ".npz"
    changed = [{"opponents": 2}, {"policy": "loose"}, {"lines": 40}, {"card_removal": False}, {"seed": 2}]
    names = {answers_path("equity", rules, **(base | c)).name for c in changed}
    assert first.name not in names and len(names) == len(changed)
    assert answers_path("equity", rules.replace(max_draw="any"), **base) != first
    assert answers_path("EQUITY ", rules, **base) == first


def test_strategy_hand_reads_the_cache_without_solving(report, tmp_path, monkeypatch, capsys):
    import drawodds.analyses.list_store as store
    import drawodds.cli

    monkeypatch.setenv("DRAWODDS_CACHE", str(tmp_path))
    path = answers_path("vp96", default_rules("vp96"), opponents=None, policy="standard", lines=60,
                        card_removal=True, seed=1)
    write_answers(answers_of(report), path)

    def no_solve(*args, **kwargs):
        raise AssertionError("the table was solved again")

    monkeypatch.setattr(store, "strategy_report", no_solve)
    start = time.perf_counter()
    with pytest.raises(SystemExit) as exc:
        drawodds.cli.main(["strategy", "--objective", "vp96", "--hand", "2s 9h Jh Qh As", "--json"])
    assert exc.value.code == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload == check_hand(report, "2s 9h Jh Qh As").to_dict()
    assert payload["list_keep"] == payload["best_keep"] == ["9h", "Jh", "Qh"]
    assert time.perf_counter() - start < 30          # a loose ceiling: the benchmark measures the time
    assert [e.path.name for e in paths.cache_entries(Path(tmp_path))] == [path.name]


def test_the_committed_guide_was_written_by_the_code_that_makes_the_lists():
    from drawodds.analyses.report import lists_fingerprint

    root = Path(__file__).resolve().parents[1] / "reports"
    now = lists_fingerprint()
    for folder in (root, root / "sv", root / "nb"):
        written = (folder / ".drawodds-lists").read_text(encoding="utf-8").strip()
        assert written == now, f"{folder} was written by other code: drawodds report --out {folder} (see docs)"
    english = (root / "README.md").read_text(encoding="utf-8")
    assert "on its worst hand" in english
    rows = [[sum(line.startswith("| ") for line in block.split("</details>")[0].splitlines()) - 1
             for block in (root / lang / "README.md").read_text(encoding="utf-8").split("<details>")[1:]]
            for lang in ("", "sv", "nb")]
    assert rows[0] == rows[1] == rows[2] and sum(rows[0]) > 100     # the same lists, line for line, in every language
