"""A library error raised under Swedish or Norwegian reads in that language, numbers written its way,
and a front door's names for the parameters still replace the library's."""

from __future__ import annotations

import pytest

from drawodds import i18n
from drawodds.cards import parse_hand
from drawodds.errors import KEEP_TRIALS, DrawoddsError, check_fraction


def message(call, *args, names=None) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(DrawoddsError) as caught:
        call(*args)
    return caught.value.worded(names) if names else str(caught.value)


def test_a_duplicate_card_reads_in_swedish_and_norwegian() -> None:
    assert message(parse_hand, "As Ah As 7s 3s") == "card 3 'As': duplicate of card 1"
    with i18n.use("sv"):
        assert message(parse_hand, "Es Eh Es 7s 3s") == "kort 3 'Es': samma som kort 1"
    with i18n.use("nb"):
        assert message(parse_hand, "Es Eh Es 7s 3s") == "kort 3 'Es': samme som kort 1"


def test_a_bad_trial_count_reads_in_swedish_with_its_numbers_and_the_flag() -> None:
    flags = {"trials": "--trials"}
    assert (message(KEEP_TRIALS.check, 1, names=flags)
            == "--trials must be at least 2 (a standard error needs two), got 1")
    assert message(KEEP_TRIALS.check, 200_000_000) == "trials can be at most 100,000,000, got 200,000,000"
    with i18n.use("sv"):
        assert (message(KEEP_TRIALS.check, 1, names=flags)
                == "--trials måste vara minst 2 (ett medelfel kräver två), inte 1")
        assert (message(KEEP_TRIALS.check, 200_000_000)
                == "trials får vara högst 100\u00a0000\u00a0000, inte 200\u00a0000\u00a0000")
    with i18n.use("nb"):
        assert (message(KEEP_TRIALS.check, 1, names=flags)
                == "--trials må være minst 2 (en standardfeil krever to), ikke 1")


def test_a_shared_check_names_its_own_parameter_in_every_language() -> None:
    assert message(check_fraction, 1.5, "se", names={"se": "--se"}) == "--se must be a number between 0 and 1, got 1.5"
    with i18n.use("sv"):
        assert (message(check_fraction, 1.5, "se", names={"se": "--se"})
                == "--se måste vara ett tal mellan 0 och 1, inte 1,5")


def test_an_error_wrapping_another_words_both_in_the_language() -> None:
    inner = DrawoddsError("{parameter} must be at least {low}, got {value}", "trials", low=2, value=1)
    outer = DrawoddsError("{reason} (our hand {hand})", "trials", reason=inner, hand="As Ah")
    assert outer.worded({"trials": "--trials"}) == "--trials must be at least 2, got 1 (our hand As Ah)"
    with i18n.use("sv"):
        assert outer.worded({"trials": "--trials"}) == "--trials måste vara minst 2, inte 1 (vår hand As Ah)"
