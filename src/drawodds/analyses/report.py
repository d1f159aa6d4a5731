"""The numbers of the player's guide (``drawodds report``): every table and chart of reports/.

``guide`` computes one section after another from fixed seeds: the condensed strategy for every
table size, what a draw count says, Jacks-or-Better pass-outs, the standing-pat lesson and what to
keep in the points games. Writing the guide (Markdown and charts) is the job of
``drawodds.render.report`` and ``drawodds.charts.report``; this module only computes.

A section is one function here (``_keep_part``, ``_reading_section``, ...) filling its part of
the ``Guide``, run as a job of a worker pool; a new section adds a function, a job name, a field
and its Markdown (``drawodds.render.report``).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np

from drawodds.analyses import openers as op
from drawodds.analyses.best_holds import Dilemma, HoldGrid, best_hold_grid, dilemma_values
from drawodds.analyses.condensed import CondensedStrategy, condense
from drawodds.analyses.lessons import PatLesson, TablePatLesson, standing_pat, standing_pat_table
from drawodds.analyses.read import DrawReading, read_draw
from drawodds.analyses.removal import (
    OPENER_CLOSE,
    RemovalFix,
    card_removal_table,
    keep_simulation,
    range_simulation,
)
from drawodds.analyses.strategy import (
    Solver,
    StrategyTable,
    equity_objective,
    field_distribution,
    make_solver,
    points_objective,
    suit_classes,
)
from drawodds.errors import RequestError, check_seed
from drawodds.execution import Runner, Stage
from drawodds.i18n import ENGLISH, N_, _, ngettext, use
from drawodds.points.games import ace_vs_small_pair, points_by_hold
from drawodds.policies import draw_policy
from drawodds.results import HIDDEN, Result
from drawodds.rules import RuleSet, preset
from drawodds.sim.equity import OpponentModel
from drawodds.solver.solve import equilibrium_solution
from drawodds.solver.table import table_equilibrium

POLICY = "standard"                     # the draw policy of every opponent in the guide
MORKPOKER_OPPONENTS = (1, 2, 3, 4, 5)   # heads-up to six-handed
READ_RULES = "morkpoker"
PLAY_SIZES = (2, 4, 6)                  # table sizes whose Jackpott deals are played out
PASSOUT_SIZES = tuple(range(op.MIN_PLAYERS, op.MAX_PLAYERS + 1))
POINTS_OPPONENTS = 3                    # the points examples: a table of four
POINTS_EXAMPLES = ("2c 2d As 9h 6c", "Kh Qh 8h 4h 2s", "9s 9d 5c 5h Kd")
POINTS_TOP = 3                          # holds shown per example hand

SECTIONS = ("keep", "reading", "openers", "pat", "points")


@dataclass(frozen=True)
class Budget:
    """Monte Carlo sizes of one run: the full guide, or a quick one."""

    read_trials: int
    pat_deals: int
    pat_equity_trials: int
    play_deals: int
    ace_trials: int
    example_trials: int
    removal_trials: int         # simulated deals per class where card removal decides between close holds
    removal_classes: int        # classes simulated per pair of close patterns
    dilemma_trials: int         # simulated deals per dilemma and table size
    classes: float = 1.0        # share of the deal classes the strategy lists are condensed from
    equilibrium: bool = False   # add the solved heads-up game's pats (a solve of a minute or two, then cached)

    def scaled(self, scale: float) -> Budget:
        """Every size times ``scale`` (each kept at its smallest sensible value); below 1 the
        strategy lists are condensed from that share of the deal classes too."""
        def n(value: int, least: int) -> int:
            return max(least, round(value * scale))
        return Budget(n(self.read_trials, 1_000), n(self.pat_deals, 100), n(self.pat_equity_trials, 1_000),
                      n(self.play_deals, 20), n(self.ace_trials, 50), n(self.example_trials, 50),
                      n(self.removal_trials, 500), n(self.removal_classes, 1), n(self.dilemma_trials, 1_000),
                      min(1.0, self.classes * scale), self.equilibrium)


FULL = Budget(read_trials=200_000, pat_deals=20_000, pat_equity_trials=100_000, play_deals=10_000,
              ace_trials=10_000, example_trials=10_000, removal_trials=10_000, removal_classes=8,
              dilemma_trials=100_000, equilibrium=True)
QUICK = Budget(read_trials=20_000, pat_deals=300, pat_equity_trials=20_000, play_deals=300,
               ace_trials=1_000, example_trials=600, removal_trials=3_000, removal_classes=2,
               dilemma_trials=20_000)


# The code that decides what the guide's lists say: the tables, the lists, card removal, the
# patterns and policies, the rules, and this module's sizes and seeds.
LIST_SOURCES = ("analyses/condensed.py", "analyses/strategy.py", "analyses/removal.py", "analyses/report.py",
                "patterns.py", "policies.py", "holds.py", "evaluate.py", "sim/equity.py", "rules.py")


def lists_fingerprint() -> str:
    """A hash of the code that makes the guide's lists (``LIST_SOURCES``): a guide written by
    other code has another, so a folder written before that code changed can be told apart."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for name in LIST_SOURCES:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()[:16]


