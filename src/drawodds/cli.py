"""The `drawodds` command line: a thin typer layer that parses, calls the library, renders.

Every user error (bad card, bad option) becomes one line on stderr and exit code 2.
Heavy modules are imported inside the commands so that start-up stays quick.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from drawodds import __version__
from drawodds.cards import CardError, format_cards, parse_hand
from drawodds.rules import OPTION_SOURCES, PRESET_DESCRIPTIONS, RuleError, RuleSet, preset, preset_names

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
# Piped output (files, README examples) gets a wide page instead of rich's 80-column default.
out = Console(width=None if sys.stdout.isatty() else 160)


class UserError(ValueError):
    """An error in what the user asked for; shown as one line, exit code 2."""


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


# --- shared options -------------------------------------------------------------------------

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Rule set preset: " + ", ".join(preset_names()))]
JokerOpt = Annotated[bool | None, typer.Option("--joker/--no-joker", help="Play with the joker (53 cards).")]
MaxDrawOpt = Annotated[str | None, typer.Option("--max-draw", help="Draw limit: 3, 4-ace, 4, 5 or any.")]
DrawsOpt = Annotated[int | None, typer.Option("--draws", help="Number of draws (2 = double draw).")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Players at the table.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def build_rules(name: str = "morkpoker", **overrides: Any) -> RuleSet:
    """The preset with the CLI's single-option overrides applied (None means 'not given')."""
    given = {k: v for k, v in overrides.items() if v is not None}
    return preset(name, **given)


def emit_json(payload: Any) -> None:
    """Print JSON to stdout (NaN becomes null so other tools can read it)."""
    print(json.dumps(payload, indent=2, ensure_ascii=False, default=_json_default))


def _json_default(obj: Any) -> Any:
    if hasattr(obj, "item"):
        return obj.item()
    if hasattr(obj, "tolist"):
        return obj.tolist()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


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
    from drawodds.evaluate import category_name, describe, evaluate

    cards = parse_hand(hand, joker=joker)
    strength = int(evaluate(cards, joker=joker))
    payload = {"cards": format_cards(cards), "category": category_name(strength),
               "strength": strength, "description": describe(strength)}
    if json_out:
        emit_json(payload)
        return
    out.print(f"{' '.join(format_cards(cards, pretty=True))}  [bold]{describe(strength)}[/bold]  "
              f"({payload['category']}, strength {strength} of 7462)")


# --- rules ----------------------------------------------------------------------------------

@app.command("rules")
def rules_cmd(
    name: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """List the rule-set presets, or show every option of one with its source.

    Examples: drawodds rules;  drawodds rules jackpot
    """
    if name is None:
        if json_out:
            emit_json({n: PRESET_DESCRIPTIONS[n] for n in preset_names()})
            return
        table = Table(title="Rule sets (drawodds rules NAME for every option)")
        table.add_column("preset", style="bold")
        table.add_column("what it is")
        for n in preset_names():
            table.add_row(n, PRESET_DESCRIPTIONS[n])
        out.print(table)
        return
    rs = preset(name)
    values = {f.name: getattr(rs, f.name) for f in dataclasses.fields(rs) if f.name != "sources"}
    if json_out:
        emit_json(values)
        return
    table = Table(title=f"{rs.name}: {PRESET_DESCRIPTIONS[rs.name]}")
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("source in the rule documents", style="dim")
    for key, value in values.items():
        table.add_row(key, str(value), OPTION_SOURCES.get(key, ""))
    out.print(table)


# --- keep -----------------------------------------------------------------------------------

_SHORT = {"high_card": "HC", "one_pair": "1P", "two_pair": "2P", "three_of_a_kind": "3K",
          "straight": "St", "flush": "Fl", "full_house": "FH", "four_of_a_kind": "4K",
          "straight_flush": "SF", "five_of_a_kind": "5A"}


def _pct(p: float) -> str:
    return f"{100 * p:.1f}" if p >= 0.001 or p == 0 else f"{100 * p:.2f}"


def progress_bar(label: str, enabled: bool = True) -> Any:
    """A rich progress bar on stderr; returns (context manager, callback(done, total))."""
    from contextlib import nullcontext

    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    if not enabled:
        return nullcontext(), None
    bar = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=1)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, update


