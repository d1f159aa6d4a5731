"""`drawodds train`: the questions, each graded answer, the running score and the session summary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from drawodds import i18n
from drawodds.i18n import _, local_number, ngettext, number, percent, pgettext
from drawodds.render.console import pretty_cards
from drawodds.sim.stats import Estimate
from drawodds.trainer import (
    HELP,
    PATTERN_WORDS,
    PROMPTS,
    READ_EVERY,
    READ_WORDS,
    AnswerError,
    Grade,
    Help,
    Position,
    Question,
    ReadGrade,
    ReadQuestion,
    Score,
    TrainingSummary,
    TrainSetup,
    Welcome,
)
from drawodds.trainer.phrases import local


def value_text(value: float, objective: str) -> str:
    """A hold's value under the objective: '52.91% equity', '45.2% jacks or better', '1.456 points'."""
    if objective == "points":
        return _("{points} points").format(points=number(value, 3))
    if objective == "equity":
        return _("{percent} equity").format(percent=percent(value, 2))
    return _("{percent} jacks or better").format(percent=percent(value, 1))


def cost_text(cost: float, se: float, objective: str, exact: bool) -> str:
    """A cost in the objective's unit, with its standard error when sampled."""
    if objective == "points":
        amount = number(cost, 3) if exact else local_number(Estimate(cost, se).text(3))
        return _("{cost} points").format(cost=amount)
    amount = number(100 * cost, 2) if exact else local_number(Estimate(cost, se).percent(2, unit=""))
    if objective == "equity":
        return _("{cost} points of equity").format(cost=amount)
    return _("{cost} percentage points").format(cost=amount)


def _hold(cards: Sequence[str], draw: int) -> str:
    if draw == 0:
        return _("stand pat ({cards})").format(cards=pretty_cards(cards))
    if not cards:
        return _("keep nothing, draw {n}").format(n=draw)
    return _("keep {cards}, draw {n}").format(cards=pretty_cards(cards), n=draw)


def _opponents(n: int) -> str:
    return ngettext("{n} opponent", "{n} opponents", n).format(n=n)


def render_welcome(console: Console, setup: TrainSetup, records: Sequence[Mapping[str, Any]], session: int,
                   seed: int) -> None:
    """Who the session is for: rules, objective, and the record so far."""
    rs = setup.rules
    trials = number(setup.trials, grouped=True)
    if setup.objective == "equity":
        goal = _("equity against {opponents} ({trials} trials a hand)").format(
            opponents=_opponents(setup.opponents), trials=trials)
    elif setup.objective == "jacks":
        goal = _("the chance of ending jacks or better (exact)")
    elif rs.game == "draw":
        goal = _("the expected table points of your final hand (exact)")
    else:
        goal = _("the points this deal, best hand + last trick, against {opponents} ({trials} trials a hand)").format(
            opponents=_opponents(setup.opponents), trials=trials)
    if setup.drill == "read":
        drill = _("Training readings")
    elif setup.drill == "mixed" and rs.game == "draw":
        drill = _("Training holds, every {n}th question a reading").format(n=READ_EVERY)
    else:
        drill = _("Training holds")
    parts = [_("{drill} · {rules}, max draw {max_draw}").format(drill=drill, rules=rs.name,
                                                                max_draw=_(rs.max_draw_text))]
    if setup.drill != "read":
        parts.append(_("graded on {goal}").format(goal=goal))
    if setup.focus:
        parts.append(_("focus: {pattern}").format(pattern=setup.focus))
    parts.append(_("seed {seed}").format(seed=seed))
    console.print(" · ".join(parts), style="bold", highlight=False)
    mine = [r for r in records if r.get("kind") == "keep" and r.get("rules") == rs.name
            and r.get("objective") == setup.objective]
    if mine:
        wrong = sum(bool(r.get("mistake")) for r in mine)
        console.print(_("Session {session}: so far {decisions}, {mistakes} ({rate}); deals lean towards the "
                        "patterns you missed.").format(
            session=session, decisions=ngettext("{n} decision", "{n} decisions", len(mine)).format(n=len(mine)),
            mistakes=ngettext("{n} mistake", "{n} mistakes", wrong).format(n=wrong),
            rate=percent(wrong / len(mine), 0)), highlight=False)
    hint = (_("Answer with the cards to keep, throw CARDS, a draw count, or pat; help, score, quit.")
            if setup.drill != "read" else
            _("Answer with a class and your equity in %, e.g. two pair 45; help, score, quit."))
    console.print(hint, style="dim", highlight=False)


