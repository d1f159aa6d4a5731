"""The `drawodds` command line: a thin typer layer that parses, calls the library, renders.

Every user error (bad card, bad option) becomes one line on stderr and exit code 2.
Heavy modules are imported inside the commands so that start-up stays quick.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Annotated, Any, Optional

import click
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
out = Console()


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
                                       "engine (rule-based policies); 0 = skip play.")] = 0,
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
    for n in sizes:
        play = op.play_figures(n, deals, seed, ante=ante, max_consecutive_antes=max_antes) if deals else None
        rows.append(op.table_odds(n, ante=ante, max_consecutive_antes=max_antes, play=play))
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
        table.add_column(col, justify="right")
    if deals:
        for col in ("uncontested", "showdown", "dead opener", "plain: all check"):
            table.add_column(col, justify="right")
    for r in rows:
        d = r.to_dict()
        nobody = (_fmt(d["p_nobody_opens"]) if d["p_nobody_opens"] is not None
                  else f"{d['p_nobody_opens_mc']:.4f} ± {d['p_nobody_opens_mc_se']:.4f} MC")
        cells = [str(r.n), nobody, _fmt(d["p_nobody_opens_independent"]),
                 _fmt(d["expected_deals_per_opened_pot"], 3), _fmt(d["expected_pot_at_opening"], 2)]
        if deals:
            cells += [_fmt_se(d, "uncontested"), _fmt_se(d, "showdown"), _fmt_se(d, "dead_opener"),
                      _fmt_se(d, "plain_passed_out")]
        table.add_row(*cells)
    out.print(table)
    out.print("Exact: counted over one shared deck; independent: (1-p)^n. Pot: antes only, "
              "assuming anyone with openers opens." + (f" Play: {deals:,} deals per size, seed {seed}, "
                                                       "shares of opened pots ± 1 SE." if deals else ""))


def _fmt(value: object, digits: int = 5) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _fmt_se(d: dict[str, Any], key: str) -> str:
    value, se = d.get(key), d.get(f"{key}_se")
    return "n/a" if value is None else f"{value:.3f} ± {se:.3f}"


# --- entry point ----------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> None:
    """Run the app; user errors print one line and exit 2, never a traceback."""
    try:
        app(args=argv, standalone_mode=False, prog_name="drawodds")
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        print("drawodds: aborted", file=sys.stderr)
        sys.exit(130)
    except KeyboardInterrupt:
        print("drawodds: interrupted", file=sys.stderr)
        sys.exit(130)
    except (CardError, RuleError, UserError, ValueError) as exc:
        print(f"drawodds: error: {exc}", file=sys.stderr)
        sys.exit(2)
    sys.exit(0)
