"""A hand in words reads in the reader's language, with the glossary's words; JSON stays English."""

from __future__ import annotations

from drawodds import i18n
from drawodds.analyses.reference import hand_report
from drawodds.cards import parse_hand
from drawodds.evaluate import describe, evaluate
from drawodds.results import json_data


def words(hand: str) -> str:
    return i18n.worded(describe(int(evaluate(parse_hand(hand)))))


def test_hands_in_swedish_and_norwegian() -> None:
    hands = ("AsAhKs7s3s", "KsKh7c7d2s", "9s9h9dKcKd", "As2c3d4h5s", "7s5h4c3d2s")
    with i18n.use("sv"):
        assert [words(h) for h in hands] == ["ett par ess, K-7-3", "två par, kungar och sjuor, 2 som kicker",
                                             "kåk, nior över kungar", "stege till femma", "sjua högt, 5-4-3-2"]
    with i18n.use("nb"):
        assert [words(h) for h in hands] == ["par i ess, K-7-3", "to par, konger og syvere, 2 som kicker",
                                             "hus, niere over konger", "straight til femmer",
                                             "syver høyt, 5-4-3-2"]
    assert words("KsKh7c7d2s") == "two pair, kings and sevens, 2 kicker"


def test_a_hand_report_reads_in_swedish_and_its_json_stays_english() -> None:
    with i18n.use("sv"):
        report = hand_report("Es Eh Ks 7s 3s")
        assert i18n.worded(report.description) == "ett par ess, K-7-3"
        assert json_data(report)["description"] == "pair of aces, K-7-3"
