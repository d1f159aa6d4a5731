"""The options several commands share, as typer annotations, and the rule set they build."""

from __future__ import annotations

from typing import Annotated

import typer

from drawodds.cli.language import worded
from drawodds.errors import Bound
from drawodds.execution import available_cores
from drawodds.i18n import N_, _, number
from drawodds.rules import RuleSet, preset, preset_names


def bounded(bound: Bound, text: str, default: str | int = "") -> str:
    """``bound.help(text, default)``, worded in the language of the run (``text`` and a ``default``
    in words are marked with ``N_``; a whole-number default is written as the language writes it)."""
    template = N_("{text} ({lo}-{hi}; default {default}).") if default != "" else N_("{text} ({lo}-{hi}).")
    return worded(template, text=lambda: _(text), lo=lambda: number(bound.lo, grouped=True),
                  hi=lambda: number(bound.hi, grouped=True),
                  default=lambda: number(default, grouped=True) if isinstance(default, int) else _(default))


SEED_HELP = N_("Random seed, 0 or more: the same seed gives the same output.")
WORKERS_HELP = worded(N_("Processes for the Monte Carlo: 1 to the cores available ({cores} here; the default is "
                         "all of them). The answer for a seed is the same on any number."), cores=available_cores())

WorkersOpt = Annotated[int | None, typer.Option("--workers", "-w", help=WORKERS_HELP)]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help=N_("Run the chunks of work on a Dask cluster at this address, e.g. tcp://host:8786 "
    "(needs pip install 'drawodds[dist]'). Same seed, same answer."))]
DaskOpt = Annotated[bool, typer.Option("--dask", help=N_("Run the chunks of work on a Dask cluster started on this "
                                                     "machine (needs pip install 'drawodds[dist]')."))]
RulesOpt = Annotated[str, typer.Option("--rules", "-r", help=worded(N_("Rule set preset: {names}."),
                                                                             names=", ".join(preset_names())))]
JokerOpt = Annotated[bool | None, typer.Option("--joker/--no-joker", help=N_("Play with the joker (53 cards)."))]
MaxDrawOpt = Annotated[str | None, typer.Option("--max-draw", help=N_("Draw limit: 3, 4-ace, 4, 5 or any."))]
JokerAceOpt = Annotated[bool | None, typer.Option("--joker-ace/--real-ace", help=N_(
    "With --joker and --max-draw 4-ace: a kept joker counts as the ace and allows four cards (the rule "
    "sets' default), or only a real ace does."), show_default=False)]
DrawsOpt = Annotated[int | None, typer.Option("--draws", help=N_("Number of draws (2 = double draw)."))]
PlayersOpt = Annotated[int | None, typer.Option("--players", help=N_("Players at the table (2-8)."))]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print machine-readable JSON."))]
SeedOpt = Annotated[int, typer.Option("--seed", help=SEED_HELP)]
HandArg = Annotated[list[str], typer.Argument(
    help=N_('The five cards, as one string or one card per argument: "AsAhKs7s3s", As Ah Ks 7s 3s, '
         '"A♠ A♥ K♠ 7♠ 3♠" (10s or Ts for a ten, Jk or 🃏 for the joker).'), show_default=False)]
RangeOpt = Annotated[str | None, typer.Option(
    "--range", help=N_('Deal the opponent only hands of this range, e.g. "JJ+, 2P+, 4F, OESD" '
                    "(pairs, categories, draws, high cards: see the manual)."))]
LineOpt = Annotated[str | None, typer.Option(
    "--line", help=N_("With --policy equilibrium: the betting before the draw from the first actor, e.g. "
                   "check-bet-call (default: every line that reaches the draw)."))]
SolutionOpt = Annotated[str | None, typer.Option(
    "--solution", help=N_("With --policy equilibrium: a solution file saved by the solver (default: the "
                       "cached equilibrium of the rules, solved the first time)."))]


def build_rules(name: str = "morkpoker", **overrides: object) -> RuleSet:
    """The preset with the command's single-option overrides applied (None means 'not given')."""
    given = {k: v for k, v in overrides.items() if v is not None}
    return preset(name, **given)
