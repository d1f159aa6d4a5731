"""The `drawodds` command line: each command parses its options, makes one library call and renders.

Every user error (bad card, bad option, an option out of its range, an unwritable file) is one
line on stderr and exit code 2, checked before any work starts. Ctrl-C stops a long command
within a second: it prints what finished, says so, and exits 130. The analysis lives in
``drawodds.analyses`` and the look of every table in ``drawodds.render``; both are imported inside
the commands so that start-up stays quick.
"""

from __future__ import annotations

import difflib
import importlib.util
import itertools
import math
import os
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from drawodds import __version__
from drawodds.cards import shown
from drawodds.execution import LOCAL_DASK, available_cores, resolve_workers
from drawodds.paths import CacheNote, check_writable, write_text
from drawodds.render.console import emit_json, note, progress_bar, show, spinner, stage_bar
from drawodds.rules import RuleSet, preset, preset_names

app = typer.Typer(
    name="drawodds",
    help=(
        "Odds and strategy for five-card draw as played in Scandinavian homes "
        "(Mørkpoker, Jackpott, Poengpoker, Chicago).\n\n"
        "Examples:\n\n"
        "  drawodds keep As Ah Ks 7s 3s\n\n"
        '  drawodds eval "A♠A♥K♠7♠3♠" --json\n\n'
        "  drawodds rules jackpot"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

INTERRUPTED = 130   # the shell's code for a command stopped by Ctrl-C


class UserError(ValueError):
    """An error in what the user asked for; shown as one line, exit code 2."""


class Interrupted(Exception):
    """Ctrl-C: what finished has been printed; exit 130."""


def _version(value: bool) -> None:
    if value:
        print(f"drawodds {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """Odds and strategy for five-card draw."""


# --- ranges, paths and other checks made before any work ---------------------------------------

@dataclass(frozen=True)
class Bound:
    """The documented range of a size option, checked before any work starts."""

    option: str
    lo: int
    hi: int
    why: str = ""        # why the lower bound, when it is not obvious

    def help(self, text: str, default: str = "") -> str:
        """The option's help text with its range (and default) appended."""
        return f"{text} ({self.lo:,}-{self.hi:,}{f'; default {default}' if default else ''})."

    def check(self, value: int | None) -> None:
        if value is not None and not self.lo <= value <= self.hi:
            low = f"must be at least {self.lo:,}{self.why}" if value < self.lo else f"can be at most {self.hi:,}"
            raise UserError(f"{self.option} {low}, got {value:,}")


TRIALS = Bound("--trials", 2, 100_000_000, " (a standard error needs two)")
POINTS_TRIALS = Bound("--trials", 2, 200_000, " (a standard error needs two)")   # every trial is kept
READ_TRIALS = Bound("--trials", 2, 2_000_000, " (a standard error needs two)")   # every sampled hand is kept
TOP = Bound("--top", 1, 32)
KEEP_OPPONENTS = Bound("--opponents", 0, 5)
DEALS = Bound("--deals", 1, 10_000_000)
GAMES = Bound("--games", 2, 1_000_000, " (a standard error needs two)")
OPENERS_DEALS = Bound("--deals", 0, 1_000_000)
HAND_DEALS = Bound("--deals", 1, 10_000_000)
ANTE = Bound("--ante", 0, 1_000_000)
MAX_ANTES = Bound("--max-antes", 1, 100)
LESSON_DEALS = Bound("--deals", 100, 1_000_000)
LINES = Bound("--lines", 1, 200)
CHECK_REMOVAL = Bound("--check-removal", 0, 10_000)
MC_TRIALS = Bound("--mc", 2, 100_000_000, " (a standard error needs two)")
STRATEGY_OPPONENTS = Bound("--opponents", 1, 7)
SEED_HELP = "Random seed, 0 or more: the same seed gives the same output."
WORKERS_HELP = (f"Processes for the Monte Carlo: 1 to the cores available ({available_cores()} here; the "
                "default is all of them). The answer for a seed is the same on any number.")


def _positive_fraction(value: float | None, option: str) -> None:
    """A rate or standard error strictly between 0 and 1 (NaN and infinities refused)."""
    if value is not None and not (math.isfinite(value) and 0 < value < 1):
        raise UserError(f"{option} must be a number between 0 and 1, got {value}")


def _rate(value: float, option: str) -> None:
    """A rate from 0 to 1 (NaN and infinities refused), named by its flag."""
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise UserError(f"{option} is a rate from 0 to 1, got {value}")


def _seed(value: int) -> None:
    if value < 0:
        raise UserError(f"--seed must be 0 or more, got {value}")


WorkersOpt = Annotated[int | None, typer.Option("--workers", "-w", help=WORKERS_HELP)]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="Run the chunks of work on a Dask cluster at this address, e.g. tcp://host:8786 "
    "(needs pip install 'drawodds[dist]'). Same seed, same answer.")]
DaskOpt = Annotated[bool, typer.Option("--dask", help="Run the chunks of work on a Dask cluster started on this "
                                                     "machine (needs pip install 'drawodds[dist]').")]


def _scheduler(address: str | None, local: bool) -> str | None:
    """The Dask scheduler to use, if any: an address, or 'local' for a cluster on this machine."""
    if address is not None and local:
        raise UserError("--dask starts a local cluster; --scheduler names one: give one of them")
    if address is not None and not address.startswith(("tcp://", "tls://", "inproc://")):
        raise UserError(f"--scheduler takes an address like tcp://host:8786, got {shown(address)!r}")
    if (address is not None or local) and importlib.util.find_spec("distributed") is None:
        raise UserError('--dask and --scheduler need Dask: pip install "drawodds[dist]"')
    return LOCAL_DASK if local else address


def _workers(value: int | None) -> int:
    """The worker count, checked against the cores available (None: all of them)."""
    try:
        return resolve_workers(value)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def _writable_file(path: str | None, option: str) -> None:
    """Refuse an output file that cannot be written, before the work it would hold is done."""
    if path is None or path == "-":
        return
    if not path.strip():
        raise UserError(f"{option} needs a file name, got {path!r}")
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        check_writable(target)          # a folder, a device or a pipe is refused here
    except ValueError as exc:
        raise UserError(f"{option} {exc}") from None
    if not folder.is_dir():
        raise UserError(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise UserError(f"{option} {path}: not writable")


def _writable_folder(path: str, option: str) -> None:
    """Create an output folder up front, or refuse it in one line."""
    if Path(path).exists() and not Path(path).is_dir():
        raise UserError(f"{option} {path}: is a file, not a folder")
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{option} {path}: cannot create the folder ({exc.strerror or exc})") from None
    if not os.access(path, os.W_OK):
        raise UserError(f"{option} {path}: not writable")


def _names(text: str | None, option: str) -> list[str] | None:
    """A comma-separated list of names; an empty list or an empty name is refused."""
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if not all(names):
        raise UserError(f"{option} needs a name (or names separated by commas), got {text!r}")
    return names


def _interrupted(done: str) -> None:
    """After a Ctrl-C: say what the printed figures cover, then exit 130."""
    note(f"interrupted: {done}")
    raise Interrupted


# --- shared options -------------------------------------------------------------------------

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Rule set preset: " + ", ".join(preset_names()) + ".")]
JokerOpt = Annotated[bool | None, typer.Option("--joker/--no-joker", help="Play with the joker (53 cards).")]
MaxDrawOpt = Annotated[str | None, typer.Option("--max-draw", help="Draw limit: 3, 4-ace, 4, 5 or any.")]
JokerAceOpt = Annotated[bool | None, typer.Option("--joker-ace/--real-ace", help=(
    "With --joker and --max-draw 4-ace: a kept joker counts as the ace and allows four cards (the rule "
    "sets' default), or only a real ace does."), show_default=False)]
DrawsOpt = Annotated[int | None, typer.Option("--draws", help="Number of draws (2 = double draw).")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Players at the table (2-8).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
SeedOpt = Annotated[int, typer.Option("--seed", help=SEED_HELP)]
HandArg = Annotated[list[str], typer.Argument(
    help='The five cards, as one string or one card per argument: "AsAhKs7s3s", As Ah Ks 7s 3s, '
         '"A♠ A♥ K♠ 7♠ 3♠" (10s or Ts for a ten, Jk or 🃏 for the joker).', show_default=False)]


def build_rules(name: str = "morkpoker", **overrides: object) -> RuleSet:
    """The preset with the CLI's single-option overrides applied (None means 'not given')."""
    given = {k: v for k, v in overrides.items() if v is not None}
    return preset(name, **given)


# --- eval -----------------------------------------------------------------------------------

@app.command("eval")
def eval_cmd(
    hand: HandArg,
    joker: Annotated[bool, typer.Option("--joker", help="Allow the joker (Jk).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Evaluate one hand: category, description and strength.

    Examples: drawodds eval As Ah Ks 7s 3s;  drawodds eval "AsAhKs7s3s" --json
    """
    from drawodds.analyses.reference import hand_report
    from drawodds.render.eval import render_eval

    show(hand_report(" ".join(hand), joker=joker), json_out, render_eval)


# --- rules ----------------------------------------------------------------------------------

@app.command("rules")
def rules_cmd(
    name: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """List the rule-set presets, or show every option of one with its source.

    Examples: drawodds rules;  drawodds rules jackpot
    """
    from drawodds.analyses.reference import preset_list, rule_sheet
    from drawodds.render.rules import render_presets, render_rule_sheet

    if name is None:
        show(preset_list(), json_out, render_presets)
    else:
        show(rule_sheet(name), json_out, render_rule_sheet)


RangeOpt = Annotated[str | None, typer.Option(
    "--range", help='Deal the opponent only hands of this range, e.g. "JJ+, 2P+, 4F, OESD" '
                    "(pairs, categories, draws, high cards: see the manual).")]
LineOpt = Annotated[str | None, typer.Option(
    "--line", help="With --policy equilibrium: the betting before the draw from the first actor, e.g. "
                   "check-bet-call (default: every line that reaches the draw).")]
SolutionOpt = Annotated[str | None, typer.Option(
    "--solution", help="With --policy equilibrium: a solution file saved by the solver (default: the "
                       "cached equilibrium of the rules, solved the first time).")]


def _solved_options(solved: bool, line: str | None, solution: str | None, extra: dict[str, bool] | None = None
                    ) -> None:
    """The equilibrium's options only go with --policy equilibrium; a line must parse."""
    given = [name for name, on in {"--line": line is not None, "--solution": solution is not None,
                                   **(extra or {})}.items() if on]
    if given and not solved:
        raise UserError(f"{given[0]} goes with --policy equilibrium")
    if solved and line is not None:
        from drawodds.solver.solved_range import parse_line

        parse_line(line)
    if solution is not None and not Path(solution).exists():
        raise UserError(f"--solution: no such file: {solution}")
    if solution is not None and not Path(solution).is_file():
        raise UserError(f"--solution {solution}: is not a regular file (a folder, a device or a pipe)")


def _solved_range(rules: RuleSet, solution: str | None, line: str | None, seat: str, our_draw: int | None,
                  hand: Any, quiet: bool) -> Any:
    """The equilibrium's player as a range: from a saved solution, or the cached equilibrium
    (solved, with a note and progress, the first time)."""
    from drawodds.solver.abstraction import check_rules
    from drawodds.solver.player import check_same_game
    from drawodds.solver.solution import load_solution
    from drawodds.solver.solved_range import solved_range

    check_rules(rules)
    if solution is not None:
        sol = load_solution(solution)
        check_same_game(sol.rules, rules)
    else:
        sol = _equilibrium(rules, quiet)
    return solved_range(sol, line=line, seat=seat, our_draw=our_draw, our_hand=hand)


def _equilibrium(rules: RuleSet, quiet: bool, stopped: str = "the equilibrium was not solved") -> Any:
    """The cached equilibrium of ``rules``; the first time, solved with a note and progress (Ctrl-C
    then ends the command with ``stopped``)."""
    from drawodds.render.solve import solve_progress
    from drawodds.solver.cache import equilibrium_cached
    from drawodds.solver.settings import DEFAULT_EXPLOITABILITY
    from drawodds.solver.solve import equilibrium_solution

    if equilibrium_cached(rules):
        with spinner("loading the equilibrium...", enabled=not quiet):
            return equilibrium_solution(rules)
    note(f"solving the heads-up {rules.name} equilibrium once (a few minutes, more on a busy machine; "
         "kept for next time, and drawodds solve can do it ahead)")
    with solve_progress(100_000, DEFAULT_EXPLOITABILITY, enabled=not quiet) as (stage, checkpoint):
        solved = equilibrium_solution(rules, progress=checkpoint, stage=stage or (lambda s, f: None))
    if solved.interrupted:
        _interrupted(stopped)
    return solved


# --- keep -----------------------------------------------------------------------------------

@app.command("keep")
def keep_cmd(
    hand: HandArg,
    rules: RulesOpt = "morkpoker",
    opponents: Annotated[int | None, typer.Option(
        "--opponents", "-n", help="Opponents who draw (0-5; default: the table size less one).")] = None,
    policy: Annotated[str, typer.Option(
        "--policy", help="Opponents' draw policy: standard, loose or tight (see `drawodds policies`); or "
                         "equilibrium: the heads-up solution's player, first to act, after a betting --line.")
    ] = "standard",
    trials: Annotated[int | None, typer.Option("--trials", "-t", help=TRIALS.help(
        "Monte Carlo trials, the most it may run with --se; at most 200,000 in Poengpoker and Chicago",
        "100,000, 10,000 in Poengpoker and Chicago, 1,000,000 with --se"))] = None,
    seed: SeedOpt = 1,
    se: Annotated[float | None, typer.Option(
        "--se", help="Stop once the best holds are separated to this standard error (a fraction, 0-1: "
                     "0.002 is 0.2 percentage points).")] = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    dask: DaskOpt = False,
    by: Annotated[str | None, typer.Option(
        "--by", help="Rank by equity, field, jacks, improve or points (default: equity against opponents; "
                     "without them field, the exact equity against the table's other players dealt from "
                     "the cards we do not hold; points in Poengpoker and Chicago).")] = None,
    vs: Annotated[list[int] | None, typer.Option(
        "--vs", help="An opponent's draw count (repeat once per opponent).")] = None,
    against: Annotated[list[str] | None, typer.Option(
        "--against", help="A known opponent hand that stands pat (repeat once per opponent).")] = None,
    opener: Annotated[bool, typer.Option(
        "--opener", help="Jacks or Better: we opened; show the holds that split openers.")] = False,
    exact: Annotated[bool, typer.Option("--exact", help=(
        "Exact odds only (no opponents, no sampling); the draw game ranks by exact equity against a field "
        "of the table's other players."))] = False,
    top: Annotated[int | None, typer.Option("--top", help=TOP.help("Show only the best N holds", "all"))] = None,
    wide: Annotated[bool, typer.Option(
        "--wide", help="Every column (discard, final hand, J+, improve, points) whatever the width.")] = False,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    joker_ace: JokerAceOpt = None,
    players: PlayersOpt = None,
    hand_range: RangeOpt = None,
    line: LineOpt = None,
    solution: SolutionOpt = None,
    json_out: JsonOpt = False,
    csv: Annotated[str | None, typer.Option(
        "--csv", help="Write the rows flat to this CSV file ('-' for standard output).")] = None,
) -> None:
    """Rank every legal hold of a hand: exact odds of each final hand, and equity against opponents.

    Examples:

      drawodds keep As Ah Ks 7s 3s

      drawodds keep "AsAhKs7s3s" --exact

      drawodds keep "Kh Qh Jh Th 2c" --opponents 2 --trials 200000 --seed 7 --json

      drawodds keep "AsAhKs7s3s" --rules jackpot --opener

      drawodds keep "9c9d5h5s2c" --vs 3 --vs 1

      drawodds keep "AsAhKs7s3s" --against "QcQdJhJd2c"

      drawodds keep "9c9d5h5s2c" --vs 1 --range "2P+, 4F, OESD"

      drawodds keep "Kc Kd 8h 5s 2c" --vs 1 --policy equilibrium --line check-bet-call
    """
    from drawodds.analyses.keep import RANK_COLUMNS, keep
    from drawodds.handrange import parse_range
    from drawodds.render.keep import render_keep

    if exact:
        if opponents or vs or against:
            raise UserError("--exact computes the exact odds alone: drop --opponents/--vs/--against")
        opponents = 0
    if csv == "-" and json_out:
        raise UserError("--csv - and --json both print to standard output: choose one")
    if by is not None and by not in RANK_COLUMNS:
        raise UserError(f"--by must be one of {', '.join(RANK_COLUMNS)}, got {by!r}")
    if not policy.strip():
        raise UserError("--policy needs a name: standard, loose or tight")
    solved = policy.strip().lower() == "equilibrium"
    _solved_options(solved, line, solution)
    if solved and (against or (opponents is not None and opponents != 1) or len(vs or ()) > 1 or exact):
        raise UserError("--policy equilibrium is heads-up: one opponent (at most one --vs, no --against, "
                        "no --exact)")
    rule_set = build_rules(rules, joker=joker, max_draw=max_draw, players=players,
                           joker_is_ace_for_draw=joker_ace)
    KEEP_OPPONENTS.check(opponents)
    if opponents is None and not exact and not against and not solved and rule_set.players - 1 > KEEP_OPPONENTS.hi:
        raise UserError(f"--players {rule_set.players} would deal {rule_set.players - 1} opponents; keep deals at "
                        f"most {KEEP_OPPONENTS.hi}: add --opponents 0-{KEEP_OPPONENTS.hi}")
    if hand_range is not None:
        if exact or opponents == 0:
            raise UserError("--range deals the opponents' hands: it needs opponents (drop --exact / --opponents 0)")
        parse_range(hand_range, joker=rule_set.joker)
    (TRIALS if rule_set.game == "draw" else POINTS_TRIALS).check(trials)
    TOP.check(top)
    _seed(seed)
    _positive_fraction(se, "--se")
    n_workers = _workers(workers)
    cluster = _scheduler(scheduler, dask)
    _writable_file(csv, "--csv")
    default_trials = 100_000 if rule_set.game == "draw" else 10_000
    n_trials = trials if trials is not None else (1_000_000 if se is not None else default_trials)
    player: Any = policy
    if solved:
        from drawodds.cards import parse_hand

        player = _solved_range(rule_set, solution, line, "first", None,
                               parse_hand(" ".join(hand), joker=rule_set.joker), json_out or csv == "-")
    with progress_bar("simulating", "trials", enabled=not (json_out or csv == "-") and opponents != 0) as update:
        result = keep(" ".join(hand), rules=rule_set, opponents=opponents, policy=player,
                      trials=n_trials, seed=seed, se=se, workers=n_workers, scheduler=cluster,
                      by=by,  # type: ignore[arg-type]
                      vs=vs or (), hand_range=hand_range,
                      against=against or (), opener=opener, progress=update)
    if csv:
        if csv == "-":
            result.flat().to_csv(sys.stdout, index=False)
        else:
            write_text(csv, result.flat().to_csv(index=False))
    if json_out:
        emit_json(result)
    elif csv != "-":
        render_keep(result, top, wide)
    if result.interrupted:
        _interrupted(f"the figures cover the {result.trials or 0:,} trials run so far")


# --- simulate -------------------------------------------------------------------------------

@app.command("simulate")
def simulate_cmd(
    rules: RulesOpt = "morkpoker",
    players: PlayersOpt = None,
    deals: Annotated[int | None, typer.Option(
        "--deals", "-d", help=DEALS.help("Deals to play in the draw game", "10,000"))] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-g", help=GAMES.help("Whole games to play in Poengpoker and Chicago", "1,000"))] = None,
    seed: SeedOpt = 1,
    policy: Annotated[str | None, typer.Option(
        "--policy", "-p", help="Betting policy per seat, comma-separated (rule, reader, pat, station, "
        "random, raiser, snower, trips; heads-up also equilibrium), or one for every seat; in Poengpoker "
        "and Chicago a player such as sensible or tight:random.")] = None,
    solution: Annotated[str | None, typer.Option(
        "--solution", help="The equilibrium player's strategy: a file written by drawodds solve --out "
        "(default: the cached equilibrium of the rules, solved on first use).")] = None,
    history: Annotated[str | None, typer.Option(
        "--history", help="Write every deal: JSON lines for .jsonl, else a readable text log.")] = None,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    joker_ace: JokerAceOpt = None,
    draws: DrawsOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    dask: DaskOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Play many deals (or points games) with betting policies and summarise who won what.

    Examples:

      drawodds simulate --rules morkpoker --players 4 --deals 100000 --seed 1

      drawodds simulate --rules jackpot --policy rule,rule,station,random --history deals.jsonl

      drawodds simulate --rules poengpoker --games 2000 --json

      drawodds simulate --policy equilibrium,rule --deals 20000
    """
    names = _names(policy, "--policy")
    if players is None and names and "equilibrium" in [n.lower() for n in names]:
        players = 2   # the equilibrium player is heads-up
    rule_set = build_rules(rules, players=players, joker=joker, max_draw=max_draw, draws=draws,
                           joker_is_ace_for_draw=joker_ace)
    n_workers, cluster = _workers(workers), _scheduler(scheduler, dask)
    _seed(seed)
    if rule_set.game != "draw":
        if solution is not None:
            raise UserError("--solution is for the draw game")
        _simulate_points(rule_set, deals, games, seed, names, history, json_out, n_workers, cluster)
        return
    from drawodds.engine.session import simulate
    from drawodds.render.simulate import render_simulation

    if games is not None:
        raise UserError("--games is for Poengpoker and Chicago; the draw game counts --deals")
    if deals is not None and deals <= 0:
        raise UserError(f"--deals must be positive, got {deals:,}")
    DEALS.check(deals)
    _writable_file(history, "--history")
    n_deals = deals if deals is not None else 10_000
    factories: dict[str, Any] = {}
    if solution is not None or (names and "equilibrium" in [n.lower() for n in names]):
        from drawodds.solver.player import check_table, equilibrium_factories

        if solution is None:      # solved (with a note and progress) or healed here, then read by the player
            check_table(rule_set)
            _equilibrium(rule_set, json_out)
        with stage_bar(enabled=not json_out) as stage:
            factories = equilibrium_factories(rule_set, names or [], solution=solution, stage=stage)
    with progress_bar("playing", "deals", enabled=not json_out) as update:
        result = simulate(rule_set, deals=n_deals, seed=seed, players=names or "rule", history=history,
                          workers=n_workers, scheduler=cluster, factories=factories,
                          progress=(lambda k: update(k, n_deals)) if update else None)
    show(result, json_out, render_simulation)
    if result.interrupted:
        _interrupted(f"the figures cover the {result.deals:,} deals played so far")


def _simulate_points(rule_set: RuleSet, deals: int | None, games: int | None, seed: int,
                     names: list[str] | None, history: str | None, json_out: bool, workers: int,
                     scheduler: str | None) -> None:
    """`simulate` for Poengpoker and Chicago: whole games to the target score."""
    from drawodds.points.games import simulate_points
    from drawodds.render.simulate import points_summary, render_points_simulation

    if deals is not None:
        raise UserError(f"{rule_set.name} is played in games to {rule_set.target_points} points: "
                        "use --games, not --deals")
    if history is not None:
        raise UserError("--history is for the draw game")
    GAMES.check(games)
    names = names or ["sensible"]
    with progress_bar("playing", "games", enabled=not json_out) as update:
        result = simulate_points(rule_set, games=games if games is not None else 1000, seed=seed,
                                 progress=update, players=names[0] if len(names) == 1 else names,
                                 workers=workers, scheduler=scheduler)
    if json_out:
        emit_json(points_summary(result))
    else:
        render_points_simulation(result)
    if result.interrupted:
        _interrupted(f"the figures cover the {result.games:,} games played so far")


# --- read / policies -------------------------------------------------------------------------

@app.command("read")
def read_cmd(
    draw: Annotated[int, typer.Argument(help="How many cards the opponent drew (0 = stood pat).")],
    policy: Annotated[str, typer.Option(
        "--policy", help="The opponent's draw policy: standard, loose or tight; or equilibrium (the heads-up "
                     "solution, after a betting --line).")] = "standard",
    snow: Annotated[float, typer.Option(
        "--snow", help="Rate at which a weak hand stands pat anyway, a bluff (0-1).")] = 0.0,
    break_rate: Annotated[float, typer.Option(
        "--break-rate", help="Rate of breaking a pat straight or flush to draw to a straight flush (0-1).")] = 0.0,
    rules: RulesOpt = "morkpoker",
    opener: Annotated[bool, typer.Option(
        "--opener", help="Jacks or Better: the opponent opened (holds jacks or better).")] = False,
    hand: Annotated[str | None, typer.Option(
        "--hand", help="Our five cards: card removal, and our equity per hold.")] = None,
    trials: Annotated[int, typer.Option("--trials", "-t", help=READ_TRIALS.help(
        "Monte Carlo trials for the final hand when it is not exact, and for our equity"))] = 100_000,
    seed: SeedOpt = 1,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    joker_ace: JokerAceOpt = None,
    workers: WorkersOpt = None,
    hand_range: RangeOpt = None,
    line: LineOpt = None,
    opponent_first: Annotated[bool, typer.Option(
        "--opponent-first/--opponent-dealer",
        help="With --policy equilibrium: the opponent sits left of the dealer, acts and draws first "
             "(default), or is the dealer and drew after us (give --our-draw).")] = True,
    our_draw: Annotated[int | None, typer.Option(
        "--our-draw", help="With --opponent-dealer: the cards we drew before the dealer drew.")] = None,
    solution: SolutionOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """What an opponent's draw count says: their holding before the draw, their final hand, our equity.

    Examples:

      drawodds read 3

      drawodds read 1 --policy loose

      drawodds read 0 --snow 0.05

      drawodds read 2 --rules jackpot --opener

      drawodds read 3 --hand "AsAhKs7s3s" --json

      drawodds read 1 --range "JJ+, 2P+, 4F, OESD"

      drawodds read 1 --policy equilibrium --line check-bet-call
    """
    from drawodds.analyses.read import read_draw
    from drawodds.cards import parse_hand
    from drawodds.handrange import parse_range
    from drawodds.policies import draw_policy
    from drawodds.render.read import render_read

    rs = build_rules(rules, joker=joker, max_draw=max_draw, joker_is_ace_for_draw=joker_ace)
    solved = policy.strip().lower() == "equilibrium"
    _solved_options(solved, line, solution, extra={"--our-draw": our_draw is not None,
                                                   "--opponent-dealer": not opponent_first})
    if solved and (snow or break_rate or opener):
        raise UserError("--snow, --break-rate and --opener shape a draw policy; the equilibrium plays its own "
                        "strategy (its betting --line says who opened)")
    _rate(snow, "--snow")
    _rate(break_rate, "--break-rate")
    pol: Any = None if solved else draw_policy(policy, snow=snow, break_rate=break_rate)
    cards = None if hand is None else parse_hand(hand, joker=rs.joker)
    typed = None if hand_range is None else parse_range(hand_range, joker=rs.joker).text
    READ_TRIALS.check(trials)
    _seed(seed)
    n_workers = _workers(workers)
    if solved:
        if not opponent_first and our_draw is None:
            raise UserError("--opponent-dealer: the dealer drew after us; say how many cards we drew (--our-draw)")
        pol = _solved_range(rs, solution, line, "first" if opponent_first else "dealer", our_draw, cards,
                            json_out)
    assert pol is not None
    if cards is None:
        with spinner("reading the draw...", enabled=not json_out):
            result = read_draw(draw, policy=pol, rules=rs, opener=opener, trials=trials, seed=seed,
                               hand_range=typed)
    else:
        with progress_bar("our holds", "trials", enabled=not json_out) as update:
            result = read_draw(draw, policy=pol, rules=rs, hand=cards, opener=opener, trials=trials,
                               seed=seed, equity_trials=trials, workers=n_workers, progress=update,
                               hand_range=typed)
    show(result, json_out, render_read)
    if result.interrupted:
        _interrupted("our equities cover the trials run so far")


@app.command("policies")
def policies_cmd(
    name: Annotated[str | None, typer.Argument(help="One policy to show (default: all).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """The draw policies as tables of hand patterns -> hold (first matching row wins).

    Examples: drawodds policies;  drawodds policies loose --json
    """
    from drawodds.analyses.reference import policy_book
    from drawodds.render.policies import render_policies

    if name is not None and not name.strip():
        raise UserError("policies takes a policy name (or none for all of them), got ''")
    show(policy_book(name), json_out, render_policies)


# --- strategy -------------------------------------------------------------------------------

@app.command("strategy")
def strategy_cmd(
    objective: Annotated[str | None, typer.Option("--objective", "-o", help=(
        "What to maximise: equity (showdown equity against --opponents), vp96 (9/6 Jacks or Better "
        "video poker), vp:800/50/25/9/6/4/3/2/1 (any pay table), jacks (P at least jacks), points "
        "(table points of the final hand alone), at_least:<category>, category:<category>. Default: "
        "the rule set's own game, showdown equity."))] = None,
    opponents: Annotated[int | None, typer.Option("--opponents", "-n", help=STRATEGY_OPPONENTS.help(
        "Opponents for the equity objective", "the table size less one"))] = None,
    rules_name: Annotated[str | None, typer.Option("--rules", "-r", help=(
        "Rule set preset (default: morkpoker; video poker draws any number of cards for vp*, "
        "poengpoker for points)."))] = None,
    max_draw: MaxDrawOpt = None,
    joker: JokerOpt = None,
    joker_ace: JokerAceOpt = None,
    policy: Annotated[str, typer.Option(
        "--policy", help="Opponents' draw policy for equity: standard, loose, tight.")] = "standard",
    out_path: Annotated[str | None, typer.Option("--out", help="Write the table (.parquet or .csv).")] = None,
    lines: Annotated[int, typer.Option("--lines", help=LINES.help(
        "Most patterns in the condensed strategy, before same-kind runs are merged"))] = 60,
    check_removal: Annotated[int, typer.Option("--check-removal", help=CHECK_REMOVAL.help(
        "Equity only: measure the card-removal error on this many random deals by Monte Carlo"))] = 0,
    mc: Annotated[int | None, typer.Option("--mc", help=MC_TRIALS.help(
        "Equity only: instead of the exact table, score every hold of every deal class by Monte Carlo "
        "with real card removal, this many trials per class, into the folder --out (a long job)"))] = None,
    hand: Annotated[str | None, typer.Option("--hand", help=(
        "Check one hand against the printed list: the line it meets, what the list keeps, the table's "
        "best hold and what the list's hold gives up."))] = None,
    card_removal: Annotated[bool, typer.Option("--card-removal/--no-card-removal", help=(
        "Equity only: where two holds are within 3.5% of the pot, let a simulation with real card removal "
        "decide between them (a minute or a few); --no-card-removal keeps the exact table throughout."))] = True,
    resume: Annotated[bool, typer.Option("--resume", help="With --mc: continue the table already in --out.")] = False,
    memory: Annotated[str, typer.Option("--memory", help="With --mc: memory budget, e.g. 2GB or 500MB.")] = "2GB",
    limit: Annotated[int | None, typer.Option("--limit", help=(
        "With --mc: only the first N deal classes (a quick look at the cost)."))] = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    dask: DaskOpt = False,
    seed: SeedOpt = 1,
    json_out: JsonOpt = False,
) -> None:
    """Exact strategy table for every deal, and a condensed strategy derived from it.

    Examples: drawodds strategy;  drawodds strategy --objective vp96;  drawodds strategy
    --objective equity --opponents 3 --out table.parquet;  drawodds strategy --objective vp96 --hand
    "Kh Qd Js 7c 3s";  drawodds strategy --objective equity --opponents 3 --mc 10000 --out table.parquet
    (Monte Carlo with card removal; --resume continues it)
    """
    from drawodds.analyses.condensed import check_hand, strategy_report
    from drawodds.analyses.strategy import default_objective, default_opponents, default_rules
    from drawodds.render.strategy import render_hand_check, render_strategy

    if objective is not None and not objective.strip():
        raise UserError("--objective needs a name, e.g. equity or vp96")
    base = preset(rules_name) if rules_name is not None else (
        default_rules(objective) if objective is not None else preset("morkpoker"))
    given = {k: v for k, v in {"max_draw": max_draw, "joker": joker,
                                "joker_is_ace_for_draw": joker_ace}.items() if v is not None}
    rules = base.replace(**given) if given else base
    objective = objective if objective is not None else default_objective(rules)
    STRATEGY_OPPONENTS.check(opponents)
    LINES.check(lines)
    CHECK_REMOVAL.check(check_removal)
    _seed(seed)
    if not policy.strip():
        raise UserError("--policy needs a name: standard, loose or tight")
    if rules.draws != 1:
        raise UserError(f"strategy tables cover one draw; {rules.name} has {rules.draws} draws")
    if mc is not None:
        _equity_table(rules, objective, opponents or default_opponents(rules), policy, mc, out_path, resume,
                      memory, limit, _workers(workers), _scheduler(scheduler, dask), seed, json_out)
        return
    if resume or limit is not None:
        raise UserError("--resume and --limit go with --mc (the Monte Carlo table)")
    if check_removal and objective.strip().lower() != "equity":
        raise UserError("--check-removal measures the equity objective: add --objective equity")
    if out_path is not None and not out_path.endswith((".parquet", ".csv")):
        raise UserError(f"--out must end in .parquet or .csv, got {out_path!r}")
    _writable_file(out_path, "--out")
    if hand is not None:
        from drawodds.cards import parse_hand
        parse_hand(hand, joker=rules.joker)          # a bad hand fails before the table is solved
    with stage_bar(enabled=not json_out) as stage:
        report = strategy_report(objective, rules, opponents=opponents or default_opponents(rules),
                                 policy=policy, lines=lines, check_removal=check_removal, seed=seed,
                                 out=out_path, card_removal=card_removal, progress=stage)
    if hand is not None:
        show(check_hand(report, hand), json_out, render_hand_check)
        return
    show(report, json_out, render_strategy)
    if report.interrupted:
        _interrupted("the card-removal check did not finish; the table above is complete")


def _bytes(text: str) -> int:
    """'2GB', '500MB', '1.5G' as bytes."""
    units = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    number = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = number[-1:] if number[-1:] in units else ""
    try:
        value = float(number[: len(number) - len(unit)]) * units[unit]
    except ValueError:
        raise UserError(f"--memory takes a size like 2GB or 500MB, got {shown(text)!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise UserError(f"--memory must be a positive size, got {shown(text)!r}")
    return int(value)


def _equity_table(rules: RuleSet, objective: str, opponents: int, policy: str, trials: int, out: str | None,
                  resume: bool, memory: str, limit: int | None, workers: int, scheduler: str | None, seed: int,
                  json_out: bool) -> None:
    """`strategy --mc`: the Monte Carlo equity table, in Parquet parts, resumable."""
    from drawodds.analyses.equity_table import TableError, equity_table
    from drawodds.render.strategy import render_equity_table

    if objective.strip().lower() != "equity":
        raise UserError("--mc computes the equity objective: add --objective equity")
    MC_TRIALS.check(trials)
    if out is None:
        raise UserError("--mc writes a table folder: give it with --out, e.g. --out table.parquet")
    if limit is not None and limit < 1:
        raise UserError(f"--limit must be at least 1, got {limit}")
    with progress_bar("deal classes", "classes", enabled=not json_out) as update:
        try:
            run = equity_table(rules, opponents=opponents, trials=trials, out=out, seed=seed, policy=policy,
                               resume=resume, workers=workers, scheduler=scheduler, memory=_bytes(memory),
                               limit=limit, progress=update)
        except TableError as exc:
            raise UserError(str(exc)) from None
    show(run, json_out, render_equity_table)
    if run.interrupted:
        _interrupted(f"{run.classes_done:,} of {run.classes:,} classes are in {out}; add --resume to continue")


# --- lesson ---------------------------------------------------------------------------------

@app.command("lesson")
def lesson_cmd(
    topic: Annotated[str, typer.Argument(help="The lesson: 'pat' (standing pat is a move).")] = "pat",
    deals: Annotated[int, typer.Option("--deals", help=LESSON_DEALS.help(
        "Two-pair deals played per opponent type and line"))] = 20_000,
    seed: SeedOpt = 1,
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help="Rule set of the plain betting game: morkpoker or svensk.")] = "morkpoker",
    out_md: Annotated[str | None, typer.Option(
        "--markdown", help="Also write the lesson as Markdown to this file.")] = None,
    equilibrium: Annotated[bool, typer.Option("--equilibrium/--no-equilibrium", help=(
        "Add how often the heads-up equilibrium stands pat and bets after (solved once, a few minutes, "
        "then read from the cache; drawodds solve can do it ahead)."))] = True,
    json_out: JsonOpt = False,
) -> None:
    """A strategy claim from the rule documents, tested with numbers.

    Examples:

      drawodds lesson pat

      drawodds lesson pat --deals 5000 --seed 2 --json

      drawodds lesson pat --no-equilibrium
    """
    from drawodds.analyses.lessons import standing_pat
    from drawodds.render.lesson import render_lesson

    if topic != "pat":
        raise UserError(f"unknown lesson {topic!r}; lessons: pat")
    LESSON_DEALS.check(deals)
    _seed(seed)
    rule_set = preset(rules)
    if rule_set.game != "draw":
        raise UserError(f"the standing-pat lesson is about betting in the draw game, and {rule_set.name} "
                        "is a points game: use --rules morkpoker or svensk")
    _writable_file(out_md, "--markdown")
    solved = None
    if equilibrium:
        solved = _equilibrium(rule_set, json_out, "the equilibrium was not solved; the lesson did not start")
    with progress_bar("playing deals", "deals", enabled=not json_out) as update:
        lesson = standing_pat(deals=deals, seed=seed, rules=rule_set, progress=update, equilibrium=solved)
    if out_md:
        write_text(out_md, lesson.to_markdown())
    show(lesson, json_out, render_lesson)
    if lesson.interrupted:
        _interrupted(f"the lines cover the first {lesson.dealt:,} two-pair deals")


# --- openers --------------------------------------------------------------------------------

def _players_range(text: str) -> list[int]:
    """'2-8' -> [2, ..., 8]; '4' -> [4]; '2,4,6' -> [2, 4, 6]; every size checked before use."""
    from drawodds.analyses.openers import MAX_PLAYERS, MIN_PLAYERS

    values: set[int] = set()
    for part in text.split(","):
        lo_text, dash, hi_text = part.strip().partition("-")
        try:
            lo, hi = int(lo_text), int(hi_text if dash else lo_text)
        except ValueError:
            raise UserError(f"--players takes a number or a range like 2-8, got {text!r}") from None
        if not MIN_PLAYERS <= lo <= hi <= MAX_PLAYERS:
            raise UserError(f"--players must lie in {MIN_PLAYERS}-{MAX_PLAYERS}, got {text!r}")
        values.update(range(lo, hi + 1))
    return sorted(values)


@app.command("openers")
def openers_cmd(
    players: Annotated[str, typer.Option("--players", help="Table sizes, 2-8: 4, 2-8 or 2,4,6.")] = "2-8",
    ante: Annotated[int, typer.Option("--ante", help=ANTE.help("Ante per player per deal in chips"))] = 1,
    max_antes: Annotated[int | None, typer.Option("--max-antes", help=MAX_ANTES.help(
        "House limit on consecutive antes into one pot", "none"))] = None,
    deals: Annotated[int | None, typer.Option("--deals", help=OPENERS_DEALS.help(
        "Deals to play per table size with the rules engine (rule-based policies); 0 skips play. "
        "With --hand: Monte Carlo deals when the count is not exact, up to 10,000,000", "0; 200,000 with --hand"
    ))] = None,
    seed: SeedOpt = 1,
    hand: Annotated[str | None, typer.Option("--hand", help="My five cards: chance somebody else can open.")] = None,
    workers: WorkersOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Jacks or Better: how often nobody can open, how long a pot waits, how big it gets.

    Exact pass-out odds over one shared deck beside the independence approximation (1-p)^n;
    with --deals, how opened pots end under play (rule-based policies), each with its SE.

    Examples:

      drawodds openers --players 2-8

      drawodds openers --players 4 --ante 5 --max-antes 3 --deals 20000 --seed 1 --json

      drawodds openers --hand "AsAhKs7s3s" --players 4
    """
    from drawodds.analyses import openers as op
    from drawodds.cards import parse_hand
    from drawodds.render.openers import render_openers, render_somebody_else

    ANTE.check(ante)
    MAX_ANTES.check(max_antes)
    _seed(seed)
    sizes = _players_range(players)
    if hand is not None:
        if len(sizes) != 1:
            raise UserError("--hand needs one table size, e.g. --players 4")
        HAND_DEALS.check(deals or None)     # 0, like no --deals, means the default
        cards = parse_hand(hand)
        with spinner("counting...", enabled=not json_out):
            odds = op.p_somebody_else_opens(cards, sizes[0], deals=deals or 200_000, seed=seed)
        show(odds, json_out, render_somebody_else)
        return
    OPENERS_DEALS.check(deals)
    with progress_bar("playing", "deals", enabled=bool(deals) and not json_out) as update:
        result = op.table(sizes, ante=ante, max_consecutive_antes=max_antes, deals=deals or 0, seed=seed,
                          progress=update, workers=_workers(workers))
    show(result, json_out, render_openers)
    if result.interrupted:
        _interrupted(f"only the table sizes shown finished ({', '.join(str(r.n) for r in result.rows)})")


# --- solve ----------------------------------------------------------------------------------

SOLVE_ITERATIONS = Bound("--iterations", 1, 1_000_000)
PRE_BUCKETS = Bound("--buckets PRE", 1, 4096)
FINAL_BUCKETS = Bound("--buckets FINAL", 1, 2048)
FIELD_ROUNDS = Bound("--field-rounds", 1, 5)
SOLVE_DEFAULT_MA = 0.3          # no limit given: the default solve's stopping point (DEFAULT_SETTINGS)
SOLVE_MAX_ITERATIONS = 100_000  # the iteration limit when only --exploitability is given


def _bucket_sizes(text: str) -> tuple[int, int]:
    """'1024,512' -> (1024, 512), each checked against its range."""
    parts = text.split(",")
    try:
        pre, final = (int(p) for p in parts) if len(parts) == 2 else (None, None)
    except ValueError:
        pre = final = None
    if pre is None or final is None:
        raise UserError(f"--buckets takes two sizes, PRE,FINAL, e.g. 1024,512; got {shown(text)!r}")
    PRE_BUCKETS.check(pre)
    FINAL_BUCKETS.check(final)
    return pre, final


def _positive(value: float | None, option: str) -> None:
    if value is not None and not (math.isfinite(value) and value > 0):
        raise UserError(f"{option} must be a positive number, got {value}")


@app.command("solve")
def solve_cmd(
    rules: Annotated[str, typer.Option("--rules", "-r", help=(
        "Rule set: morkpoker, svensk or jackpot (one draw, antes, no joker)."))] = "morkpoker",
    max_draw: MaxDrawOpt = None,
    joker: JokerOpt = None,
    draws: DrawsOpt = None,
    iterations: Annotated[int | None, typer.Option("--iterations", "-i", help=(
        "Stop after this many CFR iterations (1-1,000,000). With --exploitability too, whichever comes "
        "first."))] = None,
    exploitability: Annotated[float | None, typer.Option("--exploitability", "-e", help=(
        "Stop once the exploitability is at most this many MILLI-antes per deal (1 = 0.001 antes per "
        "deal). Neither limit given: 0.3."))] = None,
    seconds: Annotated[float | None, typer.Option(
        "--seconds", help="Also stop after this many seconds of CFR.")] = None,
    buckets: Annotated[str, typer.Option("--buckets", help=(
        "Abstraction size: pre-draw and final-hand buckets, PRE,FINAL (1-4,096 and 1-2,048; "
        "default 4096,512). Smaller solves faster and coarser."))] = "4096,512",
    field_rounds: Annotated[int, typer.Option("--field-rounds", help=FIELD_ROUNDS.help(
        "Fixed-point passes of the field the holds are chosen against", "2"))] = 2,
    schedule: Annotated[str, typer.Option(
        "--schedule", help="CFR variant: dcfr (discounted CFR, the default) or cfr+.")] = "dcfr",
    workers: Annotated[int | None, typer.Option("--workers", "-w", help=(
        f"Processes for the abstraction build: 1 to the cores available ({available_cores()} here; "
        "the default is all of them). The abstraction is the same on any number."))] = None,
    scheduler: SchedulerOpt = None,
    dask: DaskOpt = False,
    out: Annotated[str | None, typer.Option(
        "--out", "-o", help="Write the solution to this Parquet file (read it with load_solution).")] = None,
    chart: Annotated[str | None, typer.Option(
        "--chart", help="Draw the exploitability curve to this PNG file.")] = None,
    tables: Annotated[str | None, typer.Option(
        "--tables", help="Write the strategy tables as CSV files into this folder.")] = None,
    real: Annotated[bool, typer.Option("--real/--no-real", help=(
        "Measure the real game's exploitability: an exact best response that knows its exact hand and "
        "keeps any cards (under a minute)."))] = True,
    leaks: Annotated[bool, typer.Option("--leaks", help=(
        "Also show where a perfect exploiter in the real game gains most: by kind of hand and where it "
        "plays differently, in milli-antes per deal (a few minutes more)."))] = False,
    json_out: JsonOpt = False,
) -> None:
    """Solve heads-up limit draw: an approximate equilibrium and what it plays, in plain words.

    --exploitability is in milli-antes per deal. The abstraction is built once, then read from the cache.

    Its build runs on --workers processes or a Dask cluster, with the same result on any of them.

    Examples:

      drawodds solve --rules morkpoker --exploitability 1

      drawodds solve --rules jackpot --iterations 500 --out jackpot.parquet --json

      drawodds solve --buckets 64,32 --iterations 200 --chart curve.png --tables tables/

      drawodds solve --buckets 2048,1024 --workers 2 --iterations 1000

      drawodds solve --rules morkpoker --leaks
    """
    from drawodds.render.solve import render_solve, solve_json, solve_progress
    from drawodds.solver.abstraction import check_rules
    from drawodds.solver.solve import solve, store_equilibrium
    from drawodds.solver.summary import write_tables

    rule_set = build_rules(rules, max_draw=max_draw, joker=joker, draws=draws)
    check_rules(rule_set)
    SOLVE_ITERATIONS.check(iterations)
    _positive(exploitability, "--exploitability")
    _positive(seconds, "--seconds")
    pre, final = _bucket_sizes(buckets)
    FIELD_ROUNDS.check(field_rounds)
    if schedule not in ("dcfr", "cfr+"):
        raise UserError(f"--schedule must be dcfr or cfr+, got {shown(schedule)!r}")
    n_workers, cluster = _workers(workers), _scheduler(scheduler, dask)
    _writable_file(out, "--out")
    _writable_file(chart, "--chart")
    if tables is not None:
        _writable_folder(tables, "--tables")
    if iterations is None and exploitability is None:
        exploitability = SOLVE_DEFAULT_MA
    target = None if exploitability is None else exploitability / 1000
    limit = iterations if iterations is not None else SOLVE_MAX_ITERATIONS
    with solve_progress(limit, target, enabled=not json_out) as (stage, checkpoint):
        solution = solve(rule_set, pre_buckets=pre, final_buckets=final, iterations=limit, exploitability=target,
                         seconds=seconds, schedule=schedule, rounds=field_rounds, cache=True, stage=stage,
                         progress=checkpoint, workers=n_workers, scheduler=cluster)
    if out:
        solution.save(out)
    if store_equilibrium(solution) is not None and not json_out:
        note("kept as the cached equilibrium of these rules: lesson pat and --policy equilibrium will use it")
    if chart:
        from drawodds.charts.solve import plot_exploitability

        plot_exploitability(solution, chart)
    if tables is not None:
        write_tables(solution, tables)
    from drawodds.solver.best_response import best_response
    from drawodds.solver.best_response import leaks as leak_table

    measured, stopped = None, False
    if real and not solution.interrupted:
        try:
            with spinner("measuring the real game's exploitability (an exact best response)...",
                         enabled=not json_out):
                measured = best_response(solution, "full")
        except KeyboardInterrupt:
            stopped = True
    table = None
    if leaks and not (stopped or solution.interrupted):
        try:
            with spinner("finding the leaks (four exact passes per seat)...", enabled=not json_out):
                table = leak_table(solution)
        except KeyboardInterrupt:
            stopped = True
    if json_out:
        emit_json(solve_json(solution, measured, table))
    else:
        render_solve(solution, measured, table)
    if stopped:
        _interrupted("the real game's exploitability or the leaks were not measured")
    if solution.interrupted:
        _interrupted(f"the strategy is the average of the {solution.iterations:,} iterations run")


# --- charts ---------------------------------------------------------------------------------

@app.command("charts")
def charts_cmd(
    topics: Annotated[list[str] | None, typer.Argument(
        help="reading, openers, points, strategy, solve (default: all).")] = None,
    out_dir: Annotated[str, typer.Option("--out", help="Folder for the PNG files.")] = "charts",
) -> None:
    """Draw charts topic by topic from the library (a few minutes for all of them); the guide in
    reports/ is written whole by `drawodds report`.

    Examples:

      drawodds charts

      drawodds charts reading openers --out /tmp/charts
    """
    from drawodds.charts import TOPICS, regenerate
    from drawodds.render.console import stdout

    bad = [t for t in topics or () if t not in TOPICS]
    if bad:
        raise UserError(f"unknown chart topic {bad[0]!r}; topics: {', '.join(TOPICS)}")
    _writable_folder(out_dir, "--out")
    console = stdout()
    for path in regenerate(out_dir, topics, progress=lambda t: console.print(f"[dim]drawing {t} ...[/dim]")):
        console.print(f"wrote {path}")


# --- train ----------------------------------------------------------------------------------

TRAIN_TRIALS = Bound("--trials", 2, 1_000_000, " (a standard error needs two)")
TRAIN_HANDS = Bound("--hands", 1, 100_000)


MAX_ANSWER = 1000              # characters in one answer line: longer is not an answer (/dev/zero never ends)
MAX_ANSWERS_FILE = 10_000_000  # bytes in an answers file


def _answer_lines(answers: str | None) -> Iterator[str] | None:
    """The answers to read, one a line ('-': standard input), or None to ask at the prompt. Any
    path that is not a folder reads: a file, /dev/stdin, a pipe such as <(...). Each line is at
    most ``MAX_ANSWER`` characters; a file is checked whole before the session starts, a pipe
    or device a line at a time as the answers are needed (its first line at once)."""
    if answers is None:
        return None
    if answers == "-":
        stream: Any = getattr(sys.stdin, "buffer", sys.stdin)
    else:
        path = Path(answers)
        if path.is_dir():
            raise UserError(f"--answers {answers}: is a folder, not a file")
        if not path.exists():
            raise UserError(f"--answers {answers}: no such file")
        try:
            stream = path.open("rb")
        except OSError as exc:
            raise UserError(f"--answers {answers}: {exc.strerror or 'cannot be read'}") from None
        if path.is_file():
            with stream:
                if path.stat().st_size > MAX_ANSWERS_FILE:
                    raise UserError(f"--answers {answers}: larger than {MAX_ANSWERS_FILE // 1_000_000} MB; "
                                    "one short answer a line")
                return iter(list(_bounded_lines(stream, answers)))
    lines = _bounded_lines(stream, answers)
    first = next(lines, None)
    return iter(()) if first is None else itertools.chain([first], lines)


def _bounded_lines(stream: Any, name: str) -> Iterator[str]:
    """The lines of a stream (bytes, or text already decoded) as text, refusing a line over
    ``MAX_ANSWER`` characters or bytes that are not UTF-8."""
    while raw := stream.readline(MAX_ANSWER + 1):
        if len(raw) > MAX_ANSWER and raw[-1:] not in (b"\n", "\n"):
            raise UserError(f"--answers {name}: a line is longer than {MAX_ANSWER:,} characters; "
                            "one answer a line")
        try:
            yield (raw.decode("utf-8") if isinstance(raw, bytes) else raw).rstrip("\r\n")
        except UnicodeDecodeError:
            raise UserError(f"--answers {name}: not UTF-8 text") from None


def _ask(console: Console, prompt: str, lines: Iterator[str] | None) -> str | None:
    """One answer: the next line of --answers (echoed after the prompt) or typed; None at the end."""
    if lines is None:
        try:
            return console.input(prompt)
        except EOFError:
            return None
    line = next(lines, None)
    if line is not None:
        line = line.rstrip("\r\n")
        console.print(f"{prompt}{line}", highlight=False)
    return line


@app.command("train")
def train_cmd(
    rules: RulesOpt = "morkpoker",
    opponents: Annotated[int | None, typer.Option(
        "--opponents", "-n", help="Opponents for the equity objective, and for the points this deal in "
                                  "Poengpoker and Chicago (1-5; default: the table less one).")] = None,
    objective: Annotated[str | None, typer.Option(
        "--objective", help="Grade by equity (Monte Carlo against opponents), jacks (the chance of jacks or "
                            "better, exact) or points (in the draw game the table points of your final hand, "
                            "exact; in Poengpoker and Chicago the points this deal, best hand plus last "
                            "trick, by Monte Carlo as keep ranks them); default: equity, points in "
                            "Poengpoker and Chicago.")] = None,
    drill: Annotated[str, typer.Option(
        "--drill", help="keep (what to keep), read (what an opponent's draw count says) or mixed "
                        "(every fourth question a reading).")] = "mixed",
    focus: Annotated[str | None, typer.Option(
        "--focus", help="Deal only hands whose best hold is this pattern: pat, made, pair, kicker, "
                        "flush-draw, straight-draw, sf-draw, two-cards, one-card, draw-five, other (one "
                        "that is the best hold of no deal under the rules and objective is refused).")] = None,
    hands: Annotated[int | None, typer.Option("--hands", help=TRAIN_HANDS.help(
        "End after this many questions", "until quit"))] = None,
    answers: Annotated[str | None, typer.Option(
        "--answers", help="Read the answers from this file, one a line ('-': standard input), instead "
                          "of asking.")] = None,
    history: Annotated[str | None, typer.Option(
        "--history", help="The history file: one JSON line per answer, read at the start to resume "
                          "(default: drawodds/train.jsonl in your data folder, $XDG_DATA_HOME or "
                          "~/.local/share on Linux).")] = None,
    trials: Annotated[int | None, typer.Option("--trials", "-t", help=TRAIN_TRIALS.help(
        "Monte Carlo trials per hand for the equity objective, the points this deal in Poengpoker and "
        "Chicago, and readings", "20,000; 5,000 in Poengpoker and Chicago"))] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Random seed, 0 or more: the same seed, history and answers give the same "
                       "session (default: a new shuffle each time).")] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="At the end, print the session summary as JSON (the questions go to stderr).")] = False,
) -> None:
    """Deal hands, grade what you keep and how you read draws, and deal more of what you miss.

    Keep questions take the cards to keep (As Ah, or AsAh), the cards to throw after 'throw' or
    '-' (throw 7s 3s, -7s3s), a draw count (3: the best hold drawing three) or 'pat'. Readings
    take a class and an equity in percent (two pair 45). Also: score, help, quit.

    Examples:

      drawodds train

      drawodds train --focus kicker

      drawodds train --answers answers.txt --seed 1 --hands 2 --json
    """
    from drawodds import trainer as tr
    from drawodds.render import train as view
    from drawodds.render.console import page_width

    TRAIN_TRIALS.check(trials)
    TRAIN_HANDS.check(hands)
    if objective is not None and not objective.strip():
        raise UserError("--objective needs a name, e.g. equity, jacks or points")
    if seed is not None:
        _seed(seed)
    setup = tr.train_setup(rules, objective=objective, opponents=opponents, trials=trials, drill=drill,
                           focus=focus)
    path = Path(history) if history else tr.default_history_path()
    if history:
        _writable_file(history, "--history")
    else:
        _writable_folder(str(path.parent), "--history")
    lines = _answer_lines(answers)
    console = Console(stderr=json_out, width=page_width())
    summary = tr.run_session(setup, lambda prompt: _ask(console, prompt, lines),
                             lambda item: view.render_item(console, item), history=path, hands=hands, seed=seed,
                             busy=lambda: spinner("dealing...", enabled=lines is None))
    if json_out:
        emit_json(summary)
    else:
        view.render_summary(console, summary)
    if summary.stopped == "interrupted":
        _interrupted(f"the {len(summary.grades) + len(summary.readings)} answers before Ctrl-C are graded and saved")


# --- report ---------------------------------------------------------------------------------

@app.command("cache")
def cache_cmd(
    action: Annotated[str, typer.Argument(help="list (the default) or clear.")] = "list",
    json_out: JsonOpt = False,
) -> None:
    """The files drawodds keeps between runs (solved equilibria, abstractions): list them with their
    sizes, or clear them.

    The cache is bounded by DRAWODDS_CACHE_LIMIT megabytes (default 1,000): when a new file takes it
    over, the least recently used files are removed, with a note. DRAWODDS_CACHE moves the folder.

    Examples:

      drawodds cache

      drawodds cache clear
    """
    from drawodds import paths

    if action not in ("list", "clear"):
        raise UserError(f"cache takes list or clear, got {shown(action)!r}")
    folder, limit = paths.cache_dir(), paths.cache_limit()
    entries = paths.clear_cache(folder) if action == "clear" else paths.cache_entries(folder)
    total = sum(e.size for e in entries)
    if json_out:
        emit_json({"folder": str(folder), "limit_bytes": limit, "cleared": action == "clear",
                   "files": [{"name": e.path.name, "bytes": e.size} for e in entries], "total_bytes": total})
        return
    if action == "clear":
        print(f"Removed {len(entries):,} file{'s' if len(entries) != 1 else ''} ({total / 1e6:,.1f} MB) "
              f"from {folder}")
        return
    print(f"Cache folder {folder} (bound {limit / 1e6:,.0f} MB, set by {paths.CACHE_LIMIT_ENV})")
    for e in reversed(entries):          # the most recently used first
        print(f"{e.size / 1e6:9,.1f} MB  {e.path.name}")
    print(f"{total / 1e6:9,.1f} MB  in {len(entries):,} file{'s' if len(entries) != 1 else ''}")


@app.command("report")
def report_cmd(
    out_dir: Annotated[str, typer.Option(
        "--out", help="Folder for the guide (README.md, cheat sheets, charts).")] = "reports",
    quick: Annotated[bool, typer.Option(
        "--quick", help="Far fewer simulated deals: under a minute, larger standard errors, same files.")] = False,
    seed: SeedOpt = 1,
    workers: WorkersOpt = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace files in --out that an earlier guide did not write (a README.md of yours).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Write the player's guide: what to keep, reading draws, pass-outs, standing pat, points games.

    README.md in --out is the guide; beside it a printable cheat sheet per table size (PNG, PDF) and the charts.

    The same version and seed write the same files. The full guide takes a few minutes; --quick under one.
    A file in --out that an earlier guide did not write is not replaced without --force.

    Examples:

      drawodds report

      drawodds report --quick --out /tmp/guide
    """
    from drawodds.charts.report import check_guide_folder, report
    from drawodds.render.report import render_report

    _seed(seed)
    n_workers = _workers(workers)
    check_guide_folder(out_dir, force=force)
    _writable_folder(out_dir, "--out")
    from drawodds.analyses.report import GuideInterrupted

    try:
        with stage_bar(enabled=not json_out) as stage:
            result = report(out_dir, quick=quick, seed=seed, workers=n_workers, progress=stage, force=force)
    except GuideInterrupted as stop:
        done = f" ({', '.join(stop.finished)})" if stop.finished else ""
        _interrupted(f"{len(stop.finished)} of the guide's {stop.parts} parts had finished{done}; "
                     "nothing was written, as the guide is written whole")
    show(result, json_out, render_report)


# --- entry point ----------------------------------------------------------------------------

# typer may bundle its own click: take its exception classes from the ones typer raises.
_CLICK_ERROR: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _usage_message(exc: Exception) -> str:
    """A click usage error as one line, with a 'did you mean' for a misspelt option."""
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    name, choices = getattr(exc, "option_name", None), getattr(exc, "possibilities", None)
    if name and choices:
        close = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.5)
        message = f"No such option: {name}." + (f" Did you mean {close[0]}?" if close else "")
    ctx = getattr(exc, "ctx", None)
    if ctx is not None and type(exc).__name__ != "NoArgsIsHelpError":
        message += f" (see {ctx.command_path} --help)"
    return " ".join(message.split())


LONGEST_WORD = 60   # a longer word in an error (pasted input, say) is cut short


def _error(message: str) -> int:
    """Print one error line: control characters escaped, runaway words cut; return exit code 2."""
    words = ["".join(c if c.isprintable() else repr(c)[1:-1] for c in word) for word in str(message).split()]
    words = [w if len(w) <= LONGEST_WORD else w[:LONGEST_WORD - 3] + "..." for w in words]
    print(f"drawodds: error: {' '.join(words)}", file=sys.stderr)
    return 2


def _cache_note(message: Warning | str, category: type[Warning], *args: object, **kwargs: object) -> None:
    """Show the library's cache notes (a damaged file rebuilt, an old one evicted) as one line."""
    if issubclass(category, CacheNote):
        note(str(message))
    else:
        _show_warning(message, category, *args, **kwargs)  # type: ignore[arg-type]


_show_warning = warnings.showwarning


def run(argv: list[str] | None = None) -> int:
    """Run the app and return its exit code; user errors print one line and give 2."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", CacheNote)
            warnings.showwarning = _cache_note
            code = app(args=argv, standalone_mode=False, prog_name="drawodds")
    except typer.Exit as exc:
        return exc.exit_code
    except Interrupted:
        return INTERRUPTED
    except (KeyboardInterrupt, typer.Abort):
        note("interrupted before anything finished")
        return INTERRUPTED
    except _CLICK_ERROR as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            return 0          # `drawodds` alone: the help was printed
        return _error(_usage_message(exc))
    except MemoryError:
        return _error("not enough memory for this request: ask for fewer trials or deals")
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        return _error(f"cannot use{where}: {exc.strerror or exc}")
    except ValueError as exc:      # CardError, RuleError, UserError and the library's bad requests
        return _error(str(exc))
    except Exception as exc:      # a bug: one line, and the traceback on request
        if os.environ.get("DRAWODDS_DEBUG"):
            raise
        print(f"drawodds: internal error: {type(exc).__name__}: {' '.join(str(exc).split())} "
              "(set DRAWODDS_DEBUG=1 for the traceback)", file=sys.stderr)
        return 1
    if code == INTERRUPTED:       # typer turned a Ctrl-C into 130 before anything was printed
        note("interrupted before anything finished")
    return int(code or 0)


def main(argv: list[str] | None = None) -> None:
    """The console entry point: exit with ``run``'s code."""
    sys.exit(run(argv))
