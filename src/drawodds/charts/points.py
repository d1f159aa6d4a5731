"""Charts for the points games (Poengpoker, Chicago); matplotlib with the Agg backend.

Regenerate: ``drawodds charts points`` (or ``python -m drawodds.charts.points [TRIALS] [SEED]``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from drawodds.charts.output import local_ticks, save
from drawodds.i18n import _
from drawodds.points.games import ace_vs_small_pair
from drawodds.rules import preset


def plot_last_trick_vs_pair(df: pd.DataFrame, path: str | Path) -> Path:
    """Two panels from ``ace_vs_small_pair``: how often the lone ace outscores the small pair in
    the same deal, and the mean points of each hold, by number of players (bars: 2 SE)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(11, 4.5))
    (left, right) = fig.subplots(1, 2)
    x = df["players"]
    for col, label, color in (("ace_beats_pair", _("keeping the ace scores more"), "tab:blue"),
                              ("pair_beats_ace", _("keeping the pair scores more"), "tab:orange")):
        left.errorbar(x, 100 * df[col], yerr=200 * df[f"{col}_se"], marker="o", capsize=3,
                      label=label, color=color)
    left.set_xlabel(_("players at the table"))
    left.set_ylabel(_("deals (%)  [the rest: equal points]"))
    left.set_title(_("Same deal, two holds: which scores more"))
    left.set_xticks(list(x))
    left.set_ylim(bottom=0)
    left.legend()
    for col, label, color in (("pair", _("keep the small pair (draw 3)"), "tab:orange"),
                              ("ace", _("keep the ace alone (draw 4)"), "tab:blue"),
                              ("pair_ace", _("keep pair + ace (draw 2)"), "tab:green")):
        right.errorbar(x, df[f"points_{col}"], yerr=2 * df[f"points_{col}_se"], marker="o",
                       capsize=3, label=label, color=color)
    right.set_xlabel(_("players at the table"))
    right.set_ylabel(_("expected points this deal (hand + last trick)"))
    right.set_title(_("Mean points of each hold"))
    local_ticks(right.yaxis)
    right.set_xticks(list(x))
    right.set_ylim(bottom=0)
    right.legend()
    attrs = df.attrs
    fig.suptitle(_("{game}, a small pair (22-77) and an ace: keep the ace for the last trick, or the pair?\n"
                   "{trials} random such hands per table size, seed {seed}; opponents draw by '{policy}', everyone "
                   "plays tricks '{trick}'").format(
        game=attrs.get("rules", "poengpoker").capitalize(), trials=attrs.get("trials", "?"),
        seed=attrs.get("seed", "?"), policy=attrs.get("policy", "standard"), trick=attrs.get("trick", "sensible")),
        fontsize=10)
    fig.tight_layout()
    save(fig, path, dpi=110)
    return path


def write_report(out_dir: str | Path = "reports", *, trials: int = 10_000,
                 seed: int = 2024) -> tuple[Path, pd.DataFrame]:
    """Regenerate ``last_trick_vs_pair.png`` in ``out_dir``; returns it and the table it draws."""

    df = ace_vs_small_pair(preset("poengpoker"), trials=trials, seed=seed)
    return plot_last_trick_vs_pair(df, Path(out_dir) / "last_trick_vs_pair.png"), df


if __name__ == "__main__":
    args = sys.argv[1:]
    print(write_report(trials=int(args[0]) if args else 10_000, seed=int(args[1]) if len(args) > 1 else 2024)[0])
