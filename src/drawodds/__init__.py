"""drawodds: odds and strategy for five-card draw as played in Scandinavian homes.

The public API, for notebooks and scripts::

    import drawodds
    hand = drawodds.parse_hand("AsAhKs7s3s")
    drawodds.evaluate(hand)            # strength, larger is better
    drawodds.preset("jackpot")         # a RuleSet
    drawodds.keep("AsAhKs7s3s", opponents=3).table   # every hold ranked, as a DataFrame
    drawodds.read_draw(3)              # what an opponent's draw of three says

    # One deal, step by step (cards are dealt one at a time from the top of ``deck``):
    state = drawodds.DealState(drawodds.preset(), [40] * 4, 3, list(range(52)))
    state.legal(); state.apply(drawodds.BET)

Every result has ``to_dict()`` (its JSON), a one-line ``repr`` and an HTML view in Jupyter.
Every request the library cannot serve raises a ``DrawoddsError`` with a one-sentence message.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Each public name and the module that defines it, as (module, name there): loaded at first use
# (PEP 562), so that `import drawodds` and the command line start without the analyses.
_LAZY: dict[str, tuple[str, str]] = {
    **{n: ("drawodds.analyses.condensed", n) for n in ("HandCheck", "StrategyReport", "check_hand", "condense",
                                                                 "strategy_report")},
    "strategy": ("drawodds.analyses.condensed", "strategy_report"),
    **{n: ("drawodds.analyses.keep", n) for n in ("KeepResult", "keep")},
    **{n: ("drawodds.analyses.lessons", n) for n in ("PatLesson", "standing_pat")},
    **{n: ("drawodds.analyses.openers", n) for n in ("OpenersTable", "p_somebody_else_opens", "table_odds")},
    "openers": ("drawodds.analyses.openers", "table"),
    **{n: ("drawodds.analyses.read", n) for n in ("DrawReading", "read_draw")},
    "read": ("drawodds.analyses.read", "read_draw"),
    "hand_report": ("drawodds.analyses.reference", "hand_report"),
    **{n: ("drawodds.cards", n) for n in ("CardError", "format_cards", "format_hand", "parse_cards", "parse_hand")},
    **{n: ("drawodds.engine.deal", n) for n in ("BET", "CALL", "CHECK", "FOLD", "MUCK", "RAISE", "SHOW",
                                                "STAND_PAT", "DealState", "IllegalAction", "draw")},
    **{n: ("drawodds.engine.session", n) for n in ("SimulationResult", "simulate")},
    **{n: ("drawodds.errors", n) for n in ("DrawoddsError", "RequestError")},
    **{n: ("drawodds.evaluate", n) for n in ("CATEGORIES", "category_name", "category_of", "describe", "evaluate")},
    **{n: ("drawodds.points.games", n) for n in ("PointsSimulationResult", "simulate_points")},
    **{n: ("drawodds.rules", n) for n in ("RuleError", "RuleSet", "preset", "preset_names")},
}

__all__ = [
    "BET", "CALL", "CATEGORIES", "CHECK", "FOLD", "MUCK", "RAISE", "SHOW", "STAND_PAT", "CardError",
    "DealState", "DrawReading", "DrawoddsError", "HandCheck", "IllegalAction", "KeepResult", "OpenersTable",
    "PatLesson", "PointsSimulationResult", "RequestError", "RuleError", "RuleSet", "SimulationResult",
    "StrategyReport", "__version__", "category_name", "category_of", "check_hand", "condense", "describe", "draw",
    "evaluate", "format_cards",
    "format_hand", "hand_report", "keep", "openers", "p_somebody_else_opens", "parse_cards", "parse_hand",
    "preset", "preset_names", "read", "read_draw", "simulate", "simulate_points", "standing_pat", "strategy",
    "strategy_report", "table_odds",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module at first use, then keep it here."""
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'drawodds' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """The package itself: importing a submodule never hides the public name it shares (``evaluate``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType):
            return      # the import system binds each submodule on its package; the function keeps the name
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


if TYPE_CHECKING:   # the same names, eagerly, for type checkers and editors
    from drawodds.analyses.condensed import StrategyReport, condense, strategy_report
    from drawodds.analyses.condensed import strategy_report as strategy
    from drawodds.analyses.keep import KeepResult, keep
    from drawodds.analyses.lessons import PatLesson, standing_pat
    from drawodds.analyses.openers import OpenersTable, p_somebody_else_opens, table_odds
    from drawodds.analyses.openers import table as openers
    from drawodds.analyses.read import DrawReading, read_draw
    from drawodds.analyses.read import read_draw as read
    from drawodds.analyses.reference import hand_report
    from drawodds.cards import CardError, format_cards, format_hand, parse_cards, parse_hand
    from drawodds.engine.deal import (
        BET,
        CALL,
        CHECK,
        FOLD,
        MUCK,
        RAISE,
        SHOW,
        STAND_PAT,
        DealState,
        IllegalAction,
        draw,
    )
    from drawodds.engine.session import SimulationResult, simulate
    from drawodds.errors import DrawoddsError, RequestError
    from drawodds.evaluate import CATEGORIES, category_name, category_of, describe, evaluate
    from drawodds.points.games import PointsSimulationResult, simulate_points
    from drawodds.rules import RuleError, RuleSet, preset, preset_names
