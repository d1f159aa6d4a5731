"""Charts of a solved heads-up game (matplotlib figures written to files).

* ``solve_exploitability.png``: exploitability over CFR iterations, log-log, with the 1 and 0.1
  milli-ante lines.
* ``solve_predraw.png``: before the draw, by the hand dealt: how often the first to act opens,
  how often the dealer bets when checked to, and how the dealer answers an open.
* ``solve_draw.png``: the draw, by the hand dealt: stacked bars of standing pat and drawing 1-3.
* ``solve_postdraw.png``: after the draw, by final hand, one panel per opponent draw count: how
  often the first to act bets, and how a bet is answered.

Regenerate: ``drawodds charts solve`` (the cached Mørkpoker equilibrium), or ``drawodds solve
--chart FILE`` for the curve of one run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from drawodds.charts.output import save
from drawodds.i18n import N_, _, local_number, number, percent
from drawodds.solver.solution import DrawSolution
from drawodds.solver.summary import draw_overview, postdraw_overview, predraw_overview

DRAW_COLOURS = ("#1b9e77", "#7570b3", "#d95f02", "#e7298a", "#66a61e", "#a6761d")   # pat, draw 1, 2, ...
DPI = 120
ANSWER_COLOURS = {"fold": "#bdbdbd", "call": "#1f78b4", "raise": "#e31a1c"}
ANSWER_WORDS = {"fold": N_("fold"), "call": N_("call"), "raise": N_("raise")}   # the legend's words, shown by _()


def _subtitle(solution: DrawSolution) -> str:
    a = solution.abstraction
    return _("heads-up {rules}, {pre} × {final} buckets, {iterations} iterations, exploitability {milli} "
             "milli-antes").format(rules=solution.rules.name, pre=number(a.pre_buckets, grouped=True),
                                   final=number(a.final_buckets, grouped=True),
                                   iterations=number(solution.iterations, grouped=True),
                                   milli=local_number(format(1000 * solution.exploitability, ".2g")))


def plot_exploitability(solution: DrawSolution, path: str | Path, dpi: int = DPI) -> Path:
    """Exploitability (milli-antes per deal) against iterations, both axes logarithmic."""
    frame = solution.curve_frame()
    frame = frame[frame["milli_antes"] > 0]
    fig = Figure(figsize=(8, 5))
    ax = fig.subplots()
    ax.loglog(frame["iteration"], frame["milli_antes"], marker="o", markersize=3, color="#1f78b4",
              label=_("exploitability ({schedule})").format(schedule=solution.schedule))
    for level, style in ((1.0, "--"), (0.1, ":")):
        ax.axhline(level, color="#555555", linestyle=style, linewidth=1)
        ax.text(frame["iteration"].min() if len(frame) else 1, level * 1.08,
                _("{level} milli-ante").format(level=local_number(f"{level:g}")),
                fontsize=8, color="#555555")
    ax.set_xlabel(_("CFR iterations"))
    ax.set_ylabel(_("exploitability, milli-antes per deal"))
    ax.set_title(_("How fast the solver converges") + f"\n{_subtitle(solution)}", fontsize=10)
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return save(fig, path, dpi)


def plot_draw(solution: DrawSolution, path: str | Path, dpi: int = DPI) -> Path:
    """Stacked bars: how often each kind of dealt hand stands pat or draws 1, 2, 3 at the draw."""
    frame = draw_overview(solution)
    draws = [c for c in frame.columns if c == "pat" or c.startswith("draw ")]
    y = np.arange(len(frame))[::-1]
    fig = Figure(figsize=(9, 6.5))
    ax = fig.subplots()
    left = np.zeros(len(frame))
    for d, colour in zip(draws, DRAW_COLOURS, strict=False):
        width = 100 * frame[d].fillna(0.0).to_numpy()
        label = _("stand pat (with nothing: a snow)") if d == "pat" else _("draw {n}").format(n=d.split()[1])
        ax.barh(y, width, left=left, color=colour, label=label)
        left += width
    for yi, reach in zip(y, frame["reaches draw"], strict=True):
        ax.text(101, yi, percent(reach, 0), va="center", fontsize=8, color="#555555")
    ax.set_yticks(y, [_(hand) for hand in frame["hand"]])
    ax.set_xlim(0, 112)
    ax.set_xlabel(_("share of the times the hand gets to the draw (%); at the right: how often it gets there"))
    ax.set_title(_("The draw at equilibrium, by the hand dealt") + f"\n{_subtitle(solution)}", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(draws), fontsize=8, frameon=False)
    fig.tight_layout()
    return save(fig, path, dpi)


def plot_predraw(solution: DrawSolution, path: str | Path, dpi: int = DPI) -> Path:
    """Before the draw: opening and betting frequencies, and the dealer's answer to an open."""
    frame = predraw_overview(solution)
    y = np.arange(len(frame))[::-1]
    fig = Figure(figsize=(11, 6.5))
    left_ax, right_ax = fig.subplots(1, 2, sharey=True)
    h = 0.38
    left_ax.barh(y + h / 2, 100 * frame["open"].fillna(0.0), height=h, color="#1b9e77",
                 label=_("opens (first to act)"))
    left_ax.barh(y - h / 2, 100 * frame["bet after check"].fillna(0.0), height=h, color="#7570b3",
                 label=_("bets when checked to (the dealer)"))
    left_ax.set_yticks(y, [_(hand) for hand in frame["hand"]])
    left_ax.set_xlim(0, 100)
    left_ax.set_xlabel(_("how often (%)"))
    left_ax.set_title(_("Betting first"), fontsize=10)
    left_ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=8, frameon=False)
    start = np.zeros(len(frame))
    for act, colour in ANSWER_COLOURS.items():
        width = 100 * frame[act].fillna(0.0).to_numpy()
        right_ax.barh(y, width, left=start, color=colour, label=_(ANSWER_WORDS[act]))
        start += width
    right_ax.set_xlim(0, 100)
    right_ax.set_xlabel(_("how often (%)"))
    right_ax.set_title(_("The dealer facing an open"), fontsize=10)
    right_ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, fontsize=8, frameon=False)
    fig.suptitle(_("Before the draw at equilibrium, by the hand dealt") + f"\n{_subtitle(solution)}", fontsize=10)
    fig.tight_layout()
    return save(fig, path, dpi)


