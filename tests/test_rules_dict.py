"""RuleSet.to_dict / RuleSet.from_dict: a JSON round trip for every preset and random valid options,
and bad input refused with a RuleError."""

from __future__ import annotations

import json
import typing
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from drawodds.errors import DrawoddsError
from drawodds.rules import RuleError, RuleSet, preset, preset_names

KINDS = typing.get_type_hints(RuleSet)
OPTIONS = [name for name in KINDS if name not in ("name", "sources")]


def _values(kind: Any) -> st.SearchStrategy[Any]:
    """Plausible values of one option's kind (some combinations are refused; those are skipped)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is Literal:
        return st.sampled_from(args)
    if kind is bool:
        return st.booleans()
    if kind is int:
        return st.integers(0, 60)
    if origin is tuple:
        return st.one_of(st.just(()), st.lists(st.integers(0, 9), min_size=2, max_size=9).map(tuple))
    return st.one_of(st.none(), st.integers(0, 6))   # int | None


def _json_round_trip(rules: RuleSet) -> RuleSet:
    return RuleSet.from_dict(json.loads(json.dumps(rules.to_dict())))


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_survives_a_json_round_trip(name: str) -> None:
    rules = preset(name)
    values = rules.to_dict()
    assert list(values) == ["name", *OPTIONS]       # every option, in declaration order
    assert all(not isinstance(v, tuple) for v in values.values())  # JSON-native: tuples become lists
    back = _json_round_trip(rules)
    assert back == rules and back.to_dict() == values


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(name=st.sampled_from(preset_names()),
       changes=st.lists(st.sampled_from(OPTIONS), max_size=6, unique=True)
       .flatmap(lambda keys: st.fixed_dictionaries({k: _values(KINDS[k]) for k in keys})))
def test_random_valid_rule_sets_survive_a_json_round_trip(name: str, changes: dict[str, Any]) -> None:
    try:
        rules = preset(name, **changes)
    except RuleError:
        assume(False)
        return
    back = _json_round_trip(rules)
    assert back == rules
    assert {k: getattr(back, k) for k in changes} == {k: getattr(rules, k) for k in changes}


def test_missing_options_come_from_the_named_preset() -> None:
    assert RuleSet.from_dict({"name": "jackpot", "joker": True}) == preset("jackpot", joker=True)
    assert RuleSet.from_dict({}) == preset("morkpoker")
    assert RuleSet.from_dict({"name": "house", "ante": 2}) == RuleSet(name="house", ante=2)


@pytest.mark.parametrize("bad, words", [
    (["name", "jackpot"], "dict of options"),
    ({"name": "morkpoker", "colour": "red"}, "unknown rule option 'colour'"),
    ({"sources": {}}, "unknown rule option 'sources'"),
    ({"name": 7}, "name must be text"),
    ({"players": 4.5}, "players must be a whole number"),
    ({"players": "4"}, "players must be a whole number"),
    ({"hand_points": [1, 2]}, "hand_points needs 9 values"),
    ({"hand_points": "012345678"}, "hand_points must be a tuple of whole numbers"),
    ({"max_draw": "7"}, "max draw must be one of"),
    ({"blinds": [2, 1]}, "blinds must increase"),
    ({"opener": "queens"}, "opener must be any or jacks"),
])
def test_bad_input_is_refused_in_one_sentence(bad: Any, words: str) -> None:
    with pytest.raises(DrawoddsError, match=words) as caught:
        RuleSet.from_dict(bad)
    assert isinstance(caught.value, RuleError) and "\n" not in str(caught.value)