# --- the sections' data ----------------------------------------------------------------------------

@dataclass(frozen=True)
class CheatSheet:
    """One table size's condensed strategy: what a printed sheet shows."""

    key: str                    # file stem, e.g. "cheatsheet_morkpoker_3_players"
    game: str                   # "Mørkpoker" or "Jacks or Better"
    players: int
    opponents: int
    against: str                # who the equity is measured against, in English words (``against_words``)
    value: float                # the table's average share of the pot with the best hold of every deal
    plan: CondensedStrategy
    removal: RemovalFix | None = None   # card removal between close holds: what the simulation changed

    @property
    def title(self) -> str:
        """The game and table size, in the reader's language."""
        game = _(GAMES.get(self.game, self.game))
        if self.players == 2:
            return _("{game}, heads-up").format(game=game)
        return _("{game}, {players} players").format(game=game, players=self.players)

    @property
    def against_words(self) -> str:
        """Who the equity is measured against, in the reader's language (``against`` in English)."""
        return against_words(self.game, self.opponents)


GAMES = {"Mørkpoker": N_("Mørkpoker"), "Jacks or Better": N_("Jacks or Better")}   # the sheets' games, shown by _()


def against_words(game: str, opponents: int) -> str:
    """Who a sheet's equity is measured against, in words."""
    if game != "Mørkpoker":
        return _("an opener who held jacks or better and draws like most players")
    return ngettext("{n} opponent who draws like most players", "{n} opponents who draw like most players",
                    opponents).format(n=opponents)


@dataclass(frozen=True)
class KeepSection:
    """What to keep: a sheet per table size, the best hold by starting hand, classic dilemmas."""

    sheets: tuple[CheatSheet, ...]
    grid: HoldGrid = field(metadata=HIDDEN)
    dilemmas: tuple[Dilemma, ...]
    classes: float              # share of the deal classes the lists come from (1: all)


@dataclass(frozen=True)
class ReadingSection:
    """What a draw count says: the plain game, and the opener in Jacks or Better."""

    plain: tuple[DrawReading, ...]
    opener: tuple[DrawReading, ...]


@dataclass(frozen=True)
class OpenersSection:
    """Jacks or Better: exact pass-outs for every table size, and opened pots played out."""

    passouts: op.OpenersTable
    played: op.OpenersTable


@dataclass(frozen=True)
class PointsHold:
    """One hold of an example hand in a points game (Monte Carlo, common random numbers)."""

    keep: str
    draw: int
    points: float
    points_se: float
    hand_points: float
    trick_points: float
    behind: float               # points behind the best hold of the hand
    behind_se: float


@dataclass(frozen=True)
class PointsExample:
    """The best holds of one hand in one points game."""

    game: str
    hand: str
    opponents: int
    trials: int
    holds: tuple[PointsHold, ...]


