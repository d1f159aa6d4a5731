"""`drawodds train`: graded holds checked against a brute-force count, history, weighting, focus."""

from __future__ import annotations

import io
import itertools
import json
import os
import threading

import numpy as np
import pytest

from drawodds import trainer as tr
from drawodds.analyses.keep import ranking
from drawodds.cli import main
from drawodds.errors import RequestError
from drawodds.rules import preset
from drawodds.trainer import dealing, whylines

RANKS, SUITS = "23456789TJQKA", "cdhs"


def run(capsys, monkeypatch, answers, *args):
    """Run the command in-process with the answers on standard input; (code, stdout, stderr)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{a}\n" for a in answers)))
    with pytest.raises(SystemExit) as exc:
        main(["train", "--answers", "-", *args])
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def session(capsys, monkeypatch, answers, history, *args):
    code, out, err = run(capsys, monkeypatch, answers, "--history", str(history), "--json", *args)
    assert code == 0, err
    return json.loads(out), err


# --- an independent count: every draw of every hold, jacks or better by hand --------------------

def code(card: str) -> int:
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def jacks_or_better(hands: np.ndarray) -> np.ndarray:
    """(N, 5) card codes -> whether each hand is at least a pair of jacks (plain numpy, no drawodds)."""
    ranks, suits = hands // 4, hands % 4
    counts = np.stack([(ranks == r).sum(axis=1) for r in range(13)], axis=1)
    high_pair = (counts[:, 9:] >= 2).any(axis=1)
    pairs = (counts == 2).sum(axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (counts > 0).sum(axis=1) == 5
    top, low = ranks.max(axis=1), ranks.min(axis=1)
    wheel = distinct & (top == 12) & (np.sort(ranks, axis=1)[:, 3] == 3)
    straight = distinct & ((top - low == 4) | wheel)
    return high_pair | (pairs == 2) | (counts.max(axis=1) >= 3) | flush | straight


def brute_force(hand: list[str], max_draw: int = 3) -> dict[frozenset[str], float]:
    """P(jacks or better) of every legal hold, by enumerating every draw."""
    cards = [code(c) for c in hand]
    stub = np.array([c for c in range(52) if c not in cards], dtype=np.int64)
    out = {}
    for k in range(5 - max_draw, 6):
        picks = list(itertools.combinations(range(47), 5 - k))
        draws = stub[np.array(picks, dtype=np.int64)] if k < 5 else np.zeros((1, 0), dtype=np.int64)
        for kept in itertools.combinations(cards, k):
            hands = np.hstack([np.tile(np.array(kept, dtype=np.int64), (len(draws), 1)), draws])
            names = frozenset(RANKS[c // 4] + SUITS[c % 4] for c in kept)
            out[names] = float(jacks_or_better(hands).mean())
    return out


def test_costs_match_a_brute_force_count(capsys, monkeypatch, tmp_path):
    args = ("--seed", "1", "--objective", "jacks", "--drill", "keep", "--hands", "1")
    wrong, _ = session(capsys, monkeypatch, ["pat"], tmp_path / "a.jsonl", *args)
    g = wrong["grades"][0]
    values = brute_force(g["hand"])
    best = max(values.values())
    assert g["chosen"] == g["hand"] and g["exact"] and g["cost_se"] == 0
    assert g["cost"] == pytest.approx(best - values[frozenset(g["hand"])], abs=1e-12)
    assert g["mistake"] == (g["cost"] > 0) and g["why"]
    # The best hold, given as the cards to throw, costs nothing (the same seed deals the same hand).
    keep = max(values, key=values.__getitem__)
    throw = "throw " + " ".join(c for c in g["hand"] if c not in keep)
    right, _ = session(capsys, monkeypatch, [throw], tmp_path / "b.jsonl", *args)
    r = right["grades"][0]
    assert r["hand"] == g["hand"] and r["cost"] == 0 and not r["mistake"]
    assert values[frozenset(r["best"])] == pytest.approx(best, abs=1e-12)


def test_answers_parse_to_the_right_hold():
    setup = tr.train_setup("morkpoker", objective="jacks")
    pos = tr.position(setup, np.array([code(c) for c in "As Ah Ks 7s 3s".split()]), 1, 1)
    rules = setup.rules

    def kept(text):
        return sorted(tr.parse_answer(text, pos, rules).keep)

    assert kept("As Ah") == kept("AsAh") == kept("throw Ks 7s 3s") == kept("-Ks7s3s") == ["Ah", "As"]
    assert kept("pat") == sorted("As Ah Ks 7s 3s".split())
    best3 = next(r["keep"] for r in pos.result.rows() if r["draw"] == 3)
    assert kept("3") == sorted(best3)
    assert tr.parse_answer("q", pos, rules).kind == "quit"
    for bad, words in [("Qs", "not in your hand"), ("4", "no legal hold draws 4"), ("As", "at most 3"),
                       ("", "no answer"), ("Xx", "unknown rank")]:
        with pytest.raises(tr.AnswerError, match=words):
            tr.parse_answer(bad, pos, rules)


def test_equity_cost_carries_a_standard_error(capsys, monkeypatch, tmp_path):
    args = ("--seed", "2", "--drill", "keep", "--hands", "2", "--trials", "2000", "--opponents", "1")
    data, err = session(capsys, monkeypatch, ["1", "2"], tmp_path / "h.jsonl", *args)
    assert data["objective"] == "equity" and data["decisions"] == 2
    for g in data["grades"]:
        assert not g["exact"] and g["seed"] is not None
        assert (g["cost"] == 0 and g["cost_se"] == 0) if g["chosen"] == g["best"] else g["cost_se"] > 0
        assert g["mistake"] == (g["cost"] > 2 * g["cost_se"])
    assert "±" in err or all(g["chosen"] == g["best"] for g in data["grades"])


def test_bad_lines_get_one_line_and_the_question_again(capsys, monkeypatch, tmp_path):
    answers = ["Zz", "Qx Qy", "throw", "5", "help", "score", "pat"]
    data, err = session(capsys, monkeypatch, answers, tmp_path / "h.jsonl", "--seed", "1", "--objective",
                        "jacks", "--drill", "keep", "--hands", "1")
    assert data["decisions"] == 1 and data["grades"][0]["answer"] == "pat"
    bad = [line for line in err.splitlines() if line.strip().startswith("? ")]
    assert len(bad) == 4 and "no legal hold draws 5" in err
    assert err.count("Keep? ") == len(answers)


def test_history_resumes_and_changes_the_weighting(capsys, monkeypatch, tmp_path):
    history = tmp_path / "h.jsonl"
    args = ("--objective", "jacks", "--drill", "keep", "--hands", "2")
    first, _ = session(capsys, monkeypatch, ["pat", "pat"], history, "--seed", "3", *args)
    missed_first = first["mistakes"]
    assert first["session"] == 1 and missed_first >= 1
    lines = [json.loads(x) for x in history.read_text().splitlines()]
    assert [x["mistake"] for x in lines] == [g["mistake"] for g in first["grades"]]
    assert all(x["session"] == 1 for x in lines)
    second, err = session(capsys, monkeypatch, ["pat", "q"], history, "--seed", "3", *args)
    assert second["session"] == 2 and second["stopped"] == "quit"
    assert f"so far 2 decisions, {missed_first} mistake" in err
    assert second["all_decisions"] == 3 and second["all_mistakes"] == missed_first + second["mistakes"]
    assert [s["session"] for s in second["sessions"]] == [1, 2]
    missed = {g["pattern"] for g in first["grades"] if g["mistake"]}
    assert all(p["weight"] > 1 for p in second["patterns"] if p["pattern"] in missed)
    # The recorded mistakes move the deal weights.
    setup = tr.train_setup("morkpoker", objective="jacks", drill="keep")
    deals = dealing._random_deals(np.random.default_rng(0), 256, 52)
    fresh, _ = tr.candidate_weights(setup, deals, {})
    weighted, _ = tr.candidate_weights(setup, deals, tr.pattern_weights(tr.load_history(history), setup))
    assert not np.allclose(fresh, weighted)


def test_default_history_honours_xdg_data_home(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("sys.platform", "linux")
    code, _, err = run(capsys, monkeypatch, ["pat"], "--seed", "1", "--objective", "jacks", "--hands", "1")
    assert code == 0, err
    assert len((tmp_path / "drawodds" / "train.jsonl").read_text().splitlines()) == 1


def test_focus_and_seed(capsys, monkeypatch, tmp_path):
    args = ("--seed", "4", "--objective", "jacks", "--drill", "keep", "--hands", "3", "--focus", "flush-draw")
    a, _ = session(capsys, monkeypatch, ["pat"] * 3, tmp_path / "a.jsonl", *args)
    b, _ = session(capsys, monkeypatch, ["pat"] * 3, tmp_path / "b.jsonl", *args)
    assert [g["pattern"] for g in a["grades"]] == ["flush-draw"] * 3
    assert all(len(g["best"]) == 4 and len({c[1] for c in g["best"]}) == 1 for g in a["grades"])
    assert [g["hand"] for g in a["grades"]] == [g["hand"] for g in b["grades"]]
    other, _ = session(capsys, monkeypatch, ["pat"] * 3, tmp_path / "c.jsonl", "--seed", "5", *args[2:])
    assert [g["hand"] for g in other["grades"]] != [g["hand"] for g in a["grades"]]


@pytest.mark.parametrize("args, fragment", [
    (["--focus", "nosuch"], "patterns: pat, made, pair"),
    (["--focus", "draw-five"], "more than morkpoker allows"),
    (["--objective", "equity", "--rules", "poengpoker"], "use --objective points"),
    (["--objective", "jacks", "--opponents", "2"], "--opponents goes with --objective equity"),
    (["--drill", "sideways"], "--drill must be one of"),
    (["--objective", "jacks", "--focus", "kicker"], "'kicker' is the best hold of no deal"),
    (["--hands", "0"], "--hands must be at least 1"),
])
def test_bad_options_are_one_line(capsys, monkeypatch, tmp_path, args, fragment):
    code, _, err = run(capsys, monkeypatch, [], "--history", str(tmp_path / "h.jsonl"), *args)
    assert code == 2 and len(err.strip().splitlines()) == 1 and fragment in err
    assert not (tmp_path / "h.jsonl").exists()


def test_a_reading_is_graded_against_the_posterior(capsys, monkeypatch, tmp_path):
    data, err = session(capsys, monkeypatch, ["two pair 50"], tmp_path / "h.jsonl", "--seed", "1", "--drill", "read",
                        "--hands", "1", "--trials", "2000")
    r = data["readings"][0]
    assert r["likely"] == max(r["classes"], key=r["classes"].get)
    assert sum(r["classes"].values()) == pytest.approx(1.0)
    assert r["class_right"] == (r["answer_class"] == r["likely"])
    assert r["equity_right"] == (abs(0.5 - r["equity"]) <= r["band"]) and r["band"] >= 0.05
    assert "Read? two pair 50" in err


# --- the why-line: the exact figure a teacher would quote, counted here from the cards ----------

def graded_why(objective, hand, answer, rules="morkpoker"):
    """The why-line of one answer to a hand-picked position (exact objectives: no sampling)."""
    setup = tr.train_setup(rules, objective=objective)
    pos = tr.position(setup, np.array([code(c) for c in hand.split()]), 1, 1)
    return tr.grade(pos, tr.parse_answer(answer, pos, setup.rules)).why


def unseen(hand):
    held = set(hand.split())
    return [r + s for r in RANKS for s in SUITS if r + s not in held]


def test_two_pair_fills_up_on_the_cards_of_its_ranks():
    hand = "9s 7h 7d 2s 2c"
    outs = sum(c[0] in "72" for c in unseen(hand))          # the last two sevens and deuces
    line = graded_why("jacks", hand, "pat")
    assert f"two pair drawing one fills up {outs} times in 47" in line and "the 9♠ kicker adds nothing" in line
    assert outs == 4


def test_four_flush_counts_its_suit_and_its_pairing_cards():
    hand = "Kh 9h 7h 6h 4d"
    rest = unseen(hand)
    flushes = sum(c[1] == "h" for c in rest)
    jacks = flushes + sum(c[0] == "K" and c[1] != "h" for c in rest)      # a paired king is jacks or better
    pairs = sum(c[0] in "K976" and c[1] != "h" for c in rest)
    line = graded_why("jacks", hand, "Kh 9h")
    assert f"the four-flush ends jacks or better {jacks} times in 47, {flushes} of them flushes" in line
    assert f"the four-flush fills {flushes} times in 47, pairs {pairs} more" in graded_why("points", hand, "Kh 9h")
    assert (flushes, jacks, pairs) == (9, 12, 12)


def test_pair_against_pair_and_kicker_quotes_both_exact_chances(capsys, monkeypatch):
    hand = "Ah 8s 6h 4s 4c"
    values = brute_force(hand.split())
    pair, kicker = values[frozenset({"4s", "4c"})], values[frozenset({"4s", "4c", "Ah"})]
    line = graded_why("jacks", hand, "4s 4c Ah")
    assert line == (f"a pair of fours drawing three ends jacks or better {100 * pair:.1f}%; with the A♥ kicker "
                    f"only {100 * kicker:.1f}%")


def test_trips_and_a_kicker_improve_on_four_cards():
    hand = "Ah Qc 3h 3d 3c"
    rest = unseen(hand)
    outs = sum(c[0] in "3A" for c in rest)                  # the fourth three, or an ace to pair the kicker
    draws = list(itertools.combinations(rest, 2))
    better = sum(a[0] == "3" or b[0] == "3" or a[0] == b[0] for a, b in draws)
    line = graded_why("jacks", hand, "3h 3d 3c Ah")
    assert f"three threes drawing two improves {100 * better / len(draws):.1f}%" in line
    assert f"with the A♥ kicker only {outs} times in 47" in line and "both jacks or better" in line


def test_breaking_a_pat_flush_for_the_straight_flush_draw():
    hand = "9h 8h 7h 6h 2h"
    rest = unseen(hand)
    flushes, sf = sum(c[1] == "h" for c in rest), sum(c in ("Th", "5h") for c in rest)
    line = graded_why("points", hand, "9h 8h 7h 6h")
    assert line.startswith(f"breaking the pat flush for four to a straight flush: a flush or better only {flushes} "
                           f"times in 47, {sf} of them straight flushes")


def test_a_snow_and_a_broken_pair():
    assert graded_why("jacks", "9d 7h 5s 4h 2d", "pat").startswith("a snow: nine high is never jacks or better;")
    hand = "Ks Kc Qd 7s 3d"
    line = graded_why("jacks", hand, "Ks Qd")
    assert line == f"breaking the pair of kings, already jacks or better, for king-queen drawing three: jacks or " \
                   f"better only {100 * brute_force(hand.split())[frozenset({'Ks', 'Qd'})]:.1f}%"


def test_odd_cases_fall_back_and_every_line_fits_two_terminal_lines():
    setup = tr.train_setup("morkpoker", objective="jacks")
    for hand in ("8s 4d 2s 2d 2c", "As Ks Qs 4d 4c", "Kh Qh Jh Th 2c", "7d 6c 5c 4s 3c"):
        pos = tr.position(setup, np.array([code(c) for c in hand.split()]), 1, 1)
        rows = pos.result.rows()
        value = ranking(pos.result).value
        facts = [tr.hold_facts(pos, k, rows[k], float(value[k])) for k in range(len(rows))]
        for other in facts[1:]:
            assert len(tr.why(facts[0], other, "jacks")) <= 140
    # Trips with one kicker or another end alike: no rule fits, the fallback says so.
    pos = tr.position(setup, np.array([code(c) for c in "8s 4d 2s 2d 2c".split()]), 1, 1)
    rows = pos.result.rows()
    value = ranking(pos.result).value
    k8, k4 = (next(k for k, r in enumerate(rows) if sorted(r["keep"]) == sorted(h)) for h in
              (["8s", "2s", "2d", "2c"], ["4d", "2s", "2d", "2c"]))
    a, b = (tr.hold_facts(pos, k, rows[k], float(value[k])) for k in (k8, k4))
    assert all(rule(a, b, "jacks") is None for rule in tr.WHY_RULES)
    assert tr.why(a, b, "jacks") == str(whylines._why_compare(a, b, "jacks")) and "end alike" in tr.why(a, b, "jacks")


def test_a_hold_with_the_joker_is_explained_by_the_fallback():
    setup = tr.train_setup(preset("morkpoker", joker=True), objective="jacks")
    pos = tr.position(setup, np.array([52, code("7s"), code("7h"), code("4s"), code("Ac")]), 1, 1)
    rows = pos.result.rows()
    value = ranking(pos.result).value
    best = tr.hold_facts(pos, 0, rows[0], float(value[0]))
    for k in range(1, len(rows)):
        other = tr.hold_facts(pos, k, rows[k], float(value[k]))
        assert tr.why(best, other, "jacks") == str(whylines._why_compare(best, other, "jacks"))


# --- the history, --answers, the library's session loop and the JSON --------------------------------

def test_corrupt_history_lines_are_skipped(capsys, monkeypatch, tmp_path):
    history = tmp_path / "h.jsonl"
    args = ("--seed", "1", "--objective", "jacks", "--drill", "keep", "--hands", "1")
    session(capsys, monkeypatch, ["pat"], history, *args)
    good = history.read_bytes()
    record = json.loads(good)
    bad = [{**record, "session": None}, {**record, "session": "2"}, {**record, "session": True},
           {**record, "session": 0}, {**record, "mistake": "x"}, {**record, "kind": None}, {**record, "rules": 3},
           {k: v for k, v in record.items() if k != "pattern"}]
    lines = [json.dumps(b).encode() for b in bad]
    lines += [good.strip().replace(b'"session": 1', b'"session": 1e400'), b'"x"', b"[1, 2]", b"null", b"{",
              b'\xff\xfe{"session": 7}', b"[" * 100_000, b""]
    history.write_bytes(good + b"\n".join(lines) + b"\n")
    assert tr.load_history(history) == (record,)
    assert tr.next_session([{"session": None}, {"session": 1e400}, {"session": "x"}, {"session": 2}]) == 3
    data, _ = session(capsys, monkeypatch, ["pat"], history, *args)
    assert data["session"] == 2 and data["all_decisions"] == 2


def test_answers_read_any_path_that_is_not_a_folder(capsys, monkeypatch, tmp_path):
    args = ("--seed", "1", "--objective", "jacks", "--drill", "keep", "--hands", "1", "--json",
            "--history", str(tmp_path / "h.jsonl"))

    def train(answers):
        with pytest.raises(SystemExit) as exc:
            main(["train", "--answers", str(answers), *args])
        cap = capsys.readouterr()
        return exc.value.code, cap.out, cap.err

    code, out, err = train("/dev/null")
    assert code == 0, err
    assert json.loads(out)["decisions"] == 0 and json.loads(out)["stopped"] == "end"
    if hasattr(os, "mkfifo"):    # a pipe, as <(echo pat) gives
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        writer = threading.Thread(target=lambda: fifo.write_text("pat\n"))
        writer.start()
        code, out, err = train(fifo)
        writer.join()
        assert code == 0, err
        assert json.loads(out)["grades"][0]["answer"] == "pat"
    (tmp_path / "latin1.txt").write_bytes("p\xe5t\n".encode("latin-1"))
    for path, words in [(tmp_path, "is a folder"), (tmp_path / "missing.txt", "no such file"),
                        (tmp_path / "latin1.txt", "not UTF-8 text")]:
        code, out, err = train(path)
        assert code == 2 and not out and words in err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_run_session_asks_and_shows_through_callbacks(tmp_path):
    setup = tr.train_setup("morkpoker", objective="jacks", drill="keep")
    answers = iter(["help", "Zz", "score", "pat", "pat"])
    prompts: list[str] = []
    shown: list[object] = []

    def ask(prompt):
        prompts.append(prompt)
        return next(answers, None)

    summary = tr.run_session(setup, ask, shown.append, seed=1)
    kinds = [type(x).__name__ for x in shown]
    assert kinds[:6] == ["Welcome", "Position", "Help", "AnswerError", "Score", "Grade"]
    assert kinds[6:] == ["Position", "Grade", "Position"] and set(prompts) == {"Keep? "}
    assert summary.decisions == 2 and summary.stopped == "end" and summary.history is None
    assert not list(tmp_path.iterdir())
    # The same seed replays the session; a saved session is numbered after the history.
    again = tr.run_session(setup, lambda _: "pat", lambda _: None, seed=1, hands=1,
                           history=tmp_path / "h.jsonl")
    assert again.grades[0].hand == summary.grades[0].hand and again.stopped == "hands"
    assert tr.run_session(setup, lambda _: None, lambda _: None, seed=1, history=tmp_path / "h.jsonl").session == 2


def test_json_numbers_carry_no_float_noise(capsys, monkeypatch, tmp_path):
    row = tr.PatternRow("pair", "keep the pair", 2, 1, 0.0017500000000000016, 2, 1, 1.0 + 2 / 3)
    assert row.to_dict()["cost"] == 0.00175 and row.to_dict()["weight"] == 1.66666666667
    data, _ = session(capsys, monkeypatch, ["pat", "pat", "pat"], tmp_path / "h.jsonl", "--seed", "3",
                      "--objective", "jacks", "--drill", "keep", "--hands", "3")

    def floats(value):
        if isinstance(value, float):
            yield value
        elif isinstance(value, dict | list):
            for v in value.values() if isinstance(value, dict) else value:
                yield from floats(v)

    assert all(float(f"{x:.12g}") == x for x in floats(data))
    assert data["cost"] == pytest.approx(sum(g["cost"] for g in data["grades"]), abs=1e-12)


def test_poengpoker_is_graded_on_the_points_keep_ranks_by():
    """Under Poengpoker the trainer grades on the points this deal (best hand + last trick) against
    the other players, exactly as ``keep --rules poengpoker`` ranks the holds, not on one's own table
    points (which would keep the 6♦ of T♣ 9♠ 6♦ 3♥ 2♣ and draw four)."""
    from drawodds.analyses.keep import keep

    setup = tr.train_setup("poengpoker", trials=1000)
    assert setup.objective == "points" and setup.opponents == 3
    assert tr.train_setup("poengpoker").trials == tr.POINTS_TRIALS
    hand = "Tc 9s 6d 3h 2c"
    pos = tr.position(setup, np.array([code(c) for c in hand.split()]), 1, 7)
    ranked = keep(hand, rules="poengpoker", opponents=3, trials=1000, seed=7)
    assert pos.seed == 7 and "points_trick" in pos.result.columns
    assert [list(k) for k in pos.result.table.keep] == [list(k) for k in ranked.table.keep]
    assert np.allclose(pos.result.table.points, ranked.table.points)
    graded = tr.grade(pos, tr.parse_answer("6d", pos, setup.rules))
    six = ranked.table[[list(k) == ["6d"] for k in ranked.table.keep]].iloc[0]
    assert graded.chosen_value == pytest.approx(six.points)
    assert graded.cost == pytest.approx(ranked.table.points.iloc[0] - six.points)
    assert not graded.exact and graded.cost_se > 0
    assert "last trick" in graded.why and f"{six.points_trick:.3f}" in graded.why


@pytest.mark.parametrize("rules, objective", [("morkpoker", "jacks"), ("morkpoker", "points"),
                                              ("morkpoker", "equity"), ("poengpoker", "points")])
def test_every_focus_is_dealt_or_refused_up_front(rules, objective):
    """Each documented focus either deals hands whose best hold (in the table the deals are chosen
    by) has that pattern, or is refused by the set-up with the patterns that can be drilled."""
    rng = np.random.default_rng(3)
    for focus in tr.PATTERNS:
        try:
            setup = tr.train_setup(rules, objective=objective, focus=focus, drill="keep")
        except RequestError as exc:
            assert focus in str(exc) and "\n" not in str(exc)
            continue
        deal = tr.choose_deal(setup, {}, rng)
        _, patterns = tr.candidate_weights(setup, deal[None, :], {})
        assert patterns == [focus]
