"""Charts for Jacks-or-Better pass-outs: exact vs independent by table size, pot at opening.

Regenerate: ``drawodds charts openers`` (or ``python -m drawodds.charts.openers [OUT_DIR]``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from drawodds.analyses import openers as op
from drawodds.charts.output import local_ticks, save
from drawodds.i18n import _, number


def passout_by_table_size(path: Path, sizes: range = range(op.MIN_PLAYERS, op.MAX_PLAYERS + 1),
                          seed: int = 1) -> Path:
    """Bars: exact pass-out probability (or Monte Carlo ± 2 SE where no exact is shipped) beside
    the independence approximation (1-p)^n, for each table size."""
    return draw_passouts([op.table_odds(n, seed=seed) for n in sizes], path)


def draw_passouts(rows: Sequence[op.TableOdds], path: Path) -> Path:
    """The bars of ``passout_by_table_size`` from figures already computed (one row per table size)."""
    exact, err, indep, labels = [], [], [], []
    for row in rows:
        n = row.n
        if row.p_nobody_opens is not None:
            exact.append(row.p_nobody_opens)
            err.append(0.0)
            labels.append(str(n))
        else:
            assert row.p_nobody_opens_mc is not None
            exact.append(row.p_nobody_opens_mc.value)
            err.append(2 * row.p_nobody_opens_mc.se)
            labels.append(_("{n}\n(MC)").format(n=n))
        indep.append(row.p_nobody_opens_independent)
    x = np.arange(len(labels))
    fig = Figure(figsize=(8, 4.8))
    ax = fig.subplots()
    ax.bar(x - 0.2, exact, 0.4, yerr=err, label=_("exact, one shared deck"), color="#1f77b4")
    ax.bar(x + 0.2, indep, 0.4, label=_("independent hands, $(1-p)^n$"), color="#ff7f0e", alpha=0.8)
    for xi, e, i in zip(x, exact, indep, strict=False):
        ax.annotate(number(e, 3), (xi - 0.2, e), ha="center", va="bottom", fontsize=8)
        ax.annotate(number(i, 3), (xi + 0.2, i), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(x, labels)
    ax.set_xlabel(_("players at the table"))
    ax.set_ylabel(_("probability nobody can open (jacks or better)"))
    ax.set_title(_("Jacks or Better: deals passed out by table size"))
    local_ticks(ax.yaxis)
    ax.set_ylim(0, max(exact + indep) * 1.15)
    ax.legend()
    fig.tight_layout()
    save(fig, path, dpi=120)
    return path


def pot_at_opening(path: Path, sizes: tuple[int, ...] = (2, 4, 6), ante: int = 1,
                   max_consecutive_antes: int | None = None, rounds: int = 10) -> Path:
    """Distribution of the pot (antes only) when a deal is finally opened, per table size."""
    rows = [op.table_odds(n, ante, max_consecutive_antes) for n in sizes if op.exact_available(n)]
    return draw_pot_at_opening(rows, path, ante, max_consecutive_antes, rounds)


def draw_pot_at_opening(rows: Sequence[op.TableOdds], path: Path, ante: int = 1,
                        max_consecutive_antes: int | None = None, rounds: int = 10) -> Path:
    """The bars of ``pot_at_opening`` from figures already computed (exact table sizes only)."""
    rows = [r for r in rows if r.exact]
    fig = Figure(figsize=(8, 4.8))
    ax = fig.subplots()
    width = 0.8 / max(len(rows), 1)
    for i, row in enumerate(rows):
        dist = row.pot_distribution[:rounds]
        js = np.arange(1, len(dist) + 1)
        ax.bar(js + (i - (len(rows) - 1) / 2) * width, [float(p) for _, p in dist], width,
               label=_("{players} players: pot {ante}·k, mean {mean}").format(
                   players=row.n, ante=row.n * ante, mean=number(float(row.expected_pot or 0), 2)))
    ax.set_xticks(range(1, rounds + 1))
    ax.set_xlabel(_("rounds of antes in the pot when it opens (k; ante {ante} per player)").format(ante=ante))
    ax.set_ylabel(_("probability"))
    local_ticks(ax.yaxis)
    ax.set_title(_("Jacks or Better: pot size at opening, at most {antes} antes in a row").format(
        antes=max_consecutive_antes) if max_consecutive_antes else _("Jacks or Better: pot size at opening"))
    ax.legend()
    fig.tight_layout()
    save(fig, path, dpi=120)
    return path


def main(out_dir: str = "reports") -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    print(passout_by_table_size(out / "passout_by_table_size.png"))
    print(pot_at_opening(out / "pot_at_opening.png"))


if __name__ == "__main__":
    main(*sys.argv[1:])