@dataclass(frozen=True)
class PointsSection:
    """Poengpoker and Chicago: the hand-points list, the lone ace vs a small pair, example hands."""

    plan: CondensedStrategy
    value: float                        # optimal hand points per deal, drawing alone
    ace_vs_pair: tuple[dict[str, float], ...]   # one row per table size (ace_vs_small_pair)
    ace_trials: int
    examples: tuple[PointsExample, ...]


@dataclass(frozen=True, repr=False)
class Guide(Result):
    """Every number of the player's guide, from fixed seeds."""

    version: str
    seed: int
    quick: bool
    budget: Budget
    keep: KeepSection
    reading: ReadingSection
    openers: OpenersSection
    pat: PatLesson
    points: PointsSection
    table_pat: TablePatLesson | None = None    # standing pat against two players of the three-handed solution

    @property
    def sections(self) -> tuple[str, ...]:
        return SECTIONS


@dataclass(frozen=True, repr=False)
class Report(Result):
    """What ``drawodds report`` wrote: the folder, its files and the guide's sections."""

    out_dir: str
    files: tuple[str, ...]             # names inside out_dir, sorted
    sections: tuple[str, ...]
    quick: bool
    seed: int
    seconds: float = field(default=0.0, metadata=HIDDEN)


# --- the solvers, kept for the process (pure tables) ---------------------------------------------

@functools.cache
def _equity_solver(rules: RuleSet, min_hand: str, opponents: int) -> Solver:
    """The equity objective against ``opponents`` drawing by the guide's policy, whose pre-draw
    range is ``min_hand`` (e.g. "jacks" for the Jacks-or-Better opener)."""
    return make_solver(equity_objective(_field(rules, min_hand), opponents, POLICY), rules)


@functools.cache
def _field(rules: RuleSet, min_hand: str) -> np.ndarray:
    return field_distribution(rules, draw_policy(POLICY, min_hand=min_hand))


@functools.cache
def _points_solver(rules: RuleSet) -> Solver:
    return make_solver(points_objective(rules), rules)


def _table(solver: Solver, classes: float) -> StrategyTable:
    """The exact table of a solver over every deal class, or over an even share of them."""
    reps, weights = suit_classes(solver.rules.joker)
    if classes < 1.0:
        step = max(1, round(1 / classes))
        reps, weights = reps[::step], weights[::step]
    return StrategyTable(solver.objective, solver.rules, solver.hold_values(reps), weights)


# --- the sections ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class _KeepPart:
    """One table size's share of the keep section (a job of its own)."""

    sheet: CheatSheet
    grid: HoldGrid | None
    dilemmas: tuple[Dilemma, ...]


def _keep_part(opponents: int | None, budget: Budget, seed: int = 1) -> _KeepPart:
    """The sheet for Mørkpoker against ``opponents``, its column of the best-hold grid and its
    dilemma values; ``None``: the Jacks-or-Better sheet, heads-up against the opener. Where the
    exact table's best holds are close, card removal decides (``analyses.removal``)."""
    if opponents is None:
        table = _table(_equity_solver(preset("jackpot"), "jacks", 1), budget.classes)
        rules = preset("jackpot")
        simulate = range_simulation(rules, draw_policy(POLICY, min_hand="jacks"), 1, budget.removal_trials)
        table, fix = card_removal_table(table, simulate, close=OPENER_CLOSE, trials=budget.removal_trials,
                                        per_group=budget.removal_classes, seed=seed)
        with use(ENGLISH):
            against = against_words("Jacks or Better", 1)
        sheet = CheatSheet("cheatsheet_jacks_or_better", "Jacks or Better", 2, 1, against,
                           table.value, condense(table), fix)
        return _KeepPart(sheet, None, ())
    n = opponents
    solver = _equity_solver(preset("morkpoker"), "any", n)
    simulate = keep_simulation(solver.rules, OpponentModel(opponents=n, policy=POLICY), budget.removal_trials)
    table, fix = card_removal_table(_table(solver, budget.classes), simulate, trials=budget.removal_trials,
                                    per_group=budget.removal_classes, seed=seed)
    with use(ENGLISH):
        against = against_words("Mørkpoker", n)
    sheet = CheatSheet(f"cheatsheet_morkpoker_{n + 1}_players", "Mørkpoker", n + 1, n, against,
                       table.value, condense(table), fix)
    dilemmas = dilemma_values({n: solver}, trials=budget.dilemma_trials, seed=seed, policy=POLICY)
    return _KeepPart(sheet, best_hold_grid({n: table}), tuple(dilemmas))


