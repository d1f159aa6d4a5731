"""Heads-up draw solver: the abstraction is exact where it claims to be, the tree plays by the
rule set, and a small solve converges to a sensible equilibrium."""

from __future__ import annotations

import json

import numpy as np
import pytest

from drawodds.combinatorics import combinations
from drawodds.errors import RequestError
from drawodds.evaluate import evaluate, jacks_or_better_floor
from drawodds.holds import exact_holds
from drawodds.rules import RuleError, preset
from drawodds.solver import cfr
from drawodds.solver.abstraction import (
    Abstraction,
    build_abstraction,
    draw_options,
    hand_keep,
    legal_hold_table,
    pattern_groups,
)
from drawodds.solver.cache import equilibrium_path
from drawodds.solver.classes import classify, deal_classes
from drawodds.solver.clustering import split_buckets
from drawodds.solver.game import TableLine, betting_round, build_game, build_table_game
from drawodds.solver.playout import play_out
from drawodds.solver.solution import load_solution
from drawodds.solver.solve import equilibrium_solution, solve
from drawodds.solver.subsets import subset_ranks

MORK = preset("morkpoker")


@pytest.fixture(scope="module")
def small(small_abstraction: Abstraction) -> Abstraction:
    return small_abstraction


@pytest.fixture(scope="module")
def solved(small_solution):
    return small_solution


