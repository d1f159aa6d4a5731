"""The trainer in Swedish and Norwegian: the same session, graded the same, said in the player's language."""

from __future__ import annotations

import io
import json
import pickle
import re

import numpy as np
import pytest
from rich.console import Console

from drawodds import i18n
from drawodds import trainer as tr
from drawodds.cards import RANK_NAMES, RANK_PLURALS
from drawodds.kinds import HoldType, ReadClass
from drawodds.render import train as view
from drawodds.results import json_data
from drawodds.trainer import whylines

RANKS, SUITS = "23456789TJQKA", "cdhs"
# Draw counts (always legal with at most three drawn), a reading in the player's words, score and help.
ANSWERS = {"en": ["3", "pat", "1", "two pair 40", "score", "help", "2"],
           "sv": ["3", "stå", "1", "två par 40", "poäng", "hjälp", "2"],
           "nb": ["3", "stå", "1", "to par 40", "poeng", "hjelp", "2"]}


def play(lang: str, history=None, seed: int = 3) -> tuple[str, tr.TrainingSummary]:
    """A five-question session (the fourth a reading) under ``lang``, as an 80-column terminal shows it."""
    out = io.StringIO()
    console = Console(file=out, width=80)
    answers = iter(ANSWERS[lang])

    def ask(prompt: str) -> str | None:
        answer = next(answers, None)
        if answer is not None:
            console.print(prompt + answer, highlight=False)
        return answer

    with i18n.use(lang):
        setup = tr.train_setup("morkpoker", objective="jacks", trials=400)
        summary = tr.run_session(setup, ask, lambda item: view.render_item(console, item), history=history,
                                 hands=5, seed=seed)
        view.render_summary(console, summary)
    return out.getvalue(), summary


@pytest.fixture(scope="module")
def sessions() -> dict[str, tuple[str, tr.TrainingSummary]]:
    return {lang: play(lang) for lang in ("en", "sv", "nb")}


def code(card: str) -> int:
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def graded_why(objective: str, hand: str, answer: str) -> str:
    setup = tr.train_setup("morkpoker", objective=objective)
    pos = tr.position(setup, np.array([code(c) for c in hand.split()]), 1, 1)
    return tr.grade(pos, tr.parse_answer(answer, pos, setup.rules)).why


def named(text: str) -> tuple[list[str], list[str]]:
    """The cards and the numbers a line names (decimal commas read as points), each sorted."""
    cards = re.findall(r"[2-9TJQKA][♣♦♥♠]", text)
    numbers = [n.replace(",", ".") for n in re.findall(r"\d+(?:[.,]\d+)?", re.sub(r"[2-9TJQKA][♣♦♥♠]", "", text))]
    return sorted(cards), sorted(numbers)


def test_a_session_speaks_swedish_and_norwegian(sessions):
    sv, nb = sessions["sv"][0], sessions["nb"][0]
    for w in ["Tränar vad du behåller", "knektpar eller bättre", "Behåll? ", "Bäst:", "Varför:", "Kostnad:",
              "Läsning 4", "Ställning:", "Fel per mönster"]:
        assert w in sv, w
    for w in ["Trener på hva du beholder", "knektpar eller bedre", "Behold? ", "Best:", "Hvorfor:", "Kostnad:",
              "Lesing 4", "Stilling:", "Feil per mønster"]:
        assert w in nb, w
    # Numbers as the language writes them: a decimal comma and a (no-break) space before the percent sign.
    assert re.search(r"\d,\d\u00a0%", sv) and re.search(r"\d,\d\u00a0%", nb)
    assert not re.search(r"\d\.\d", sv) and not re.search(r"\d\.\d", nb)
    # The player's words are read: stå stands pat, två par / to par is the reading class, hjälp is help.
    for lang in ("sv", "nb"):
        summary = sessions[lang][1]
        assert summary.grades[1].chosen_draw == 0 and summary.readings[0].answer_class == "two pair"
    assert "Svara på en fråga om vad du behåller" in sv and "Svar på et spørsmål om hva du beholder" in nb


def test_every_line_fits_80_columns(sessions):
    for lang, (text, _) in sessions.items():
        wide = [line for line in text.splitlines() if len(line.rstrip()) > 80]
        assert not wide, (lang, wide)


def test_english_is_unchanged_and_the_grades_are_the_same_in_every_language(sessions):
    text, summary = sessions["en"]
    assert "Training holds, every 4th question a reading" in text and "Keep? 3" in text
    assert "  Best:  keep " in text and "  Why:   " in text and "Score: 4 decisions" in text
    assert not re.search(r"\d,\d", text)
    def graded(summary: tr.TrainingSummary) -> dict:
        """The JSON, less the answers as typed (stå, två par)."""
        data = json_data(summary)
        for item in (*data["grades"], *data["readings"]):
            item.pop("answer")
        return data

    for lang in ("sv", "nb"):
        with i18n.use(lang):
            assert graded(sessions[lang][1]) == graded(summary)    # JSON stays English, whatever the player reads
    for g in summary.grades:
        assert g.why == str(g.why) and not re.search(r"[åäöø]", g.why)


