"""The `drawodds` command line: each command parses its options, makes one library call and renders.

Every user error (bad card, bad option) becomes one line on stderr and exit code 2. The analysis
lives in ``drawodds.analyses`` and the look of every table in ``drawodds.render``; both are imported
inside the commands so that start-up stays quick.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from drawodds import __version__
from drawodds.cards import CardError
from drawodds.render.console import emit_json, progress_bar, show
from drawodds.rules import RuleError, RuleSet, preset, preset_names

app = typer.Typer(
    name="drawodds",
    help=(
        "Odds and strategy for five-card draw as played in Scandinavian homes "
        "(Mørkpoker, Jackpott, Poengpoker, Chicago).\n\n"
        "Examples:\n\n"
        '  drawodds keep "AsAhKs7s3s"\n\n'
        '  drawodds eval "A♠A♥K♠7♠3♠" --json\n\n'
        "  drawodds rules jackpot"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


class UserError(ValueError):
    """An error in what the user asked for; shown as one line, exit code 2."""


def _version(value: bool) -> None:
    if value:
        print(f"drawodds {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Show the version and exit.")] = False,
) -> None:
    """Odds and strategy for five-card draw."""


# --- shared options -------------------------------------------------------------------------

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Rule set preset: " + ", ".join(preset_names()))]
JokerOpt = Annotated[bool | None, typer.Option("--joker/--no-joker", help="Play with the joker (53 cards).")]
MaxDrawOpt = Annotated[str | None, typer.Option("--max-draw", help="Draw limit: 3, 4-ace, 4, 5 or any.")]
DrawsOpt = Annotated[int | None, typer.Option("--draws", help="Number of draws (2 = double draw).")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Players at the table.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def build_rules(name: str = "morkpoker", **overrides: object) -> RuleSet:
    """The preset with the CLI's single-option overrides applied (None means 'not given')."""
    given = {k: v for k, v in overrides.items() if v is not None}
    return preset(name, **given)


# --- eval -----------------------------------------------------------------------------------

