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


def test_three_handed_lines_draw_as_told_on_the_same_deals(small_table):
    """At a table of the three-handed solution the dealer's line decides only its draw (and, in a
    line "... and bet", a bet after the draw when no one has bet): every line meets the same deals."""
    from drawodds.analyses.lessons import TABLE_LINES, _dealer_decks, _DrawsAsTold, standing_pat_table
    from drawodds.engine.deal import DealState, play
    from drawodds.evaluate import TRIPS, TWO_PAIR, category_floor
    from drawodds.solver.table_player import STACK, TablePlayer, TableTables

    rules = small_table.rules.replace(players=3)
    tables = TableTables(small_table)
    decks = list(_dealer_decks(np.random.default_rng(4), 150, 52, category_floor(TWO_PAIR), category_floor(TRIPS)))
    assert all(category_floor(TWO_PAIR) <= evaluate(d[2:15:3]) < category_floor(TRIPS) for d in decks)
    drawn = {}
    for line in ("own", "draw one", "stand pat", "stand pat and bet"):
        players = [TablePlayer(tables, rules, np.random.default_rng(s)) for s in range(3)]
        players[2] = _DrawsAsTold(players[2], line)
        counts, bets = [], 0
        numbers = np.random.default_rng(7)
        for deck in decks:
            for player, mine in zip(players, numbers.random((3, 64)), strict=True):
                player.use_numbers(mine)
            state = DealState(rules, [STACK] * 3, 2, deck.tolist())
            play(state, players)
            if state.draw_counts:
                counts.append(state.draw_counts[0][2])
                after = state.events[[k for k, e in enumerate(state.events) if e[1] == "draw"][-1] + 1:]
                bets += any(seat == 2 and kind == "bet" for seat, kind, _ in after)
        drawn[line] = (counts, bets)
    reached = len(drawn["own"][0])
    assert reached > 20 and all(len(c) == reached for c, _ in drawn.values())      # the same deals reach the draw
    assert set(drawn["draw one"][0]) == {1} and set(drawn["stand pat"][0]) == {0}
    assert drawn["stand pat and bet"][1] > drawn["stand pat"][1]

    lesson = standing_pat_table(small_table, deals=300, seed=3)
    assert [(r.hand, r.line) for r in lesson.lines] == [(h, ln) for h, lines in TABLE_LINES.items() for ln in lines]
    for hand in TABLE_LINES:
        rows = [r for r in lesson.lines if r.hand == hand]
        assert len({r.deals for r in rows}) == 1 and 0 < rows[0].deals <= lesson.dealt[hand] == 300
        assert rows[0].gain_vs_own == 0 and rows[0].gain_vs_own_se == 0
        assert 0 <= lesson.pat_share[hand] <= 1
    assert lesson.to_dict()["players"] == 3 and "three at the table" in lesson.to_markdown()
    assert standing_pat_table(small_table, deals=300, seed=3).lines == lesson.lines       # the seed reproduces it


def test_cli_lesson_pat_three_handed(small_table, monkeypatch, capsys):
    import json

    from drawodds.cli import main, solved

    monkeypatch.setattr(solved, "table_equilibrium_cli", lambda rules, quiet, stopped: small_table)
    with pytest.raises(SystemExit) as exc:
        main(["lesson", "pat", "--players", "3", "--deals", "200", "--seed", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0 and data["players"] == 3 and data["dealt"] == {"two pair": 200, "nothing": 200}
    assert {r["line"] for r in data["lines"]} == {"own", "draw one", "stand pat", "stand pat and bet", "snow",
                                                  "snow and bet"}
    for args, fragment in [(["--players", "4"], "--players is 2 or 3"),
                           (["--players", "3", "--no-equilibrium"], "drop --no-equilibrium"),
                           (["--players", "3", "--rules", "jackpot"], "plain game")]:
        with pytest.raises(SystemExit) as exc:
            main(["lesson", "pat", *args])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err


def test_the_guide_says_what_changes_at_three_in_plain_words(small_table):
    from types import SimpleNamespace

    from drawodds.analyses.lessons import standing_pat_table
    from drawodds.render.report import _table_pat

    lesson = standing_pat_table(small_table, deals=200, seed=5)
    text = _table_pat(SimpleNamespace(table_pat=lesson))
    assert text.startswith("### Three at the table") and text.count("\n| ") == 8       # a header and 7 lines
    assert f"{lesson.solution['value'][-1]:.3f}" in text and "one-deck table" in text
    assert _table_pat(SimpleNamespace(table_pat=None)) == ""