def synthetic(rules=MORK, pre: int = 3, final: int = 4, seed: int = 7) -> Abstraction:
    """A made-up abstraction (random transitions) for testing the tree alone."""
    rng = np.random.default_rng(seed)
    options = draw_options(rules)
    trans = rng.random((len(options), pre, final))
    trans /= trans.sum(axis=2, keepdims=True)
    prior = np.full(pre, 1 / pre)
    openers = np.zeros(pre, dtype=bool)
    openers[-1] = True
    if rules.opener != "jacks":
        openers[:] = True
    empty = np.zeros(0, dtype=np.int64)
    return Abstraction(rules, options, np.zeros((0, 5), dtype=np.int8), empty, empty,
                       np.zeros((0, len(options)), dtype=np.int64), empty, prior, trans,
                       np.ones((pre, len(options)), dtype=bool), openers, np.zeros(pre, dtype=np.int64),
                       ("made up",), np.minimum(np.arange(7463) * final // 7463, final - 1), np.full(final, 1 / final))


# --- the abstraction ---------------------------------------------------------------------------

def test_deal_classes_and_subset_ranks() -> None:
    reps, weights = deal_classes()
    assert len(reps) == 134_459 and weights.sum() == 2_598_960
    # Colex ranks number the k-subsets of range(n) 0..C(n, k)-1 without gaps (here n = 20).
    ranks = subset_ranks(combinations(20, 5))
    assert np.array_equal(np.sort(ranks[:, 31]), np.arange(15_504))
    # The two lowest cards of a 5-subset of range(20) are any pair from range(17): ranks 0..135.
    assert np.array_equal(np.unique(ranks[:, 0b00011]), np.arange(136))


def test_abstraction_is_a_partition_with_stochastic_transitions(small: Abstraction) -> None:
    a = small
    assert a.prior.sum() == pytest.approx(1.0)
    # A distribution for every legal draw; nothing for the draws a made hand may not make.
    assert np.allclose(a.transitions.sum(axis=2), a.legal_draws.T, atol=1e-6)
    assert a.legal_draws[:, 0].all() and not a.legal_draws.all()
    assert (a.transitions >= -1e-7).all()
    share = np.bincount(a.class_bucket, weights=a.class_weights, minlength=a.pre_buckets) / 2_598_960
    assert np.allclose(share, a.prior)
    # Each option is a hold drawing exactly that many cards (-1: not open to the class).
    holds = a.class_holds
    kept = np.array([bin(int(h)).count("1") for h in holds.ravel()]).reshape(holds.shape)
    assert ((5 - kept == np.asarray(a.options)[None, :]) | (holds == -1)).all()
    assert (holds[:, 0] >= 0).all()
    # Final buckets run with strength.
    assert (np.diff(a.final_of_strength[1:]) >= 0).all()
    assert a.final_mass.sum() == pytest.approx(1.0)


def test_transitions_match_exact_hold_enumeration(small: Abstraction) -> None:
    """The bucket with the fewest classes: its transition for every draw option equals the
    class-weighted mix of ``holds.exact_holds`` distributions of its classes."""
    a = small
    sizes = np.bincount(a.class_bucket, minlength=a.pre_buckets)
    b = int(np.argmin(np.where(sizes > 0, sizes, 10**9)))
    members = np.flatnonzero(a.class_bucket == b)[:40]
    if sizes[b] > 40:
        pytest.skip("no small bucket in this abstraction")
    of = a.final_of_strength
    for j, d in enumerate(a.options):
        mix = np.zeros(a.final_buckets)
        for c in members:
            hold = int(a.class_holds[c, j])
            mask = np.array([[(hold >> i) & 1 for i in range(5)]], dtype=bool)
            ex = exact_holds(a.classes[c], MORK, masks=mask)
            mix += a.class_weights[c] * np.bincount(of, weights=ex.counts[0][:len(of)],
                                                    minlength=a.final_buckets) / ex.totals[0]
        assert np.allclose(mix / a.class_weights[members].sum(), a.transitions[j, b], atol=1e-6), d


def test_split_buckets_refine_and_separate_what_differs() -> None:
    """Splitting keeps every new bucket inside one old bucket (and its pattern), makes at most k
    of each, leaves a one-class bucket whole, and separates classes whose features differ."""
    rng = np.random.default_rng(3)
    old = np.repeat(np.arange(5), [1, 2, 6, 9, 40])
    far = (np.arange(len(old)) % 2).astype(np.float64)         # two clear groups in each bucket
    x = np.stack([far * 10 + rng.normal(0, 0.01, len(old)), rng.normal(0, 0.01, len(old))], axis=1)
    w = rng.integers(1, 24, len(old)).astype(np.float64)
    pattern = np.array([0, 0, 1, 1, 2])
    new, new_pattern = split_buckets(x, w, old, pattern, 3)
    parent = np.full(new.max() + 1, -1)
    parent[new] = old
    assert (parent[new] == old).all() and np.array_equal(new_pattern, pattern[parent])
    assert np.array_equal(np.unique(new), np.arange(new.max() + 1))
    per_old = np.bincount(parent, minlength=5)
    assert per_old[0] == 1 and (per_old <= 3).all() and (per_old[1:] >= 2).all()
    for b in range(1, 5):                     # the two groups never share a new bucket
        sel = old == b
        assert not set(new[sel & (far == 0)]) & set(new[sel & (far == 1)])
    assert np.array_equal(split_buckets(x, w, old, pattern, 3)[0], new)


def test_build_stages_are_worded_in_the_chosen_language() -> None:
    """Every stage a build reports (the progress bar's words) is in the catalog: Swedish and
    Norwegian read their own words, and the stages run forward to the end."""
    from drawodds import i18n

    heard: list[tuple[str, float]] = []
    build_abstraction(MORK, 24, 12, 1, stage=lambda text, done: heard.append((text, done)))
    texts = list(dict.fromkeys(text for text, _ in heard))
    assert len(texts) >= 8 and [d for _, d in heard] == sorted(d for _, d in heard) and heard[-1][1] == 1.0
    for lang, word in (("sv", "förenkling: "), ("nb", "forenkling: ")):
        with i18n.use(lang):
            assert all(i18n.gettext(text).startswith(word) for text in texts), lang


def test_buckets_keep_one_draw_pattern(small: Abstraction) -> None:
    labels = small.bucket_labels()
    assert len(labels) == small.pre_buckets
    assert any(label.startswith("two pair") for label in labels)
    assert all(":" in label for label in labels)
    assert small.final_labels()[-1].endswith("royal flush")


def test_jacks_or_better_patterns_separate_openers() -> None:
    """Under Jacks or Better no draw pattern (and so no bucket, which lies inside one) mixes
    hands that may open with hands that may not."""
    rules = preset("jackpot")
    deals, _ = deal_classes()
    group, names = pattern_groups(deals, np.zeros(len(deals), dtype=np.int64), draw_options(rules), rules)
    opens = evaluate(deals) >= jacks_or_better_floor()
    for g in range(len(names)):
        members = opens[group == g]
        assert members.all() or not members.any()
        assert names[g].endswith(", openers") == members.all()


# --- the betting tree --------------------------------------------------------------------------

def test_betting_round_histories() -> None:
    rnd = betting_round(0, max_bets=3)
    ends = {h: n.end for h, n in rnd.items() if n.end}
    assert ends["xx"] == "checked" and ends["bc"] == "call" and ends["xbf"] == "fold"
    assert rnd["brr"].actions == ("f", "c") and "brrr" not in rnd   # bet + 2 raises: the cap
    assert rnd["brrc"].put == (3, 3)
    calls = [h for h, e in ends.items() if e == "call"]
    assert len(calls) == 6


def test_betting_round_of_three_seats() -> None:
    """Three seats, bet + 4 raises: a fold leaves the other two betting, a raise gives every seat
    still in a turn, and the round's lines are those counted by a separate enumeration of the
    rules (1 checked through, 171 won by a bet nobody answered, 93 three-way and 264 two-way
    lines to the draw)."""
    rnd = betting_round(0, max_bets=5, seats=3)
    ends = [n for n in rnd.values() if n.end]
    kinds = {(e, k): sum(1 for n in ends if n.end == e and len(n.active) == k)
             for e, k in (("checked", 3), ("fold", 1), ("call", 3), ("call", 2))}
    assert kinds == {("checked", 3): 1, ("fold", 1): 171, ("call", 3): 93, ("call", 2): 264}
    assert len(ends) == 529 and sum(1 for n in rnd.values() if n.actor is not None) == 360
    assert rnd["xbfrc"].end == "call" and rnd["xbfrc"].put == (2, 2, 0) and rnd["xbfrc"].active == (0, 1)
    assert rnd["xbfr"].actor == 1 and rnd["bff"].end == "fold" and rnd["bff"].active == (0,)
    assert rnd["xxx"].end == "checked" and rnd["bfc"].put == (1, 0, 1)
    for h, node in rnd.items():
        if node.end == "call":                         # everybody still in has matched the last bet
            assert {node.put[q] for q in node.active} == {max(node.put)}
        if node.actor is not None:
            assert node.actor in node.active and all(h + a in rnd for a in node.actions)
    assert betting_round(1, 3, seats=2) == betting_round(1, 3)


def test_tree_plays_by_the_rules() -> None:
    game = build_game(synthetic())
    lines = {ln.history: ln for ln in game.lines}
    # Ante 1, small bet 1: bet, raise, call is 1 + 2 each; the opener acts first after the draw.
    assert lines["brc"].stake == 3 and lines["brc"].first_after == 0
    assert lines["xbc"].first_after == 1
    assert "xx" not in lines                                   # all check: redealt, a push
    assert len(game.lines) == 10 and game.max_bets == 5
    p0, p1 = game.tree.infosets
    assert p0 > 0 and p1 > 0


def test_a_table_of_two_is_the_heads_up_game() -> None:
    """The table's tree with two seats (per-seat payoffs, lines grouped by who is in) is the
    heads-up game: the same information sets, and uniform play has the same values and best
    responses, with openers or without, a redeal or a draw after an all-check round, and either
    seat first after the draw."""
    for rules in (MORK, preset("jackpot"), preset("svensk")):
        a = synthetic(rules)
        table, heads_up = build_table_game(a, seats=2), build_game(a)
        assert table.tree.infosets == heads_up.tree.infosets
        t = cfr.evaluate_profile(table.tree, cfr.uniform_strategy(table.tree))
        h = cfr.evaluate_profile(heads_up.tree, cfr.uniform_strategy(heads_up.tree))
        assert t.values == pytest.approx(h.values, abs=1e-12)
        assert t.best_response == pytest.approx(h.best_response, abs=1e-12)


def test_three_handed_tree_plays_by_the_rules() -> None:
    """Three seats (bet + 2 raises here): 21 three-way and 54 two-way lines reach the draw; the
    chips in, the opener and who acts first after the draw (the opener, or the next seat in when
    it folded; svensk: the first seat in left of the dealer); only openers open under Jacks or
    Better; at every showdown the seats in have matched and nobody out has more in."""
    game = build_table_game(synthetic(), raises=2)                # ante 1, bets 1 and 2, redeal
    lines = {ln.history: ln for ln in game.lines}
    assert len(lines) == 75 and sum(len(ln.active) == 3 for ln in game.lines) == 21 and "xxx" not in lines
    assert lines["xbfc"] == TableLine("xbfc", (2.0, 2.0, 1.0), (0, 1), 1, 1)
    assert lines["xbrcf"].stake == (3.0, 2.0, 3.0) and lines["xbrcf"].first_after == 2    # opener 1 folded
    assert lines["bcc"].stake == (2.0, 2.0, 2.0) and lines["bcc"].first_after == 0
    for nd in game.tree.nodes:
        if isinstance(nd, cfr.Terminal) and nd.kind == "showdown":
            inside = nd.stake[:, list(nd.contest)]
            assert (inside == inside[:, :1]).all() and (nd.stake <= inside[:, :1]).all()
    svensk = build_table_game(synthetic(preset("svensk")), raises=2)
    checked = {ln.history: ln for ln in svensk.lines}["xxx"]
    assert checked.stake == (1.0, 1.0, 1.0) and checked.opener is None
    assert all(ln.first_after == ln.active[0] for ln in svensk.lines)
    jackpot = build_table_game(synthetic(preset("jackpot")), raises=2)
    opens = [jackpot.tree.nodes[i] for h, i in jackpot.pre_nodes.items() if "b" not in h]
    assert len(opens) == 3 and all(nd.legal is not None and nd.legal[:, 1].tolist() == [False, False, True]
                                   for nd in opens)


def test_three_handed_solve_converges() -> None:
    """CFR on the three-handed tree (one bet a round, made-up buckets): the seats' values sum to
    zero and the largest seat gain falls a hundredfold within 100 iterations."""
    game = build_table_game(synthetic(), raises=0)
    solution = cfr.solve_tree(game.tree, iterations=100, schedule=cfr.DCFR)
    assert len(solution.values) == 3 and sum(solution.values) == pytest.approx(0.0, abs=1e-12)
    assert solution.exploitability < min(0.01, solution.curve[0].exploitability / 100)


def test_no_private_information_is_worth_nothing() -> None:
    """One pre-draw bucket and one final bucket: every showdown ties, so the game is worth 0."""
    a = synthetic(pre=1, final=1)
    sol = solve(MORK, abstraction=a, iterations=200, schedule="dcfr")
    assert abs(sol.value[0]) < 1e-4 and sol.exploitability < 1e-4


def test_jacks_or_better_only_openers_open() -> None:
    rules = preset("jackpot")
    a = synthetic(rules, pre=3, final=5)
    sol = solve(rules, abstraction=a, iterations=60)
    table = sol.predraw_table()
    first = table[table.line == "first to act"]
    closed = first[~a.openers[first.bucket.to_numpy()]]
    assert (closed["bet"] == 0).all()
    game = sol.game
    assert game.small == 2 and game.big == 4                   # 10 and 20 chips on an ante of 5


def test_rule_sets_without_redeal_reach_the_draw_after_all_check() -> None:
    rules = preset("svensk")
    game = build_game(synthetic(rules))
    lines = {ln.history: ln for ln in game.lines}
    assert "xx" in lines and lines["xx"].stake == 1 and lines["xx"].first_after == 0
    assert all(ln.first_after == 0 for ln in game.lines)      # left of the button acts first


def test_unsupported_rules_are_refused() -> None:
    with pytest.raises(RuleError):
        build_abstraction(preset("morkpoker", joker=True), 8, 4)
    with pytest.raises(RuleError):
        build_abstraction(preset("poengpoker"), 8, 4)


# --- solving -----------------------------------------------------------------------------------

def test_small_solve_converges(solved) -> None:
    curve = solved.curve_frame()
    assert curve.exploitability.iloc[-1] < curve.exploitability.iloc[0] / 50
    assert solved.exploitability < 0.01
    late = curve[curve.iteration >= 20]
    slope = np.polyfit(np.log(late.iteration), np.log(late.exploitability), 1)[0]
    assert slope < -1.0
    # The player out of position loses a little: about a tenth of an ante per deal.
    assert -0.2 < solved.value[0] < 0.0 and solved.value[1] == -solved.value[0]


def test_result_dictionary(solved) -> None:
    d = solved.to_dict()
    for key in ("rules", "value", "exploitability", "iterations", "seconds", "infosets"):
        assert key in d
    assert d["rules"] == "morkpoker" and len(d["value"]) == 2
    assert d["infosets"] == sum(solved.game.tree.infosets)
    json.dumps(d)


def test_strategy_tables(solved) -> None:
    pre = solved.predraw_table()
    acts = pre[["check", "bet", "fold", "call", "raise"]].fillna(0).sum(axis=1)
    assert np.allclose(acts, 1.0)
    draws = solved.draw_table()
    assert np.allclose(draws[["pat", "draw 1", "draw 2", "draw 3"]].sum(axis=1), 1.0)
    summary = solved.draw_summary()
    assert summary.groupby("seat").share.sum().to_numpy() == pytest.approx([1.0, 1.0])
    kinds = summary.set_index(["hand", "seat"])
    assert (kinds.loc["nothing, ace high", "draw 3"] > 0.5).all()      # ace high mostly draws three
    assert (kinds.loc["two pair", "draw 1"] > 0.9).all()
    assert (kinds.loc["four-card draw", "draw 1"] > 0.9).all()
    straights = summary[summary.hand == "straight"]
    assert (straights["pat"] > 0.9).all()                     # a dealt straight stands pat
    opening = solved.predraw_summary()
    first = opening[opening.line == "first to act"].set_index("hand")
    assert np.allclose(first[["check", "bet"]].sum(axis=1), 1.0)
    assert first.loc["pair of aces", "bet"] > first.loc["pair of deuces to sixes", "bet"]
    post = solved.postdraw_summary()
    assert {"line", "opponent_draw", "final", "reach"} <= set(post.columns)
    assert post.reach.min() >= 0


# --- real cards --------------------------------------------------------------------------------

def test_hands_map_to_their_class_and_hold(small: Abstraction) -> None:
    """A hand with its suits renamed falls in the class of the original and keeps the same
    cards renamed back (up to swapping suits that hold the same ranks, which fix the hand)."""
    reps, weights = deal_classes()
    rng = np.random.default_rng(11)
    picks = rng.choice(len(reps), 300, replace=False)
    rename = np.array([2, 0, 3, 1])                            # clubs -> hearts, ...
    original = reps[picks].astype(np.int64)
    moved = np.sort((original // 4) * 4 + rename[original % 4], axis=1)
    cls, _ = classify(moved)
    assert (cls == picks).all()
    for option in range(len(small.options)):
        keep = hand_keep(moved, small, np.full(len(moved), option))
        kept = np.where(keep, moved, -1)
        back = np.where(kept >= 0, (kept // 4) * 4 + np.argsort(rename)[kept % 4], -1)
        holds = small.class_holds[picks, option]
        expected = np.where((holds[:, None] >> np.arange(5)) & 1 == 1, original, -1)
        same = (np.sort(back, axis=1) == np.sort(expected, axis=1)).all(axis=1)
        assert (same | (weights[picks] < 24)).all()
        ranks = np.sort(np.where(back >= 0, back // 4, -1), axis=1)
        assert np.array_equal(ranks, np.sort(np.where(expected >= 0, expected // 4, -1), axis=1))


def test_playing_with_cards_reproduces_the_abstract_value(solved) -> None:
    """Separate decks and a showdown by bucket are the abstract game: real deals, buckets, holds
    and draws then give its exact value back, within the Monte Carlo error."""
    run = play_out(solved, 150_000, np.random.default_rng(2), shared_deck=False, by_bucket=True)
    assert abs(run.difference) < 4 * run.standard_error + 1e-3
    assert run.to_dict()["deals"] == 150_000


def test_one_hand_lookups(solved) -> None:
    """The per-hand lookups an engine player uses agree with the tables."""
    from drawodds.cards import parse_hand
    aces = parse_hand("As Ad 9c 6h 2s")
    opening = solved.predraw_probabilities(aces, "")
    assert set(opening) == {"check", "bet"} and abs(sum(opening.values()) - 1) < 1e-9
    facing = solved.predraw_probabilities(aces, "b")
    assert set(facing) == {"fold", "call", "raise"}
    draw = solved.draw_probabilities(aces, "bc", seat=1, opponent_draw=3)
    assert set(draw) == {0, 1, 2, 3} and abs(sum(draw.values()) - 1) < 1e-9
    keep3 = solved.keep(aces, 3)
    assert keep3.tolist() == [True, True, False, False, False]
    final = parse_hand("As Ad Ac 6h 2s")
    after = solved.postdraw_probabilities(final, "bc", (3, 3), "")
    assert set(after) == {"check", "bet"}


def test_four_with_an_ace() -> None:
    """Under "4-ace" drawing four is legal only keeping an ace, and no draw pattern mixes hands
    with and without one (so a bucket's draw options are the same for all its hands)."""
    rules = preset("morkpoker", max_draw="4-ace")
    deals, _ = deal_classes()
    legal = legal_hold_table(deals, rules)
    single = [m for m in range(32) if bin(m).count("1") == 1]
    kept = np.stack([deals[:, m.bit_length() - 1] for m in single], axis=1)
    assert np.array_equal(legal[:, single], kept // 4 == 12)
    group, _ = pattern_groups(deals, np.zeros(len(deals), dtype=np.int64), draw_options(rules), rules)
    has_ace = (deals // 4 == 12).any(axis=1)
    for g in np.unique(group):
        members = has_ace[group == g]
        assert members.all() or not members.any()


def test_forgetting_the_pre_draw_bucket_costs_a_best_response_nothing() -> None:
    """The same profile in a game whose seats remember their pre-draw bucket after the draw
    (final state = (pre-draw bucket, final bucket)) has the same value and the same best
    responses: the merged information sets lose nothing."""
    import dataclasses

    a = synthetic(pre=3, final=4, seed=3)
    sol = solve(MORK, abstraction=a, iterations=30)
    n_pre, n_fin = a.pre_buckets, a.final_buckets
    wide = np.zeros((len(a.options), n_pre, n_pre * n_fin))
    for b in range(n_pre):
        wide[:, b, b * n_fin:(b + 1) * n_fin] = a.transitions[:, b, :]
    remembered = dataclasses.replace(a, transitions=wide, final_mass=np.full(n_pre * n_fin, 1 / (n_pre * n_fin)))
    game = build_game(remembered)
    strength = np.tile(np.arange(n_fin, dtype=float), n_pre)
    tree = dataclasses.replace(game.tree, spaces=(game.tree.spaces[0], cfr.Space(n_pre * n_fin, strength)))
    post = set(game.post_nodes.values())
    profile = [None if s is None else (np.tile(s, (1, n_pre, 1)) if i in post else s)
               for i, s in enumerate(sol.strategy)]
    merged = cfr.evaluate_profile(sol.game.tree, list(sol.strategy))
    full = cfr.evaluate_profile(tree, profile)
    assert full.value == pytest.approx(merged.value, abs=1e-12)
    assert full.best_response == pytest.approx(merged.best_response, abs=1e-12)


def test_a_saved_solution_reads_back_identical(solved, cache_directory, tmp_path):
    path = solved.save(tmp_path / "solution.parquet")
    back = load_solution(path)
    assert back.rules == solved.rules and back.value == solved.value and back.infosets == solved.infosets
    for mine, theirs in zip(solved.strategy, back.strategy, strict=True):
        assert (mine is None) == (theirs is None)
        if mine is not None:
            assert np.array_equal(mine, theirs)
    hand = [48, 49, 44, 30, 12]
    assert back.predraw_probabilities(hand, "") == solved.predraw_probabilities(hand, "")
    assert back.to_dict() == solved.to_dict()


def test_a_file_that_is_not_a_solution_is_refused(tmp_path):
    bad = tmp_path / "other.parquet"
    bad.write_bytes(b"not parquet")
    with pytest.raises(RequestError, match="not a solution file"):
        load_solution(bad)


def test_the_equilibrium_is_solved_once_then_read_from_the_cache(small):
    settings = {"exploitability": 0.01, "pre_buckets": 24, "final_buckets": 12, "rounds": 1}
    path = equilibrium_path(MORK, **settings)
    assert not path.exists()
    first = equilibrium_solution(MORK, **settings)
    assert path.exists() and first.exploitability <= 0.01
    written = path.stat().st_ino                   # a file written again is a new file in its place
    again = equilibrium_solution(MORK, **settings)
    assert path.stat().st_ino == written
    assert again.value == first.value and again.iterations == first.iterations


def test_a_made_hand_never_breaks_where_the_exact_table_says_it_costs(small_solution) -> None:
    """Every deal class that stands pat in an exact table (equity against the dealt hands) and
    loses more than a thousandth by drawing draws with at most 1% probability anywhere."""
    from drawodds.solver.abstraction import best_holds, equity_values, legal_hold_table
    from drawodds.solver.subsets import N_STRENGTHS, hand_strengths

    a = small_solution.abstraction
    made = evaluate(a.classes) >= evaluate(np.array([[0, 5, 8, 12, 48]]))[0]     # a straight or better
    deals = a.classes[made]
    dealt = np.bincount(hand_strengths(), minlength=N_STRENGTHS).astype(np.float64)
    _, value = best_holds(deals, legal_hold_table(deals, a.rules), equity_values(dealt), a.options)
    stands = value.argmax(axis=1) == 0
    costly = stands[:, None] & (value[:, :1] - value > 1e-3)
    assert costly.sum() > 1000                             # straights, flushes, full houses, straight flushes
    most = np.zeros((a.pre_buckets, len(a.options)))
    for node in small_solution.game.draw_nodes.values():
        s = small_solution.strategy[node]
        most = np.maximum(most, s.max(axis=0))
    bucket = a.class_bucket[made]
    assert (most[bucket][costly] <= 0.01).all()
    sf = np.flatnonzero(made)[evaluate(deals) >= evaluate(np.array([[0, 4, 8, 12, 48]]))[0]]
    assert {a.pattern_names[p] for p in a.pattern[a.class_bucket[sf]]} == {"straight flush, pat, never breaks"}


def test_four_of_a_kind_keeps_its_four_by_construction(small_solution, small_table) -> None:
    """A bucket dealt four of a kind may not take a count's second hold (it would break the four):
    its second-hold probability is exactly zero at every hold choice, heads-up and at three."""
    from drawodds.evaluate import QUADS, category_of

    a = small_solution.abstraction
    quads = np.unique(a.class_bucket[category_of(evaluate(a.classes)) == QUADS])
    assert len(quads) and all((category_of(evaluate(a.classes[a.class_bucket == b])) == QUADS).all() for b in quads)
    for solution in (small_solution, small_table):
        holds = solution.game.hold_nodes
        assert holds
        for (_, _, k), node in holds.items():
            second = solution.strategy[node][:, quads, 1:]
            assert (second == 0).all(), (k, second.max())
            legal = a.hold_legal(k)
            others = ~np.isin(np.arange(len(legal)), quads) if legal is not None else None
            assert legal is not None and not legal[quads, 1:].any() and legal[others].all()
