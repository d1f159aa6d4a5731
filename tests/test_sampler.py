import numpy as np
import pytest

from drawodds.rules import RuleError, preset
from drawodds.sim.sampler import layout_for, shuffled_stubs


def test_partial_shuffle_rows_are_draws_without_replacement():
    stub = np.arange(47, dtype=np.int8) + 5
    rows = shuffled_stubs(stub, 20_000, 19, np.random.default_rng(1))
    assert rows.shape == (20_000, 19)
    assert np.isin(rows, stub).all()
    srt = np.sort(rows, axis=1)
    assert (np.diff(srt, axis=1) > 0).all()          # no card twice in a row


@pytest.mark.parametrize("position", [0, 7, 18])
def test_partial_shuffle_is_uniform_in_every_position(position):
    stub = np.arange(47, dtype=np.int8)
    rows = shuffled_stubs(stub, 94_000, 19, np.random.default_rng(position))
    counts = np.bincount(rows[:, position], minlength=47)
    expected = 94_000 / 47
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 90            # 46 degrees of freedom: the 99.99th percentile is about 90


def test_ordered_pairs_are_uniform():
    rows = shuffled_stubs(np.arange(6, dtype=np.int8), 60_000, 2, np.random.default_rng(3))
    pairs = rows[:, 0] * 6 + rows[:, 1]
    counts = np.bincount(pairs, minlength=36).reshape(6, 6)
    assert (np.diag(counts) == 0).all()
    off = counts[~np.eye(6, dtype=bool)]
    chi2 = ((off - 2000) ** 2 / 2000).sum()
    assert chi2 < 70            # 29 degrees of freedom


def test_layout_refuses_tables_the_stub_cannot_serve():
    assert layout_for(preset(), 5, 47).cards_needed == 25 + 18
    with pytest.raises(RuleError, match="at most 4 opponents"):
        layout_for(preset(max_draw="4-ace"), 5, 47)