@app.command("eval")
def eval_cmd(
    hand: Annotated[str, typer.Argument(help='Five cards, e.g. "AsAhKs7s3s" or "A♠ A♥ K♠ 7♠ 3♠".')],
    joker: Annotated[bool, typer.Option("--joker", help="Allow the joker (Jk).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Evaluate one hand: category, description and strength.

    Example: drawodds eval "AsAhKs7s3s" --json
    """
    from drawodds.analyses.reference import hand_report
    from drawodds.render.eval import render_eval

    report = hand_report(hand, joker=joker)
    if json_out:
        emit_json(report)
    else:
        render_eval(report)


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
        presets = preset_list()
        show(presets, json_out, render_presets)
        return
    sheet = rule_sheet(name)
    show(sheet, json_out, render_rule_sheet)


# --- keep -----------------------------------------------------------------------------------

@app.command("keep")
def keep_cmd(
    hand: Annotated[str, typer.Argument(help='The five dealt cards, e.g. "AsAhKs7s3s".')],
    rules: RulesOpt = "morkpoker",
    opponents: Annotated[int | None, typer.Option(
        "--opponents", "-n", help="Opponents who draw (0-5); default: table size - 1.")] = None,
    policy: Annotated[str, typer.Option(
        "--policy", help="Opponents' draw policy (see `drawodds policies`).")] = "standard",
    trials: Annotated[int | None, typer.Option(
        "--trials", "-t", help="Monte Carlo trials (the maximum with --se).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same numbers.")] = 1,
    se: Annotated[float | None, typer.Option(
        "--se", help="Stop when the best holds are separated to this standard error.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes for the Monte Carlo.")] = 1,
    by: Annotated[str | None, typer.Option("--by", help="Rank by equity, jacks, improve or points.")] = None,
    vs: Annotated[list[int] | None, typer.Option(
        "--vs", help="An opponent's draw count (repeat per opponent).")] = None,
    against: Annotated[list[str] | None, typer.Option(
        "--against", help="A known opponent hand that stands pat (repeat per opponent).")] = None,
    opener: Annotated[bool, typer.Option(
        "--opener", help="Jacks or Better: we opened; show holds that split openers.")] = False,
    exact: Annotated[bool, typer.Option("--exact", help="Exact odds only (no opponents, no sampling).")] = False,
    top: Annotated[int | None, typer.Option("--top", help="Show only the best N holds.")] = None,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    players: PlayersOpt = None,
    json_out: JsonOpt = False,
    csv: Annotated[str | None, typer.Option(
        "--csv", help="Write the rows flat to this CSV file ('-' for stdout).")] = None,
) -> None:
    """Rank every legal hold of a hand: exact odds of each final hand, and equity against opponents.

    Examples:

      drawodds keep "AsAhKs7s3s"

      drawodds keep "AsAhKs7s3s" --exact

      drawodds keep "Kh Qh Jh Th 2c" --opponents 2 --trials 200000 --seed 7 --json

      drawodds keep "AsAhKs7s3s" --rules jackpot --opener

      drawodds keep "9c9d5h5s2c" --vs 3 --vs 1

      drawodds keep "AsAhKs7s3s" --against "QcQdJhJd2c"
    """
    from drawodds.analyses.keep import keep
    from drawodds.render.keep import render_keep

    if exact:
        if opponents or vs or against:
            raise UserError("--exact computes the exact odds alone: drop --opponents/--vs/--against")
        opponents = 0
    quiet = json_out or csv == "-"
    n_trials = trials if trials is not None else (1_000_000 if se is not None else 100_000)
    overrides = {k: v for k, v in {"joker": joker, "max_draw": max_draw, "players": players}.items()
                 if v is not None}
    with progress_bar("simulating", enabled=not quiet and opponents != 0) as update:
        result = keep(hand, rules=rules, opponents=opponents, policy=policy, trials=n_trials, seed=seed,
                      se=se, workers=workers, by=by, vs=vs or (), against=against or (),  # type: ignore[arg-type]
                      opener=opener, progress=update, **overrides)
    if csv:
        result.flat().to_csv(sys.stdout if csv == "-" else csv, index=False)
        if csv == "-":
            return
    if json_out:
        emit_json(result)
        return
    render_keep(result, top)


# --- simulate -------------------------------------------------------------------------------

@app.command("simulate")
def simulate_cmd(
    rules: RulesOpt = "morkpoker",
    players: PlayersOpt = None,
    deals: Annotated[int | None, typer.Option(
        "--deals", "-d", help="Deals to play (draw game; default 10,000).")] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-g", help="Whole games to play (Poengpoker and Chicago only).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same deals and actions.")] = 1,
    policy: Annotated[str | None, typer.Option(
        "--policy", "-p", help="Betting policy per seat, comma-separated (rule, reader, pat, station, "
        "random), or one for every seat.")] = None,
    history: Annotated[str | None, typer.Option(
        "--history", help="Write every deal: JSON lines for .jsonl, else a readable text log.")] = None,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    draws: DrawsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Play many deals (or points games) with betting policies and summarise who won what.

    Examples:

      drawodds simulate --rules morkpoker --players 4 --deals 100000 --seed 1

      drawodds simulate --rules jackpot --policy rule,rule,station,random --history deals.jsonl

      drawodds simulate --rules poengpoker --games 2000 --json
    """
    rule_set = build_rules(rules, players=players, joker=joker, max_draw=max_draw, draws=draws)
    if rule_set.game != "draw":
        _simulate_points(rule_set, deals, games, seed, policy, history, json_out)
        return
    if games is not None:
        raise UserError("--games is for Poengpoker and Chicago; the draw game counts --deals")
    from drawodds.engine.session import simulate
    from drawodds.render.simulate import render_simulation

    n_deals = deals if deals is not None else 10_000
    with progress_bar("playing", enabled=not json_out) as update:
        result = simulate(rule_set, deals=n_deals, seed=seed, policies=policy or "rule", history=history,
                          progress=(lambda k: update(k, n_deals)) if update else None)
    show(result, json_out, render_simulation)


def _simulate_points(rule_set: RuleSet, deals: int | None, games: int | None, seed: int, policy: str | None,
                     history: str | None, json_out: bool) -> None:
    """`simulate` for Poengpoker and Chicago: whole games to the target score."""
    from drawodds.points.games import simulate_points
    from drawodds.render.simulate import render_points_simulation

    if deals is not None:
        raise UserError(f"{rule_set.name} is played in games to {rule_set.target_points} points: "
                        "use --games, not --deals")
    if history is not None:
        raise UserError("--history is for the draw game")
    names = [p.strip() for p in policy.split(",")] if policy else ["sensible"]
    with progress_bar("playing", enabled=not json_out) as update:
        result = simulate_points(rule_set, games=games if games is not None else 1000, seed=seed,
                                 progress=update, policies=names[0] if len(names) == 1 else names)
    show(result, json_out, render_points_simulation)


# --- read / policies -------------------------------------------------------------------------

@app.command("read")
def read_cmd(
    draw: Annotated[int, typer.Argument(help="How many cards the opponent drew (0 = stood pat).")],
    policy: Annotated[str, typer.Option(
        "--policy", help="The opponent's draw policy: standard, loose or tight.")] = "standard",
    snow: Annotated[float, typer.Option("--snow", help="Rate at which a weak hand stands pat anyway (a bluff).")] = 0.0,
    break_rate: Annotated[float, typer.Option(
        "--break-rate", help="Rate of breaking a pat straight/flush to draw to a straight flush.")] = 0.0,
    rules: RulesOpt = "morkpoker",
    opener: Annotated[bool, typer.Option(
        "--opener", help="Jacks or Better: the opponent opened (holds jacks or better).")] = False,
    hand: Annotated[str | None, typer.Option(
        "--hand", help="Our five cards: card removal, and our equity per hold.")] = None,
    trials: Annotated[int, typer.Option(
        "--trials", "-t", help="Monte Carlo trials (final hand when not exact; equity).")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same numbers.")] = 1,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """What an opponent's draw count says: their holding before the draw, their final hand, our equity.

    Examples:

      drawodds read 3

      drawodds read 1 --policy loose

      drawodds read 0 --snow 0.05

      drawodds read 2 --rules jackpot --opener

      drawodds read 3 --hand "AsAhKs7s3s" --json
    """
    from drawodds.analyses.read import read_draw
    from drawodds.cards import parse_hand
    from drawodds.policies import draw_policy
    from drawodds.render.console import out
    from drawodds.render.read import render_read

    rs = build_rules(rules, joker=joker, max_draw=max_draw)
    pol = draw_policy(policy, snow=snow, break_rate=break_rate)
    cards = None if hand is None else parse_hand(hand, joker=rs.joker)
    if trials < 1:
        raise UserError("--trials must be at least 1")
    import contextlib

    with out.status("reading the draw...", spinner="dots") if not json_out else contextlib.nullcontext():
        result = read_draw(draw, policy=pol, rules=rs, hand=cards, opener=opener, trials=trials,
                           seed=seed, equity_trials=trials)
    show(result, json_out, render_read)


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

    book = policy_book(name)
    show(book, json_out, render_policies)


# --- strategy -------------------------------------------------------------------------------

@app.command("strategy")
def strategy_cmd(
    objective: Annotated[str, typer.Option("--objective", "-o", help=(
        "vp96 (9/6 Jacks or Better), vp:800/50/25/9/6/4/3/2/1 (any pay table), jacks "
        "(P at least jacks), points (Poengpoker table points), equity (vs --opponents), "
        "at_least:<category>, category:<category>."))] = "vp96",
    opponents: Annotated[int, typer.Option("--opponents", "-n", help="Opponents for --objective equity (1-7).")] = 1,
    rules_name: Annotated[str | None, typer.Option("--rules", "-r", help=(
        "Rule set preset (default: video poker draw-any for vp*, poengpoker for points, "
        "morkpoker otherwise)."))] = None,
    max_draw: MaxDrawOpt = None,
    joker: JokerOpt = None,
    policy: Annotated[str, typer.Option(
        "--policy", help="Opponents' draw policy for equity: standard, loose, tight.")] = "standard",
    out_path: Annotated[str | None, typer.Option("--out", help="Write the table (.parquet or .csv).")] = None,
    lines: Annotated[int, typer.Option(
        "--lines", help="Most patterns in the condensed strategy (before same-kind runs are merged).")] = 60,
    check_removal: Annotated[int, typer.Option("--check-removal", help=(
        "equity only: measure the card-removal error on this many random deals by Monte Carlo."))] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the policy and any Monte Carlo.")] = 1,
    json_out: JsonOpt = False,
) -> None:
    """Exact strategy table for every deal, and a condensed strategy derived from it.

    Examples: drawodds strategy --objective vp96;  drawodds strategy --objective equity
    --opponents 3 --out table.parquet
    """
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from drawodds.analyses.condensed import strategy_report
    from drawodds.analyses.strategy import default_rules
    from drawodds.render.strategy import render_strategy

    base = default_rules(objective) if rules_name is None else preset(rules_name)
    given = {k: v for k, v in {"max_draw": max_draw, "joker": joker}.items() if v is not None}
    rules = base.replace(**given) if given else base
    if not 1 <= opponents <= 7:
        raise UserError(f"--opponents must be 1..7, got {opponents}")
    if rules.draws != 1:
        raise UserError(f"strategy tables cover one draw; {rules.name} has {rules.draws} draws")
    if check_removal and objective.strip().lower() != "equity":
        raise UserError("--check-removal measures the equity objective: add --objective equity")
    if out_path is not None and not out_path.endswith((".parquet", ".csv")):
        raise UserError(f"--out must end in .parquet or .csv, got {out_path!r}")
    with Progress(TextColumn("{task.description:<40}"), BarColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True, disable=json_out) as bar:
        task = bar.add_task("objective", total=100)
        report = strategy_report(objective, rules, opponents=opponents, policy=policy, lines=lines,
                                 check_removal=check_removal, seed=seed, out=out_path,
                                 progress=lambda stage, f: bar.update(task, description=stage,
                                                                      completed=100 * f))
    show(report, json_out, render_strategy)


# --- lesson ---------------------------------------------------------------------------------

@app.command("lesson")
def lesson_cmd(
    topic: Annotated[str, typer.Argument(help="The lesson: 'pat' (standing pat is a move).")] = "pat",
    deals: Annotated[int, typer.Option("--deals", help="Two-pair deals played per opponent type and line.")] = 20_000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same numbers.")] = 1,
    rules: RulesOpt = "morkpoker",
    out_md: Annotated[str | None, typer.Option(
        "--markdown", help="Also write the lesson as Markdown to this file.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """A strategy claim from the rule documents, tested with numbers.

    Examples:

      drawodds lesson pat

      drawodds lesson pat --deals 5000 --seed 2 --json
    """
    if topic != "pat":
        raise UserError(f"unknown lesson {topic!r}; lessons: pat")
    if deals < 100:
        raise UserError("use at least 100 deals")
    from drawodds.analyses.lessons import standing_pat
    from drawodds.render.lesson import render_lesson

    with progress_bar("playing deals", enabled=not json_out) as update:
        lesson = standing_pat(deals=deals, seed=seed, rules=rules, progress=update)
    if out_md:
        with open(out_md, "w", encoding="utf-8") as fh:
            fh.write(lesson.to_markdown())
    show(lesson, json_out, render_lesson)


# --- openers --------------------------------------------------------------------------------

def _players_range(text: str) -> list[int]:
    """'2-8' -> [2, ..., 8]; '4' -> [4]; '2,4,6' -> [2, 4, 6]."""
    from drawodds.analyses.openers import MAX_PLAYERS, MIN_PLAYERS
    values: list[int] = []
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            values.extend(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise UserError(f"--players takes a number or a range like 2-8, got {text!r}") from None
    if not values or any(not MIN_PLAYERS <= v <= MAX_PLAYERS for v in values):
        raise UserError(f"--players must lie in {MIN_PLAYERS}-{MAX_PLAYERS}, got {text!r}")
    return sorted(set(values))


@app.command("openers")
def openers_cmd(
    players: Annotated[str, typer.Option("--players", help="Table sizes: 4, 2-8 or 2,4,6.")] = "2-8",
    ante: Annotated[int, typer.Option("--ante", help="Ante per player per deal (chips).")] = 1,
    max_antes: Annotated[int | None, typer.Option(
        "--max-antes", help="House limit on consecutive antes into one pot (default: none).")] = None,
    deals: Annotated[int, typer.Option("--deals", help="Deals to play per table size with the rules "
                                       "engine (rule-based policies); 0 = skip play. With --hand: "
                                       "Monte Carlo deals when the count is not exact (default 200,000).")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Random seed for play and Monte Carlo.")] = 1,
    hand: Annotated[str | None, typer.Option("--hand", help="My five cards: chance somebody else can open.")] = None,
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

    if ante < 0:
        raise UserError("--ante must be >= 0")
    if max_antes is not None and max_antes < 1:
        raise UserError("--max-antes must be at least 1")
    if deals < 0:
        raise UserError("--deals must be >= 0")
    sizes = _players_range(players)
    if hand is not None:
        if len(sizes) != 1:
            raise UserError("--hand needs one table size, e.g. --players 4")
        odds = op.p_somebody_else_opens(parse_hand(hand), sizes[0], deals=deals or 200_000, seed=seed)
        show(odds, json_out, render_somebody_else)
        return
    with progress_bar("playing", enabled=bool(deals) and not json_out) as update:
        result = op.table(sizes, ante=ante, max_consecutive_antes=max_antes, deals=deals, seed=seed,
                          progress=update)
    show(result, json_out, render_openers)


# --- charts ---------------------------------------------------------------------------------

@app.command("charts")
def charts_cmd(
    topics: Annotated[list[str] | None, typer.Argument(
        help="reading, openers, points, strategy (default: all).")] = None,
    out_dir: Annotated[str, typer.Option("--out", help="Folder for the PNG files.")] = "reports",
) -> None:
    """Redraw the charts in reports/ from the library (a few minutes for all of them).

    Examples:

      drawodds charts

      drawodds charts reading openers --out /tmp/charts
    """
    from drawodds.charts import TOPICS, regenerate
    from drawodds.render.console import out

    bad = [t for t in topics or () if t not in TOPICS]
    if bad:
        raise UserError(f"unknown chart topic {bad[0]!r}; topics: {', '.join(TOPICS)}")
    for path in regenerate(out_dir, topics, progress=lambda t: out.print(f"[dim]drawing {t} ...[/dim]")):
        out.print(f"wrote {path}")


# --- entry point ----------------------------------------------------------------------------

# typer may bundle its own click: take its ClickException from the class typer raises.
_CLICK_ERROR: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def main(argv: list[str] | None = None) -> None:
    """Run the app; user errors print one line and exit 2, never a traceback."""
    try:
        app(args=argv, standalone_mode=False, prog_name="drawodds")
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except _CLICK_ERROR as exc:
        exc.show()  # type: ignore[attr-defined]
        sys.exit(exc.exit_code)  # type: ignore[attr-defined]
    except typer.Abort:
        print("drawodds: aborted", file=sys.stderr)
        sys.exit(130)
    except KeyboardInterrupt:
        print("drawodds: interrupted", file=sys.stderr)
        sys.exit(130)
    except (CardError, RuleError, UserError, ValueError) as exc:
        print(f"drawodds: error: {exc}", file=sys.stderr)
        sys.exit(2)
    sys.exit(0)
