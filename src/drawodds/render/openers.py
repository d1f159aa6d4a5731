"""`drawodds openers`: pass-out odds, waits and pot sizes, and how opened pots end under play."""

from __future__ import annotations

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
from drawodds.render.console import fmt, out

PLAY_KEYS = ("passed_out", "uncontested", "showdown", "dead_opener",
             "plain_passed_out", "plain_uncontested", "plain_showdown")
PLAY_HEADERS = ("players", "passed out", "uncontested", "showdown", "dead opener",
                "plain: all check", "plain: uncontested", "plain: showdown")


def render_somebody_else(res: SomebodyElseOpens) -> None:
    """One line: the chance somebody else at the table can open."""
    how = ("exact" if res.method == "exact"
           else f"Monte Carlo, {res.deals or 0:,} deals, seed {res.seed}, ± {res.se:.4f} (1 SE)")
    out.print(f"{' '.join(format_cards(list(res.hand), pretty=True))} at a table of {res.players}: "
              f"somebody else can open with probability [bold]{res.probability:.4f}[/bold] ({how})")


def _fmt_se(d: dict[str, object], key: str) -> str:
    value, se = d.get(key), d.get(f"{key}_se")
    return "n/a" if not isinstance(value, float | int) or not isinstance(se, float | int) \
        else f"{value:.3f}±{se:.3f}"


def render_openers(result: OpenersTable) -> None:
    """The pass-out table, the waits before an opening and, with deals played, the play table."""
    ante, max_antes = result.ante, result.max_consecutive_antes
    out.print(f"One hand holds openers: {SINGLE_HAND_OPENERS:,} / {HANDS:,} = {float(P_SINGLE_OPENERS):.5f}")
    table = Table(title=f"Jacks or Better pass-outs (ante {ante}"
                        f"{f', at most {max_antes} antes in a row' if max_antes else ''})")
    for col in ("players", "nobody opens", "independent", "deals per opened pot", "pot at opening"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in result.rows:
        mc = r.p_nobody_opens_mc
        nobody = (fmt(r.p_nobody_opens) if r.p_nobody_opens is not None or mc is None
                  else f"{mc.mean:.4f}±{mc.se:.4f} MC")
        mark = "" if r.exact else " MC"
        table.add_row(str(r.n), nobody, fmt(r.p_nobody_opens_independent),
                      fmt(r.expected_deals_per_opened_pot, 3) + mark, fmt(r.expected_pot, 2) + mark)
    out.print(table)
    if not result.exact:
        out.print("MC: no exact count shipped for this size; Monte Carlo estimate ± 1 SE "
                  f"({FALLBACK_MC_DEALS:,} deals, seed {result.seed}); the pot figures follow from it.")
    out.print("Exact: counted over one shared deck; independent: (1-p)^n. Pot: antes only, "
              "assuming anyone with openers opens.")
    waits = Table(title="Pass-outs before the pot opens: P(k pass-outs) (pot at opening, antes only)")
    waits.add_column("players", justify="right")
    for k in range(6):
        waits.add_column(f"k={k}" if k < 5 else "k>=5", justify="right")
    for w in result.waits():
        cells = [f"{p:.3f} ({pot})" for p, pot in zip(w.probabilities, w.pots, strict=True)]
        cells[-1] = f"{w.probabilities[-1]:.3f} ({'>=' if w.tail_is_floor else ''}{w.pots[-1]})"
        waits.add_row(str(w.players), *cells)
    out.print(waits)
    if result.deals:
        _render_play(result)


def _render_play(result: OpenersTable) -> None:
    """How opened pots end when the deals are played by the rules engine."""
    play = Table(title=f"Under play: rules engine, rule-based policies, {result.deals:,} deals per size "
                       f"and game, seed {result.seed} (± 1 SE)")
    for col in PLAY_HEADERS:
        play.add_column(col, justify="right", no_wrap=True)
    for r in result.rows:
        d = r.to_dict()
        play.add_row(str(r.n), *(_fmt_se(d, key) for key in PLAY_KEYS))
    out.print(play)
    out.print("Passed out: share of all deals. Uncontested, showdown, dead opener: shares of the "
              "pots that were opened. Plain game: preset morkpoker, where a deal is passed out "
              "when everybody checks.")