@app.command("keep")
def keep_cmd(
    hand: Annotated[str, typer.Argument(help='The five dealt cards, e.g. "AsAhKs7s3s".')],
    rules: RulesOpt = "morkpoker",
    opponents: Annotated[int | None, typer.Option("--opponents", "-n", help="Opponents who draw (0-5); default: table size - 1.")] = None,
    policy: Annotated[str, typer.Option("--policy", help="Opponents' draw policy (see `drawodds policies`).")] = "standard",
    trials: Annotated[int | None, typer.Option("--trials", "-t", help="Monte Carlo trials (the maximum with --se).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same numbers.")] = 1,
    se: Annotated[float | None, typer.Option("--se", help="Stop when the best holds are separated to this standard error.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes for the Monte Carlo.")] = 1,
    by: Annotated[str | None, typer.Option("--by", help="Rank by equity, jacks, improve or points.")] = None,
    vs: Annotated[list[int] | None, typer.Option("--vs", help="An opponent's draw count (repeat per opponent).")] = None,
    against: Annotated[list[str] | None, typer.Option("--against", help="A known opponent hand that stands pat (repeat per opponent).")] = None,
    opener: Annotated[bool, typer.Option("--opener", help="Jacks or Better: we opened; show holds that split openers.")] = False,
    exact: Annotated[bool, typer.Option("--exact", help="Exact odds only (no opponents, no sampling).")] = False,
    top: Annotated[int | None, typer.Option("--top", help="Show only the best N holds.")] = None,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    players: PlayersOpt = None,
    json_out: JsonOpt = False,
    csv: Annotated[str | None, typer.Option("--csv", help="Write the rows flat to this CSV file ('-' for stdout).")] = None,
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

    if exact:
        if opponents or vs or against:
            raise UserError("--exact computes the exact odds alone: drop --opponents/--vs/--against")
        opponents = 0
    quiet = json_out or csv == "-"
    n_trials = trials if trials is not None else (1_000_000 if se is not None else 100_000)
    overrides = {k: v for k, v in {"joker": joker, "max_draw": max_draw, "players": players}.items()
                 if v is not None}
    bar, update = progress_bar("simulating", enabled=not quiet and opponents != 0)
    with bar:
        result = keep(hand, rules=rules, opponents=opponents, policy=policy, trials=n_trials, seed=seed,
                      se=se, workers=workers, by=by, vs=vs or (), against=against or (), opener=opener,
                      progress=update,
                      **overrides)
    if csv:
        result.flat().to_csv(sys.stdout if csv == "-" else csv, index=False)
        if csv == "-":
            return
    if json_out:
        emit_json(result.to_dict())
        return
    render_keep(result, top)


def render_keep(result: Any, top: int | None = None) -> None:
    """The ranked holds as a rich table: best hold starred, near-ties marked."""
    from drawodds.cards import format_hand
    from drawodds.evaluate import describe, evaluate

    rows = result.rows()[:top] if top is not None else result.rows()
    rs = result.rules
    strength = int(evaluate(result.hand, joker=rs.joker))
    plural = "s" * (result.opponents != 1)
    if not result.opponents:
        who = "no opponents: exact odds only"
    elif result.against:
        who = f"{result.opponents} opponent{plural} standing pat with {'; '.join(result.against)}"
    else:
        who = (f"{result.opponents} opponent{plural} drawing by '{result.policy}'"
               + (f" (draw counts {', '.join(map(str, result.vs))})" if result.vs else ""))
    title = (f"{format_hand(result.hand, pretty=True)}  ({describe(strength)})  rules {rs.name}, "
             f"max draw {rs.max_draw}; {who}; ranked by {result.by}")
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("keep", no_wrap=True)
    table.add_column("discard", style="dim", no_wrap=True)
    table.add_column("draw", justify="right")
    table.add_column("final hand, % (exact)", no_wrap=True)
    points_mc = "points_hand" in result.columns   # Poengpoker / Chicago against opponents
    if not points_mc:   # openers and "improve" mean little where only the best hand scores
        table.add_column("J+ %", justify="right")
        table.add_column("improve %", justify="right")
    table.add_column("table pts" if points_mc else "points", justify="right")
    if result.opener:
        table.add_column("splits openers")
    if points_mc:
        table.add_column("hand + trick pts", justify="right", no_wrap=True)
        table.add_column("points ± se", justify="right", no_wrap=True)
        table.add_column("behind best ± se", justify="right", no_wrap=True)
    elif result.opponents:
        table.add_column("equity % ± se", justify="right", no_wrap=True)
        table.add_column("behind best ± se", justify="right", no_wrap=True)
    cats = [c for c in _SHORT if c in result.columns]
    for i, row in enumerate(rows):
        dist = "  ".join(f"{_SHORT[c]} {_pct(row[c])}" for c in cats if row[c] >= 0.0005)
        keep_txt = " ".join(format_cards(parse_cards_list(row["keep"]), pretty=True)) or "(nothing)"
        discard_txt = " ".join(format_cards(parse_cards_list(row["discard"]), pretty=True)) or "-"
        cells = [str(i + 1), keep_txt, discard_txt, str(row["draw"]), dist]
        if not points_mc:
            cells += [_pct(row["p_jacks_or_better"]), _pct(row["p_improve"])]
        cells.append(f"{row['table_points' if points_mc else 'points']:.3f}")
        if result.opener:
            cells.append("yes" if row["splits_openers"] else "")
        style = None
        if result.opponents:
            if points_mc:
                scale, gap, gap_se = 1.0, row["points_gap"], row["points_diff_se"]
                cells.append(f"{row['points_hand']:.3f} + {row['points_trick']:.3f}")
                cells.append(f"{row['points']:.3f} ± {row['points_se']:.3f}")
            else:
                scale, gap, gap_se = 100.0, row["equity_gap"], row["equity_diff_se"]
                cells.append(f"{100 * row['equity']:.2f} ± {100 * row['equity_se']:.2f}")
            near = gap <= 2 * gap_se
            if gap == 0:
                cells.append("★ best")
                style = "bold green"
            else:
                digits = 3 if points_mc else 2
                cells.append(f"{'≈ ' if near else ''}{scale * gap:.{digits}f} ± {scale * gap_se:.{digits}f}")
                style = "green" if near else None
        elif i == 0:
            style = "bold green"
        table.add_row(*cells, style=style)
    out.print(table)
    notes = []
    if result.opponents:
        if result.interrupted:
            notes.append(f"[yellow]Interrupted: the figures cover the {result.trials:,} trials run so far.[/yellow]")
        notes.append(f"{result.trials:,} trials, seed {result.seed}"
                     + (f", {result.workers} workers" if result.workers > 1 else "")
                     + "; every hold is scored on the same deals, so 'behind best' is sharper than "
                     "the values themselves. ≈ marks holds within 2 standard errors of the best.")
    notes.append("Exact columns enumerate every possible draw. "
                 + ("table pts = expected table points of our hand alone (8 for a straight flush .. 0); "
                    "points = expected points this deal: the single best hand's table points plus "
                    f"the last trick ({rs.last_trick_points}), opponents exchanging and playing tricks."
                    if points_mc else "J+ = at least a pair of jacks; "
                    "points = Poengpoker table points (8 for a straight flush .. 0)."))
    for n in notes:
        out.print(f"[dim]{n}[/dim]")


def parse_cards_list(cards: list[str]) -> list[int]:
    """Canonical card strings back to codes (for pretty printing)."""
    from drawodds.cards import parse_cards

    return parse_cards(cards, joker=True)


# --- simulate -------------------------------------------------------------------------------

@app.command("simulate")
def simulate_cmd(
    rules: RulesOpt = "morkpoker",
    players: PlayersOpt = None,
    deals: Annotated[int | None, typer.Option("--deals", "-d", help="Deals to play (draw game; default 10,000).")] = None,
    games: Annotated[int | None, typer.Option("--games", "-g", help="Whole games to play (Poengpoker and Chicago only).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same deals and actions.")] = 1,
    policy: Annotated[str | None, typer.Option("--policy", "-p", help="Betting policy per seat, comma-separated (rule, reader, pat, station, random), or one for every seat.")] = None,
    history: Annotated[str | None, typer.Option("--history", help="Write every deal: JSON lines for .jsonl, else a readable text log.")] = None,
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
    bar, update = progress_bar("playing", enabled=not json_out)
    if rule_set.game != "draw":
        if deals is not None:
            raise UserError(f"{rule_set.name} is played in games to {rule_set.target_points} points: "
                            "use --games, not --deals")
        if history is not None:
            raise UserError("--history is for the draw game")
        from drawodds.points.games import simulate_points
        n_games = games if games is not None else 1000
        extra = {"policies": [p.strip() for p in policy.split(",")]} if policy else {}
        if extra and len(extra["policies"]) == 1:
            extra["policies"] = extra["policies"][0]
        with bar:
            points = simulate_points(rule_set, games=n_games, seed=seed, progress=update, **extra)
        payload = points.to_dict()
        if json_out:
            emit_json(payload)
            return
        table = Table(title=f"{rule_set.name}: {n_games:,} games, seed {seed}")
        table.add_column("result", style="bold")
        table.add_column("value", justify="right")
        for key, value in payload.items():
            table.add_row(str(key), _points_cell(value))
        out.print(table)
        return
    if games is not None:
        raise UserError("--games is for Poengpoker and Chicago; the draw game counts --deals")
    from drawodds.engine.session import simulate

    n_deals = deals if deals is not None else 10_000
    with bar:
        result = simulate(rule_set, deals=n_deals, seed=seed, policies=policy or "rule", history=history,
                          progress=(lambda k: update(k, n_deals)) if update else None)
    if json_out:
        emit_json(result.to_dict())
        return
    render_simulation(result)


def _points_cell(value: Any) -> str:
    """A value of the points summary as text: estimates as 'value ± se', lists and dicts inline."""
    if isinstance(value, dict) and set(value) == {"value", "se"}:
        return f"{value['value']:.4g} ± {value['se']:.2g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_points_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_points_cell(v) for v in value)
    return str(value)


def render_simulation(result: Any) -> None:
    """Outcome shares, pots and chips won per seat and per policy, each with its standard error."""
    r = result
    table = Table(title=f"{r.rules.name}: {r.deals:,} deals, {r.players} players, seed {r.seed} "
                        f"({r.sessions:,} sessions of up to {r.rules.deals} deals)")
    table.add_column("deals", style="bold")
    table.add_column("share %", justify="right")
    table.add_column("± se", justify="right", style="dim")
    for label, value, se in (("passed out (pot stays)", r.passed_out, r.passed_out_se),
                             ("won uncontested", r.uncontested, r.uncontested_se),
                             ("shown down", r.showdown, r.showdown_se),
                             ("opened", r.opened, r.opened_se)):
        table.add_row(label, f"{100 * value:.2f}", f"{100 * se:.2f}")
    if r.rules.opener == "jacks" and r.dead_opener == r.dead_opener:
        table.add_row("opener without openers (of opened)", f"{100 * r.dead_opener:.2f}",
                      f"{100 * r.dead_opener_se:.2f}")
    out.print(table)
    out.print(f"average pot when a deal ends: {r.average_pot:.2f} ± {r.average_pot_se:.2f} chips; "
              f"left on the table at the end: {r.pot_carried_at_end}")
    seats = Table(title="chips won")
    for col, justify in (("seat", "right"), ("policy", "left"), ("net", "right"),
                         ("per deal", "right"), ("± se", "right")):
        seats.add_column(col, justify=justify)  # type: ignore[arg-type]
    for s in r.seats:
        seats.add_row(str(s.seat), s.policy, f"{s.net:+,}", f"{s.net_per_deal:+.3f}", f"{s.net_per_deal_se:.3f}")
    for p in r.policies:
        seats.add_row("all", f"[bold]{p.policy}[/bold] ({p.seats})", f"{p.net:+,}",
                      f"{p.net_per_deal:+.3f}", f"{p.net_per_deal_se:.3f}")
    out.print(seats)

# --- read / policies -------------------------------------------------------------------------

@app.command("read")
def read_cmd(
    draw: Annotated[int, typer.Argument(help="How many cards the opponent drew (0 = stood pat).")],
    policy: Annotated[str, typer.Option("--policy", help="The opponent's draw policy: standard, loose or tight.")] = "standard",
    snow: Annotated[float, typer.Option("--snow", help="Rate at which a weak hand stands pat anyway (a bluff).")] = 0.0,
    break_rate: Annotated[float, typer.Option("--break-rate", help="Rate of breaking a pat straight/flush to draw to a straight flush.")] = 0.0,
    rules: RulesOpt = "morkpoker",
    opener: Annotated[bool, typer.Option("--opener", help="Jacks or Better: the opponent opened (holds jacks or better).")] = False,
    hand: Annotated[str | None, typer.Option("--hand", help="Our five cards: card removal, and our equity per hold.")] = None,
    trials: Annotated[int, typer.Option("--trials", "-t", help="Monte Carlo trials (final hand when not exact; equity).")] = 100_000,
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
    from drawodds.policies import draw_policy

    rs = build_rules(rules, joker=joker, max_draw=max_draw)
    pol = draw_policy(policy, snow=snow, break_rate=break_rate)
    cards = None if hand is None else parse_hand(hand, joker=rs.joker)
    if trials < 1:
        raise UserError("--trials must be at least 1")
    import contextlib

    with out.status("reading the draw...", spinner="dots") if not json_out else contextlib.nullcontext():
        result = read_draw(draw, policy=pol, rules=rs, hand=cards, opener=opener, trials=trials,
                           seed=seed, equity_trials=trials)
    if json_out:
        emit_json(result.to_dict())
        return
    render_read(result)


def render_read(result: Any) -> None:
    """The reading as three rich tables: holding before the draw, final hand, our equity."""
    who = f"policy '{result.policy}'" + (f", range {result.range.replace('_', ' ')}+" if result.range != "any" else "")
    out.print(f"[bold]Opponent drew {result.draw}[/bold] ({who}, rules {result.rules}). "
              f"A player like this draws {result.draw} with probability {_pct(result.p_draw)}%.")
    table = Table(title="Their hand before the draw (exact posterior)", title_justify="left")
    table.add_column("holding")
    table.add_column("%", justify="right")
    table.add_column("", no_wrap=True)
    for name, p in result.holding.items():
        table.add_row(name.replace("_", " "), _pct(p), "█" * int(round(40 * p)))
    out.print(table)
    exact = result.final_method == "exact"
    table = Table(title="Their final hand", title_justify="left")
    table.add_column("category")
    table.add_column("%" if exact else "% ± se", justify="right")
    for name, p in result.final.items():
        se = result.final_se[name]
        table.add_row(name.replace("_", " "), f"{100 * p:.2f}" if exact else f"{100 * p:.2f} ± {100 * se:.2f}")
    out.print(table)
    out.print("[dim]" + ("Exact: every holding and every draw enumerated." if exact else
                         f"Sampled from the exact posterior: {result.trials:,} trials, seed {result.seed}.") + "[/dim]")
    if result.equity:
        table = Table(title=f"Our holds from {' '.join(format_cards(parse_cards_list(result.hand), pretty=True))} "
                            f"against them ({result.equity_trials:,} trials, seed {result.seed})",
                      title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("keep", no_wrap=True)
        table.add_column("discard", style="dim")
        table.add_column("draw", justify="right")
        table.add_column("equity % ± se", justify="right")
        for i, e in enumerate(result.equity):
            keep_txt = " ".join(format_cards(parse_cards_list(e.keep), pretty=True)) or "(nothing)"
            table.add_row(str(i + 1), keep_txt, " ".join(e.discard) or "-", str(e.draw),
                          f"{100 * e.equity:.2f} ± {100 * e.equity_se:.2f}", style="bold green" if i == 0 else None)
        out.print(table)


@app.command("policies")
def policies_cmd(
    name: Annotated[str | None, typer.Argument(help="One policy to show (default: all).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """The draw policies as tables of hand patterns -> hold (first matching row wins).

    Examples: drawodds policies;  drawodds policies loose --json
    """
    from drawodds.policies import POLICY_DESCRIPTIONS, describe_policy, draw_policy, policy_names

    names = [draw_policy(name).name] if name else list(policy_names())
    if json_out:
        emit_json({n: {"description": POLICY_DESCRIPTIONS[n], "parameters": draw_policy(n).to_dict(),
                       "rows": [{"pattern": p, "hold": h} for p, h in describe_policy(draw_policy(n))]}
                   for n in names})
        return
    for n in names:
        table = Table(title=f"{n}: {POLICY_DESCRIPTIONS[n]}", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("hand pattern (first match wins)")
        table.add_column("keeps")
        for i, (pattern, hold) in enumerate(describe_policy(draw_policy(n)), start=1):
            table.add_row(str(i), pattern, hold)
        out.print(table)
    out.print("[dim]Options: --snow S (weak hands stand pat at rate S), --break-rate B (pat straights/flushes "
              "break to a straight-flush draw at rate B). Every hold respects the rule set's draw limit.[/dim]")


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
    policy: Annotated[str, typer.Option("--policy", help="Opponents' draw policy for equity: standard, loose, tight.")] = "standard",
    out_path: Annotated[str | None, typer.Option("--out", help="Write the table (.parquet or .csv).")] = None,
    lines: Annotated[int, typer.Option("--lines", help="Most patterns in the condensed strategy (before same-kind runs are merged).")] = 60,
    check_removal: Annotated[int, typer.Option("--check-removal", help=(
        "equity only: measure the card-removal error on this many random deals by Monte Carlo."))] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the policy and any Monte Carlo.")] = 1,
    json_out: JsonOpt = False,
) -> None:
    """Exact strategy table for every deal, and a condensed strategy derived from it.

    Examples: drawodds strategy --objective vp96;  drawodds strategy --objective equity
    --opponents 3 --out table.parquet
    """
    import numpy as np
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from drawodds.analyses.condensed import condense
    from drawodds.analyses.strategy import default_rules, parse_objective, solve

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
    rng = np.random.default_rng(seed)
    with Progress(TextColumn("{task.description:<40}"), BarColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True, disable=json_out) as bar:
        task = bar.add_task("objective", total=100)
        bar.update(task, description="field distribution" if objective == "equity" else "objective")
        obj = parse_objective(objective, rules, opponents=opponents, policy=policy)
        table = solve(obj, rules, progress=lambda stage, f: bar.update(task, description=stage,
                                                                       completed=80 * f))
        bar.update(task, description="condensed strategy", completed=85)
        condensed = condense(table, max_lines=lines)
        removal = None
        if check_removal and objective == "equity":
            from drawodds.analyses.strategy import equity_card_removal_error, make_solver, policy_chooser
            bar.update(task, description="card-removal check (Monte Carlo)", completed=92)
            removal = equity_card_removal_error(make_solver(obj, rules), opponents,
                                                policy_chooser(rules, policy, rng),
                                                deals=check_removal, seed=seed)
        if out_path:
            table.write(out_path)
        bar.update(task, completed=100)
    payload: dict[str, Any] = {"objective": obj.name.split(":")[0] if obj.name.startswith("equity")
                               else obj.name, **{k: v for k, v in table.to_dict().items() if k != "objective"}}
    payload.update(condensed.to_dict())
    payload["description"] = obj.description
    if objective == "equity":
        payload["opponents"], payload["policy"] = opponents, policy
        payload["card_removal"] = "ignored: the opponents' final hands are independent of our cards"
        if removal is not None:
            payload["card_removal_check"] = removal.to_dict()
    if out_path:
        payload["out"] = out_path
    if json_out:
        emit_json(payload)
        return
    out.print(f"[bold]{obj.description}[/bold]; rules {rules.name} (max draw {rules.max_draw})")
    out.print(f"optimal value over all {table.deals:,} deals ({table.classes:,} suit classes): "
              f"[bold]{table.value:.6f}[/bold] {obj.unit}")
    grid = Table(title=f"Condensed strategy: take the first line that matches "
                       f"(loses {condensed.loss:.6f} {obj.unit} per deal vs the exact table)")
    grid.add_column("#", justify="right")
    grid.add_column("hold pattern", style="bold")
    grid.add_column("play")
    grid.add_column("deals", justify="right")
    for i, line in enumerate(condensed.lines, start=1):
        grid.add_row(str(i), line.pattern, line.hold, f"{100 * line.share:.2f}%")
    out.print(grid)
    if objective == "equity":
        out.print("Card removal between our hand and the field is ignored in the table.")
        if removal is not None:
            out.print(f"Measured on {check_removal} random deals by Monte Carlo ({removal.trials} trials "
                      f"each, seed {seed}): table - simulation = {removal.mean_error:+.4f} "
                      f"± {removal.mean_error_se:.4f}; per-deal RMS error {removal.rms_error:.4f} "
                      f"(simulation noise removed); best-minus-runner-up gap RMS error "
                      f"{removal.gap_error_rms:.4f}; decisions reversed beyond 2 SE: "
                      f"{removal.flips} of {check_removal}")
    if out_path:
        out.print(f"table written to {out_path}")


# --- lesson ---------------------------------------------------------------------------------

@app.command("lesson")
def lesson_cmd(
    topic: Annotated[str, typer.Argument(help="The lesson: 'pat' (standing pat is a move).")] = "pat",
    deals: Annotated[int, typer.Option("--deals", help="Two-pair deals played per opponent type and line.")] = 20_000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same numbers.")] = 1,
    rules: RulesOpt = "morkpoker",
    out_md: Annotated[str | None, typer.Option("--markdown", help="Also write the lesson as Markdown to this file.")] = None,
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

    bar, update = progress_bar("playing deals", enabled=not json_out)
    with bar:
        lesson = standing_pat(deals=deals, seed=seed, rules=rules, progress=update)
    text = lesson.to_markdown()
    if out_md:
        with open(out_md, "w", encoding="utf-8") as fh:
            fh.write(text)
    if json_out:
        emit_json(lesson.to_dict())
        return
    from rich.markdown import Markdown

    out.print(Markdown(text))


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
        res = op.p_somebody_else_opens(parse_hand(hand), sizes[0], deals=deals or 200_000, seed=seed)
        if json_out:
            emit_json(res.to_dict())
            return
        how = ("exact" if res.method == "exact"
               else f"Monte Carlo, {res.deals:,} deals, seed {res.seed}, ± {res.se:.4f} (1 SE)")
        out.print(f"{' '.join(format_cards(list(res.hand), pretty=True))} at a table of {res.players}: "
                  f"somebody else can open with probability [bold]{res.probability:.4f}[/bold] ({how})")
        return
    rows = []
    bar, update = progress_bar("playing", enabled=bool(deals) and not json_out)
    total = 2 * deals * len(sizes)
    with bar:
        for i, n in enumerate(sizes):
            tick = (lambda k, base=2 * deals * i: update(base + k, total)) if update else None
            play = (op.play_figures(n, deals, seed, ante=ante, max_consecutive_antes=max_antes, progress=tick)
                    if deals else None)
            rows.append(op.table_odds(n, ante=ante, max_consecutive_antes=max_antes, seed=seed, play=play))
    payload = {"single_hand_openers": op.SINGLE_HAND_OPENERS, "hands": op.ALL_HANDS,
               "p_single_hand_openers": float(op.P_SINGLE_OPENERS), "ante": ante,
               "max_consecutive_antes": max_antes, "deals": deals, "seed": seed,
               "players": [r.to_dict() for r in rows]}
    if json_out:
        emit_json(payload)
        return
    out.print(f"One hand holds openers: {op.SINGLE_HAND_OPENERS:,} / {op.ALL_HANDS:,} = "
              f"{float(op.P_SINGLE_OPENERS):.5f}")
    table = Table(title=f"Jacks or Better pass-outs (ante {ante}"
                        f"{f', at most {max_antes} antes in a row' if max_antes else ''})")
    for col in ("players", "nobody opens", "independent", "deals per opened pot", "pot at opening"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in rows:
        d = r.to_dict()
        nobody = (_fmt(d["p_nobody_opens"]) if d["p_nobody_opens"] is not None
                  else f"{d['p_nobody_opens_mc']:.4f}±{d['p_nobody_opens_mc_se']:.4f} MC")
        mark = "" if r.exact else " MC"
        table.add_row(str(r.n), nobody, _fmt(d["p_nobody_opens_independent"]),
                      _fmt(d["expected_deals_per_opened_pot"], 3) + mark,
                      _fmt(d["expected_pot_at_opening"], 2) + mark)
    out.print(table)
    if not all(r.exact for r in rows):
        out.print("MC: no exact count shipped for this size; Monte Carlo estimate ± 1 SE "
                  f"({op.FALLBACK_MC_DEALS:,} deals, seed {seed}); the pot figures follow from it.")
    out.print("Exact: counted over one shared deck; independent: (1-p)^n. Pot: antes only, "
              "assuming anyone with openers opens.")
    waits = Table(title="Pass-outs before the pot opens: P(k pass-outs) (pot at opening, antes only)")
    waits.add_column("players", justify="right")
    for k in range(6):
        waits.add_column(f"k={k}" if k < 5 else "k>=5", justify="right")
    for r in rows:
        probs = r.passouts_distribution[:5] + [1 - sum(r.passouts_distribution[:5])]
        pots = [r.n * ante * min(k + 1, max_antes or k + 1) for k in range(6)]
        cells = [f"{p:.3f} ({pot})" for p, pot in zip(probs, pots, strict=False)]
        cells[-1] = f"{probs[-1]:.3f} ({'' if max_antes and max_antes <= 6 else '>='}{pots[-1]})"
        waits.add_row(str(r.n), *cells)
    out.print(waits)
    if deals:
        play = Table(title=f"Under play: rules engine, rule-based policies, {deals:,} deals per size "
                           f"and game, seed {seed} (± 1 SE)")
        keys = ("passed_out", "uncontested", "showdown", "dead_opener",
                "plain_passed_out", "plain_uncontested", "plain_showdown")
        for col in ("players", "passed out", "uncontested", "showdown", "dead opener",
                    "plain: all check", "plain: uncontested", "plain: showdown"):
            play.add_column(col, justify="right", no_wrap=True)
        for r in rows:
            d = r.to_dict()
            play.add_row(str(r.n), *(_fmt_se(d, key) for key in keys))
        out.print(play)
        out.print("Passed out: share of all deals. Uncontested, showdown, dead opener: shares of the "
                  "pots that were opened. Plain game: preset morkpoker, where a deal is passed out "
                  "when everybody checks.")


def _fmt(value: object, digits: int = 5) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _fmt_se(d: dict[str, Any], key: str) -> str:
    value, se = d.get(key), d.get(f"{key}_se")
    return "n/a" if value is None else f"{value:.3f}±{se:.3f}"


# --- charts ---------------------------------------------------------------------------------

@app.command("charts")
def charts_cmd(
    topics: Annotated[list[str] | None, typer.Argument(help="reading, openers, points, strategy (default: all).")] = None,
    out_dir: Annotated[str, typer.Option("--out", help="Folder for the PNG files.")] = "reports",
) -> None:
    """Redraw the charts in reports/ from the library (a few minutes for all of them).

    Examples:

      drawodds charts

      drawodds charts reading openers --out /tmp/charts
    """
    from drawodds.charts import TOPICS, regenerate

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
        exc.show()
        sys.exit(exc.exit_code)
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
