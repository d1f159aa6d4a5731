"""The Monte Carlo strategy table: parts on disk, resumable, bounded memory, seed-stable."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import drawodds
from drawodds.analyses import equity_table as et
from drawodds.cli.errors import flag_names, message
from drawodds.holds import legal_holds
from drawodds.rules import preset
from drawodds.sim.equity import OpponentModel, hold_equities


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(et, "PART_CLASSES", 2)


def _run(out, **kw):
    return et.equity_table(preset(), opponents=2, trials=300, out=out, seed=5, limit=6, workers=1, **kw)


def test_a_run_stopped_midway_and_resumed_equals_an_uninterrupted_one(tmp_path, small_parts):
    whole = _run(tmp_path / "whole")
    assert whole.complete and whole.parts == 3 and not whole.interrupted

    def stop_after_first_part(done: int, total: int) -> None:
        raise KeyboardInterrupt

    cut = _run(tmp_path / "cut", progress=stop_after_first_part)
    assert cut.interrupted and cut.classes_done == 2
    assert not list((tmp_path / "cut").glob(".*.tmp*"))          # no half-written part is left
    with pytest.raises(et.TableError, match="add resume to continue it, or choose another out") as held:
        _run(tmp_path / "cut")
    flag_names()
    assert message(held.value).endswith("add --resume to continue it, or choose another --out")
    resumed = _run(tmp_path / "cut", resume=True)
    assert resumed.complete
    a, b = whole.read(), resumed.read()
    assert a.equals(b) and a["class"].to_list() == list(range(6))


def test_rows_hold_the_best_hold_with_its_equity(tmp_path, small_parts):
    rows = _run(tmp_path / "t").read()
    first = rows.row(0, named=True)
    equities = np.array(first["equity"], dtype=float)
    assert first["best_equity"] == pytest.approx(np.nanmax(equities))
    assert equities[first["best_hold"]] == first["best_equity"]
    assert np.isnan(equities).sum() == 32 - len(legal_holds(drawodds.parse_hand(first["hand"]), preset()))


def test_resume_refuses_another_runs_folder(tmp_path, small_parts):
    _run(tmp_path / "t")
    with pytest.raises(et.TableError, match="other settings; resume continues") as other:
        et.equity_table(preset(), opponents=3, trials=300, out=tmp_path / "t", seed=5, limit=6, resume=True)
    flag_names()
    assert message(other.value).endswith("other settings; --resume continues only the same run")


def test_a_memory_budget_too_small_is_refused_before_any_work(tmp_path):
    with pytest.raises(et.TableError, match="memory budget.*: raise memory or use fewer workers$") as small:
        et.equity_table(preset(), opponents=2, trials=300, out=tmp_path / "t", memory=2**20, workers=1)
    flag_names()
    assert message(small.value).endswith(": raise --memory or use fewer --workers")
    assert not list((tmp_path / "t").glob("part-*"))


def test_memory_of_a_huge_request_stays_bounded():
    hand = drawodds.parse_hand("AsKsQsJs2d")
    rules = preset()
    masks = legal_holds(hand, rules)
    seen = []

    def stop(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    tracemalloc.start()
    try:
        result = hold_equities(hand, masks, rules, OpponentModel(5), trials=10**8, seed=1, progress=stop)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.interrupted and result.trials == 3 * 20_000
    assert peak < et.CHUNK * len(masks) * et.BYTES_PER_TRIAL_AND_HOLD