def plot_postdraw(solution: DrawSolution, path: str | Path, dpi: int = DPI) -> Path:
    """After the draw, one column per opponent draw count: the first to act's bet frequency (top)
    and the answer to a bet (bottom), by final hand."""
    frame = postdraw_overview(solution)
    options = sorted(int(d) for d in frame["opponent_draw"].unique())
    hands = list(dict.fromkeys(frame["hand"]))
    y = np.arange(len(hands))[::-1]
    fig = Figure(figsize=(3.2 * len(options) + 1.5, 7.5))
    axes = fig.subplots(2, len(options), sharey=True, squeeze=False)
    for j, d in enumerate(options):
        part = frame[frame["opponent_draw"] == d].set_index("hand").reindex(hands)
        top, bottom = axes[0, j], axes[1, j]
        top.barh(y, 100 * part["bet first"].fillna(0.0), color="#1b9e77")
        top.set_xlim(0, 100)
        top.set_title(_("opponent stood pat") if d == 0 else _("opponent drew {n}").format(n=d), fontsize=10)
        start = np.zeros(len(hands))
        for act, colour in ANSWER_COLOURS.items():
            width = 100 * part[act].fillna(0.0).to_numpy()
            bottom.barh(y, width, left=start, color=colour, label=_(ANSWER_WORDS[act]))
            start += width
        bottom.set_xlim(0, 100)
        bottom.set_xlabel(_("how often (%)"))
    axes[0, 0].set_yticks(y, [_(hand) for hand in hands])
    axes[1, 0].set_yticks(y, [_(hand) for hand in hands])
    axes[0, 0].set_ylabel(_("first to act: bets"))
    axes[1, 0].set_ylabel(_("facing a bet"))
    axes[1, -1].legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
    fig.suptitle(_("After the draw at equilibrium, by final hand and the opponent's draw")
                 + f"\n{_subtitle(solution)}", fontsize=10)
    fig.tight_layout()
    return save(fig, path, dpi)


def write_solve_charts(solution: DrawSolution, out_dir: str | Path, dpi: int = DPI) -> list[Path]:
    """All four charts of ``solution`` into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return [plot_exploitability(solution, out / "solve_exploitability.png", dpi),
            plot_predraw(solution, out / "solve_predraw.png", dpi),
            plot_draw(solution, out / "solve_draw.png", dpi),
            plot_postdraw(solution, out / "solve_postdraw.png", dpi)]
