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
from drawodds.i18n import _, ngettext, number, pgettext, worded
from drawodds.kinds import Category
from drawodds.render.console import (
    fits,
    max_draw_words,
    natural_width,
    pct,
    pct_sign,
    pretty_cards,
    pretty_hand,
    stdout,
)
from drawodds.sim.stats import Estimate

Row = dict[str, Any]


def short_names() -> dict[str, str]:
    """The final-hand columns' abbreviations by category slug, in the reader's language."""
    return {c.slug: c.abbreviation for c in Category}


def opponents_words(n: int) -> str:
    """``3 opponents`` in the reader's language."""
    return ngettext("{n} opponent", "{n} opponents", n).format(n=n)


@dataclass
class Column:
    """One column of the keep table; ``drop`` orders the optional ones (the highest goes first)."""

    header: str
    cells: list[str]
    justify: JustifyMethod = "right"
    drop: int = 0            # 0: always shown
    style: str | None = None
    legend: str = ""         # what the header's abbreviation means
    exact: bool = False      # an exact column, shown beside sampled ones
    final: bool = False      # the final-hand distribution


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
        return _("Stand pat")
    if not len(row["keep"]):
        return _("Throw all five and draw five")
    return _("Keep {cards}, draw {n}").format(cards=pretty_cards(row["keep"]), n=row["draw"])


def _alternative(best: Row, other: Row) -> str:
    """The runner-up hold, said against the best one."""
    added = [c for c in other["keep"] if c not in best["keep"]]
    removed = [c for c in best["keep"] if c not in other["keep"]]
    if added and not removed:
        return _("keeping the {cards} too").format(cards=pretty_cards(added))
    if other["draw"] == 0:
        return _("standing pat instead")
    if not len(other["keep"]):
        return _("drawing five instead")
    return _("keeping {cards} instead").format(cards=pretty_cards(other["keep"]))


def _field(result: KeepResult) -> str:
    """The exact field of ``--exact``: its size and policy."""
    n = result.field_size or 0
    return _("a field of {n} drawing by '{policy}'").format(n=n, policy=result.policy)


def _opponents(result: KeepResult) -> str:
    return opponents_words(result.opponents)


def verdict(result: KeepResult, rank: HoldRanking, rows: list[Row]) -> str:
    """One line a player can act on: the best hold, its value, and what the runner-up costs."""
    best = rows[0]
    estimate = Estimate(rank.value[0], rank.value_se[0])
    if rank.sampled and rank.measure == "equity":
        value = _("{equity} equity against {opponents}").format(equity=estimate.percent(),
                                                               opponents=_opponents(result))
    elif rank.sampled:
        value = _("{points} points this deal against {opponents}").format(points=estimate.text(3),
                                                                         opponents=_opponents(result))
    elif rank.measure == "points":
        value = _("{points} expected table points (exact)").format(points=number(rank.value[0], 3))
    elif rank.measure == "field":
        value = _("{percent} equity against the field (exact)").format(percent=pct_sign(rank.value[0], 2))
    elif rank.measure == "jacks":
        value = _("{percent} chance of at least a pair of jacks (exact)").format(percent=pct_sign(rank.value[0]))
    else:
        value = _("{percent} chance to improve (exact)").format(percent=pct_sign(rank.value[0]))
    text = _("{hold} — {value}").format(hold=_hold_words(best), value=value)
    if len(rows) > 1:
        text = _("{verdict}; {alternative} {cost}").format(verdict=text, alternative=_alternative(best, rows[1]),
                                                           cost=_cost(rank))
    return text


def _cost(rank: HoldRanking) -> str:
    """What the runner-up loses against the best hold."""
    gap, se = rank.gap[1], rank.gap_se[1]
    if not rank.sampled:
        if gap <= 1e-12:
            return _("is worth exactly as much")
        if rank.measure == "points":
            return _("costs {points} points").format(points=number(gap, 3))
        return _("costs {points} points of equity").format(points=number(100 * gap, 2)) if rank.measure == "field" \
            else _("costs {points} percentage points").format(points=number(100 * gap, 1))
    cost = Estimate(gap, se)
    if rank.measure == "equity":
        text = _("costs {points} points of equity").format(points=cost.text(None, scale=100.0))
    else:
        text = _("costs {points} points").format(points=cost.text(3))
    return _("{cost} (within two standard errors: a near tie)").format(cost=text) if rank.near_best[1] else text


