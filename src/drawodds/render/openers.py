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
from drawodds.i18n import N_, _, number, pgettext
from drawodds.render.console import fits, fmt, folded, stdout
from drawodds.sim.stats import Estimate

JACKPOTT_PLAY = ((N_("passed out"), "passed_out"), (N_("uncontested"), "uncontested"), (N_("showdown"), "showdown"),
                 (N_("dead opener"), "dead_opener"))
PLAIN_PLAY = ((N_("all check"), "plain_passed_out"), (N_("uncontested"), "plain_uncontested"),
              (N_("showdown"), "plain_showdown"))


def render_somebody_else(res: SomebodyElseOpens) -> None:
    """One line: the chance somebody else at the table can open."""
    how = (_("exact") if res.method == "exact"
           else _("Monte Carlo, {deals} deals, seed {seed}, ± {se} (1 SE)").format(
               deals=number(res.deals or 0, grouped=True), seed=res.seed, se=number(res.se, 4)))
    stdout().print(_("{hand} at a table of {players}: somebody else can open with probability "
                     "[bold]{probability}[/bold] ({how})").format(
                       hand=" ".join(format_cards(list(res.hand), pretty=True)), players=res.players,
                       probability=number(res.probability, 4), how=how))


def render_openers(result: OpenersTable) -> None:
    """The pass-out table, the waits before an opening and, with deals played, the play tables."""
    console = stdout()
    console.print(_("One hand holds openers: {openers} / {hands} = {probability}").format(
        openers=number(SINGLE_HAND_OPENERS, grouped=True), hands=number(HANDS, grouped=True),
        probability=number(float(P_SINGLE_OPENERS), 5)))
    _passouts(console, result)
    _waits(console, result)
    if result.deals:
        _play(console, result)
    if result.interrupted:
        console.print(_("[yellow]Interrupted: only the table sizes shown finished.[/yellow]"))


def _passouts(console: Console, result: OpenersTable) -> None:
    ante, max_antes = result.ante, result.max_consecutive_antes
    title = (_("Jacks or Better pass-outs (ante {ante}, at most {antes} antes in a row)").format(ante=ante,
                                                                                               antes=max_antes)
             if max_antes else _("Jacks or Better pass-outs (ante {ante})").format(ante=ante))
    headers = (_("nobody opens"), _("independent"), _("deals per opened pot"), _("pot at opening"))
    mc_mark = pgettext("Monte Carlo", "MC")
    rows = []
    for r in result.rows:
        mc = r.p_nobody_opens_mc
        nobody = (fmt(r.p_nobody_opens) if r.p_nobody_opens is not None or mc is None
                  else f"{mc.text(4, sep='±')} {mc_mark}")
        mark = "" if r.exact else f" {mc_mark}"
        rows.append([str(r.n), nobody, fmt(r.p_nobody_opens_independent),
                     fmt(r.expected_deals_per_opened_pot, 3) + mark, fmt(r.expected_pot, 2) + mark])
    _print_folded(console, title, headers, rows)
    if not result.exact:
        console.print(_("MC: no exact count shipped for this size; Monte Carlo estimate ± 1 SE "
                        "({deals} deals, seed {seed}); the pot figures follow from it.").format(
                          deals=number(FALLBACK_MC_DEALS, grouped=True), seed=result.seed))
    console.print(_("[dim]Exact: counted over one shared deck; independent: (1-p)^n. Pot: antes only, "
                    "assuming anyone with openers opens.[/dim]"))


def _waits(console: Console, result: OpenersTable) -> None:
    """P(k pass-outs) with the pot at opening: one line per cell, or two on a narrow page."""
    for sep in (" ", "\n"):
        table = Table(title=_("Pass-outs before the pot opens: P(k pass-outs) (pot at opening, antes only)"))
        table.add_column(_("players"), justify="right")
        for k in range(6):
            table.add_column(f"k={k}" if k < 5 else "k>=5", justify="right", no_wrap=True)
        for w in result.waits():
            cells = [f"{number(p, 3)}{sep}({pot})" for p, pot in zip(w.probabilities, w.pots, strict=True)]
            cells[-1] = f"{number(w.probabilities[-1], 3)}{sep}({'>=' if w.tail_is_floor else ''}{w.pots[-1]})"
            table.add_row(str(w.players), *cells)
        if fits(console, table):
            break
    console.print(table)


def _play(console: Console, result: OpenersTable) -> None:
    """How opened pots end when the deals are played by the rules engine, in each game."""
    deals = number(result.deals, grouped=True)
    for title, columns in ((_("Jackpott under play ({deals} deals per size, seed {seed})").format(
                                deals=deals, seed=result.seed), JACKPOTT_PLAY),
                           (_("Plain game under play: preset morkpoker, passed out when everybody checks "
                              "({deals} deals per size, seed {seed})").format(deals=deals, seed=result.seed),
                            PLAIN_PLAY)):
        rows = [[str(r.n), *(_share(r.to_dict(), key) for _header, key in columns)] for r in result.rows]
        _print_folded(console, title, [_(header) for header, _key in columns], rows)
    console.print(_("[dim]Rule-based policies; ± one standard error. Passed out, all check: share of all deals. "
                    "Uncontested, showdown, dead opener: shares of the pots that were opened.[/dim]"))


def _print_folded(console: Console, title: str, headers: Sequence[str], rows: list[list[str]]) -> None:
    """A table by table size, folded into parts under the players column where the page is too
    narrow for it whole (no value cut)."""
    def build(span: list[int], continued: bool) -> Table:
        table = Table(title=_("{title} (continued)").format(title=title) if continued else title)
        table.add_column(_("players"), justify="right")
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
        return _("n/a")
    return Estimate(value, se).text(3)
