import json

import numpy as np
import pytest

from drawodds.analyses.keep import keep
from drawodds.cards import CardError, parse_hand
from drawodds.errors import DrawoddsError, RequestError
from drawodds.execution import ExecutionError
from drawodds.holds import legal_holds
from drawodds.rules import RuleError, preset
from drawodds.sim.equity import equity_vs_known

NINE = ["high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
        "full_house", "four_of_a_kind", "straight_flush"]


def test_exact_only_ranks_every_legal_hold():
    r = keep("AsAhKs7s3s", opponents=0)
    assert len(r.table) == 26
    assert r.by == "field" and r.field_size == 3
    assert r.best.keep == ["As", "Ah"]            # the pair draws three, as against real opponents
    assert r.table.equity.isna().all()
    d = r.to_dict()
    hold = d["holds"][0]
    assert list(hold["exact"]) == NINE
    assert hold["exact"]["two_pair"] == pytest.approx(2592 / 16215)
    assert hold["p_jacks_or_better"] == 1.0 and hold["equity"] is None
    assert d["hand"] == ["As", "Ah", "Ks", "7s", "3s"] and d["rules"] == "morkpoker"


def test_json_shape_is_the_contract():
    d = keep("AsAhKs7s3s", opponents=1, trials=20_000, seed=1).to_dict()
    assert {"hand", "rules", "opponents", "policy", "trials", "seed", "holds"} <= set(d)
    assert d["opponents"] == 1 and d["policy"] == "standard" and d["trials"] == 20_000
    h = d["holds"][0]
    assert {"keep", "discard", "draw", "exact", "p_jacks_or_better", "points", "equity", "equity_se"} <= set(h)
    assert all(0 < x["equity_se"] < 0.01 for x in d["holds"])
    json.dumps(d)  # serialisable


def test_equity_holds_best_first_and_same_seed_same_numbers():
    a = keep("Kh Qh Jh Th 2c", opponents=2, trials=20_000, seed=7)
    b = keep("Kh Qh Jh Th 2c", opponents=2, trials=20_000, seed=7)
    c = keep("Kh Qh Jh Th 2c", opponents=2, trials=20_000, seed=8)
    assert a.table.equity.tolist() == b.table.equity.tolist()
    assert a.table.equity.tolist() != c.table.equity.tolist()
    assert a.table.equity.is_monotonic_decreasing
    assert a.best.keep == ["Kh", "Qh", "Jh", "Th"]   # open-ended straight flush draw


def test_workers_are_reproducible_for_the_same_seed_and_count():
    a = keep("9c9d5h5s2c", opponents=2, trials=40_000, seed=3, workers=2)
    b = keep("9c9d5h5s2c", opponents=2, trials=40_000, seed=3, workers=2)
    assert a.table.equity.tolist() == b.table.equity.tolist()
    assert a.trials == 40_000


def test_common_random_numbers_make_differences_sharper_than_equities():
    # Holds that keep the aces play out alike, so their gaps to the best are known better
    # than the equities themselves.
    r = keep("AsAhKs7s3s", opponents=3, trials=40_000, seed=2)
    close = r.table[r.table.keep.map(lambda k: {"As", "Ah"} <= set(k))].iloc[1:]
    assert len(close) == 7
    assert (close.equity_diff_se < 0.7 * close.equity_se).all()


def test_monte_carlo_agrees_with_exact_equity_against_a_known_hand():
    villain = "QcQdJhJd2c"
    r = keep("AsAhKs7s3s", against=[villain], trials=60_000, seed=11)
    hand = parse_hand("AsAhKs7s3s")
    masks = np.array([[c in k for c in ["As", "Ah", "Ks", "7s", "3s"]] for k in r.table.keep])
    exact = equity_vs_known(hand, masks, parse_hand(villain), preset())
    mc, se = r.table.equity.to_numpy(), r.table.equity_se.to_numpy()
    assert np.all(np.abs(mc - exact) <= 4.5 * se + 1e-12)   # a certain loss has se 0: then exact
    # the pair of aces draws 3: it wins exactly when it makes two pair beating QQJJ, trips or better
    assert exact[0] == pytest.approx(r.table.equity.iloc[0], abs=4 * r.table.equity_se.iloc[0])


def test_se_target_stops_early():
    r = keep("AsAhKs7s3s", opponents=1, trials=400_000, seed=1, se=0.004)
    assert r.trials < 400_000
    contenders = r.table[(r.table.equity_gap <= 3 * r.table.equity_diff_se) & (r.table.equity_gap > 0)]
    assert (contenders.equity_diff_se <= 0.004).all()


def test_draw_limit_options_change_the_holds():
    assert len(keep("AsKd9h6c2s", opponents=0, by="jacks").table) == 26
    four = keep("AsKd9h6c2s", opponents=0, by="jacks", max_draw="4-ace").table
    assert ["As"] in four.keep.tolist() and ["Kd"] not in four.keep.tolist()


def test_joker_deck_lists_five_aces():
    r = keep("Jk As Ah Ad Kc", opponents=0, by="points", joker=True)
    assert "five_of_a_kind" in r.to_dict()["holds"][0]["exact"]
    assert r.table.five_of_a_kind.max() > 0


