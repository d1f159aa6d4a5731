"""The one place means and standard errors are computed, in each of its input forms."""

from __future__ import annotations

import math

import numpy as np
import pytest

from drawodds.sim.stats import Estimate, Moments, from_sums, mean_se, proportion_se, ratio_se, se_of_mean


def test_the_forms_agree_on_the_same_samples():
    x = np.random.default_rng(1).normal(3.0, 2.0, size=1000)
    a = mean_se(x)
    b = from_sums(float(x.sum()), float((x * x).sum()), len(x))
    m = Moments()
    m.add(x[:, None])
    assert isinstance(a, Estimate) and a.value == pytest.approx(b.value) and a.se == pytest.approx(b.se)
    assert m.mean()[0] == pytest.approx(a.value) and m.se()[0] == pytest.approx(a.se)
    assert float(se_of_mean(x)) == a.se
    value, se = a                                    # an Estimate unpacks like a pair
    assert (value, se) == (a.value, a.se)


def test_paired_differences_are_sharper_than_either_mean():
    rng = np.random.default_rng(2)
    common = rng.normal(size=4000)
    pairs = np.stack([common, common + 0.1 + 0.05 * rng.normal(size=4000)], axis=1)
    m = Moments()
    m.add(pairs[:2000])
    half = Moments()
    half.add(pairs[2000:])
    m.merge(half)
    assert m.n == 4000
    assert m.diff_se(0)[1] < m.se()[1] / 5 and m.diff_se(0)[0] == 0


def test_small_samples_and_shares():
    assert math.isnan(mean_se([]).value) and math.isnan(mean_se([1.0]).se)
    assert from_sums(3, 3, 1) == Estimate(3.0, 0.0)
    assert float(proportion_se(0.5, 100)) == pytest.approx(0.05)
    r = ratio_se(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 6.0]))
    assert r.value == pytest.approx(0.5) and r.se == pytest.approx(0.0)


def test_an_estimate_is_written_with_the_digits_its_error_earns():
    e = Estimate(0.52912, 0.00041)
    assert e.percent() == "52.91% ± 0.04%"                   # one significant digit of the error
    assert Estimate(0.5291, 0.012).percent() == "52.9% ± 1.2%"
    assert Estimate(0.5, 0.0).percent() == "50.0% ± 0.0%"    # an exact figure: one decimal
    assert Estimate(0.5, 1e-9).percent() == "50.000% ± 0.000%"  # never more than three
    assert e.percent(2, unit="") == "52.91 ± 0.04"           # under a header that says %
    assert e.text(3) == "0.529 ± 0.000" and Estimate(-0.25, 0.05).text(2, signed=True) == "-0.25 ± 0.05"
    assert Estimate(0.25, 0.05).text(2, signed=True) == "+0.25 ± 0.05"
    assert Estimate(0.1234, 0.0012).text(4, sep="±") == "0.1234±0.0012"
    assert Estimate(1.5, 0.06).text() == "1.50 ± 0.06" and Estimate(42.0, 3.0).text() == "42.0 ± 3.0"
    # The other rule: start at the figure's own decimals, widened only until the error shows.
    assert Estimate(0.5, 0.0006).visible_decimals(1, scale=100) == 1          # 0.06% rounds to 0.1
    assert Estimate(0.5, 0.0004).visible_decimals(1, scale=100) == 2          # 0.04% would round to 0.0
    assert Estimate(0.5, 0.0006).decimals(scale=100) == 2
    assert Estimate(0.5, 1e-7).visible_decimals(1, scale=100) == 3
