"""Fine hold patterns: what a printed list may split a coarse pattern into, and how it names them."""

from __future__ import annotations

import numpy as np
import pytest

from drawodds.analyses.strategy import suit_classes
from drawodds.cards import parse_cards, parse_hand
from drawodds.holds import HOLD_POSITIONS
from drawodds.patterns import (
    K,
    coarse_codes,
    fine_codes,
    hold_pattern_codes,
    hold_pattern_label,
    mergeable,
    merged_label,
    pattern_count,
    split_line,
)


@pytest.fixture(scope="module", params=[False, True], ids=["52 cards", "joker"])
def codes(request):
    reps, _ = suit_classes(request.param)
    return hold_pattern_codes(reps, request.param), hold_pattern_codes(reps, request.param, fine=True)


def test_fine_patterns_refine_the_coarse_ones_exactly(codes):
    coarse, fine = codes
    np.testing.assert_array_equal(coarse_codes(fine), coarse)
    forms: dict[int, set[int]] = {}
    for c, f in set(zip(coarse.ravel().tolist(), fine.ravel().tolist(), strict=True)):
        forms.setdefault(c, set()).add(f)
    # every fine form a coarse pattern lists occurs, and no other
    assert all(set(fine_codes(c)) == found for c, found in forms.items())
    # no fine code is also a coarse code with other fine forms, and every fine pattern has its own words
    present = set(fine.ravel().tolist())
    assert not any(len(fine_codes(f)) > 1 for f in present)
    assert len({hold_pattern_label(f) for f in present}) == len(present)


def _label(hand: str, kept: str, fine: bool = True) -> str:
    deal = np.sort(parse_hand(hand))
    want = set(parse_cards(kept))
    mask = next(m for m in range(32) if {int(deal[i]) for i in HOLD_POSITIONS[m]} == want)
    return hold_pattern_label(int(hold_pattern_codes(deal[None, :], fine=fine)[0, mask]))


def test_fine_patterns_in_words():
    assert _label("Tc 9d 5h 3s 2c", "Tc 9d") == "ten + nine"
    assert _label("Tc 9d 5h 3s 2c", "Tc 2c") == "ten + deuce of its suit"
    assert _label("Tc 9d 5h 3s 2c", "Tc 2c", fine=False) == "ten + a lower card of its suit"
    assert _label("As Ks Qs 4d 2c", "As Ks Qs") == "AKQ suited"
    assert _label("Ts Js Qs Ks 2c", "Ts Js Qs Ks") == "4 to a royal flush (open)"
    assert _label("Ts Js Qs As 2c", "Ts Js Qs As") == "4 to a royal flush (inside)"
    assert _label("2d 3d 4d 6d Ac", "2d 3d 4d 6d") == ("4 to a straight flush (gap inside), 0 high cards, "
                                                       "the fifth card an ace")
    assert _label("2d 3d 4d 6d Kc", "2d 3d 4d 6d") == ("4 to a straight flush (gap inside), 0 high cards, "
                                                       "the fifth card not an ace")
    assert _label("Ad 2d 3d 4d Kc", "Ad 2d 3d 4d") == "4 to a straight flush (ace low), the fifth card not an ace"
    assert _label("Ac Kc Tc 2c 2d", "Ac Kc Tc 2c") == ("4 to a flush, 2 high cards, ace and king among them, "
                                                       "with a ten, nine or eight")
    assert _label("Ac Jc 8c 2c 2d", "Ac Jc 8c 2c") == ("4 to a flush, 2 high cards, ace among them, no king, "
                                                       "with a ten, nine or eight")
    assert _label("Kc Jc 8c 2c 2d", "Kc Jc 8c 2c") == "4 to a flush, 2 high cards, no ace, with a ten, nine or eight"
    assert _label("Ac Kc Qc 9c 2d", "Ac Kc Qc 9c") == ("4 to a flush, 3 high cards, ace and king among them, "
                                                       "with a ten, nine or eight")
    assert _label("8c 9c Tc 4d 5d", "8c 9c Tc") == "3 to a straight flush, 0 high cards, 0 gaps, ten high"
    assert _label("2c 3c 4c 9d Td", "2c 3c 4c") == "3 to a straight flush, 0 high cards, 0 gaps, low end"


def test_a_split_line_names_what_it_still_covers():
    ten = K.CARD_PLUS_LOW << 8 | 8 << 4                      # ten + a lower card, offsuit
    forms = fine_codes(ten)
    assert merged_label(list(forms)) == "ten + a lower card" and pattern_count(forms) == 1
    rest = [f for f in forms if (f & 0xF) >> 1 != 7]        # without ten + nine
    assert mergeable(rest) and merged_label(rest) == "ten + deuce to eight" and pattern_count(rest) == 7
    tops = [K.CARD_PLUS_LOW << 8 | t << 4 for t in (10, 11, 12)]
    assert merged_label(tops) == "queen to ace + a lower card"
    without = [f for t in tops for f in fine_codes(t) if f != fine_codes(tops[2])[-1]]   # not ace + nine
    assert not mergeable(without)
    assert [merged_label(line) for line in split_line(without)] == ["ace + deuce to eight",
                                                                    "queen or king + a lower card"]
    # a four-straight-flush either side of the card it throws away is named without it
    gap = [f for f in fine_codes(K.SF_DRAW << 8 | 4 << 4 | 1) if (f >> 4) & 0xF == 0 and f & 3 == 3]
    assert len(gap) == 2 and merged_label(gap) == "4 to a straight flush (gap inside), 0 high cards"
    # four to a flush: the king beside the ace is said only when one way
    two = fine_codes(K.FLUSH_DRAW << 8 | 4 << 4 | 2)
    aces = [f for f in two if f >> 1 & 1]
    assert merged_label(aces) == "4 to a flush, 2 high cards, ace among them"
    assert merged_label([f for f in aces if f & 4]) == "4 to a flush, 2 high cards, ace and king among them"
    assert not mergeable([f for f in two if not f >> 1 & 1 or f & 4])     # no ace, or the ace with a king
    # coarse patterns split into coarse lines, fine into fine ones
    assert all(code in tops for line in split_line([tops[0], tops[2]]) for code in line)