def _ranked_by(by: str) -> str:
    """What the holds are ranked by, in words (the value of ``--by`` in English)."""
    words = {"equity": pgettext("ranked by", "equity"), "jacks": pgettext("ranked by", "jacks"),
             "improve": pgettext("ranked by", "improve"), "points": pgettext("ranked by", "points"),
             "field": pgettext("ranked by", "field")}
    return words.get(by, by)


def _setup(result: KeepResult) -> str:
    """The hand, rule set, opponents and ranking in one line."""
    rs = result.rules
    if not result.opponents:
        who = _("no opponents: exact odds")
    elif result.against:
        who = _("{opponents} standing pat with {hands}").format(
            opponents=_opponents(result), hands="; ".join(pretty_hand(h) for h in result.against))
    else:
        who = _("{opponents} drawing by '{policy}'").format(opponents=_opponents(result), policy=result.policy)
        if result.line:
            who = _("{who} after {line}").format(who=who, line=result.line)
        if result.solved_players == 3:
            who = _("{who}, three-handed solution, we the dealer").format(who=who)
        if result.vs:
            who = _("{who} (draw counts {counts})").format(who=who, counts=", ".join(map(str, result.vs)))
        if result.hand_range:
            who = _("{who}, dealt {range}").format(who=who, range=result.hand_range)
    by = _("equity against {field}").format(field=_field(result)) if result.by == "field" else _ranked_by(result.by)
    return _("{hand}, {dealt} · rules {rules}, max draw {max_draw} · {who} · ranked by {by}").format(
        hand=format_hand(result.hand, pretty=True), dealt=worded(dealt_description(result)), rules=rs.name,
        max_draw=max_draw_words(rs.max_draw_text), who=who, by=by)


# --- the table ------------------------------------------------------------------------------------

def _distribution(result: KeepResult, row: Row) -> str:
    short = short_names()
    return "  ".join(f"{short[c]} {pct(row[c])}" for c in short if c in result.columns and row[c] >= 0.0005)


def _gap_cell(rank: HoldRanking, i: int) -> str:
    gap, se = rank.gap[i], rank.gap_se[i]
    if gap <= 1e-12:
        return _("★ best")
    if not rank.sampled:
        if rank.measure == "field":
            return number(100 * gap, 2)
        return number(gap, 3) if rank.measure == "points" else pct(gap)
    scale, d = (100.0, 2) if rank.measure == "equity" else (1.0, 3)
    return f"{'≈ ' if rank.near_best[i] else ''}{Estimate(gap, se).text(d, scale=scale)}"


