"""The `drawodds` command line: a thin typer layer that parses, calls the library, renders.

Every user error (bad card, bad option) becomes one line on stderr and exit code 2.
Heavy modules are imported inside the commands so that start-up stays quick.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Annotated, Any, Optional

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
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Show the version and exit.")] = None,
) -> None:
    """Odds and strategy for five-card draw."""


# --- shared options -------------------------------------------------------------------------

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Rule set preset: " + ", ".join(preset_names()))]
JokerOpt = Annotated[Optional[bool], typer.Option("--joker/--no-joker", help="Play with the joker (53 cards).")]
MaxDrawOpt = Annotated[Optional[str], typer.Option("--max-draw", help="Draw limit: 3, 4-ace, 4, 5 or any.")]
DrawsOpt = Annotated[Optional[int], typer.Option("--draws", help="Number of draws (2 = double draw).")]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", help="Players at the table.")]
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
    name: Annotated[Optional[str], typer.Argument(help="A preset to show in full.")] = None,
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
    opponents: Annotated[Optional[int], typer.Option("--opponents", "-n", help="Opponents who draw (0-5); default: table size - 1.")] = None,
    policy: Annotated[str, typer.Option("--policy", help="Opponents' draw policy (see `drawodds policies`).")] = "standard",
    trials: Annotated[Optional[int], typer.Option("--trials", "-t", help="Monte Carlo trials (the maximum with --se).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same numbers.")] = 1,
    se: Annotated[Optional[float], typer.Option("--se", help="Stop when the best holds are separated to this standard error.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes for the Monte Carlo.")] = 1,
    by: Annotated[Optional[str], typer.Option("--by", help="Rank by equity, jacks, improve or points.")] = None,
    vs: Annotated[Optional[list[int]], typer.Option("--vs", help="An opponent's draw count (repeat per opponent).")] = None,
    against: Annotated[Optional[list[str]], typer.Option("--against", help="A known opponent hand that stands pat (repeat per opponent).")] = None,
    opener: Annotated[bool, typer.Option("--opener", help="Jacks or Better: we opened; show holds that split openers.")] = False,
    exact: Annotated[bool, typer.Option("--exact", help="Exact odds only (no opponents, no sampling).")] = False,
    top: Annotated[Optional[int], typer.Option("--top", help="Show only the best N holds.")] = None,
    joker: JokerOpt = None,
    max_draw: MaxDrawOpt = None,
    players: PlayersOpt = None,
    json_out: JsonOpt = False,
    csv: Annotated[Optional[str], typer.Option("--csv", help="Write the rows flat to this CSV file ('-' for stdout).")] = None,
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
    from drawodds.keep import keep

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
    table.add_column("discard", style="dim")
    table.add_column("draw", justify="right")
    table.add_column("final hand, % (exact)", no_wrap=True)
    table.add_column("J+ %", justify="right")
    table.add_column("improve %", justify="right")
    table.add_column("points", justify="right")
    if result.opener:
        table.add_column("splits openers")
    if result.opponents:
        table.add_column("equity % ± se", justify="right")
        table.add_column("behind best ± se", justify="right")
    cats = [c for c in _SHORT if c in result.columns]
    for i, row in enumerate(rows):
        dist = "  ".join(f"{_SHORT[c]} {_pct(row[c])}" for c in cats if row[c] >= 0.0005)
        keep_txt = " ".join(format_cards(parse_cards_list(row["keep"]), pretty=True)) or "(nothing)"
        discard_txt = " ".join(format_cards(parse_cards_list(row["discard"]), pretty=True)) or "-"
        cells = [str(i + 1), keep_txt, discard_txt, str(row["draw"]), dist,
                 _pct(row["p_jacks_or_better"]), _pct(row["p_improve"]), f"{row['points']:.3f}"]
        if result.opener:
            cells.append("yes" if row["splits_openers"] else "")
        style = None
        if result.opponents:
            gap, gap_se = row["equity_gap"], row["equity_diff_se"]
            cells.append(f"{100 * row['equity']:.2f} ± {100 * row['equity_se']:.2f}")
            near = gap <= 2 * gap_se
            if gap == 0:
                cells.append("★ best")
                style = "bold green"
            else:
                cells.append(f"{'≈ ' if near else ''}{100 * gap:.2f} ± {100 * gap_se:.2f}")
                style = "green" if near else None
        elif i == 0:
            style = "bold green"
        table.add_row(*cells, style=style)
    out.print(table)
    notes = []
    if result.opponents:
        notes.append(f"{result.trials:,} trials, seed {result.seed}"
                     + (f", {result.workers} workers" if result.workers > 1 else "")
                     + "; every hold is scored on the same deals, so 'behind best' is sharper than the equities. "
                     "≈ marks holds within 2 standard errors of the best.")
    notes.append("Exact columns enumerate every possible draw. J+ = at least a pair of jacks; "
                 "points = Poengpoker table points (8 for a straight flush .. 0).")
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
    deals: Annotated[Optional[int], typer.Option("--deals", "-d", help="Deals to play (draw game; default 10,000).")] = None,
    games: Annotated[Optional[int], typer.Option("--games", "-g", help="Whole games to play (Poengpoker and Chicago only).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same deals and actions.")] = 1,
    policy: Annotated[Optional[str], typer.Option("--policy", "-p", help="Betting policy per seat, comma-separated (rule, station, random), or one for every seat.")] = None,
    history: Annotated[Optional[str], typer.Option("--history", help="Write every deal: JSON lines for .jsonl, else a readable text log.")] = None,
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
        try:
            from drawodds.sim.tricks import simulate_points  # type: ignore[attr-defined]
        except ImportError:
            from drawodds.sim.points import simulate_points
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
            table.add_row(str(key), json.dumps(value, ensure_ascii=False, default=_json_default)
                          if isinstance(value, (dict, list)) else str(value))
        out.print(table)
        return
    if games is not None:
        raise UserError("--games is for Poengpoker and Chicago; the draw game counts --deals")
    from drawodds.sim.session import simulate

    n_deals = deals if deals is not None else 10_000
    with bar:
        result = simulate(rule_set, deals=n_deals, seed=seed, policies=policy or "rule", history=history,
                          progress=(lambda k: update(k, n_deals)) if update else None)
    if json_out:
        emit_json(result.to_dict())
        return
    render_simulation(result)


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


# --- openers --------------------------------------------------------------------------------

def _players_range(text: str) -> list[int]:
    """'2-8' -> [2, ..., 8]; '4' -> [4]; '2,4,6' -> [2, 4, 6]."""
    from drawodds.sim.openers import MAX_PLAYERS, MIN_PLAYERS
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
    max_antes: Annotated[Optional[int], typer.Option(
        "--max-antes", help="House limit on consecutive antes into one pot (default: none).")] = None,
    deals: Annotated[int, typer.Option("--deals", help="Deals to play per table size with the rules "
                                       "engine (rule-based policies); 0 = skip play. With --hand: "
                                       "Monte Carlo deals when the count is not exact (default 200,000).")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Random seed for play and Monte Carlo.")] = 1,
    hand: Annotated[Optional[str], typer.Option("--hand", help="My five cards: chance somebody else can open.")] = None,
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
    from drawodds.sim import openers as op

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
        cells = [f"{p:.3f} ({pot})" for p, pot in zip(probs, pots)]
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
