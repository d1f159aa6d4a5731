"""Means and standard errors: the one place every simulation turns samples into estimates.

Every estimate is an ``Estimate``, whatever form the samples come in: ``mean_se`` for an array
of samples (``se_of_mean`` for many at once), ``from_sums`` for a stream summed on the fly (the
engine adds one deal at a time), ``ratio_se`` for a ratio of sums (points per deal over whole
games), and ``Moments`` for vectors of paired samples (every hold scored on the same trials),
whose covariance gives the standard error of each difference. ``proportion_se`` is the binomial
standard error of a share.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from drawodds.i18n import local_number
from drawodds.results import Result


@dataclass(frozen=True, repr=False)
class Estimate(Result):
    """A Monte Carlo figure with its standard error; unpacks as ``value, se = estimate``."""

    value: float
    se: float

    def __iter__(self) -> Iterator[float]:
        yield self.value
        yield self.se

    def decimals(self, scale: float = 1.0) -> int:
        """Decimals that show the standard error (times ``scale``) to one significant digit, 1 to 3."""
        se = scale * self.se
        return 1 if not se > 0 else min(3, max(1, -math.floor(math.log10(se))))

    def visible_decimals(self, digits: int, scale: float = 1.0) -> int:
        """``digits``, or more (up to 3) until the standard error (times ``scale``) rounds to a
        non-zero digit."""
        while round(scale * self.se, digits) == 0 and digits < 3:
            digits += 1
        return digits

    def text(self, digits: int | None = None, *, scale: float = 1.0, unit: str = "", signed: bool = False,
             sep: str = " ± ") -> str:
        """``0.123 ± 0.004``: value and standard error times ``scale``, to ``digits`` decimals (None:
        ``decimals``), each followed by ``unit``; ``signed`` writes the value's sign (``+0.123``). Numbers as the
        reader's language writes them (``0,123 ± 0,004`` in Swedish and Norwegian)."""
        d = self.decimals(scale) if digits is None else digits
        sign = "+" if signed else ""
        return local_number(f"{scale * self.value:{sign}.{d}f}{unit}{sep}{scale * self.se:.{d}f}{unit}")

    def percent(self, digits: int | None = None, *, unit: str = "%") -> str:
        """``12.3% ± 0.4%``: the estimate of a share as a percentage (``unit=""`` under a header
        that already says %); ``digits`` as in ``text``."""
        return self.text(digits, scale=100.0, unit=unit)


def se_of_mean(samples: npt.ArrayLike, axis: int = -1) -> npt.NDArray[np.float64]:
    """Standard error of the mean along ``axis`` (sample standard deviation / sqrt(n))."""
    a = np.asarray(samples, dtype=np.float64)
    return a.std(axis=axis, ddof=1) / math.sqrt(a.shape[axis])


def mean_se(x: npt.ArrayLike) -> Estimate:
    """Mean of the samples and its standard error (NaN where too few samples define it)."""
    a = np.asarray(x, dtype=np.float64).ravel()
    if len(a) == 0:
        return Estimate(math.nan, math.nan)
    if len(a) == 1:
        return Estimate(float(a[0]), math.nan)
    return Estimate(float(a.mean()), float(se_of_mean(a)))


def from_sums(total: float, squares: float, n: int) -> Estimate:
    """Mean and standard error of ``n`` samples known by their sum and sum of squares."""
    if n == 0:
        return Estimate(math.nan, math.nan)
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1) if n > 1 else 0.0
    return Estimate(mean, math.sqrt(var / n))


def ratio_se(num: npt.NDArray[np.float64], den: npt.NDArray[np.float64]) -> Estimate:
    """Ratio of two sums over independent samples (e.g. points per deal over whole games) and
    its delta-method standard error."""
    r = float(num.sum() / den.sum())
    z = num - r * den
    return Estimate(r, float(z.std(ddof=1) / math.sqrt(len(z)) / den.mean()))


def proportion_se(p: npt.ArrayLike, n: int) -> npt.NDArray[np.float64]:
    """Binomial standard error of a share ``p`` observed over ``n`` independent trials."""
    q = np.asarray(p, dtype=np.float64)
    return np.sqrt(q * (1 - q) / n)


@dataclass
class Moments:
    """Running sums of paired vector samples: means, covariances, and the standard error of
    each component's difference to one chosen component (common random numbers)."""

    n: int = 0
    s: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    ss: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 0)))

    def add(self, samples: npt.NDArray[np.float64]) -> None:
        """Fold in samples of shape (trials, components)."""
        if self.n == 0:
            self.s = np.zeros(samples.shape[1])
            self.ss = np.zeros((samples.shape[1], samples.shape[1]))
        self.n += len(samples)
        self.s += samples.sum(axis=0)
        # einsum, not a BLAS product: single-threaded, so parallel workers do not fight over cores.
        self.ss += np.einsum("ti,tj->ij", samples, samples)

    def merge(self, other: Moments) -> None:
        """Fold in another run's sums (the chunks of one job, in order)."""
        if other.n == 0:
            return
        if self.n == 0:
            self.s, self.ss = other.s.copy(), other.ss.copy()
        else:
            self.s += other.s
            self.ss += other.ss
        self.n += other.n

    def mean(self) -> npt.NDArray[np.float64]:
        return self.s / self.n

    def cov(self) -> npt.NDArray[np.float64]:
        """Sample covariance of the components (n - 1 in the denominator)."""
        m = self.mean()
        return (self.ss / self.n - np.outer(m, m)) * self.n / max(self.n - 1, 1)

    def se(self) -> npt.NDArray[np.float64]:
        """Standard error of each component's mean."""
        return np.sqrt(np.diag(self.cov()) / self.n)

    def diff_se(self, ref: int) -> npt.NDArray[np.float64]:
        """Standard error of each component's mean minus component ``ref``'s mean."""
        cov = self.cov()
        var = np.diag(cov) + cov[ref, ref] - 2 * cov[:, ref]
        return np.sqrt(np.clip(var, 0, None) / self.n)
