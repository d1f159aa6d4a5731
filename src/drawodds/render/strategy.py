"""`drawodds strategy`: what the table optimises, its exact value and the condensed strategy."""

from __future__ import annotations

import re

from rich.table import Table

from drawodds.analyses.condensed import CondensedStrategy, HandCheck, StrategyReport
from drawodds.analyses.equity_table import EquityTableRun
from drawodds.analyses.removal import CLOSE
from drawodds.analyses.strategy import Objective
from drawodds.i18n import N_, _, local_number, ngettext, number, percent, worded
from drawodds.kinds import Category
from drawodds.render.console import max_draw_words, pretty_cards, stdout
from drawodds.sim.stats import Estimate

UNITS = {"probability": N_("probability"), "coins per coin bet": N_("coins per coin bet"), "points": N_("points"),
         "share of the pot": N_("share of the pot")}
_PARENTHESIS = re.compile(r"\(([^()]*)\)")
_POLICY = re.compile(r"'([^']*)' policy")


def unit_words(unit: str) -> str:
    """An objective's unit in the reader's language."""
    return _(UNITS[unit]) if unit in UNITS else unit


def objective_words(objective: Objective) -> str:
    """What an objective maximises, in the reader's language (its ``description`` is the English)."""
    kind, _sep, arg = objective.name.partition(":")
    inner = _PARENTHESIS.findall(objective.description)
    policy = _POLICY.findall(objective.description)
    if kind == "at_least" and arg in Category.slugs():
        return _("probability of finishing with at least {category}").format(category=Category.from_slug(arg).words)
    if kind == "category" and arg in Category.slugs():
        return _("probability of finishing with exactly {category}").format(category=Category.from_slug(arg).words)
    if kind == "jacks":
        return _("probability of finishing with at least a pair of jacks")
    if kind == "points" and inner:
        return _("Poengpoker table points of the final hand ({scale})").format(scale=inner[0])
    if kind == "equity" and policy:
        return _("showdown equity against {n} opponent(s) drawing by the '{policy}' policy (card removal between "
                 "us and them ignored)").format(n=arg, policy=policy[0])
    if objective.description.startswith("video poker pay table "):
        return _("video poker pay table {pays} (return per coin)").format(pays=objective.description.split()[4])
    return objective.description


def amount(value: float, unit: str, places: int = 4) -> str:
    """A loss in an objective's unit to ``places`` decimals, as a reader says it: points of the
    pot (two places fewer) for equity."""
    if unit == "share of the pot":
        return _("{points} points of the pot").format(points=number(100 * value, max(places - 2, 0)))
    return f"{number(value, places)} {unit_words(unit)}"


def list_cost_sentences(plan: CondensedStrategy) -> list[str]:
    """What following a list costs, on average and on its worst hand, and which lines are not
    in the short list (the ones that keep rare hands from losing more than the bound)."""
    unit = plan.unit
    out = [_("On average it costs {average}; on its worst hand {worst}.").format(
        average=amount(plan.loss, unit, 6), worst=amount(plan.max_regret, unit))]
    if plan.worst is not None and plan.max_regret > 0:
        worst = plan.worst
        out.append(_("Its worst hand is {hand}: the list keeps {list_keep}, the best hold keeps {best_keep}.").format(
            hand=pretty_cards(list(worst.hand)), list_keep=pretty_cards(list(worst.list_keep)) or _("nothing"),
            best_keep=pretty_cards(list(worst.best_keep)) or _("nothing")))
    extra = len(plan.lines) - plan.core_lines
    if extra and plan.max_regret > plan.bound:
        out.append(ngettext("The line marked * is there so that rare hands lose less; no order of these patterns keeps "
                            "every hand within {bound}. Without it the list is {core} lines long.",
                            "The {n} lines marked * are there so that rare hands lose less; no order of these patterns "
                            "keeps every hand within {bound}. Without them the list is {core} lines long.",
                            extra).format(n=extra, bound=amount(plan.bound, unit, 2), core=plan.core_lines))
    elif extra:
        out.append(ngettext("The line marked * is there so that no hand loses more than {bound}; without it the list "
                            "is {core} lines long.",
                            "The {n} lines marked * are there so that no hand loses more than {bound}; without them "
                            "the list is {core} lines long.", extra).format(
            n=extra, bound=amount(plan.bound, unit, 2), core=plan.core_lines))
    return out


def headline(report: StrategyReport) -> str:
    """What the table is: the objective it maximises under which rules."""
    rules = report.table.rules
    return _("Best play for every deal under {rules} (max draw {max_draw}). It maximises: {objective}.").format(
        rules=rules.name, max_draw=max_draw_words(rules.max_draw_text), objective=objective_words(report.objective))


