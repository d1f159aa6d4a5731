"""`drawodds keep`: the ranked holds as a table, the best starred, near-ties marked."""

from __future__ import annotations

from rich.table import Table

from drawodds.analyses.keep import KeepResult, dealt_description, near_best
from drawodds.cards import format_hand
from drawodds.render.console import out, pct, pretty_cards

SHORT = {"high_card": "HC", "one_pair": "1P", "two_pair": "2P", "three_of_a_kind": "3K",
         "straight": "St", "flush": "Fl", "full_house": "FH", "four_of_a_kind": "4K",
         "straight_flush": "SF", "five_of_a_kind": "5A"}


def _who(result: KeepResult) -> str:
    """Who we play against, in words."""
    plural = "s" * (result.opponents != 1)
    if not result.opponents:
        return "no opponents: exact odds only"
    if result.against:
        return f"{result.opponents} opponent{plural} standing pat with {'; '.join(result.against)}"
    return (f"{result.opponents} opponent{plural} drawing by '{result.policy}'"
            + (f" (draw counts {', '.join(map(str, result.vs))})" if result.vs else ""))


def render_keep(result: KeepResult, top: int | None = None) -> None:
    """The ranked holds as a rich table: best hold starred, near-ties marked."""
    rows = result.rows()[:top] if top is not None else result.rows()
    near = near_best(result)
    rs = result.rules
    title = (f"{format_hand(result.hand, pretty=True)}  ({dealt_description(result)})  rules {rs.name}, "
             f"max draw {rs.max_draw}; {_who(result)}; ranked by {result.by}")
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("keep", no_wrap=True)
    table.add_column("discard", style="dim", no_wrap=True)
    table.add_column("draw", justify="right")
    table.add_column("final hand, % (exact)", no_wrap=True)
    points_mc = "points_hand" in result.columns   # Poengpoker / Chicago against opponents
    if not points_mc:   # openers and "improve" mean little where only the best hand scores
        table.add_column("J+ %", justify="right")
        table.add_column("improve %", justify="right")
    table.add_column("table pts" if points_mc else "points", justify="right")
    if result.opener:
        table.add_column("splits openers")
    if points_mc:
        table.add_column("hand + trick pts", justify="right", no_wrap=True)
        table.add_column("points ± se", justify="right", no_wrap=True)
        table.add_column("behind best ± se", justify="right", no_wrap=True)
    elif result.opponents:
        table.add_column("equity % ± se", justify="right", no_wrap=True)
        table.add_column("behind best ± se", justify="right", no_wrap=True)
    cats = [c for c in SHORT if c in result.columns]
    for i, row in enumerate(rows):
        dist = "  ".join(f"{SHORT[c]} {pct(row[c])}" for c in cats if row[c] >= 0.0005)
        cells = [str(i + 1), pretty_cards(row["keep"]) or "(nothing)", pretty_cards(row["discard"]) or "-",
                 str(row["draw"]), dist]
        if not points_mc:
            cells += [pct(row["p_jacks_or_better"]), pct(row["p_improve"])]
        cells.append(f"{row['table_points' if points_mc else 'points']:.3f}")
        if result.opener:
            cells.append("yes" if row["splits_openers"] else "")
        style = None
        if result.opponents:
            if points_mc:
                scale, gap, gap_se = 1.0, row["points_gap"], row["points_diff_se"]
                cells.append(f"{row['points_hand']:.3f} + {row['points_trick']:.3f}")
                cells.append(f"{row['points']:.3f} ± {row['points_se']:.3f}")
            else:
                scale, gap, gap_se = 100.0, row["equity_gap"], row["equity_diff_se"]
                cells.append(f"{100 * row['equity']:.2f} ± {100 * row['equity_se']:.2f}")
            if gap == 0:
                cells.append("★ best")
                style = "bold green"
            else:
                digits = 3 if points_mc else 2
                cells.append(f"{'≈ ' if near[i] else ''}{scale * gap:.{digits}f} ± {scale * gap_se:.{digits}f}")
                style = "green" if near[i] else None
        elif i == 0:
            style = "bold green"
        table.add_row(*cells, style=style)
    out.print(table)
    for note in _notes(result, points_mc):
        out.print(f"[dim]{note}[/dim]")


def _notes(result: KeepResult, points_mc: bool) -> list[str]:
    """The lines under the table: trials and seed, and what the exact columns mean."""
    notes = []
    if result.opponents:
        if result.interrupted:
            notes.append(f"[yellow]Interrupted: the figures cover the {result.trials or 0:,} trials "
                         "run so far.[/yellow]")
        notes.append(f"{result.trials or 0:,} trials, seed {result.seed}"
                     + (f", {result.workers} workers" if result.workers > 1 else "")
                     + "; every hold is scored on the same deals, so 'behind best' is sharper than "
                     "the values themselves. ≈ marks holds within 2 standard errors of the best.")
    notes.append("Exact columns enumerate every possible draw. "
                 + ("table pts = expected table points of our hand alone (8 for a straight flush .. 0); "
                    "points = expected points this deal: the single best hand's table points plus "
                    f"the last trick ({result.rules.last_trick_points}), opponents exchanging and playing tricks."
                    if points_mc else "J+ = at least a pair of jacks; "
                    "points = Poengpoker table points (8 for a straight flush .. 0)."))
    return notes
