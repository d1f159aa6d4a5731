"""`drawodds keep`: a verdict, then the ranked holds as a table that fits the terminal.

At 80 columns the table shows each hold's cards, the draw, the ranking value (± se) and the gap
to the best; a wider page (or ``--wide``) adds the discard, the final-hand distribution, J+,
improve and the points columns, in that order of preference. A legend names every abbreviation
on the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import Console, JustifyMethod
from rich.table import Table
from rich.text import Text

from drawodds.analyses.keep import HoldRanking, KeepResult, dealt_description, ranking
from drawodds.cards import format_hand
from drawodds.kinds import Category
from drawodds.render.console import fits, natural_width, pct, pretty_cards, pretty_hand, stdout
from drawodds.sim.stats import Estimate

SHORT = {c.slug: c.abbreviation for c in Category}   # the final-hand columns, by category
MEASURE_WORDS = {"jacks": "chance of at least a pair of jacks", "improve": "chance to improve",
                 "points": "expected table points"}
EXACT_HEADERS = ("final hand % (exact)", "J+ %", "improve %", "pts", "table pts")
Row = dict[str, Any]


@dataclass
class Column:
    """One column of the keep table; ``drop`` orders the optional ones (the highest goes first)."""

    header: str
    cells: list[str]
    justify: JustifyMethod = "right"
    drop: int = 0            # 0: always shown
    style: str | None = None
    legend: str = ""         # what the header's abbreviation means


def render_keep(result: KeepResult, top: int | None = None, wide: bool = False) -> None:
    """The verdict, the set-up, the table and its legend."""
    console = stdout()
    rank = ranking(result)
    all_rows = result.rows()
    rows = all_rows[:top] if top is not None else all_rows
    console.print(verdict(result, rank, all_rows), style="bold", highlight=False)
    console.print(_setup(result), style="dim", highlight=False)
    columns = _columns(result, rank, rows)
    shown = columns if wide else _fitting(console, result, rank, rows, columns)
    table = _table(result, rank, rows, shown)
    if wide and not fits(console, table):
        console = Console(width=natural_width(console, table))
    console.print(table)
    for line in _notes(result, rank, len(rows), len(all_rows), shown, columns):
        console.print(line, style="dim", highlight=False)


# --- the verdict ----------------------------------------------------------------------------------

def _hold_words(row: Row) -> str:
    """What to do with a hold: ``Keep A♠ A♥, draw 3``, ``Stand pat`` or ``Draw five new cards``."""
    if row["draw"] == 0:
        return "Stand pat"
    if not len(row["keep"]):
        return "Throw all five and draw five"
    return f"Keep {pretty_cards(row['keep'])}, draw {row['draw']}"


def _alternative(best: Row, other: Row) -> str:
    """The runner-up hold, said against the best one."""
    added = [c for c in other["keep"] if c not in best["keep"]]
    removed = [c for c in best["keep"] if c not in other["keep"]]
    if added and not removed:
        return f"keeping the {pretty_cards(added)} too"
    if other["draw"] == 0:
        return "standing pat instead"
    if not len(other["keep"]):
        return "drawing five instead"
    return f"keeping {pretty_cards(other['keep'])} instead"


def _field(result: KeepResult) -> str:
    """The exact field of ``--exact``: its size and policy."""
    n = result.field_size or 0
    return f"a field of {n} drawing by '{result.policy}'"


def _opponents(result: KeepResult) -> str:
    return f"{result.opponents} opponent{'s' * (result.opponents != 1)}"


def verdict(result: KeepResult, rank: HoldRanking, rows: list[Row]) -> str:
    """One line a player can act on: the best hold, its value, and what the runner-up costs."""
    best = rows[0]
    if rank.sampled and rank.measure == "equity":
        value = f"{Estimate(rank.value[0], rank.value_se[0]).percent()} equity against {_opponents(result)}"
    elif rank.sampled:
        value = f"{Estimate(rank.value[0], rank.value_se[0]).text(3)} points this deal against {_opponents(result)}"
    elif rank.measure == "points":
        value = f"{rank.value[0]:.3f} {MEASURE_WORDS['points']} (exact)"
    elif rank.measure == "field":
        value = f"{100 * rank.value[0]:.2f}% equity against the field (exact)"
    else:
        value = f"{pct(rank.value[0])}% {MEASURE_WORDS[rank.measure]} (exact)"
    text = f"{_hold_words(best)} — {value}"
    if len(rows) > 1:
        text += f"; {_alternative(best, rows[1])} {_cost(rank)}"
    return text


def _cost(rank: HoldRanking) -> str:
    """What the runner-up loses against the best hold."""
    gap, se = rank.gap[1], rank.gap_se[1]
    if not rank.sampled:
        if gap <= 1e-12:
            return "is worth exactly as much"
        if rank.measure == "points":
            return f"costs {gap:.3f} points"
        return f"costs {100 * gap:.2f} points of equity" if rank.measure == "field" else \
            f"costs {100 * gap:.1f} percentage points"
    scale, unit = (100.0, " points of equity") if rank.measure == "equity" else (1.0, " points")
    cost = Estimate(gap, se)
    text = f"costs {cost.text(None if rank.measure == 'equity' else 3, scale=scale)}{unit}"
    return text + (" (within two standard errors: a near tie)" if rank.near_best[1] else "")


def _setup(result: KeepResult) -> str:
    """The hand, rule set, opponents and ranking in one line."""
    rs = result.rules
    if not result.opponents:
        who = "no opponents: exact odds"
    elif result.against:
        who = f"{_opponents(result)} standing pat with {'; '.join(pretty_hand(h) for h in result.against)}"
    else:
        who = (f"{_opponents(result)} drawing by '{result.policy}'"
               + (f" after {result.line}" if result.line else "")
               + (f" (draw counts {', '.join(map(str, result.vs))})" if result.vs else "")
               + (f", dealt {result.hand_range}" if result.hand_range else ""))
    return (f"{format_hand(result.hand, pretty=True)}, {dealt_description(result)} · rules {rs.name}, "
            f"max draw {rs.max_draw_text} · {who} · ranked by "
            f"{'equity against ' + _field(result) if result.by == 'field' else result.by}")


# --- the table ------------------------------------------------------------------------------------

def _distribution(result: KeepResult, row: Row) -> str:
    return "  ".join(f"{SHORT[c]} {pct(row[c])}" for c in SHORT if c in result.columns and row[c] >= 0.0005)


def _gap_cell(rank: HoldRanking, i: int) -> str:
    gap, se = rank.gap[i], rank.gap_se[i]
    if gap <= 1e-12:
        return "★ best"
    if not rank.sampled:
        if rank.measure == "field":
            return f"{100 * gap:.2f}"
        return f"{gap:.3f}" if rank.measure == "points" else pct(gap)
    scale, d = (100.0, 2) if rank.measure == "equity" else (1.0, 3)
    return f"{'≈ ' if rank.near_best[i] else ''}{Estimate(gap, se).text(d, scale=scale)}"


def _columns(result: KeepResult, rank: HoldRanking, rows: list[Row]) -> list[Column]:
    """Every column that applies to this game, in display order."""
    n = len(rows)
    draw_game = result.rules.game == "draw"
    points_mc = "points_hand" in result.columns
    by = result.by
    cols = [Column("#", [str(i + 1) for i in range(n)]),
            Column("keep", [pretty_cards(r["keep"]) or "(nothing)" for r in rows], "left"),
            Column("discard", [pretty_cards(r["discard"]) or "-" for r in rows], "left", 2, "dim"),
            Column("draw", [str(r["draw"]) for r in rows]),
            Column("final hand % (exact)", [_distribution(result, r) for r in rows], "left", 3)]
    if points_mc:   # where the last trick scores, its share says more than the final hand does
        cols[-1].drop = 8
    if draw_game:
        cols.append(Column("J+ %", [pct(r["p_jacks_or_better"]) for r in rows], drop=0 if by == "jacks" else 4,
                           legend="J+ at least a pair of jacks"))
        cols.append(Column("improve %", [pct(r["p_improve"]) for r in rows], drop=0 if by == "improve" else 5))
    pts_legend = "pts expected table points of the final hand (8 for a straight flush down to 0)"
    if points_mc:
        cols.append(Column("table pts", [f"{r['table_points']:.3f}" for r in rows], drop=6,
                           legend="table pts our final hand's expected table points alone"))
        cols.append(Column("hand + trick pts", [f"{r['points_hand']:.3f} + {r['points_trick']:.3f}" for r in rows],
                           drop=7, legend=f"hand + trick the points this deal from the best hand and from the "
                                          f"last trick ({result.rules.last_trick_points})"))
    elif by == "points" or not draw_game:
        cols.append(Column("pts", [f"{r['points']:.3f}" for r in rows], drop=0 if by == "points" else 6,
                           legend=pts_legend))
    if result.opener:
        cols.append(Column("splits openers", ["yes" if r["splits_openers"] else "" for r in rows], "left", 1))
    if "field_equity" in result.columns:
        cols.append(Column("field eq %", [f"{100 * r['field_equity']:.2f}" for r in rows],
                           drop=0 if by == "field" else 1,
                           legend="field eq exact showdown equity against the field, dealt from "
                                  "the cards we do not hold"))
    if result.opponents and not points_mc:
        cols.append(Column("equity % ± se", [Estimate(r["equity"], r["equity_se"]).percent(2, unit="") for r in rows],
                           drop=0 if by == "equity" else 1))
    if points_mc:
        cols.append(Column("points ± se", [Estimate(r["points"], r["points_se"]).text(3) for r in rows]))
    cols.append(Column("behind best ± se" if rank.sampled else "behind best", [_gap_cell(rank, i) for i in range(n)]))
    return cols


def _table(result: KeepResult, rank: HoldRanking, rows: list[Row], columns: list[Column]) -> Table:
    table = Table()
    for col in columns:
        table.add_column(col.header, justify=col.justify, style=col.style, no_wrap=True)
    for i in range(len(rows)):
        style = None
        if rank.gap[i] <= 1e-12:
            style = "bold green"
        elif rank.near_best[i]:
            style = "green"
        table.add_row(*(Text(col.cells[i]) for col in columns), style=style)   # plain text: no markup to parse
    return table


def _fitting(console: Console, result: KeepResult, rank: HoldRanking, rows: list[Row],
             columns: list[Column]) -> list[Column]:
    """The columns that fit the console, dropping optional ones (highest ``drop`` first)."""
    shown = list(columns)
    for level in sorted({c.drop for c in columns if c.drop}, reverse=True):
        if fits(console, _table(result, rank, rows, shown)):
            break
        shown = [c for c in shown if c.drop != level]
    return shown


# --- below the table ------------------------------------------------------------------------------

def _legend(result: KeepResult, rank: HoldRanking, shown: list[Column]) -> str:
    """Every abbreviation on the page, explained."""
    parts = []
    headers = {c.header for c in shown}
    if "final hand % (exact)" in headers:
        dist = next(c for c in shown if c.header == "final hand % (exact)")
        used = [f"{abbr} {name.replace('_', ' ')}" for name, abbr in SHORT.items()
                if any(cell.startswith(f"{abbr} ") or f"  {abbr} " in cell for cell in dist.cells)]
        parts.append(", ".join(used))
    parts += [c.legend for c in shown if c.legend]
    if rank.sampled or result.opponents:
        parts.append("± one standard error")
    parts.append("★ the best hold" + ("; ≈ within two standard errors of it" if rank.sampled else ""))
    return "Legend: " + "; ".join(parts) + "."


def _notes(result: KeepResult, rank: HoldRanking, shown_rows: int, total_rows: int,
           shown: list[Column], columns: list[Column]) -> list[str]:
    """The lines under the table: what was sampled, what was left out, the legend."""
    notes = []
    if result.interrupted:
        notes.append(f"Interrupted: the figures cover the {result.trials or 0:,} trials run so far.")
    exact_shown = any(c.header in EXACT_HEADERS for c in shown)
    if result.opponents:
        notes.append(f"{result.trials or 0:,} trials, seed {result.seed}"
                     + "; every hold meets the same deals, so the gap to the best is sharper than the "
                     "values themselves." + (" Exact columns enumerate every possible draw." if exact_shown else ""))
    elif result.field_size:
        notes.append("Exact: every possible draw of every hold enumerated, against every deal and draw of "
                     "the field from the cards we do not hold (each player on their own, our draw aside).")
    else:
        notes.append("Exact: every possible draw of every hold enumerated.")
    if shown_rows < total_rows:
        notes.append(f"The best {shown_rows} of {total_rows} legal holds.")
    left_out = [c.header for c in columns if c not in shown]
    if left_out:
        notes.append(f"Left out at this width: {', '.join(left_out)} (--wide shows every column).")
    notes.append(_legend(result, rank, shown))
    return notes