def test_a_why_line_names_the_same_holds_and_figures_in_every_language(sessions):
    grades = [*sessions["en"][1].grades, *sessions["en"][1].readings]
    assert len(grades) == 5
    for g in grades:
        english = g.why.text()
        for lang in ("sv", "nb"):
            with i18n.use(lang):
                said = g.why.text()
            assert said != english and named(said) == named(english), (lang, said, english)


def test_known_lines_in_swedish_and_norwegian():
    line = graded_why("jacks", "9s 7h 7d 2s 2c", "pat")
    assert line == "two pair drawing one fills up 4 times in 47 (8.5%); the 9♠ kicker adds nothing"
    with i18n.use("sv"):
        assert line.text() == "två par (köp ett) blir kåk 4 gånger av 47 (8,5\u00a0%); kickern 9♠ tillför ingenting"
    with i18n.use("nb"):
        assert line.text() == "to par (bytt ett) blir hus 4 ganger av 47 (8,5\u00a0%); kickeren 9♠ tilfører ingenting"
    flush = graded_why("points", "Kh 9h 7h 6h 4d", "Kh 9h")
    assert flush.startswith("the four-flush fills 9 times in 47, pairs 12 more")
    with i18n.use("sv"):
        assert flush.text().startswith("fyrfärgen går in 9 gånger av 47, par 12 gånger till")
    with i18n.use("nb"):
        assert "tre til flush" in graded_why("points", "Kh 9h 7h 6h 4d", "Kh 9h 7h").text()


def test_the_words_match_the_english_names_they_translate():
    assert [r.english() for r in whylines.RANK] == list(RANK_NAMES)
    assert [r.english() for r in whylines.RANKS] == list(RANK_PLURALS)
    assert [r.english() for r in whylines.THE_RANK] == [f"the {r}" for r in RANK_NAMES]
    assert [r.english() for r in whylines.THE_RANKS] == [f"the {r}" for r in RANK_PLURALS]
    assert {slug: w.english() for slug, w in tr.PATTERN_WORDS.items()} == {t.slug: t.label for t in HoldType}
    assert {slug: w.english() for slug, w in tr.READ_WORDS.items()} == {c.slug: c.label for c in ReadClass}
    with i18n.use("sv"):
        assert [r.text() for r in whylines.RANK][-4:] == ["knekt", "dam", "kung", "ess"]
        assert tr.READ_WORDS["trips"].text() == "triss" and tr.READ_WORDS["full house"].text() == "kåk"
    with i18n.use("nb"):
        assert [r.text() for r in whylines.RANK][-4:] == ["knekt", "dame", "konge", "ess"]
        assert tr.READ_WORDS["trips"].text() == "tress" and tr.READ_WORDS["full house"].text() == "hus"


def test_a_line_keeps_its_language_free_form_when_pickled():
    line = graded_why("jacks", "9s 7h 7d 2s 2c", "pat")
    again = pickle.loads(pickle.dumps(line))
    assert again == line
    with i18n.use("sv"):
        assert again.text() == line.text()


def test_the_history_is_language_neutral(tmp_path):
    """A session in Swedish, then one in English, then one in Norwegian: each reads the others' record."""
    path = tmp_path / "train.jsonl"
    play("sv", path, seed=3)
    english, _ = play("en", path, seed=4)
    assert "Session 2: so far 4 decisions" in english
    norwegian, _ = play("nb", path, seed=5)
    assert "Økt 3: så langt 8 avgjørelser" in norwegian
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert {r["session"] for r in records} == {1, 2, 3}
    assert not re.search(r"[åäöø]", json.dumps([{k: v for k, v in r.items() if k != "answer"} for r in records],
                                               ensure_ascii=False))


def test_answers_in_the_players_words_mean_what_the_english_ones_do():
    setup = tr.train_setup("morkpoker", objective="jacks")
    pos = tr.position(setup, np.array([code(c) for c in "Ks Kc Qd 7s 3d".split()]), 1, 1)

    def kept(text: str) -> tuple[str, ...]:
        return tr.parse_answer(text, pos, setup.rules).keep

    assert kept("släng 7s 3d") == kept("kast 7s 3d") == kept("throw 7s 3d") == ("Ks", "Kc", "Qd")
    assert kept("behåll Ks Kc") == kept("behold Ks Kc") == kept("Ks Kc") == ("Ks", "Kc")
    assert kept("stå") == kept("pat") and len(kept("stå")) == 5
    assert [tr.parse_answer(w, pos, setup.rules).kind for w in ("hjälp", "hjelp", "poäng", "poeng", "sluta", "slutt")] \
        == ["help", "help", "score", "score", "quit", "quit"]
