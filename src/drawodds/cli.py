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
