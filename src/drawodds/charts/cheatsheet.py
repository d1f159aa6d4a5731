"""A printable one-page cheat sheet of a condensed strategy: one A4 page, PNG and PDF.

The list is drawn as big, banded rows (the band's colour says how many cards to draw), with a
title saying the game and table size, a line on how to use it, and a footer with what following
the list is worth against the exact best play.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from drawodds.analyses.condensed import CondensedStrategy
from drawodds.charts.output import save
from drawodds.i18n import N_, _, ngettext, percent

A4 = (8.27, 11.69)          # inches, portrait
MARGIN = 0.55
TOP_BLOCK = 1.85            # title, subtitle, how to use, column heads
BOTTOM_BLOCK = 1.3          # legend and footer
FOOTER_WIDTH = 118          # characters per footer line
DRAW_COLOURS = {0: "#b7e1b0", 1: "#cfe3f7", 2: "#fbe7b0", 3: "#eeeeee", 4: "#f6cfd8", 5: "#f6cfd8"}
DRAW_WORDS = {0: N_("stand pat"), 1: N_("draw 1"), 2: N_("draw 2"), 3: N_("draw 3"), 4: N_("draw 4"),
              5: N_("draw 5")}   # shown by _()
PNG_DPI = 150


def _what_to_keep(keep: int) -> str:
    if keep == 5:
        return _("all 5")
    if keep == 0:
        return _("nothing")
    return ngettext("{n} card", "{n} cards", keep).format(n=keep)


def draw_cheatsheet(plan: CondensedStrategy, title: str, against: str, footer: Sequence[str]) -> Figure:
    """The sheet as a matplotlib figure (A4 portrait)."""
    width, height = A4
    fig = Figure(figsize=A4)
    inch = fig.dpi_scale_trans
    lines = plan.lines
    top = height - MARGIN
    fig.text(MARGIN, top, title, transform=inch, fontsize=21, fontweight="bold", va="top")
    intro = textwrap.fill(_("What to keep against {against}.").format(against=against), 80) + "\n" + textwrap.fill(
        _("Go down the list and stop at the first line your hand matches: keep those cards and draw the rest. "
          "When several cards fit the line, keep the highest."), 80)
    fig.text(MARGIN, top - 0.5, intro, transform=inch, fontsize=11.5, va="top", linespacing=1.35)
    row_h = min(0.3, (height - TOP_BLOCK - BOTTOM_BLOCK - 2 * MARGIN) / max(len(lines), 1))
    size = min(13.0, row_h * 72 * 0.6)
    cols = (MARGIN + 0.05, MARGIN + 0.5, width - MARGIN - 3.05, width - MARGIN - 1.95, width - MARGIN - 0.75,
            width - MARGIN - 0.05)
    head_y = height - MARGIN - TOP_BLOCK
    heads = ("#", _("your hand holds"), _("keep"), _("then"), _("wins"), _("deals"))
    for x, text, align in zip(cols, heads,
                              ("left", "left", "left", "left", "right", "right"), strict=True):
        fig.text(x, head_y + 0.08, text, transform=inch, fontsize=size * 0.85, fontweight="bold", ha=align,
                 va="bottom", color="#333333")
    for i, line in enumerate(lines):
        y = head_y - (i + 1) * row_h
        draw = 5 - line.keep
        fig.add_artist(Rectangle((MARGIN, y), width - 2 * MARGIN, row_h * 0.94, transform=inch,
                                 facecolor=DRAW_COLOURS[draw], edgecolor="none"))
        middle = y + row_h * 0.47
        share = percent(line.share, 1) if line.share >= 0.001 else "<" + percent(0.001, 1)
        wins = percent(plan.mean[i], 0) if plan.mean else ""
        for x, text, align, weight, scale, colour in (
                (cols[0], str(i + 1), "left", "normal", 0.8, "black"),
                (cols[1], line.words + ("" if line.core else " *"), "left", "bold", 1.0, "black"),
                (cols[2], _what_to_keep(line.keep), "left", "normal", 1.0, "black"),
                (cols[3], _(DRAW_WORDS[draw]), "left", "bold", 1.0, "black"),
                (cols[4], wins, "right", "normal", 0.9, "black"),
                (cols[5], share, "right", "normal", 0.8, "#555555")):
            fig.text(x, middle, text, transform=inch, fontsize=size * scale, fontweight=weight, ha=align,
                     va="center", color=colour)
    legend_y = MARGIN + BOTTOM_BLOCK - 0.35
    x = MARGIN
    for draw in sorted({min(5 - line.keep, 4) for line in lines}):
        fig.add_artist(Rectangle((x, legend_y - 0.05), 0.22, 0.18, transform=inch,
                                 facecolor=DRAW_COLOURS[draw], edgecolor="#999999", linewidth=0.5))
        label = _("draw 4 or 5") if draw == 4 else _(DRAW_WORDS[draw])
        fig.text(x + 0.3, legend_y + 0.04, label, transform=inch, fontsize=9.5, va="center")
        x += 1.35
    wrapped = [part for text in footer for part in textwrap.wrap(text, FOOTER_WIDTH)]
    fig.text(MARGIN, MARGIN + 0.62, "\n".join(wrapped), transform=inch, fontsize=8.0, va="top", color="#444444",
             linespacing=1.3)
    return fig


def write_cheatsheet(plan: CondensedStrategy, title: str, against: str, footer: Sequence[str],
                     stem: str | Path) -> list[Path]:
    """Draw the sheet and write it as ``stem``.png and ``stem``.pdf; returns both paths."""
    fig = draw_cheatsheet(plan, title, against, footer)
    base = Path(stem)
    return [save(fig, base.with_suffix(".png"), dpi=PNG_DPI), save(fig, base.with_suffix(".pdf"))]
