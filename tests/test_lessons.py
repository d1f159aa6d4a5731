import numpy as np
import pytest

from drawodds.analyses.lessons import standing_pat
from drawodds.cards import parse_hand
from drawodds.engine.players import DrawReader
from drawodds.evaluate import evaluate
from drawodds.rules import preset


@pytest.fixture(scope="module")
def lesson():
    return standing_pat(deals=400, seed=3, equity_trials=20_000, equilibrium=False)


def test_the_card_is_worth_little_at_the_showdown(lesson):
    assert lesson.fill_probability == pytest.approx(4 / 47)
    gap = lesson.equity_draw - lesson.equity_pat
    assert gap > -3 * lesson.equity_gap_se            # drawing to two pair never loses equity
    assert gap < lesson.fill_probability             # ... and gains less than the fill rate


def test_lines_are_played_on_the_same_deals(lesson):
    assert [(r.opponent, r.line) for r in lesson.lines] == [
        ("reader", "draw one"), ("reader", "stand pat"), ("rule", "draw one"), ("rule", "stand pat")]
    counts = {r.deals for r in lesson.lines}
    assert len(counts) == 1 and 0 < counts.pop() <= 400
    for r in lesson.lines:
        if r.line == "draw one":
            assert r.gain_vs_drawing == 0
        assert np.isfinite(r.net_per_deal_se)
    assert "Standing pat is a move" in lesson.to_markdown()


def test_the_reader_believes_a_pat_hand():
    reader = DrawReader(preset("morkpoker", players=2), np.random.default_rng(1))
    aces = int(evaluate(parse_hand("AsAh9c6d2s")))
    # A pair of aces beats most hands that drew three, almost none that stood pat.
    assert reader._beaten(3)[aces] > 0.6
    assert reader._beaten(0)[aces] < 0.02