def render_question(console: Console, question: Question, setup: TrainSetup | None = None) -> None:
    """The hand (and, for a reading, the draw count and what to answer)."""
    hand = pretty_cards([c for c in question.to_dict()["hand"]])
    if isinstance(question, Position):
        console.print("\n" + _("[bold]Hand {index}[/bold]  {hand}  ({dealt})").format(
            index=question.index, hand=hand, dealt=i18n.worded(question.dealt)), highlight=False)
        return
    if question.opener:
        line = (_("[bold]Reading {index}[/bold]  You hold {hand}; the opener stood pat.") if question.draw == 0 else
                _("[bold]Reading {index}[/bold]  You hold {hand}; the opener drew {n}."))
    else:
        line = (_("[bold]Reading {index}[/bold]  You hold {hand}; one opponent stood pat.") if question.draw == 0
                else _("[bold]Reading {index}[/bold]  You hold {hand}; one opponent drew {n}."))
    console.print("\n" + line.format(index=question.index, hand=hand, n=question.draw), highlight=False)
    console.print(_("  Their likeliest holding, and your equity against them in %? (e.g. two pair 45)"),
                  style="dim", highlight=False)


def prompt_text(question: Question) -> str:
    return _(PROMPTS[question.kind])


def _labels() -> tuple[list[str], int]:
    """The grade's labels (best, yours, cost, why) and the width they are padded to."""
    labels = [_("Best:"), _("Yours:"), _("Cost:"), _("Why:")]
    return labels, max(len(w) for w in labels) + 1


def render_grade(console: Console, g: Grade) -> None:
    """Best hold, the player's, the cost and the one-line why."""
    (best, yours, cost_label, _why_label), width = _labels()
    mark = _("[red]✗ mistake[/red]") if g.mistake else "[green]✓[/green]"
    console.print(f"  {best:<{width}}" + _("{hold} — {value}").format(
        hold=_hold(g.best, g.best_draw), value=value_text(g.best_value, g.objective)), highlight=False)
    if g.chosen != g.best:
        console.print(f"  {yours:<{width}}" + _("{hold} — {value}").format(
            hold=_hold(g.chosen, g.chosen_draw), value=value_text(g.chosen_value, g.objective)), highlight=False)
    if g.chosen == g.best:
        cost = _("none, the best hold")
    elif g.mistake:
        cost = cost_text(g.cost, g.cost_se, g.objective, g.exact)
    else:
        cost = _("{cost} (a near tie)").format(cost=cost_text(g.cost, g.cost_se, g.objective, g.exact))
    console.print(f"  {cost_label:<{width}}{cost}  {mark}", highlight=False)
    _why(console, g.why)


def _why(console: Console, text: str) -> None:
    """The why-line, wrapped under its own first word rather than at the margin."""
    labels, width = _labels()
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=width + 1, no_wrap=True)
    grid.add_column()
    grid.add_row(f"  {labels[3]}", local(text))
    console.print(grid, style="dim", highlight=False)


def _class(slug: str) -> str:
    """A reading's class as the player reads it."""
    return READ_WORDS[slug].text() if slug in READ_WORDS else slug


def render_read_grade(console: Console, g: ReadGrade) -> None:
    """The likeliest holding and our equity against the answer."""
    ok = {True: "[green]✓[/green]", False: "[red]✗[/red]"}
    console.print(_("  Likeliest: {holding} ({percent})  you said {answer} {mark}").format(
        holding=_class(g.likely), percent=percent(g.likely_p, 1), answer=_class(g.answer_class),
        mark=ok[g.class_right]), highlight=False)
    cards = pretty_cards(g.best)
    line = (_("  Equity: {equity} keeping {cards}  you said {answer} (±{band} counts) {mark}") if cards else
            _("  Equity: {equity} keeping nothing  you said {answer} (±{band} counts) {mark}"))
    console.print(line.format(equity=local_number(Estimate(g.equity, g.equity_se).percent(1)), cards=cards,
                              answer=percent(g.answer_equity, 0), band=number(100 * g.band), mark=ok[g.equity_right]),
                  highlight=False)
    _why(console, g.why)


