"""The three-handed solved range: each seat's holdings weighted by that seat's own probabilities on
the line and at the draw, read from the row its earlier drawers' counts pick; the dealer's two
opponents as two sources, one per seat, in ``keep`` and ``read``. Checked against the engine's
table player, which reads the same solution one decision at a time."""

from __future__ import annotations

import json

import numpy as np
import pytest

from drawodds.analyses.keep import keep
from drawodds.analyses.read import read_draw
from drawodds.cards import parse_hand
from drawodds.cli import main
from drawodds.errors import RequestError
from drawodds.sim.ranges import RangedSource, sample_conditioned, source_holdings
from drawodds.solver.solved_range import table_opponents, table_range
from drawodds.solver.table import save_table_solution
from drawodds.solver.table_player import TableTables

OURS = parse_hand("Kc Kd 8h 5s 2c")
KNOWN = tuple(sorted(OURS.tolist()))
LINE = "check-bet-call-call"          # seat 0 checks, seat 1 bets, the dealer and seat 0 call


def _probabilities(cum):
    return np.diff(np.concatenate([[0.0], np.asarray(cum, dtype=np.float64)]))


def _by_count(sr, weight):
    counts = sorted(set(sr.options))
    return [weight[np.asarray(sr.options) == d].sum() for d in counts]


@pytest.mark.parametrize(("seat", "before"), [("first", ()), ("second", (3,)), ("second", (0,))])
def test_a_seats_weights_are_the_table_players_own_probabilities(small_table, seat, before):
    t = TableTables(small_table)
    s = ("first", "second").index(seat)
    sr = table_range(small_table, line=LINE, seat=seat, before=before)
    assert sr.seat_name == seat and sr.seats == 3 and sr.before == before and sr.line_text == LINE
    held = source_holdings(sr, small_table.rules, KNOWN)
    history = sr.line
    q, pos, n, active = t.lines[history]
    row = t.draw_row(pos, n, active, list(before))
    options = list(small_table.abstraction.options)
    for r in np.random.default_rng(5).choice(len(held.cards), 25, replace=False):
        hand = held.cards[r]
        bucket, holds = t.hand(hand.tolist())
        line = 1.0
        for i, letter in enumerate(history):
            actor, letters, cum = t.pre[history[:i]]
            if actor == s:
                line *= _probabilities(cum[bucket])[letters.index(letter)]
        draw = _probabilities(t.draw[(q, s)][row, bucket])
        np.testing.assert_allclose(_by_count(sr, held.weight[r]), line * draw, rtol=1e-9, atol=1e-15)
        for k, d in enumerate(options):         # the hold kept for each count is the player's
            if holds[k] >= 0 and held.weight[r, k] > 0:
                kept = held.hold_for(np.array([r]), d)[0]
                assert sum(1 << i for i in range(5) if kept[i]) == holds[k]
    # A different first draw is a different row: the second seat's range moves with it.
    if seat == "second":
        other = table_range(small_table, line=LINE, seat=seat, before=(1,))
        assert not np.allclose(other.bucket_weight, sr.bucket_weight)


def test_the_dealers_opponents_are_one_source_per_seat_and_refuse_what_does_not_fit(small_table):
    first, second = table_opponents(small_table, line=LINE, vs=(3, 1))
    assert (first.seat_name, first.before, second.seat_name, second.before) == ("first", (), "second", (3,))
    assert second == table_range(small_table, line="xbcc", seat="second", before=(3,))
    with pytest.raises(RequestError, match="give each one's draw count"):
        table_opponents(small_table, line=LINE, vs=(3,))
    with pytest.raises(RequestError, match="does not reach the draw"):
        table_opponents(small_table, line="check-bet", vs=(3, 1))
    with pytest.raises(RequestError, match="the dealer folded"):
        table_opponents(small_table, line="check-bet-fold-call", vs=(3, 1))
    with pytest.raises(RequestError, match="the first seat folded"):
        table_range(small_table, line="check-bet-call-fold", seat="first")
    with pytest.raises(RequestError, match="draws after 1 players"):
        table_range(small_table, line=LINE, seat="second")
    # One opponent left by a fold: the second seat draws first among those in.
    (alone,) = table_opponents(small_table, line="check-bet-call-fold", vs=(2,))
    assert alone.seat_name == "second" and alone.before == ()


def test_each_opponent_is_sampled_from_its_own_source(small_table):
    """Two sources, one per opponent: every sampled hand lies in its own opponent's range (one
    source for both would mix them), and a tuple of one source twice samples exactly as the source."""
    first, _ = table_opponents(small_table, line=LINE, vs=(3, 1))
    pairs, flushes = RangedSource(first, "2P+"), RangedSource(first, "4F")
    hands, keeps = sample_conditioned(small_table.rules, (pairs, flushes), (None, None), OURS, 2_000,
                                      np.random.default_rng(2))
    held_pairs = source_holdings(pairs, small_table.rules, KNOWN)
    held_flushes = source_holdings(flushes, small_table.rules, KNOWN)
    index = {tuple(c): i for i, c in enumerate(held_pairs.cards.tolist())}
    assert all(held_pairs.weight[index[tuple(h)]].sum() > 0 for h in hands[:, 0].tolist())
    assert all(held_flushes.weight[index[tuple(h)]].sum() > 0 for h in hands[:, 1].tolist())
    one = sample_conditioned(small_table.rules, first, (3, None), OURS, 3_000, np.random.default_rng(9))
    two = sample_conditioned(small_table.rules, (first, first), (3, None), OURS, 3_000, np.random.default_rng(9))
    np.testing.assert_array_equal(one[0], two[0])
    np.testing.assert_array_equal(one[1], two[1])
    assert keeps.shape == hands.shape


