"""The library calls behind the pages and the API, each with the options it takes from a query.

One call per request: the query's options become the library's keyword arguments as the command's
flags would (``calls.KEEP`` is ``drawodds keep``'s options), and the library checks and defaults
everything (the Monte Carlo's worker processes too, as for the command).
"""

from __future__ import annotations

from typing import Any

from drawodds.analyses.keep import KeepResult, keep
from drawodds.analyses.read import DrawReading, read_draw
from drawodds.cli.options import build_rules
from drawodds.errors import RequestError
from drawodds.web.jobs import Job
from drawodds.web.params import Option

_RULE_OPTIONS = (Option("rules", "rules"), Option("joker", "joker", bool), Option("max-draw", "max_draw"),
                 Option("joker-ace", "joker_is_ace_for_draw", bool))
KEEP = (Option("hand", "hand"), *_RULE_OPTIONS, Option("players", "players", int),
        Option("opponents", "opponents", int), Option("policy", "policy"), Option("trials", "trials", int),
        Option("seed", "seed", int), Option("se", "se", float), Option("by", "by"),
        Option("vs", "vs", int, many=True), Option("against", "against", many=True),
        Option("opener", "opener", bool), Option("range", "hand_range"), Option("workers", "workers", int))
READ = (Option("draw", "draw", int), *_RULE_OPTIONS, Option("policy", "policy"), Option("snow", "snow", float),
        Option("break-rate", "break_rate", float), Option("opener", "opener", bool), Option("hand", "hand"),
        Option("trials", "trials", int), Option("seed", "seed", int), Option("range", "hand_range"),
        Option("workers", "workers", int))
_RULES = ("rules", "joker", "max_draw", "joker_is_ace_for_draw", "players")


def _rules(args: dict[str, Any]) -> Any:
    """The rule set of the options (popped from ``args``), as ``build_rules`` makes it for the command."""
    given = {k: args.pop(k) for k in _RULES if k in args}
    return build_rules(given.pop("rules", "morkpoker"), **given)


def _required(args: dict[str, Any], name: str, what: str) -> Any:
    if name not in args:
        raise RequestError("Missing argument '{name}'.", name=what)
    return args.pop(name)


def run_keep(args: dict[str, Any], job: Job) -> KeepResult:
    """``drawodds keep`` with these options."""
    args = dict(args)
    hand = _required(args, "hand", "HAND")
    rules = _rules(args)
    return keep(hand, rules=rules, progress=job.update, **args)


def run_read(args: dict[str, Any], job: Job) -> DrawReading:
    """``drawodds read`` with these options."""
    args = dict(args)
    draw = _required(args, "draw", "DRAW")
    rules = _rules(args)
    return read_draw(draw, rules=rules, progress=job.update if args.get("hand") else None, **args)
