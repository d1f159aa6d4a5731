"""Look-ups that need no computing: one hand evaluated, the rule-set presets, the draw policies.

Each returns a small result whose ``to_dict()`` is the matching command's ``--json``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from drawodds.cards import format_cards, parse_hand
from drawodds.errors import RequestError
from drawodds.evaluate import category_name, describe, evaluate
from drawodds.policies import POLICY_DESCRIPTIONS, describe_policy, draw_policy, policy_names
from drawodds.results import Result
from drawodds.rules import OPTION_SOURCES, PRESET_DESCRIPTIONS, RuleSet, preset, preset_names

STRENGTHS = 7462    # distinct hand strengths without the joker
JOKER_STRENGTHS = 7463    # with it: five aces is one more


@dataclass(frozen=True, repr=False)
class HandReport(Result):
    """One hand: its cards, category, strength (larger is better; of ``strengths`` in the deck it was
    dealt from, 7,463 with the joker) and description."""

    cards: list[str]
    category: str
    strength: int
    description: str     # English; i18n.worded() words it for a reader
    strengths: int = STRENGTHS


def hand_report(hand: str | Iterable[str], *, joker: bool = False) -> HandReport:
    """Evaluate one five-card hand given as text (or one token per card)."""
    cards = parse_hand(hand, joker=joker)
    strength = int(evaluate(cards, joker=joker))
    return HandReport(format_cards(cards), category_name(strength), strength, describe(strength),
                      JOKER_STRENGTHS if joker else STRENGTHS)


@dataclass(frozen=True, repr=False)
class PresetList(Result):
    """The rule-set presets by name, each with one line saying what it is."""

    presets: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.presets)


def preset_list() -> PresetList:
    """Every preset and its description."""
    return PresetList({name: PRESET_DESCRIPTIONS[name] for name in preset_names()})


@dataclass(frozen=True, repr=False)
class RuleSheet(Result):
    """Every option of one rule set with its value and where the rule comes from."""

    name: str
    description: str
    values: dict[str, Any]
    sources: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.values)


def rule_sheet(rules: str | RuleSet) -> RuleSheet:
    """The options of a preset (or a rule set) in declaration order."""
    rs = preset(rules) if isinstance(rules, str) else rules
    values = {f.name: getattr(rs, f.name) for f in dataclasses.fields(rs) if f.name != "sources"}
    return RuleSheet(rs.name, PRESET_DESCRIPTIONS.get(rs.name, ""), values,
                     {k: OPTION_SOURCES.get(k, "") for k in values})


@dataclass(frozen=True, repr=False)
class PolicySheet(Result):
    """One draw policy as a table: hand pattern -> what it keeps (first matching row wins)."""

    name: str
    description: str
    parameters: dict[str, Any]
    rows: list[tuple[str, str]]

    def to_dict(self) -> dict[str, Any]:
        return {"description": self.description, "parameters": self.parameters,
                "rows": [{"pattern": p, "hold": h} for p, h in self.rows]}


@dataclass(frozen=True, repr=False)
class PolicyBook(Result):
    """The draw policies the simulated opponents follow."""

    policies: tuple[PolicySheet, ...]

    def to_dict(self) -> dict[str, Any]:
        return {p.name: p.to_dict() for p in self.policies}


def policy_book(name: str | None = None) -> PolicyBook:
    """One named draw policy, or all of them (None)."""
    if name is not None and not name.strip():
        raise RequestError("{name}: a policy name is needed (or none for all of them), got {value}", "name",
                           value=repr(name))
    names = [draw_policy(name).name] if name else list(policy_names())
    return PolicyBook(tuple(PolicySheet(n, POLICY_DESCRIPTIONS[n], draw_policy(n).to_dict(),
                                        describe_policy(draw_policy(n))) for n in names))
