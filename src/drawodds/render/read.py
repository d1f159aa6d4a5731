"""`drawodds read`: what an opponent's draw count says, as three tables."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from drawodds.analyses.read import DrawReading
from drawodds.i18n import _, number, pgettext
from drawodds.render.console import holding_words, pct, pct_sign, pretty_cards, stdout
from drawodds.sim.stats import Estimate

BAR = 40   # characters of the longest bar in the holding table


def render_read(result: DrawReading) -> None:
    """The reading: holding before the draw, final hand and, with our hand, our equity per hold."""
    console = stdout()
    who = _("policy '{policy}'").format(policy=result.policy)
    if result.range != "any":
        who = _("{who}, range {range}+").format(who=who, range=holding_words(result.range))
    if result.line is not None:
        seat = {"first": _("first to act"), "second": _("second from the dealer's left")}.get(
            str(result.seat), _("the dealer"))
        who = _("{who}, line {line}, opponent {seat}").format(who=who, line=result.line, seat=seat)
        if result.our_draw is not None:
            who = _("{who} after we drew {n}").format(who=who, n=result.our_draw)
        if result.solved_players == 3:
            who = _("{who}, three-handed solution, we the dealer").format(who=who)
        if result.drawn_before:
            who = _("{who}, after the first seat drew {n}").format(who=who, n=result.drawn_before[0])
    if result.hand_range is not None:
        who = _("{who}, dealt {range}").format(who=who, range=result.hand_range)
    console.print(_("[bold]Opponent drew {n}[/bold] ({who}, rules {rules}). "
                    "A player like this draws {n} with probability {percent}.").format(
                      n=result.draw, who=who, rules=result.rules, percent=pct_sign(result.p_draw)))
    _holding(console, result)
    _final(console, result)
    if result.equity:
        _equity(console, result)


RARE = 0.00005     # holdings less likely than this (0.00 at two decimals) are counted together


def _holding(console: Console, result: DrawReading) -> None:
    table = Table(title=_("Their hand before the draw (exact posterior)"), title_justify="left")
    table.add_column(_("holding"))
    table.add_column("%", justify="right")
    table.add_column("", no_wrap=True)
    rare = {name: p for name, p in result.holding.items() if p < RARE}
    if len(rare) < 2:
        rare = {}
    for name, p in result.holding.items():
        if name not in rare:
            table.add_row(holding_words(name), pct(p), "█" * int(round(BAR * p)))
    if rare:
        table.add_row(_("{n} others").format(n=len(rare)), pct(sum(rare.values())), "", style="dim")
    console.print(table)
    if rare:
        console.print(_("[dim]others: holdings each under {percent}.[/dim]").format(
            percent=pct_sign(RARE, 3)))


def _final(console: Console, result: DrawReading) -> None:
    exact = result.final_method == "exact"
    table = Table(title=_("Their final hand"), title_justify="left")
    table.add_column(_("category"))
    table.add_column("%" if exact else _("% ± se"), justify="right")
    for name, p in result.final.items():
        se = result.final_se[name]
        table.add_row(holding_words(name), number(100 * p, 2) if exact else Estimate(p, se).percent(2, unit=""))
    console.print(table)
    console.print("[dim]" + (_("Exact: every holding and every draw enumerated.") if exact else
                             _("Sampled from the exact posterior: {trials} trials, seed {seed}; "
                               "± one standard error.").format(trials=number(result.trials or 0, grouped=True),
                                                                seed=result.seed)) + "[/dim]")


def _equity(console: Console, result: DrawReading) -> None:
    """Our holds against the opponent, best first."""
    best = result.equity[0]
    console.print(_("[bold]Keep {cards}, draw {n}[/bold]: {equity} equity against them.").format(
        cards=pretty_cards(best.keep) or _("nothing"), n=best.draw,
        equity=Estimate(best.equity, best.equity_se).percent(2)))
    table = Table(title=_("Our holds from {hand} against them ({trials} trials, seed {seed})").format(
        hand=pretty_cards(result.hand or []), trials=number(result.equity_trials or 0, grouped=True),
        seed=result.seed), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column(pgettext("column", "keep"), no_wrap=True)
    table.add_column(pgettext("column", "discard"), style="dim", no_wrap=True)
    table.add_column(pgettext("column", "draw"), justify="right")
    table.add_column(_("equity % ± se"), justify="right", no_wrap=True)
    for i, e in enumerate(result.equity):
        table.add_row(str(i + 1), pretty_cards(e.keep) or _("(nothing)"), pretty_cards(e.discard) or "-",
                      str(e.draw), Estimate(e.equity, e.equity_se).percent(2, unit=""),
                      style="bold green" if i == 0 else None)
    console.print(table)
    console.print(_("[dim]± one standard error; every hold meets the same deals.[/dim]"))
