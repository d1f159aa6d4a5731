"""`drawodds openers`: pass-out odds, waits and pot sizes, and how opened pots end under play."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from drawodds.analyses.openers import ALL_HANDS as HANDS
from drawodds.analyses.openers import (
    FALLBACK_MC_DEALS,
    P_SINGLE_OPENERS,
    SINGLE_HAND_OPENERS,
    OpenersTable,
    SomebodyElseOpens,
)
from drawodds.cards import format_cards
from drawodds.render.console import fits, fmt, folded, stdout
from drawodds.sim.stats import Estimate

JACKPOTT_PLAY = (("passed out", "passed_out"), ("uncontested", "uncontested"), ("showdown", "showdown"),
                 ("dead opener", "dead_opener"))
PLAIN_PLAY = (("all check", "plain_passed_out"), ("uncontested", "plain_uncontested"),
              ("showdown", "plain_showdown"))


def render_somebody_else(res: SomebodyElseOpens) -> None:
    """One line: the chance somebody else at the table can open."""
    how = ("exact" if res.method == "exact"
           else f"Monte Carlo, {res.deals or 0:,} deals, seed {res.seed}, ± {res.se:.4f} (1 SE)")
    stdout().print(f"{' '.join(format_cards(list(res.hand), pretty=True))} at a table of {res.players}: "
                   f"somebody else can open with probability [bold]{res.probability:.4f}[/bold] ({how})")


def render_openers(result: OpenersTable) -> None:
    """The pass-out table, the waits before an opening and, with deals played, the play tables."""
    console = stdout()
    console.print(f"One hand holds openers: {SINGLE_HAND_OPENERS:,} / {HANDS:,} = {float(P_SINGLE_OPENERS):.5f}")
    _passouts(console, result)
    _waits(console, result)
    if result.deals:
        _play(console, result)
    if result.interrupted:
        console.print("[yellow]Interrupted: only the table sizes shown finished.[/yellow]")


def _passouts(console: Console, result: OpenersTable) -> None:
    ante, max_antes = result.ante, result.max_consecutive_antes
    title = f"Jacks or Better pass-outs (ante {ante}{f', at most {max_antes} antes in a row' if max_antes else ''})"
    headers = ("nobody opens", "independent", "deals per opened pot", "pot at opening")
    rows = []
    for r in result.rows:
        mc = r.p_nobody_opens_mc
        nobody = (fmt(r.p_nobody_opens) if r.p_nobody_opens is not None or mc is None
                  else f"{mc.text(4, sep='±')} MC")
        mark = "" if r.exact else " MC"
        rows.append([str(r.n), nobody, fmt(r.p_nobody_opens_independent),
                     fmt(r.expected_deals_per_opened_pot, 3) + mark, fmt(r.expected_pot, 2) + mark])
    _print_folded(console, title, headers, rows)
    if not result.exact:
        console.print("MC: no exact count shipped for this size; Monte Carlo estimate ± 1 SE "
                      f"({FALLBACK_MC_DEALS:,} deals, seed {result.seed}); the pot figures follow from it.")
    console.print("[dim]Exact: counted over one shared deck; independent: (1-p)^n. Pot: antes only, "
                  "assuming anyone with openers opens.[/dim]")


def _waits(console: Console, result: OpenersTable) -> None:
    """P(k pass-outs) with the pot at opening: one line per cell, or two on a narrow page."""
    for sep in (" ", "\n"):
        table = Table(title="Pass-outs before the pot opens: P(k pass-outs) (pot at opening, antes only)")
        table.add_column("players", justify="right")
        for k in range(6):
            table.add_column(f"k={k}" if k < 5 else "k>=5", justify="right", no_wrap=True)
        for w in result.waits():
            cells = [f"{p:.3f}{sep}({pot})" for p, pot in zip(w.probabilities, w.pots, strict=True)]
            cells[-1] = f"{w.probabilities[-1]:.3f}{sep}({'>=' if w.tail_is_floor else ''}{w.pots[-1]})"
            table.add_row(str(w.players), *cells)
        if fits(console, table):
            break
    console.print(table)


def _play(console: Console, result: OpenersTable) -> None:
    """How opened pots end when the deals are played by the rules engine, in each game."""
    for title, columns in ((f"Jackpott under play ({result.deals:,} deals per size, seed {result.seed})",
                            JACKPOTT_PLAY),
                           (f"Plain game under play: preset morkpoker, passed out when everybody checks "
                            f"({result.deals:,} deals per size, seed {result.seed})", PLAIN_PLAY)):
        rows = [[str(r.n), *(_share(r.to_dict(), key) for _, key in columns)] for r in result.rows]
        _print_folded(console, title, [header for header, _ in columns], rows)
    console.print("[dim]Rule-based policies; ± one standard error. Passed out, all check: share of all deals. "
                  "Uncontested, showdown, dead opener: shares of the pots that were opened.[/dim]")


def _print_folded(console: Console, title: str, headers: Sequence[str], rows: list[list[str]]) -> None:
    """A table by table size, folded into parts under the players column where the page is too
    narrow for it whole (no value cut)."""
    def build(span: list[int], continued: bool) -> Table:
        table = Table(title=f"{title} (continued)" if continued else title)
        table.add_column("players", justify="right")
        for j in span:
            table.add_column(headers[j], justify="right", no_wrap=True)
        for row in rows:
            table.add_row(row[0], *(row[1 + j] for j in span))
        return table

    for table in folded(console, build, len(headers)):
        console.print(table)


def _share(d: dict[str, object], key: str) -> str:
    value, se = d.get(key), d.get(f"{key}_se")
    if not isinstance(value, float | int) or not isinstance(se, float | int):
        return "n/a"
    return Estimate(value, se).text(3)