def _keep_section(parts: list[_KeepPart], budget: Budget) -> KeepSection:
    """The keep section from its parts: Mørkpoker by table size, then Jacks or Better."""
    grids = [p.grid for p in parts if p.grid is not None]
    grid = HoldGrid(tuple(n for g in grids for n in g.opponents), np.hstack([g.hold for g in grids]),
                    np.hstack([g.share for g in grids]))
    dilemmas = []
    for i, first in enumerate(parts[0].dilemmas):
        each = [p.dilemmas[i] for p in parts if p.dilemmas]
        options = tuple((label, tuple(v for d in each for v in d.options[k][1]))
                        for k, (label, _) in enumerate(first.options))
        dilemmas.append(Dilemma(first.title, first.hand, tuple(n for d in each for n in d.opponents), options))
    return KeepSection(tuple(p.sheet for p in parts), grid, tuple(dilemmas), budget.classes)


def _reading_section(budget: Budget, seed: int) -> ReadingSection:
    return ReadingSection(_readings(preset(READ_RULES), False, budget, seed),
                          _readings(preset("jackpot"), True, budget, seed))


def _readings(rules: RuleSet, opener: bool, budget: Budget, seed: int) -> tuple[DrawReading, ...]:
    """A reading for every draw count the policy makes under the rules (a count it never makes is left out)."""
    out = []
    for d in range(rules.max_draw_cards + 1):
        try:
            out.append(read_draw(d, policy=POLICY, rules=rules, opener=opener, trials=budget.read_trials, seed=seed))
        except RequestError:
            continue
    return tuple(out)


def _openers_section(budget: Budget, seed: int) -> OpenersSection:
    passouts = op.table(PASSOUT_SIZES, seed=seed)
    played = op.table(PLAY_SIZES, deals=budget.play_deals, seed=seed, workers=1)
    if played.interrupted:
        raise KeyboardInterrupt
    return OpenersSection(passouts, played)


def _pat_section(budget: Budget, seed: int) -> PatLesson:
    solved = equilibrium_solution(preset("morkpoker")) if budget.equilibrium else False
    return standing_pat(deals=budget.pat_deals, seed=seed, equity_trials=budget.pat_equity_trials,
                        equilibrium=solved)


def _table_pat_section(budget: Budget, seed: int) -> TablePatLesson | None:
    """The standing-pat lesson against two players of the three-handed solution (solved once,
    then cached), with the full guide's budget only."""
    if not budget.equilibrium:
        return None
    return standing_pat_table(table_equilibrium(preset("morkpoker")), deals=budget.pat_deals, seed=seed)


