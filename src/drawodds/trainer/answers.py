"""Answers: a line typed by the player read as a hold, a reading or a command."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from drawodds.cards import CardError, card_str, format_cards, parse_cards
from drawodds.errors import DrawoddsError
from drawodds.i18n import N_
from drawodds.kinds import ReadClass
from drawodds.rules import RuleSet
from drawodds.trainer.phrases import Phrase
from drawodds.trainer.questions import Position, Question, ReadQuestion

# Reading answers: the posterior's labels grouped into classes a player can name (``kinds.ReadClass``),
# and the words a player may type for each.
READ_CLASSES = ReadClass.slugs()
_READ_ALIASES: dict[str, str] = {
    "pair": "pair", "one pair": "pair", "a pair": "pair", "1p": "pair",
    "two pair": "two pair", "2 pair": "two pair", "twopair": "two pair", "2p": "two pair",
    "trips": "trips", "three of a kind": "trips", "set": "trips", "3k": "trips",
    "four flush": "four flush", "4 flush": "four flush", "flush draw": "four flush", "4f": "four flush",
    "open ended": "open-ended", "open": "open-ended", "straight draw": "open-ended", "oesd": "open-ended",
    "inside straight": "inside straight", "inside": "inside straight", "gutshot": "inside straight",
    "high cards": "high cards", "high card": "high cards", "high": "high cards", "nothing": "high cards",
    "straight": "straight", "flush": "flush", "full house": "full house", "full": "full house",
    "boat": "full house", "four of a kind": "four of a kind", "quads": "four of a kind",
    "straight flush": "straight flush", "royal flush": "straight flush", "bluff": "bluff", "snow": "bluff",
    "broken pat": "broken pat", "broken": "broken pat",
    "five of a kind": "five of a kind", "five aces": "five of a kind", "5k": "five of a kind",
    # The same classes in Swedish and Norwegian (the glossary's words), accepted in any language.
    "par": "pair", "ett par": "pair", "et par": "pair", "två par": "two pair", "to par": "two pair",
    "triss": "trips", "tress": "trips", "fyrfärg": "four flush", "firekorts flush": "four flush",
    "öppen stege": "open-ended", "åpen straight": "open-ended", "innerstege": "inside straight",
    "innvendig straight": "inside straight", "höga kort": "high cards", "högt kort": "high cards",
    "høye kort": "high cards", "høyt kort": "high cards", "ingenting": "high cards",
    "stege": "straight", "färg": "flush", "kåk": "full house", "hus": "full house", "fyrtal": "four of a kind",
    "fire like": "four of a kind", "färgstege": "straight flush", "bløff": "bluff", "stå på luft": "bluff",
    "bruten": "broken pat", "brutt": "broken pat", "femtal": "five of a kind", "fem like": "five of a kind",
}
# Each class as a player reads it (the answer's slug stays English in JSON and the history).
READ_WORDS: dict[str, Phrase] = {
    "pair": Phrase.pgettext("read class", "pair"), "two pair": Phrase.pgettext("read class", "two pair"),
    "trips": Phrase.pgettext("read class", "trips"), "four flush": Phrase.pgettext("read class", "four flush"),
    "open-ended": Phrase.pgettext("read class", "open-ended"),
    "inside straight": Phrase.pgettext("read class", "inside straight"),
    "high cards": Phrase.pgettext("read class", "high cards"), "straight": Phrase.pgettext("read class", "straight"),
    "flush": Phrase.pgettext("read class", "flush"), "full house": Phrase.pgettext("read class", "full house"),
    "four of a kind": Phrase.pgettext("read class", "four of a kind"),
    "straight flush": Phrase.pgettext("read class", "straight flush"), "bluff": Phrase.pgettext("read class", "bluff"),
    "broken pat": Phrase.pgettext("read class", "broken pat"),
    "five of a kind": Phrase.pgettext("read class", "five of a kind"),
}
HELP = N_("Answer a keep question with the cards to keep (As Ah, or AsAh), the cards to throw after "
          "'throw' or '-' (throw 7s 3s, -7s3s), a draw count (3: the best hold that draws three), or "
          "'pat'. Answer a reading with a class and your equity in percent (two pair 55). Also: "
          "'score' for the running score, 'help', 'quit'.")


class AnswerError(DrawoddsError):
    """An answer the trainer cannot grade (not in the hand, an illegal hold): say why, ask again."""


@dataclass(frozen=True)
class Answer:
    """A parsed answer: a hold (kept cards), a reading, or a command (quit, help, score)."""

    kind: Literal["hold", "read", "quit", "help", "score"]
    text: str
    keep: tuple[str, ...] = ()
    how: str = ""                   # hold: cards, throw, draw or pat
    read_class: str | None = None
    read_equity: float | None = None


_COMMANDS = {"q": "quit", "quit": "quit", "exit": "quit", "?": "help", "h": "help", "help": "help",
             "score": "score",
             # Swedish and Norwegian
             "sluta": "quit", "avsluta": "quit", "slutt": "quit", "avslutt": "quit", "hjälp": "help", "hjelp": "help",
             "poäng": "score", "poeng": "score", "ställning": "score", "stilling": "score"}


_THROW = ("släng", "kasta", "kast")          # Swedish and Norwegian words for throw ...
_KEEP = ("behåll", "behold")                  # ... and for keep


def parse_answer(text: str, question: Question, rules: RuleSet) -> Answer:
    """Read one answer line for ``question``; a bad one raises ``AnswerError`` (one line)."""
    raw = " ".join(text.split())
    low = raw.lower()
    if low in _COMMANDS:
        return Answer(_COMMANDS[low], raw)  # type: ignore[arg-type]
    if not low:
        if question.kind == "keep":
            raise AnswerError("no answer: cards to keep, throw CARDS, a draw count or pat")
        raise AnswerError("no answer: a class and an equity, e.g. pair 60")
    if isinstance(question, ReadQuestion):
        return _parse_read(raw)
    return _parse_hold(raw, question, rules)


def _parse_hold(raw: str, question: Position, rules: RuleSet) -> Answer:
    hand = format_cards(question.hand)
    low = raw.lower()
    rows = question.result.rows()
    if low in ("pat", "stand", "stand pat", "stå") or low.isdigit():
        count = 0 if not low.isdigit() else int(low)
        drawing = [r for r in rows if r["draw"] == count]
        if not drawing:
            most = max(r["draw"] for r in rows)
            raise AnswerError("no legal hold draws {count} under {rule_set}: draw 0-{most} (max draw {max_draw})",
                              count=count, rule_set=rules.name, most=most, max_draw=rules.max_draw)
        return Answer("hold", raw, tuple(drawing[0]["keep"]), "pat" if count == 0 else "draw")
    throw = low.startswith(("throw", "discard", "-", *_THROW))
    body = raw.lstrip("-").strip()
    for word in ("throw", "discard", "keep", "hold", *_THROW, *_KEEP):
        if body.lower().startswith(word):
            body = body[len(word):]
    try:
        cards = [card_str(c) for c in parse_cards(body.replace("-", " "), joker=rules.joker)]
    except CardError as exc:
        raise AnswerError("{reason} (answer with cards from your hand, a draw count, pat, or help)",
                          *exc.parameters, reason=exc) from None
    stray = [c for c in cards if c not in hand]
    if stray:
        raise AnswerError("{card} is not in your hand ({hand})", card=stray[0], hand=" ".join(hand))
    if throw and not cards:
        raise AnswerError("throw which cards? e.g. throw 7s 3s")
    kept = [c for c in hand if (c not in cards) == throw]
    match = next((r for r in rows if sorted(r["keep"]) == sorted(kept)), None)
    if match is None:
        limit = rules.draw_limit_for(parse_cards(kept, joker=rules.joker))
        if rules.max_draw == "4-ace":
            raise AnswerError("that draws {draws}; under {rule_set} you may draw at most {limit} (4 when you keep "
                              "an ace)", draws=5 - len(kept), rule_set=rules.name, limit=limit)
        raise AnswerError("that draws {draws}; under {rule_set} you may draw at most {limit}", draws=5 - len(kept),
                          rule_set=rules.name, limit=limit)
    return Answer("hold", raw, tuple(match["keep"]), "throw" if throw else "cards")


def _parse_read(raw: str) -> Answer:
    words = raw.lower().replace(",", " ").replace("%", " ").split()
    number = words[-1] if words else ""
    try:
        equity = float(number)
    except ValueError:
        raise AnswerError("give a class and your equity in percent, e.g. two pair 45") from None
    if not (math.isfinite(equity) and 0 <= equity <= 100):
        raise AnswerError("equity is a percentage from 0 to 100, got {number}", number=number)
    name = " ".join(words[:-1]).replace("-", " ").strip()
    cls = _READ_ALIASES.get(name)
    if cls is None:
        raise AnswerError("unknown class {name}; classes: {choices}", name=repr(name), choices=', '.join(READ_CLASSES))
    return Answer("read", raw, read_class=cls, read_equity=equity / 100)
