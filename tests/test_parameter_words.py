"""The library names its arguments by their parameter names; the command line words the same
error with its flags (``cli.errors.message``)."""

from __future__ import annotations

import numpy as np
import pytest

from drawodds import trainer as tr
from drawodds.cards import CardError, card_from_text, parse_hand
from drawodds.charts.report import check_guide_folder
from drawodds.cli import main
from drawodds.cli.errors import flag_names, message
from drawodds.errors import DrawoddsError, RequestError
from drawodds.solver.solved_range import parse_line
from drawodds.trainer import dealing


def flagged(exc: DrawoddsError) -> str:
    """The sentence as a command with no renamed flags prints it."""
    flag_names()
    return message(exc)


def test_a_joker_in_a_deck_without_one_names_the_joker_option():
    with pytest.raises(CardError) as exc:
        card_from_text("Jk", 2)
    assert exc.value.parameters == ("joker",)
    assert str(exc.value).endswith("(use a rule set with the joker, e.g. joker)")
    assert flagged(exc.value) == ("card 2 'Jk': a joker, but this deck has none "
                                  "(use a rule set with the joker, e.g. --joker)")


def test_a_joker_in_a_trainer_answer_keeps_the_parameter():
    setup = tr.train_setup("morkpoker", objective="jacks", drill="keep")
    pos = tr.position(setup, np.array(parse_hand("As Ah Ks 7s 3s")), 1, 1)
    with pytest.raises(tr.AnswerError) as exc:
        tr.parse_answer("As Jk", pos, setup.rules)
    assert exc.value.parameters == ("joker",) and "e.g. joker)" in str(exc.value)
    assert "e.g. --joker) (answer with cards" in flagged(exc.value)


def test_a_bad_betting_line_names_the_line():
    with pytest.raises(RequestError) as exc:
        parse_line("check-wait")
    assert str(exc.value).startswith("line takes betting words")
    assert flagged(exc.value) == ("--line takes betting words (check, bet, raise, call, fold), e.g. check-bet-call; "
                                  "got 'wait'")


def test_a_focus_no_deal_meets_names_the_focus(monkeypatch):
    monkeypatch.setattr(dealing, "FOCUS_BATCHES", 1)
    monkeypatch.setattr(dealing, "BATCH", 2)
    setup = tr.train_setup("morkpoker", objective="jacks", drill="keep", focus="sf-draw")
    with pytest.raises(RequestError) as exc:
        dealing.choose_deal(setup, {}, np.random.default_rng(1))
    assert str(exc.value).endswith("objective: choose another focus")
    assert flagged(exc.value).endswith("objective: choose another --focus")


def test_a_guide_folder_of_the_users_names_force(tmp_path):
    (tmp_path / "README.md").write_text("mine")
    with pytest.raises(RequestError) as exc:
        check_guide_folder(tmp_path)
    assert str(exc.value).endswith("report: choose another folder, or add force")
    assert flagged(exc.value).endswith("report: choose another folder, or add --force")


def test_the_trainer_words_a_bad_answer_with_the_flag(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")     # the whole message on one line, whatever the terminal
    answers = tmp_path / "answers.txt"
    answers.write_text("As Jk\nq\n")
    with pytest.raises(SystemExit):
        main(["train", "--seed", "1", "--hands", "1", "--drill", "keep", "--answers", str(answers),
              "--history", str(tmp_path / "history.jsonl")])
    assert "a joker, but this deck has none (use a rule set with the joker, e.g. --joker) (answer with" in \
        capsys.readouterr().out
