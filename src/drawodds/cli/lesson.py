"""`drawodds lesson pat`: a strategy claim tested with numbers, from ``drawodds.standing_pat``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from drawodds.cli.errors import interrupted, refuse, writable_file
from drawodds.cli.options import JsonOpt, SeedOpt, bounded
from drawodds.cli.solved import equilibrium as solved_equilibrium
from drawodds.errors import LESSON_DEALS
from drawodds.i18n import N_, _, number
from drawodds.paths import write_text
from drawodds.render.console import note, progress_bar, show
from drawodds.rules import preset

NOT_STARTED = N_("the equilibrium was not solved; the lesson did not start")
HELP = N_("""A strategy claim from the rule documents, tested with numbers.

Examples:

  drawodds lesson pat

  drawodds lesson pat --deals 5000 --seed 2 --json

  drawodds lesson pat --no-equilibrium

  drawodds lesson pat --players 3""")


def lesson_cmd(
    topic: Annotated[str, typer.Argument(help=N_("The lesson: 'pat' (standing pat is a move)."))] = "pat",
    deals: Annotated[int, typer.Option("--deals", help=bounded(LESSON_DEALS,
        N_("Two-pair deals played per opponent type and line")))] = 20_000,
    seed: SeedOpt = 1,
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help=N_("Rule set of the plain betting game: morkpoker or svensk."))] = "morkpoker",
    out_md: Annotated[str | None, typer.Option(
        "--markdown", help=N_("Also write the lesson as Markdown to this file."))] = None,
    equilibrium: Annotated[bool, typer.Option("--equilibrium/--no-equilibrium", help=N_(
        "Add how often the heads-up equilibrium stands pat and bets after (solved once, about ten minutes "
        "on two cores, "
        "then read from the cache; drawodds solve can do it ahead)."))] = True,
    players: Annotated[int, typer.Option("--players", help=N_(
        "2: the lesson heads-up (default); 3: standing pat and snowing against two players of the three-handed "
        "solution, at a one-deck table (solved once, five to ten minutes on two cores, then read from the "
        "cache)."))] = 2,
    json_out: JsonOpt = False,
) -> None:
    """A strategy claim from the rule documents, tested with numbers."""
    from drawodds.analyses.lessons import lesson_rules, standing_pat

    if topic != "pat":
        raise refuse(N_("unknown lesson {topic}; lessons: pat"), topic=repr(topic))
    rule_set = preset(rules)
    lesson_rules(rule_set, deals=deals, seed=seed)      # the library's checks, before the equilibrium is solved
    writable_file(out_md, "--markdown")
    if players not in (2, 3):
        raise refuse(N_("--players is 2 or 3 for this lesson, not {players}"), players=players)
    if players == 3 and not equilibrium:
        raise refuse(N_("--players 3 plays the three-handed solution: drop --no-equilibrium"))
    lesson: Any
    if players == 3:
        from drawodds.analyses.lessons import standing_pat_table
        from drawodds.cli.solved import table_equilibrium_cli

        table = table_equilibrium_cli(rule_set, json_out, NOT_STARTED)
        with progress_bar(_("playing deals"), _("deals"), enabled=not json_out) as update:
            lesson = standing_pat_table(table, deals=deals, seed=seed, progress=update)
        _finish(lesson, out_md, json_out, N_("the lines cover the first {n} deals dealt"))
        return
    solved: Any = False
    if equilibrium:
        from drawodds.solver.cache import equilibrium_cached

        if not equilibrium_cached(rule_set):
            note(_("the lesson's last part needs the heads-up equilibrium, solved once first; "
                   "--no-equilibrium gives the lesson at once without it"))
        solved = solved_equilibrium(rule_set, json_out, NOT_STARTED)
    with progress_bar(_("playing deals"), _("deals"), enabled=not json_out) as update:
        lesson = standing_pat(deals=deals, seed=seed, rules=rule_set, progress=update, equilibrium=solved)
    _finish(lesson, out_md, json_out, N_("the lines cover the first {n} two-pair deals"))


def _finish(lesson: Any, out_md: str | None, json_out: bool, covered: str) -> None:
    """Write, show, and end a lesson cut short by Ctrl-C with what it covers."""
    from drawodds.render.lesson import render_lesson

    if out_md:
        write_text(out_md, lesson.to_markdown())
    show(lesson, json_out, render_lesson)
    if lesson.interrupted:
        dealt = lesson.dealt if isinstance(lesson.dealt, int) else sum(lesson.dealt.values())
        interrupted(_(covered).format(n=number(dealt, grouped=True)))