def render_strategy(report: StrategyReport) -> None:
    """The objective, the optimal value, the condensed list and the card-removal check."""
    console = stdout()
    obj, table, condensed, rules = report.objective, report.table, report.condensed, report.table.rules
    console.print(f"[bold]{headline(report)}[/bold]")
    unit = unit_words(obj.unit)
    if rules.game != "draw":
        console.print(_("[yellow]This table counts the final hand's table points alone: in {rules} the "
                        "last trick scores {points} more, which can change the hold "
                        "(`drawodds keep HAND --rules {rules}` plays the tricks out).[/yellow]").format(
                          rules=rules.name, points=rules.last_trick_points))
    console.print(_("optimal value over all {deals} deals ({classes} suit classes): "
                    "[bold]{value}[/bold] {unit}").format(
        deals=number(table.deals, grouped=True), classes=number(table.classes, grouped=True),
        value=number(table.value, 6), unit=unit))
    grid = Table(title=_("Condensed strategy: take the first line that matches "
                         "(loses {loss} {unit} per deal vs the exact table)").format(
                           loss=number(condensed.loss, 6), unit=unit))
    grid.add_column("#", justify="right")
    grid.add_column(_("hold pattern"), style="bold")
    grid.add_column(_("play"), no_wrap=True)
    grid.add_column(_("deals"), justify="right", no_wrap=True)
    for i, line in enumerate(condensed.lines, start=1):
        play = _("stand pat") if line.keep == 5 else _("keep {n}, draw {d}").format(n=line.keep, d=5 - line.keep)
        grid.add_row(str(i), worded(line.pattern) + ("" if line.core else " *"), play,
                     local_number(f"{100 * line.share:.2f}%"))
    console.print(grid)
    for sentence in list_cost_sentences(condensed):
        console.print(sentence)
    if report.equity:
        console.print(_("Card removal between our hand and the field is ignored in the table."))
        removal = report.removal
        if removal is not None:
            n = report.removal_deals
            error = Estimate(removal.mean_error, removal.mean_error_se).text(4, signed=True)
            console.print(_("Measured on {n} random deals by Monte Carlo ({trials} trials each, seed {seed}): "
                            "table - simulation = {error}; per-deal RMS error {rms} (simulation noise removed); "
                            "best-minus-runner-up gap RMS error {gap}; decisions reversed beyond 2 SE: "
                            "{flips} of {n}").format(
                              n=n, trials=removal.trials, seed=report.seed, error=error,
                              rms=number(removal.rms_error, 4), gap=number(removal.gap_error_rms, 4),
                              flips=removal.flips))
        elif report.interrupted:
            console.print(_("[yellow]Interrupted: the card-removal check did not finish.[/yellow]"))
    if report.out:
        console.print(_("table written to {path}").format(path=report.out))


def render_equity_table(run: EquityTableRun) -> None:
    """Where the Monte Carlo table is, how far it got, and how to read it."""
    console = stdout()
    state = _("complete") if run.complete else _("{done} of {classes} deal classes done").format(
        done=number(run.classes_done, grouped=True), classes=number(run.classes, grouped=True))
    console.print(_("Monte Carlo strategy table, {rules}, {opponents} drawing by '{policy}', {trials} trials per "
                    "class, seed {seed}: {state}, in {parts} parts under {path}").format(
                      rules=run.rules, opponents=ngettext("{n} opponent", "{n} opponents", run.opponents).format(
                          n=run.opponents), policy=run.policy, trials=number(run.trials, grouped=True), seed=run.seed,
                      state=state, parts=number(run.parts, grouped=True), path=run.path))
    console.print(_("[dim]One row per deal class: the equity ± se of every legal hold (index = hold number, "
                    "bit i keeps card i) and the best hold. Read it with polars: "
                    "pl.read_parquet('{path}/part-*.parquet').[/dim]").format(path=run.path))


def render_hand_check(check: HandCheck) -> None:
    """One hand against the printed list: its line, the list's hold, the best hold, the cost."""
    console = stdout()
    hand = pretty_cards(list(check.hand))

    def hold(cards: tuple[str, ...]) -> str:
        draw = len(check.hand) - len(cards)
        return _("stand pat") if not draw else _("keep {cards}, draw {n}").format(
            cards=pretty_cards(list(cards)) or _("nothing"), n=draw)

    unit = unit_words(check.unit)
    console.print(_("[bold]{hand}[/bold] meets line {number} of the list: {line}").format(
        hand=hand, number=check.line_number, line=worded(check.line)))
    places = 4 if check.model == "simulation" else 6
    console.print(_("the list says:   {hold}  ({value} {unit})").format(
        hold=hold(check.list_keep), value=number(check.list_value, places), unit=unit))
    console.print(_("the best hold:   {hold}  ({value} {unit})").format(
        hold=hold(check.best_keep), value=number(check.best_value, places), unit=unit))
    if check.model == "simulation" and check.list_keep != check.best_keep:
        console.print(_("following the list gives up {cost} {unit} on this hand").format(
            cost=Estimate(check.cost, check.cost_se).text(4, signed=True), unit=unit))
    elif check.model == "table" and check.cost > 0:
        console.print(_("following the list gives up {cost} {unit} on this hand").format(
            cost=number(check.cost, 6), unit=unit))
    else:
        console.print(_("following the list gives up nothing on this hand"))
    if check.model == "simulation":
        console.print(_("[dim]Decided as drawodds keep decides it: the holds within {close} of the pot in the table, "
                        "played out on {trials} simulated deals (seed {seed}) with the opponents dealt from the cards "
                        "you do not hold.[/dim]").format(
                          close=percent(CLOSE), trials=number(check.trials, grouped=True), seed=check.seed))
    elif check.unit == "share of the pot":
        console.print(_("[dim]Values from the exact table: the opponents' cards are taken as independent of "
                        "yours (no hold here is within {close} of the pot of the best).[/dim]").format(
                          close=percent(CLOSE)))