def test_keep_and_read_against_the_table_solution(small_table, tmp_path, capsys):
    opponents = table_opponents(small_table, line=LINE, vs=(3, 1))
    result = keep(OURS, rules=small_table.rules, policy=opponents, vs=(3, 1), trials=5_000, seed=2)
    data = result.to_dict()
    assert data["opponents"] == 2 and data["solved_players"] == 3 and data["opponent_seats"] == ["first", "second"]
    assert data["line"] == LINE and data["vs"] == [3, 1]
    assert all(0 <= h["equity"] <= 1 and h["equity_se"] > 0 for h in data["holds"])
    with pytest.raises(RequestError, match="give every opponent's draw count"):
        keep(OURS, rules=small_table.rules, policy=opponents, trials=1_000)
    ranged = keep(OURS, rules=small_table.rules, policy=opponents, vs=(3, 1), hand_range="2P+, 4F, OESD, JJ+",
                  trials=2_000, seed=2)
    assert ranged.hand_range and ranged.table["equity"].iloc[0] < data["holds"][0]["equity"]   # stronger hands
    with pytest.raises(RequestError, match="cannot all be dealt"):     # two kings are left, not four
        keep(OURS, rules=small_table.rules, policy=opponents, vs=(3, 1), hand_range="KK", trials=1_000)
    with pytest.raises(RequestError, match="other draw counts"):
        keep(OURS, rules=small_table.rules, policy=opponents, vs=(1, 1), trials=1_000)
    reading = read_draw(1, policy=opponents[1], rules=small_table.rules, trials=2_000)
    assert reading.seat == "second" and reading.solved_players == 3 and reading.drawn_before == (3,)
    assert sum(reading.holding.values()) == pytest.approx(1.0)
    with pytest.raises(RequestError, match="both opponents' draws"):
        read_draw(1, policy=opponents[1], rules=small_table.rules, hand=OURS, trials=2_000)

    path = save_table_solution(small_table, tmp_path / "table.parquet")
    argv = ["keep", "Kc Kd 8h 5s 2c", "--policy", "equilibrium", "--opponents", "2", "--line", LINE, "--vs", "3",
            "--vs", "1", "--solution", str(path), "--trials", "5000", "--seed", "2", "--json"]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0
    assert json.loads(capsys.readouterr().out)["holds"] == json.loads(json.dumps(data["holds"]))
    argv = ["read", "1", "--policy", "equilibrium", "--opponents", "2", "--line", LINE, "--opponent-second",
            "--first-draw", "3", "--solution", str(path), "--trials", "2000", "--json"]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    payload = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0 and payload["seat"] == "second" and payload["drawn_before"] == [3]
    assert payload["holding"] == pytest.approx(reading.holding)
    for args, fragment in [
        (["keep", "Kc Kd 8h 5s 2c", "--policy", "equilibrium", "--opponents", "2", "--vs", "3", "--vs", "1"],
         "give the betting --line"),
        (["keep", "Kc Kd 8h 5s 2c", "--policy", "equilibrium", "--opponents", "3", "--line", LINE],
         "at most two opponents"),
        (["keep", "Kc Kd 8h 5s 2c", "--policy", "equilibrium", "--opponents", "2", "--line", LINE, "--vs", "3",
          "--solution", str(path)], "give each one's draw count (--vs)"),
        (["read", "1", "--policy", "equilibrium", "--opponents", "2", "--line", LINE, "--opponent-second"],
         "--first-draw"),
        (["read", "1", "--policy", "equilibrium", "--opponent-second", "--first-draw", "3"], "add --opponents 2"),
        (["read", "1", "--policy", "equilibrium", "--opponents", "2", "--line", LINE, "--hand", "Kc Kd 8h 5s 2c"],
         "our equity against both is keep's"),
    ]:
        with pytest.raises(SystemExit) as exc:
            main(args)
        err = capsys.readouterr().err
        assert exc.value.code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err


def test_the_draw_summary_of_a_seat_is_its_ranges_over_every_line(small_table):
    """Seat 0's draw by kind of hand (``TableSolution.draw_summary``, from the tree's reach) equals
    its solved ranges summed over every line it reaches the draw on, each weighted by the other
    two seats' chance of taking their actions on it."""
    from drawodds.solver.hand_kinds import HAND_KINDS, hand_kinds
    from drawodds.solver.solved_range import _seat_probability

    a, g = small_table.abstraction, small_table.game
    columns = 0.0
    for line in g.lines:
        if 0 not in line.active:
            continue
        others = np.prod([a.prior @ _seat_probability(small_table, line.history, t) for t in (1, 2)])
        columns += others * table_range(small_table, line=line.history, seat="first").bucket_weight
    n = len(a.options)
    mix = np.asarray(columns)
    mix = mix[:, :n] + mix[:, n:] if mix.shape[1] == 2 * n else mix       # a draw count's second holds
    kind = hand_kinds(a.classes, np.asarray(a.options)[a.class_natural])
    w = a.class_weights.astype(np.float64)
    summary = small_table.draw_summary()
    mine = summary[summary["seat"] == 0].set_index("hand")
    for name in HAND_KINDS:
        sel = kind == name
        got = (w[sel][:, None] * mix[a.class_bucket[sel]]).sum(axis=0)
        assert mine.loc[name, "reaches_draw"] == pytest.approx(got.sum() / w[sel].sum(), rel=1e-9, abs=1e-12)
        shares = got / max(got.sum(), 1e-300)
        names = ["pat" if d == 0 else f"draw {d}" for d in a.options]
        np.testing.assert_allclose(mine.loc[name, names].to_numpy(dtype=float), shares, rtol=1e-8, atol=1e-12)
    assert np.allclose(summary[["pat", "draw 1", "draw 2", "draw 3"]].sum(axis=1), 1.0)
