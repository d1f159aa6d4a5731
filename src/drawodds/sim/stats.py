"""Small statistics shared by the simulations: a sample mean and its standard error."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt


def mean_se(x: npt.ArrayLike) -> tuple[float, float]:
    """Mean of the samples and its standard error (NaN where too few samples define it)."""
    a = np.asarray(x, dtype=np.float64).ravel()
    if len(a) == 0:
        return math.nan, math.nan
    if len(a) == 1:
        return float(a[0]), math.nan
    return float(a.mean()), float(a.std(ddof=1) / math.sqrt(len(a)))