def _columns(result: KeepResult, rank: HoldRanking, rows: list[Row]) -> list[Column]:
    """Every column that applies to this game, in display order."""
    n = len(rows)
    draw_game = result.rules.game == "draw"
    points_mc = "points_hand" in result.columns
    by = result.by
    cols = [Column("#", [str(i + 1) for i in range(n)]),
            Column(pgettext("column", "keep"), [pretty_cards(r["keep"]) or _("(nothing)") for r in rows], "left"),
            Column(pgettext("column", "discard"), [pretty_cards(r["discard"]) or "-" for r in rows], "left", 2, "dim"),
            Column(pgettext("column", "draw"), [str(r["draw"]) for r in rows]),
            Column(_("final hand % (exact)"), [_distribution(result, r) for r in rows], "left", 3, exact=True,
                   final=True)]
    if points_mc:   # where the last trick scores, its share says more than the final hand does
        cols[-1].drop = 8
    if draw_game:
        cols.append(Column(_("J+ %"), [pct(r["p_jacks_or_better"]) for r in rows], drop=0 if by == "jacks" else 4,
                           legend=_("J+ at least a pair of jacks"), exact=True))
        cols.append(Column(_("improve %"), [pct(r["p_improve"]) for r in rows], drop=0 if by == "improve" else 5,
                           exact=True))
    pts_legend = _("pts expected table points of the final hand (8 for a straight flush down to 0)")
    if points_mc:
        cols.append(Column(_("table pts"), [number(r["table_points"], 3) for r in rows], drop=6,
                           legend=_("table pts our final hand's expected table points alone"), exact=True))
        cols.append(Column(_("hand + trick pts"),
                           [f"{number(r['points_hand'], 3)} + {number(r['points_trick'], 3)}" for r in rows], drop=7,
                           legend=_("hand + trick the points this deal from the best hand and from the last trick "
                                    "({points})").format(points=result.rules.last_trick_points)))
    elif by == "points" or not draw_game:
        cols.append(Column(_("pts"), [number(r["points"], 3) for r in rows], drop=0 if by == "points" else 6,
                           legend=pts_legend, exact=True))
    if result.opener:
        cols.append(Column(_("splits openers"), [_("yes") if r["splits_openers"] else "" for r in rows], "left", 1))
    if "field_equity" in result.columns:
        cols.append(Column(_("field eq %"), [number(100 * r["field_equity"], 2) for r in rows],
                           drop=0 if by == "field" else 1,
                           legend=_("field eq exact showdown equity against the field, dealt from "
                                    "the cards we do not hold")))
    if result.opponents and not points_mc:
        cols.append(Column(_("equity % ± se"),
                           [Estimate(r["equity"], r["equity_se"]).percent(2, unit="") for r in rows],
                           drop=0 if by == "equity" else 1))
    if points_mc:
        cols.append(Column(_("points ± se"), [Estimate(r["points"], r["points_se"]).text(3) for r in rows]))
    cols.append(Column(_("behind best ± se") if rank.sampled else _("behind best"),
                       [_gap_cell(rank, i) for i in range(n)]))
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
    dist = next((c for c in shown if c.final), None)
    if dist is not None:
        used = [f"{c.abbreviation} {c.words}" for c in Category
                if any(cell.startswith(f"{c.abbreviation} ") or f"  {c.abbreviation} " in cell for cell in dist.cells)]
        parts.append(", ".join(used))
    parts += [c.legend for c in shown if c.legend]
    if rank.sampled or result.opponents:
        parts.append(_("± one standard error"))
    parts.append(_("★ the best hold; ≈ within two standard errors of it") if rank.sampled else _("★ the best hold"))
    return _("Legend: {items}.").format(items="; ".join(parts))


def _notes(result: KeepResult, rank: HoldRanking, shown_rows: int, total_rows: int,
           shown: list[Column], columns: list[Column]) -> list[str]:
    """The lines under the table: what was sampled, what was left out, the legend."""
    notes = []
    trials = number(result.trials or 0, grouped=True)
    if result.interrupted:
        notes.append(_("Interrupted: the figures cover the {trials} trials run so far.").format(trials=trials))
    exact_shown = any(c.exact for c in shown)
    if result.opponents:
        sampled = _("{trials} trials, seed {seed}; every hold meets the same deals, so the gap to the best is "
                    "sharper than the values themselves.").format(trials=trials, seed=result.seed)
        if exact_shown:
            sampled += " " + _("Exact columns enumerate every possible draw.")
        notes.append(sampled)
    elif result.field_size:
        notes.append(_("Exact: every possible draw of every hold enumerated, against every deal and draw of "
                       "the field from the cards we do not hold (each player on their own, our draw aside)."))
    else:
        notes.append(_("Exact: every possible draw of every hold enumerated."))
    if shown_rows < total_rows:
        notes.append(_("The best {shown} of {total} legal holds.").format(shown=shown_rows, total=total_rows))
    left_out = [c.header for c in columns if c not in shown]
    if left_out:
        notes.append(_("Left out at this width: {columns} (--wide shows every column).").format(
            columns=", ".join(left_out)))
    notes.append(_legend(result, rank, shown))
    return notes