def _points_section(budget: Budget, seed: int) -> PointsSection:
    poeng = preset("poengpoker")
    table = _table(_points_solver(poeng), budget.classes)
    plan = condense(table)
    df = ace_vs_small_pair(poeng, trials=budget.ace_trials, seed=seed, policy=POLICY)
    rows = tuple({str(k): float(v) for k, v in row.items()} for row in df.to_dict("records"))
    examples = []
    hands = POINTS_EXAMPLES[:max(1, round(len(POINTS_EXAMPLES) * min(1.0, budget.classes)))]   # fewer when rough
    games = [(name, hand) for name in ("poengpoker", "chicago") for hand in hands]
    for name, hand in games:
        frame = points_by_hold(hand, preset(name), opponents=POINTS_OPPONENTS, trials=budget.example_trials,
                               seed=seed, policy=POLICY)
        best = frame.iloc[0]
        holds = tuple(PointsHold(str(r["keep"]), int(r["draw"]), float(r["points"]), float(r["points_se"]),
                                 float(r["points_hand"]), float(r["points_trick"]),
                                 float(best["points"] - r["points"]), float(r["se_vs_best"]))
                      for _, r in frame.head(POINTS_TOP).iterrows())
        examples.append(PointsExample(name, hand, POINTS_OPPONENTS, budget.example_trials, holds))
    return PointsSection(plan, table.value, rows, budget.ace_trials, tuple(examples))


class GuideInterrupted(KeyboardInterrupt):
    """Ctrl-C while the guide was computed: the names of the parts that had finished, of ``parts`` in all."""

    def __init__(self, finished: tuple[str, ...], parts: int) -> None:
        super().__init__(finished, parts)
        self.finished, self.parts = finished, parts


KEEP_JOBS = tuple(f"keep:{n}" for n in MORKPOKER_OPPONENTS) + ("keep:jacks",)
# Longest first, so that the worker pool ends together: the simulations dominate the full guide,
# the exact strategy tables the quick one.
FULL_ORDER = ("pat", "openers", "points", *KEEP_JOBS, "reading", "table_pat")
QUICK_ORDER = ("points", "openers", *KEEP_JOBS, "pat", "reading", "table_pat")


def _job(name: str, budget: Budget, seed: int) -> object:
    """One part of the guide (a job for the worker pool)."""
    if name.startswith("keep:"):
        who = name.split(":")[1]
        return _keep_part(None if who == "jacks" else int(who), budget, seed)
    if name == "reading":
        return _reading_section(budget, seed)
    if name == "openers":
        return _openers_section(budget, seed)
    if name == "pat":
        return _pat_section(budget, seed)
    if name == "table_pat":
        return _table_pat_section(budget, seed)
    return _points_section(budget, seed)


def _version() -> str:
    try:
        return metadata.version("drawodds")
    except metadata.PackageNotFoundError:
        return "unknown"


def _quiet(stage: str, done: float) -> None:
    return None


def guide(*, quick: bool = False, seed: int = 1, workers: int | None = None, scale: float = 1.0,
          progress: Stage = _quiet) -> Guide:
    """Compute every number of the player's guide from ``seed``.

    ``quick`` runs far fewer Monte Carlo trials and deals (the exact figures are the same);
    ``scale`` multiplies the run's sizes (below 1 the strategy lists come from that share of the
    deal classes: a rough, fast run for tests). The sections are computed side by side on
    ``workers`` processes (default: every core); that changes the speed, never the numbers."""
    check_seed(seed)
    if not 0 < scale <= 1:
        raise RequestError("scale must be above 0 and at most 1, got {scale}", scale=scale)
    budget = (QUICK if quick else FULL).scaled(scale) if scale != 1 else (QUICK if quick else FULL)
    order = QUICK_ORDER if quick else FULL_ORDER
    parts: dict[str, object] = {}
    with Runner(workers) as runner:
        batch = runner.map(_job, [(name, budget, seed) for name in order],
                           progress=lambda k: progress(_("computing the guide: {done} of {parts} parts done").format(
                               done=k, parts=len(order)), k / len(order)),
                           each=lambda i, result: parts.__setitem__(order[i], result), long=True)
    if batch.interrupted:
        raise GuideInterrupted(tuple(name for name in order if name in parts), len(order))
    keep = _keep_section([parts[name] for name in KEEP_JOBS], budget)  # type: ignore[misc]
    return Guide(_version(), seed, quick, budget, keep, reading=parts["reading"], openers=parts["openers"],  # type: ignore[arg-type]
                 pat=parts["pat"], points=parts["points"], table_pat=parts["table_pat"])  # type: ignore[arg-type]