def test_jacks_or_better_opener_shows_split_openers():
    r = keep("AsAhKs7s3s", rules="jackpot", opponents=0, by="jacks", opener=True)
    split = {" ".join(k): s for k, s in zip(r.table.keep, r.table.splits_openers, strict=False)}
    assert split["As Ks 7s 3s"] and not split["As Ah"]
    with pytest.raises(RuleError, match="cannot open"):
        keep("TsThAcKdQs", rules="jackpot", opponents=0, by="jacks", opener=True)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"hand": "AsAsKs7s3s", "opponents": 0}, CardError, "duplicate"),
    ({"hand": "AsAhKs7s3s", "opponents": 9}, RequestError, "^opponents can be at most 5"),
    ({"hand": "AsAhKs7s3s", "opponents": 0, "by": "luck"}, RequestError, "^by must be one of"),
    ({"hand": "AsAhKs7s3s", "opponents": 1, "workers": 0}, ExecutionError, "at least 1"),
    ({"hand": "AsAhKs7s3s", "vs": [4]}, RuleError, "cannot draw 4"),
    ({"hand": "AsAhKs7s3s", "against": ["AsKdQdJd9c"]}, CardError, "in two hands"),
    ({"hand": "AsAhKs7s3s", "opponents": 5, "max_draw": "4-ace"}, RuleError, "at most 4 opponents"),
])
def test_bad_requests(kwargs, error, message):
    with pytest.raises(error, match=message) as raised:
        keep(**kwargs)
    assert isinstance(raised.value, DrawoddsError)   # the one type a caller needs to catch


def test_known_opponent_cards_leave_the_exact_columns_too():
    # As Ks Qs 7s draws one: 8 spades among the 42 cards nobody was seen holding (the 5s is out).
    r = keep("AsKsQs7s2d", against=["9h9c5s5d3c"], trials=2_000)
    row = next(x for x in r.rows() if list(x["keep"]) == ["As", "Ks", "Qs", "7s"])
    assert row["flush"] == pytest.approx(8 / 42)
    assert keep("AsKsQs7s2d", opponents=0, by="points").table.flush.max() == pytest.approx(9 / 47)


def test_legal_holds_match_keep_rows():
    rows = keep("QsQhQd7c2s", opponents=0, by="points").table
    assert len(rows) == len(legal_holds(parse_hand("QsQhQd7c2s"), preset()))


def test_poengpoker_keep_ranks_by_points_this_deal():
    r = keep("2c 2d As 9h 6c", rules="poengpoker", opponents=3, trials=3_000, seed=1)
    d = r.to_dict()
    assert d["by"] == "points" and d["rules"] == "poengpoker"
    top = d["holds"][0]
    assert {"points_hand", "points_trick", "points_se", "table_points"} <= set(top)
    assert top["points"] == pytest.approx(top["points_hand"] + top["points_trick"])
    assert all(h["equity"] is None for h in d["holds"])
    pts = [h["points"] for h in d["holds"]]
    assert pts == sorted(pts, reverse=True)
    # any number of cards may be exchanged: every one of the 32 holds is legal
    assert len(d["holds"]) == 32
    with pytest.raises(RuleError, match="apply to the draw game"):
        keep("2c 2d As 9h 6c", rules="poengpoker", opponents=1, vs=[3])


def test_exact_ranking_in_the_draw_game_agrees_with_the_opponents_monte_carlo():
    """--exact ranks by the exact equity against the table's field dealt from the cards we do not
    hold: the kicker dilemma comes out as the Monte Carlo against real opponents has it (keeping
    the king costs 0.76 ± 0.09 points there), and four to an ace does not keep A-2 suited."""
    exact = keep("AsAhKs7s3s", opponents=0).table
    assert exact.keep.iloc[1] == ["As", "Ah", "Ks"]
    assert 100 * (exact.field_equity.iloc[0] - exact.field_equity.iloc[1]) == pytest.approx(0.76, abs=0.2)
    mc = keep("AsAhKs7s3s", opponents=3, trials=20_000, seed=1).table
    assert mc.keep.iloc[0] == exact.keep.iloc[0]
    assert exact.field_equity.iloc[0] == pytest.approx(mc.equity.iloc[0], abs=4 * mc.equity_se.iloc[0] + 0.005)
    four = keep("AsKd9h6c2s", opponents=0, max_draw="4-ace").table
    assert four.keep.iloc[0] == ["As", "Kd"] and four.keep.iloc[1] == ["As"]


def test_ranking_by_the_field_needs_the_draw_game_without_opponents():
    with pytest.raises(RequestError, match="without opponents"):
        keep("AsAhKs7s3s", opponents=2, by="field", trials=100)
    with pytest.raises(RequestError, match="without opponents"):
        keep("AsAhKs7s3s", rules="poengpoker", opponents=0, by="field")


@pytest.mark.parametrize("joker_counts,alone", [(True, ["Jk"]), (False, None)])
def test_joker_under_four_with_an_ace_follows_the_rule_option(joker_counts, alone):
    """A kept joker lets a player draw four by default (it counts as the ace); with
    ``joker_is_ace_for_draw=False`` only a real ace does, so the joker alone is no legal hold."""
    r = keep("JkKd9c7h4s", opponents=0, by="points", joker=True, max_draw="4-ace",
             joker_is_ace_for_draw=joker_counts)
    holds = r.table.keep.tolist()
    assert (["Jk"] in holds) == joker_counts
    assert r.table.draw.max() == (4 if joker_counts else 3)
    if alone:
        assert r.best.keep == alone and r.best.draw == 4