def score_line(items: Sequence[Grade | ReadGrade], objective: str) -> str:
    """Decisions, mistakes and their total cost so far (readings apart)."""
    grades = [g for g in items if isinstance(g, Grade)]
    reads = [g for g in items if isinstance(g, ReadGrade)]
    cost = sum(g.cost for g in grades)
    se = sum(g.cost_se**2 for g in grades) ** 0.5
    exact = all(g.exact for g in grades)
    parts = []
    if grades or not reads:
        wrong = sum(g.mistake for g in grades)
        parts.append(_("{decisions}, {mistakes}, cost {cost}").format(
            decisions=ngettext("{n} decision", "{n} decisions", len(grades)).format(n=len(grades)),
            mistakes=ngettext("{n} mistake", "{n} mistakes", wrong).format(n=wrong),
            cost=cost_text(cost, se, objective, exact)))
    if reads:
        parts.append(_("readings {right}/{total} right").format(right=sum(not r.mistake for r in reads),
                                                               total=len(reads)))
    return _("Score: {score}").format(score="; ".join(parts))


def render_score(console: Console, items: Sequence[Grade | ReadGrade], objective: str) -> None:
    console.print(score_line(items, objective), style="bold", highlight=False)


def render_help(console: Console, text: str = HELP) -> None:
    console.print(_(text), highlight=False)


def render_bad(console: Console, message: str) -> None:
    """A bad answer: one line, then the question is asked again."""
    console.print(f"  ? {message}", style="yellow", highlight=False)


def render_item(console: Console, item: object) -> None:
    """Whatever a session shows (``drawodds.trainer.run_session``): the welcome, a question,
    a bad answer, help, the score or a graded answer."""
    if isinstance(item, Welcome):
        render_welcome(console, item.setup, item.records, item.session, item.seed)
    elif isinstance(item, Position | ReadQuestion):
        render_question(console, item)
    elif isinstance(item, AnswerError):
        render_bad(console, str(item))
    elif isinstance(item, Help):
        render_help(console, item.text)
    elif isinstance(item, Score):
        render_score(console, item.items, item.objective)
    elif isinstance(item, Grade):
        render_grade(console, item)
    elif isinstance(item, ReadGrade):
        render_read_grade(console, item)
    else:
        raise TypeError(f"nothing renders a {type(item).__name__}")


def render_summary(console: Console, s: TrainingSummary) -> None:
    """The score, mistakes by pattern and the progress over sessions."""
    console.print()
    console.print(score_line((*s.grades, *s.readings), s.objective), style="bold", highlight=False)
    if s.patterns:
        table = Table(title=_("Mistakes by pattern of the best hold"), title_justify="left")
        for name, justify in ((pgettext("column", "pattern"), "left"), (pgettext("column", "now"), "right"),
                              (pgettext("column", "cost"), "right"), (pgettext("column", "all sessions"), "right"),
                              (pgettext("column", "weight"), "right")):
            table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        for row in s.patterns:
            cost = number(row.cost, 3) if s.objective == "points" else number(100 * row.cost, 2)
            name = PATTERN_WORDS[row.pattern].text() if row.pattern in PATTERN_WORDS else row.name
            table.add_row(name, f"{row.mistakes}/{row.decisions}", cost, f"{row.all_mistakes}/{row.all_decisions}",
                          "×" + number(row.weight, 2))
        console.print(table)
        console.print(_("now / all sessions: mistakes / decisions; cost in {unit}; weight: how much more "
                        "often the pattern is dealt next time.").format(unit=_(s.unit)), style="dim", highlight=False)
    if len(s.sessions) > 1:
        line = "  ".join(_("#{session} {rate} of {decisions}").format(
            session=r.session, rate=percent(r.rate, 0), decisions=r.decisions) for r in s.sessions[-8:])
        console.print(_("Mistake rate by session: {sessions}").format(sessions=line), highlight=False)
    if s.history:
        console.print(_("History: {path}").format(path=s.history), style="dim", highlight=False)
