"""`drawodds train`: the questions, each graded answer, the running score and the session summary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from drawodds.render.console import pretty_cards
from drawodds.sim.stats import Estimate
from drawodds.trainer import (
    HELP,
    PROMPTS,
    READ_EVERY,
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
    plural,
)


def value_text(value: float, objective: str) -> str:
    """A hold's value under the objective: '52.91% equity', '45.2% jacks or better', '1.456 points'."""
    if objective == "points":
        return f"{value:.3f} points"
    return f"{100 * value:.2f}% equity" if objective == "equity" else f"{100 * value:.1f}% jacks or better"


def cost_text(cost: float, se: float, objective: str, exact: bool) -> str:
    """A cost in the objective's unit, with its standard error when sampled."""
    if objective == "points":
        number = f"{cost:.3f}" if exact else Estimate(cost, se).text(3)
        return f"{number} points"
    number = f"{100 * cost:.2f}" if exact else Estimate(cost, se).percent(2, unit="")
    return f"{number} {'points of equity' if objective == 'equity' else 'percentage points'}"


def _hold(cards: Sequence[str], draw: int) -> str:
    if draw == 0:
        return f"stand pat ({pretty_cards(cards)})"
    return f"keep {pretty_cards(cards) or 'nothing'}, draw {draw}"


def render_welcome(console: Console, setup: TrainSetup, records: Sequence[Mapping[str, Any]], session: int,
                   seed: int) -> None:
    """Who the session is for: rules, objective, and the record so far."""
    rs = setup.rules
    goal = {"equity": f"equity against {plural(setup.opponents, 'opponent')} ({setup.trials:,} trials a hand)",
            "jacks": "the chance of ending jacks or better (exact)",
            "points": "the expected table points of your final hand (exact)" if rs.game == "draw" else
            f"the points this deal, best hand + last trick, against {plural(setup.opponents, 'opponent')} "
            f"({setup.trials:,} trials a hand)"}[setup.objective]
    drill = {"keep": "holds", "read": "readings",
             "mixed": f"holds, every {READ_EVERY}th question a reading" if rs.game == "draw" else "holds"}[setup.drill]
    focus = f" · focus: {setup.focus}" if setup.focus else ""
    graded = "" if setup.drill == "read" else f" · graded on {goal}"
    console.print(f"Training {drill} · {rs.name}, max draw {rs.max_draw_text}{graded}{focus} · seed {seed}",
                  style="bold", highlight=False)
    mine = [r for r in records if r.get("kind") == "keep" and r.get("rules") == rs.name
            and r.get("objective") == setup.objective]
    if mine:
        wrong = sum(bool(r.get("mistake")) for r in mine)
        console.print(f"Session {session}: so far {plural(len(mine), 'decision')}, {plural(wrong, 'mistake')} "
                      f"({100 * wrong / len(mine):.0f}%); deals lean towards the patterns you missed.",
                      highlight=False)
    hint = ("Answer with the cards to keep, throw CARDS, a draw count, or pat"
            if setup.drill != "read" else "Answer with a class and your equity in %, e.g. two pair 45")
    console.print(f"{hint}; help, score, quit.", style="dim", highlight=False)


def render_question(console: Console, question: Question, setup: TrainSetup | None = None) -> None:
    """The hand (and, for a reading, the draw count and what to answer)."""
    hand = pretty_cards([c for c in question.to_dict()["hand"]])
    if isinstance(question, Position):
        console.print(f"\n[bold]Hand {question.index}[/bold]  {hand}  ({question.dealt})", highlight=False)
        return
    who = "The opener" if question.opener else "One opponent"
    drew = "stood pat" if question.draw == 0 else f"drew {question.draw}"
    console.print(f"\n[bold]Reading {question.index}[/bold]  You hold {hand}; {who.lower()} {drew}.",
                  highlight=False)
    console.print("  Their likeliest holding, and your equity against them in %? (e.g. two pair 45)",
                  style="dim", highlight=False)


def prompt_text(question: Question) -> str:
    return PROMPTS[question.kind]


def render_grade(console: Console, g: Grade) -> None:
    """Best hold, the player's, the cost and the one-line why."""
    mark = "[red]✗ mistake[/red]" if g.mistake else "[green]✓[/green]"
    console.print(f"  Best:  {_hold(g.best, g.best_draw)} — {value_text(g.best_value, g.objective)}",
                  highlight=False)
    if g.chosen != g.best:
        console.print(f"  Yours: {_hold(g.chosen, g.chosen_draw)} — {value_text(g.chosen_value, g.objective)}",
                      highlight=False)
    cost = ("none, the best hold" if g.chosen == g.best
            else cost_text(g.cost, g.cost_se, g.objective, g.exact) + ("" if g.mistake else " (a near tie)"))
    console.print(f"  Cost:  {cost}  {mark}", highlight=False)
    _why(console, g.why)


def _why(console: Console, text: str) -> None:
    """The why-line, wrapped under its own first word rather than at the margin."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=8, no_wrap=True)
    grid.add_column()
    grid.add_row("  Why:", text)
    console.print(grid, style="dim", highlight=False)


def render_read_grade(console: Console, g: ReadGrade) -> None:
    """The likeliest holding and our equity against the answer."""
    ok = {True: "[green]✓[/green]", False: "[red]✗[/red]"}
    console.print(f"  Likeliest: {g.likely} ({100 * g.likely_p:.1f}%)  you said {g.answer_class} "
                  f"{ok[g.class_right]}", highlight=False)
    console.print(f"  Equity: {Estimate(g.equity, g.equity_se).percent(1)} keeping "
                  f"{pretty_cards(g.best) or 'nothing'}  you said {100 * g.answer_equity:.0f}% "
                  f"(±{100 * g.band:.0f} counts) {ok[g.equity_right]}", highlight=False)
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
        parts.append(f"{plural(len(grades), 'decision')}, {plural(sum(g.mistake for g in grades), 'mistake')}, "
                     f"cost {cost_text(cost, se, objective, exact)}")
    if reads:
        parts.append(f"readings {sum(not r.mistake for r in reads)}/{len(reads)} right")
    return "Score: " + "; ".join(parts)


def render_score(console: Console, items: Sequence[Grade | ReadGrade], objective: str) -> None:
    console.print(score_line(items, objective), style="bold", highlight=False)


def render_help(console: Console) -> None:
    console.print(HELP, highlight=False)


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
        console.print(item.text, highlight=False)
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
        table = Table(title="Mistakes by pattern of the best hold", title_justify="left")
        for name, justify in (("pattern", "left"), ("now", "right"), ("cost", "right"), ("all sessions", "right"),
                              ("weight", "right")):
            table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        for row in s.patterns:
            cost = f"{row.cost:.3f}" if s.objective == "points" else f"{100 * row.cost:.2f}"
            table.add_row(row.name, f"{row.mistakes}/{row.decisions}", cost, f"{row.all_mistakes}/{row.all_decisions}",
                          f"×{row.weight:.2f}")
        console.print(table)
        console.print(f"now / all sessions: mistakes / decisions; cost in {s.unit}; weight: how much more "
                      "often the pattern is dealt next time.", style="dim", highlight=False)
    if len(s.sessions) > 1:
        line = "  ".join(f"#{r.session} {100 * r.rate:.0f}% of {r.decisions}" for r in s.sessions[-8:])
        console.print(f"Mistake rate by session: {line}", highlight=False)
    if s.history:
        console.print(f"History: {s.history}", style="dim", highlight=False)
