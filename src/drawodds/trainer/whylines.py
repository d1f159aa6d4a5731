"""Why-lines: one line on why the best hold beats another, in a player's words, from their exact figures.

Each line is a ``Phrase``: whole sentences with named values (holds, cards, counts, percentages),
said in the reader's language when shown; the decisions (which rule, how long) are taken on the
English line, so every language names the same holds and figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from drawodds import i18n
from drawodds.cards import JOKER, format_cards, parse_cards
from drawodds.evaluate import CATEGORIES
from drawodds.i18n import N_
from drawodds.patterns import HoldKind, K, hold_pattern_label, kept_cards
from drawodds.trainer.phrases import Line, Number, Percent, Phrase, said
from drawodds.trainer.questions import Position

P = Phrase
Text = Phrase | str          # a hold's name: a phrase, or its cards as they are shown
Figure = Phrase | Percent    # what a hold's prospect is measured by


@dataclass(frozen=True)
class HoldFacts:
    """The exact figures of one hold that explain it: final-hand odds, outs, the objective's value."""

    keep: tuple[str, ...]
    draw: int
    code: int                    # hold pattern code
    label: str
    cats: tuple[float, ...]      # exact chance of each final category (CATEGORIES order)
    value: float                 # the objective's value (equity, chance of jacks, points)
    unseen: int                  # cards it draws from

    @property
    def kind(self) -> int:
        return self.code >> 8 if self.code < 1 << 13 else -1

    def at_least(self, category: int) -> float:
        return float(sum(self.cats[category:]))


def hold_facts(question: Position, k: int, row: Mapping[str, Any], value: float) -> HoldFacts:
    """The figures of the k-th ranked hold of a keep question."""
    rs = question.result.rules
    cats = tuple(float(row.get(c, 0.0)) for c in CATEGORIES)
    code = question.codes[k]
    return HoldFacts(tuple(row["keep"]), int(row["draw"]), code, hold_pattern_label(code), cats, value,
                     rs.deck_size - 5)


# --- the words: ranks, counts and hands, each said in the reader's language -------------------------

RANK = (P.pgettext("rank", "deuce"), P.pgettext("rank", "three"), P.pgettext("rank", "four"),
        P.pgettext("rank", "five"), P.pgettext("rank", "six"), P.pgettext("rank", "seven"),
        P.pgettext("rank", "eight"), P.pgettext("rank", "nine"), P.pgettext("rank", "ten"),
        P.pgettext("rank", "jack"), P.pgettext("rank", "queen"), P.pgettext("rank", "king"),
        P.pgettext("rank", "ace"))
RANKS = (P.pgettext("ranks", "deuces"), P.pgettext("ranks", "threes"), P.pgettext("ranks", "fours"),
         P.pgettext("ranks", "fives"), P.pgettext("ranks", "sixes"), P.pgettext("ranks", "sevens"),
         P.pgettext("ranks", "eights"), P.pgettext("ranks", "nines"), P.pgettext("ranks", "tens"),
         P.pgettext("ranks", "jacks"), P.pgettext("ranks", "queens"), P.pgettext("ranks", "kings"),
         P.pgettext("ranks", "aces"))
THE_RANK = (P.pgettext("the rank", "the deuce"), P.pgettext("the rank", "the three"),
            P.pgettext("the rank", "the four"), P.pgettext("the rank", "the five"),
            P.pgettext("the rank", "the six"), P.pgettext("the rank", "the seven"),
            P.pgettext("the rank", "the eight"), P.pgettext("the rank", "the nine"),
            P.pgettext("the rank", "the ten"), P.pgettext("the rank", "the jack"),
            P.pgettext("the rank", "the queen"), P.pgettext("the rank", "the king"),
            P.pgettext("the rank", "the ace"))
THE_RANKS = (P.pgettext("the ranks", "the deuces"), P.pgettext("the ranks", "the threes"),
             P.pgettext("the ranks", "the fours"), P.pgettext("the ranks", "the fives"),
             P.pgettext("the ranks", "the sixes"), P.pgettext("the ranks", "the sevens"),
             P.pgettext("the ranks", "the eights"), P.pgettext("the ranks", "the nines"),
             P.pgettext("the ranks", "the tens"), P.pgettext("the ranks", "the jacks"),
             P.pgettext("the ranks", "the queens"), P.pgettext("the ranks", "the kings"),
             P.pgettext("the ranks", "the aces"))
COUNT = (P.pgettext("cards drawn", "none"), P.pgettext("cards drawn", "one"), P.pgettext("cards drawn", "two"),
         P.pgettext("cards drawn", "three"), P.pgettext("cards drawn", "four"), P.pgettext("cards drawn", "five"))
NEVER = P.pgettext("why", "never")
NOTHING = P.pgettext("why", "nothing")
# A final hand of this category or better, by category (1 pair ... 9 five of a kind).
OR_BETTER = {1: P.gettext("a pair or better"), 2: P.gettext("two pair or better"), 3: P.gettext("trips or better"),
             4: P.gettext("a straight or better"), 5: P.gettext("a flush or better"),
             6: P.gettext("a full house or better"), 7: P.gettext("four of a kind or better"),
             8: P.gettext("a straight flush or better"), 9: P.gettext("five of a kind or better")}
# A made hand stood pat on: to break, and to stand on.
THE_PAT = {1: P.gettext("the pat pair"), 2: P.gettext("the pat two pair"), 3: P.gettext("the pat trips"),
           4: P.gettext("the pat straight"), 5: P.gettext("the pat flush"), 6: P.gettext("the pat full house"),
           7: P.gettext("the pat four of a kind"), 8: P.gettext("the pat straight flush"),
           9: P.gettext("the pat five of a kind")}
THE_MADE = {1: P.pgettext("made hand", "the pair"), 2: P.pgettext("made hand", "the two pair"),
            3: P.pgettext("made hand", "the trips"), 4: P.pgettext("made hand", "the straight"),
            5: P.pgettext("made hand", "the flush"), 6: P.pgettext("made hand", "the full house"),
            7: P.pgettext("made hand", "the four of a kind"), 8: P.pgettext("made hand", "the straight flush"),
            9: P.pgettext("made hand", "the five of a kind")}


def _en(text: Any) -> str:
    """A name or figure as English text: what the rules compare, so every language says the same."""
    with i18n.use(i18n.ENGLISH):
        return said(text)


def _both(first: Text, second: Text) -> Phrase:
    """Two clauses of one line."""
    return P.pgettext("why", "{first}; {second}", first=first, second=second)


_PAIRS = {K.PAIR, K.PAIR_K, K.PAIR_KK}
_MADE = {*_PAIRS, K.TRIPS, K.TRIPS_K, K.TWO_PAIR, K.QUADS}
_DRAWS = {K.ROYAL_DRAW, K.SF_DRAW, K.FLUSH_DRAW, K.STRAIGHT_DRAW}
_HIGH = {K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT, K.CARD_PLUS_LOW, K.ONE_CARD, K.UNRELATED, K.DISCARD}


def _shown(cards: Sequence[str]) -> str:
    return " ".join(format_cards(parse_cards(list(cards), joker=True), pretty=True))


def _hold(f: HoldFacts) -> Phrase:
    if f.draw == 0:
        return P.pgettext("why", "standing pat")
    return P.gettext("{cards} drawing {n}", cards=_shown(f.keep) or NOTHING, n=f.draw)


def _drawing(name: Text, draw: int) -> Phrase:
    """'<hold> drawing three'."""
    return P.gettext("{hold} drawing {count}", hold=name, count=COUNT[draw] if draw < len(COUNT) else draw)


def _ranks(f: HoldFacts) -> list[int]:
    """The ranks of the kept cards, highest first (the joker left out)."""
    return sorted((c // 4 for c in parse_cards(list(f.keep), joker=True) if c != JOKER), reverse=True)


def _group_rank(f: HoldFacts) -> int:
    """The rank of the hold's pair, trips or quads (the higher pair of two pair)."""
    ranks = _ranks(f)
    return max(ranks, key=lambda r: (ranks.count(r), r))


def _group(f: HoldFacts) -> set[str]:
    """The kept cards that make a pair, trips or quads."""
    ranks = [c // 4 for c in parse_cards(list(f.keep), joker=True)]
    return {c for c, r in zip(f.keep, ranks, strict=True) if ranks.count(r) >= 2}


def _count(f: HoldFacts, category: int) -> int | None:
    """How many of the unseen cards end a one-card draw at ``category`` or better (exact: each
    card gives one final hand), or None for a bigger draw."""
    if f.draw != 1:
        return None
    n = f.at_least(category) * f.unseen
    return round(n) if abs(n - round(n)) < 1e-6 else None


def _odds(f: HoldFacts, category: int, pc: bool = False) -> Figure:
    """'9 times in 47' on a one-card draw (with the percentage if ``pc``), else a percentage."""
    n = _count(f, category)
    if n is None:
        return Percent(f.at_least(category))
    if n == 0:
        return NEVER
    text = P.ngettext("once in {unseen}", "{n} times in {unseen}", n, unseen=f.unseen)
    return P.gettext("{odds} ({percent})", odds=text, percent=Percent(f.at_least(category))) if pc else text


def _name(f: HoldFacts, a_pair: bool = False) -> Text:
    """The hold in a player's words: 'the four-flush', 'the pair of fours' ('a pair of fours' if
    ``a_pair``), 'ace-king suited'."""
    kind, kept = f.kind, kept_cards(f.code)
    ranks = _ranks(f)
    if kind < 0:
        return _shown(f.keep)
    low = f.code & 0xF
    if kind in (K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT, K.CARD_PLUS_LOW):
        if len({c[-1] for c in f.keep}) == 1:
            return P.gettext("{high}-{low} suited", high=RANK[ranks[0]], low=RANK[ranks[1]])
        return P.gettext("{high}-{low}", high=RANK[ranks[0]], low=RANK[ranks[1]])
    if kind in _DRAWS and kept == 3:
        return {K.FLUSH_DRAW: P.gettext("three to a flush"), K.STRAIGHT_DRAW: P.gettext("three to a straight"),
                K.SF_DRAW: P.gettext("three to a straight flush"),
                K.ROYAL_DRAW: P.gettext("three to a royal")}[HoldKind(kind)]
    if kind in (K.PAIR, K.PAIR_K, K.PAIR_KK, K.TRIPS, K.TRIPS_K, K.QUADS, K.PAIR_PAT, K.TRIPS_PAT, K.QUADS_PAT):
        g = _group_rank(f)
        if kind == K.PAIR:
            return (P.gettext("a pair of {ranks}", ranks=RANKS[g]) if a_pair
                    else P.gettext("the pair of {ranks}", ranks=RANKS[g]))
        if kind == K.PAIR_K:
            kickers = [r for r in ranks if ranks.count(r) == 1]
            return P.gettext("{the_ranks} and {the_kicker}", the_ranks=THE_RANKS[g],
                             the_kicker=THE_RANK[kickers[0]] if kickers else P.pgettext("why", "the joker"))
        return {K.PAIR_KK: P.gettext("{the_ranks} and two kickers", the_ranks=THE_RANKS[g]),
                K.TRIPS: P.gettext("three {ranks}", ranks=RANKS[g]),
                K.TRIPS_K: P.gettext("three {ranks} and a kicker", ranks=RANKS[g]),
                K.QUADS: P.gettext("four {ranks}", ranks=RANKS[g]),
                K.PAIR_PAT: P.gettext("the pat pair of {ranks}", ranks=RANKS[g]),
                K.TRIPS_PAT: P.gettext("the pat three {ranks}", ranks=RANKS[g]),
                K.QUADS_PAT: P.gettext("the pat four {ranks}", ranks=RANKS[g])}[HoldKind(kind)]
    if kind == K.ONE_CARD:
        return P.gettext("{the_rank} alone", the_rank=THE_RANK[ranks[0]]) if ranks else P.gettext("the joker alone")
    if kind == K.PAT_NOTHING:
        return P.gettext("{rank} high", rank=RANK[ranks[0]]) if ranks else NOTHING
    if kind == K.STRAIGHT_DRAW:
        return P.gettext("the inside straight draw") if low >> 3 else P.gettext("the open-ended draw")
    names: dict[int, Phrase] = {
        K.DISCARD: P.pgettext("why", "drawing five"), K.FLUSH_DRAW: P.gettext("the four-flush"),
        K.SF_DRAW: P.gettext("four to a straight flush"), K.ROYAL_DRAW: P.gettext("four to a royal"),
        K.TWO_PAIR: P.pgettext("why", "two pair"), K.TWO_PAIR_PAT: THE_PAT[2], K.FULL_HOUSE: THE_PAT[6],
        K.PAT_FLUSH: THE_PAT[5], K.PAT_STRAIGHT: THE_PAT[4], K.PAT_SF: THE_PAT[8],
    }
    return names.get(kind, _shown(f.keep))


def _subject(f: HoldFacts) -> Text:
    """The hold as the subject of a sentence: its name, and the draw when the name does not say it."""
    if f.draw == 0 and f.kind == K.PAT_NOTHING:
        return P.gettext("standing pat on {hold}", hold=_name(f))
    if f.draw == 0 or f.kind == K.DISCARD or (f.kind in _DRAWS and kept_cards(f.code) + f.draw == 5):
        return _name(f)
    return _drawing(_name(f), f.draw)


# What a hold does on the draw: the sentence with its figure, with 'only' before it, and with no chance.
_VERBS: dict[str, tuple[str, str, str]] = {
    "fills": (N_("{hold} fills {figure}"), N_("{hold} fills only {figure}"), N_("{hold} never fills")),
    "hits": (N_("{hold} hits {figure}"), N_("{hold} hits only {figure}"), N_("{hold} never hits")),
    "ends jacks or better": (N_("{hold} ends jacks or better {figure}"),
                             N_("{hold} ends jacks or better only {figure}"),
                             N_("{hold} never ends jacks or better")),
    "ends a pair or better": (N_("{hold} ends a pair or better {figure}"),
                              N_("{hold} ends a pair or better only {figure}"),
                              N_("{hold} never ends a pair or better")),
    "improves": (N_("{hold} improves {figure}"), N_("{hold} improves only {figure}"), N_("{hold} never improves")),
    "fills up": (N_("{hold} fills up {figure}"), N_("{hold} fills up only {figure}"), N_("{hold} never fills up")),
}


@dataclass(frozen=True)
class _Prospect:
    """What a hold does on the draw (a key of ``_VERBS``, 'never improves' or 'already') and the
    figure it is measured by."""

    verb: str
    figure: Figure | str = ""
    key: int | str = ""          # what the figure counts (a category, or "value": the objective's value)
    p: float = 0.0


def _does(p: _Prospect, hold: Text, only: bool = False) -> Phrase:
    """'<hold> fills 9 times in 47', '... fills only ...', '... never fills'."""
    if p.verb == "never improves":
        return P.gettext("{hold} never improves", hold=hold)
    plain, with_only, never = _VERBS[p.verb]
    if p.figure == NEVER:
        return P.gettext(never, hold=hold)
    return P.gettext(with_only if only else plain, hold=hold, figure=p.figure)


def _prospect(f: HoldFacts, objective: str) -> _Prospect | None:
    """The figure a teacher would quote for this hold: the outs of a draw, a pair's improvement,
    the chance of jacks or better under the jacks objective; None for a hold with no plain figure."""
    kind, kept = f.kind, kept_cards(f.code)
    if kind < 0 or kind == K.QUADS:
        return None
    if f.draw == 0:
        return _Prospect("never improves")
    jacks = objective == "jacks"
    if jacks and f.value >= 1 - 1e-12:
        return _Prospect("already", key="value", p=1.0)
    if kind in _DRAWS and kept == 4:
        cat = 5 if kind == K.FLUSH_DRAW else 4
        verb = "fills" if kind in (K.FLUSH_DRAW, K.STRAIGHT_DRAW) else "hits"
        k = _count(f, 8)
        sf = kind in (K.SF_DRAW, K.ROYAL_DRAW)
        n, m = _count(f, cat), round(f.value * f.unseen)
        if jacks and n is not None and m > n and abs(f.value * f.unseen - m) < 1e-6:
            figure = {K.FLUSH_DRAW: P.gettext("{m} times in {unseen}, {n} of them flushes", m=m, unseen=f.unseen, n=n),
                      K.STRAIGHT_DRAW: P.gettext("{m} times in {unseen}, {n} of them straights", m=m,
                                                 unseen=f.unseen, n=n)}.get(
                HoldKind(kind), P.gettext("{m} times in {unseen}, {n} of them straights or better", m=m,
                                          unseen=f.unseen, n=n))
            return _Prospect("ends jacks or better", figure, "value", f.value)
        pairs = (_count(f, 1) or 0) - (n or 0)
        more = pairs > 0 and not jacks and not sf
        odds = _odds(f, cat, pc=not (sf or more))
        fig: Figure = odds
        if sf and k is not None:
            fig = P.ngettext("{odds}, one a straight flush", "{odds}, {n} of them straight flushes", k, odds=odds)
        elif sf:
            fig = P.gettext("{odds}, a straight flush {percent}", odds=odds, percent=Percent(f.at_least(8)))
        elif more:
            fig = P.ngettext("{odds}, pairs {n} more", "{odds}, pairs {n} more", pairs, odds=odds)
        return _Prospect(verb, fig, "value" if jacks else cat, f.value if jacks else f.at_least(cat))
    if jacks:
        return _Prospect("ends jacks or better", _value_odds(f), "value", f.value)
    if kind in _DRAWS and kept == 3:
        cat = 5 if kind == K.FLUSH_DRAW else 4
        made = (P.gettext("{percent} (a flush {flush})", percent=Percent(f.at_least(1)), flush=Percent(f.at_least(cat)))
                if cat == 5 else P.gettext("{percent} (a straight or better {straight})",
                                           percent=Percent(f.at_least(1)), straight=Percent(f.at_least(cat))))
        return _Prospect("ends a pair or better", made, 1, f.at_least(1))
    if kind in _PAIRS:
        return _Prospect("improves", _odds(f, 2), 2, f.at_least(2))
    if kind == K.TWO_PAIR:
        return _Prospect("fills up", _odds(f, 6), 6, f.at_least(6))
    if kind in (K.TRIPS, K.TRIPS_K):
        return _Prospect("improves", _odds(f, 6), 6, f.at_least(6))
    return _Prospect("ends a pair or better", Percent(f.at_least(1)), 1, f.at_least(1))


def _value_odds(f: HoldFacts) -> Figure:
    """The chance of jacks or better: a count of the unseen cards on a one-card draw, else a percentage."""
    m = f.value * f.unseen
    if f.draw == 1 and abs(m - round(m)) < 1e-6:
        return NEVER if round(m) == 0 else P.ngettext("{n} times in {unseen}", "{n} times in {unseen}", round(m),
                                                      unseen=f.unseen)
    return Percent(f.value)


def _only_fig(figure: Figure | str) -> Phrase:
    return NEVER if figure == NEVER else P.pgettext("why", "only {figure}", figure=figure)


def _only(a: _Prospect, b: _Prospect) -> bool:
    """Whether the other hold's figure reads 'only': both count the same thing and it shows less."""
    return a.key == b.key != "" and b.p < a.p - 1e-12 and _en(a.figure) != _en(b.figure)


def _say(f: HoldFacts, p: _Prospect, only: bool = False, subject: Text | None = None) -> Phrase:
    """'<hold> <does this>'; a hold already jacks or better says just that."""
    if p.verb == "already":
        name = subject or _name(f)
        said = _en(name)
        if said.startswith(("three ", "four ", "the pat three", "the pat four")) and " to " not in said:
            return P.gettext("{hold} are jacks or better already", hold=name)
        return P.gettext("{hold} is jacks or better already", hold=name)
    return _does(p, subject or _subject(f), only)


def _say_other(f: HoldFacts, a: _Prospect, b: _Prospect, subject: Text) -> Phrase:
    """The other hold's half of a line; a verb the best hold's half just used is not repeated."""
    if a.verb == b.verb and a.key == b.key and b.verb != "already" and b.figure != NEVER:
        if _only(a, b):
            return P.pgettext("why", "{hold} only {figure}", hold=subject, figure=b.figure)
        return P.pgettext("why", "{hold} {figure}", hold=subject, figure=b.figure)
    return _say(f, b, _only(a, b), subject)


def _values(best: HoldFacts, other: HoldFacts, objective: str) -> Phrase:
    """The objective's figures of the two holds: 'equity 14.1% to 13.0%'."""
    if objective == "points":
        return P.gettext("{best} points to {other}", best=Number(best.value, 3), other=Number(other.value, 3))
    equity = objective == "equity"
    if abs(best.value - other.value) < 1e-12:
        if objective == "jacks" and best.value >= 1 - 1e-12:
            return P.gettext("both jacks or better")
        return (P.gettext("equity {percent} either way", percent=Percent(best.value)) if equity
                else P.gettext("jacks or better {percent} either way", percent=Percent(best.value)))
    if equity:
        return P.gettext("equity {best} to {other}", best=Percent(best.value), other=Percent(other.value))
    return P.gettext("jacks or better {best} to {other}", best=Percent(best.value), other=Percent(other.value))


def _with_values(line: Phrase, best: HoldFacts, other: HoldFacts, objective: str,
                 quoted: tuple[float, float] = (-1, -1)) -> Phrase:
    """The line and the objective's figures, unless the line quotes them already (jacks or better)."""
    if objective == "jacks" and abs(quoted[0] - best.value) < 1e-12 and abs(quoted[1] - other.value) < 1e-12:
        return line
    return _both(line, _values(best, other, objective))


def _why_snow(best: HoldFacts, other: HoldFacts, objective: str) -> Phrase | None:
    """The other hold stands pat with nothing: it never improves, and wins only if everyone ends worse."""
    a = _prospect(best, objective)
    if other.kind != K.PAT_NOTHING or a is None:
        return None
    name, mine = _name(other), _say(best, a)
    if objective == "jacks":
        line = P.gettext("a snow: {hold} is never jacks or better; {best}", hold=name, best=mine)
    elif objective == "equity":
        line = P.gettext("a snow: {hold} wins only if everyone ends worse; {best}", hold=name, best=mine)
    else:
        line = P.gettext("a snow: {hold} never improves; {best}", hold=name, best=mine)
    return _with_values(line, best, other, objective, (a.p if a.key == "value" else -1, other.value))


def _why_break_pat(best: HoldFacts, other: HoldFacts, objective: str) -> Phrase | None:
    """The best hold stands pat on a made hand the other breaks (or draws to)."""
    if best.draw != 0 or other.draw == 0 or best.kind in (K.PAT_NOTHING, -1):
        return None
    cat = int(np.argmax(best.cats))
    if cat == 0:
        return None
    values = _values(best, other, objective)
    if set(other.keep) < set(best.keep) and other.at_least(cat) >= 1 - 1e-12:
        return P.gettext("{hold} improves {figure}, but standing pat on {made} does better; {values}",
                         hold=_subject(other), figure=_odds(other, cat + 1), made=THE_MADE[cat], values=values)
    k = _count(other, 8)
    sf = other.kind in (K.SF_DRAW, K.ROYAL_DRAW) and cat < 8
    figure = _only_fig(_odds(other, cat, pc=not sf))
    words = {"pat": THE_PAT[cat], "hold": _name(other), "better": OR_BETTER[cat], "figure": figure, "values": values}
    if sf and (k is None or k < 2):
        return P.gettext("breaking {pat} for {hold}: {better} {figure}, a straight flush {sf}; {values}",
                         sf=_odds(other, 8), **words)
    if sf:
        return P.gettext("breaking {pat} for {hold}: {better} {figure}, {k} of them straight flushes; {values}",
                         k=k, **words)
    return P.gettext("breaking {pat} for {hold}: {better} {figure}; {values}", **words)


def _why_kicker(best: HoldFacts, other: HoldFacts, objective: str) -> Phrase | None:
    """The other hold keeps the best one's pair, trips or two pair plus a kicker (or stands pat on them)."""
    if best.kind not in _MADE - {K.QUADS} or not set(best.keep) < set(other.keep):
        return None
    extra = _shown([c for c in other.keep if c not in best.keep])
    if best.kind == K.TWO_PAIR:
        if objective == "jacks" and abs(best.value - other.value) < 1e-12:
            return P.gettext("two pair drawing one fills up {figure}; the {extra} kicker adds nothing",
                             figure=_odds(best, 6, pc=True), extra=extra)
        values = _values(best, other, objective)
        if other.draw == 0:
            return P.gettext("two pair drawing one fills up {figure}; standing pat with the {extra} never improves; "
                             "{values}", figure=_odds(best, 6), extra=extra, values=values)
        return P.gettext("two pair drawing one fills up {figure}; keeping the {extra} too, {other}; {values}",
                         figure=_odds(best, 6), extra=extra, other=_odds(other, 6), values=values)
    a: Figure
    b: Figure
    if objective == "jacks" and best.value < 1 - 1e-12:
        figures = (best.value, other.value)
        improve, a, b = "ends jacks or better", Percent(best.value), Percent(other.value)
    else:
        cat = 6 if best.kind in (K.TRIPS, K.TRIPS_K) else 2
        figures = (-1, -1)
        improve = "improves"
        a, b = _odds(best, cat, pc=True), _odds(other, cat, pc=True)
    if other.draw == 0:
        keeping = P.gettext("standing pat with the {extra} never improves", extra=extra)
    elif other.draw == best.draw - 1:
        keeping = P.gettext("with the {extra} kicker only {figure}", extra=extra, figure=b)
    else:
        keeping = P.gettext("with the {extra} kickers only {figure}", extra=extra, figure=b)
    first = P.gettext(_VERBS[improve][0], hold=_drawing(_name(best, a_pair=True), best.draw), figure=a)
    return _with_values(_both(first, keeping), best, other, objective, figures)


def _why_extra_kicker(best: HoldFacts, other: HoldFacts, objective: str) -> Phrase | None:
    """The best hold keeps a kicker the other throws: fewer improvements, but better ones."""
    if other.kind not in _MADE - {K.QUADS} or not set(other.keep) < set(best.keep) or _group(best) != _group(other):
        return None
    extra = [c for c in best.keep if c not in other.keep]
    trips = other.kind in (K.TRIPS, K.TRIPS_K)
    cat = 6 if trips else 2
    g = _group_rank(other)
    words = {"extra": _shown(extra), "group": P.gettext("the three {ranks}", ranks=RANKS[g]) if trips else THE_RANKS[g],
             "figure": _odds(best, cat), "count": COUNT[other.draw], "other": _odds(other, cat)}
    kicks = [r for r in _ranks(best) if _ranks(best).count(r) == 1]
    if other.kind in _PAIRS and len(kicks) == 1 and kicks[0] > g and best.at_least(cat) < other.at_least(cat):
        line = P.ngettext("with the {extra} kicker {group} improve {figure}, drawing {count} {other}, but pairing "
                          "{the_kicker} makes {kickers} up",
                          "with the {extra} kickers {group} improve {figure}, drawing {count} {other}, but pairing "
                          "{the_kicker} makes {kickers} up", len(extra),
                          the_kicker=THE_RANK[kicks[0]], kickers=RANKS[kicks[0]], **words)
    else:
        line = P.ngettext("with the {extra} kicker {group} improve {figure}, drawing {count} {other}",
                          "with the {extra} kickers {group} improve {figure}, drawing {count} {other}", len(extra),
                          **words)
    return _both(line, _values(best, other, objective))


def _why_plain(best: HoldFacts, other: HoldFacts, objective: str) -> Phrase | None:
    """Each hold's own figure side by side: a draw's outs, a pair's improvement, high cards' pairing;
    'breaking' when the other throws part of the best hold's pair, trips or two pair."""
    a, b = _prospect(best, objective), _prospect(other, objective)
    if a is None or b is None or (best.draw == 0 and other.draw == 0):
        return None
    group = _group(best) if best.kind in _MADE else set()
    if group and not group <= set(other.keep):
        return _broken(best, other, objective, a, b, bool(group & set(other.keep)))
    if a.key == b.key and _en(a.figure) == _en(b.figure):      # level on the quoted figure: say where they differ
        return None
    quoted = (a.p if a.key == "value" else -1.0, b.p if b.key == "value" else -1.0)
    other_subject: Text
    if set(best.keep) < set(other.keep):
        other_subject = P.gettext("adding the {cards}", cards=_shown([c for c in other.keep if c not in best.keep]))
    elif set(other.keep) < set(best.keep) and other.kind in _HIGH:
        other_subject = P.gettext("throwing the {cards}", cards=_shown([c for c in best.keep if c not in other.keep]))
    else:
        other_subject = _subject(other)
    line = _both(_say(best, a), _say_other(other, a, b, other_subject))
    return _with_values(line, best, other, objective, quoted)


def _broken(best: HoldFacts, other: HoldFacts, objective: str, a: _Prospect, b: _Prospect, breaking: bool) -> Phrase:
    """The other hold throws (part of) the best one's pair, trips or two pair: what that gives up
    (``breaking``: it keeps part of it)."""
    mine: Text = _name(best)
    if objective == "jacks" and a.verb == "already" and b.verb != "already":
        mine = P.gettext("{hold}, already jacks or better,", hold=mine)
    target = _subject(other) if other.kind not in _DRAWS else _name(other)
    lead = (P.gettext("breaking {hold} for {other}", hold=mine, other=target) if breaking
            else P.gettext("throwing {hold} for {other}", hold=mine, other=target))
    if objective == "jacks" and b.key == "value" and b.p < a.p:
        if a.verb == "already":
            return P.gettext("{lead}: jacks or better {figure}", lead=lead, figure=_only_fig(b.figure))
        return P.gettext("{lead}: jacks or better {figure} instead of {best}", lead=lead, figure=_only_fig(b.figure),
                         best=a.figure)
    if other.kind in _DRAWS and kept_cards(other.code) == 4 and a.key != "value":
        which = _does(b, P.gettext("{lead}, which", lead=lead))
        return _both(_both(_say(best, a), which), _values(best, other, objective))
    made = max(c for c in range(len(best.cats)) if best.at_least(c) >= 1 - 1e-12)
    return _both(P.gettext("{lead}: {better} {figure}", lead=lead, better=OR_BETTER[made],
                           figure=_only_fig(_odds(other, made))), _values(best, other, objective))


def _why_compare(best: HoldFacts, other: HoldFacts, objective: str) -> Phrase:
    """Fallback: the exact figure where the two holds differ most, and the objective's values."""
    gain, c = max((best.at_least(c) - other.at_least(c), c) for c in range(1, len(best.cats)))
    if gain <= 1e-12:   # ahead on no threshold: the value alone decides (it counts the whole table)
        gain, c = max((abs(best.at_least(c) - other.at_least(c)), c) for c in range(1, len(best.cats)))
    values = _values(best, other, objective)
    if gain < 1e-12:    # level on every final hand: the ranks of what they make decide
        named = _en(_name(best)) != _en(_name(other))
        mine, theirs = (_name(best), _name(other)) if named else (_hold(best), _hold(other))
        if best.kind in _HIGH and _ranks(best) > _ranks(other):
            line = P.gettext("{best} and {other} end alike, but {best} pairs higher", best=mine, other=theirs)
        else:
            line = P.gettext("{best} and {other} end alike", best=mine, other=theirs)
        return _both(line, values)
    return _both(P.gettext("{best} ends {better} {best_figure}, {other} {other_figure}", best=_hold(best),
                           better=OR_BETTER[c], best_figure=Percent(best.at_least(c)), other=_hold(other),
                           other_figure=Percent(other.at_least(c))), values)


def why_points(best: Mapping[str, Any], other: Mapping[str, Any]) -> Line:
    """Poengpoker and Chicago: the points this deal of two holds, split into best hand and last trick."""
    def part(row: Mapping[str, Any]) -> Phrase:
        return P.pgettext("why", "{hand} + {trick} = {total}", hand=Number(row["points_hand"], 3),
                          trick=Number(row["points_trick"], 3), total=Number(row["points"], 3))

    what: Text = NOTHING if not len(best["keep"]) else _shown(best["keep"])
    if best["keep"] == other["keep"]:
        return Line(P.gettext("keeping {hold} scores {points} points this deal (best hand + last trick)",
                              hold=what, points=part(best)))
    hand = best["points_hand"] - other["points_hand"]
    trick = best["points_trick"] - other["points_trick"]
    words = {"hold": what, "points": part(best), "other": NOTHING if not len(other["keep"]) else _shown(other["keep"]),
             "other_points": part(other)}
    if abs(trick) >= abs(hand):
        return Line(P.gettext("the last trick decides: keeping {hold} scores {points} points this deal (best hand + "
                              "last trick), keeping {other} {other_points}", **words))
    return Line(P.gettext("the best hand decides: keeping {hold} scores {points} points this deal (best hand + "
                          "last trick), keeping {other} {other_points}", **words))


WHY_RULES = (_why_snow, _why_break_pat, _why_kicker, _why_extra_kicker, _why_plain)
WHY_WIDTH = 130      # a longer line drops its bracketed percentages; one past 140 is said the short way


def why(best: HoldFacts, other: HoldFacts, objective: str) -> Line:
    """One line on why the best hold beats the other, in a player's words, from their exact figures:
    the first of ``WHY_RULES`` that fits, else (and with the joker) the figure where the two differ most.
    Its length is judged in English, so every language says the same line."""
    if best.keep == other.keep:
        return Line(P.gettext("{hold}: the only legal hold", hold=_hold(best)))
    if any(JOKER in parse_cards(list(f.keep), joker=True) for f in (best, other)):   # no kicker, no out
        return Line(_why_compare(best, other, objective))
    for rule in WHY_RULES:
        phrase = rule(best, other, objective)
        if phrase:
            line = Line(phrase, short=len(phrase.english()) > WHY_WIDTH)
            return line if len(line) <= WHY_WIDTH + 10 else Line(_why_compare(best, other, objective))
    return Line(_why_compare(best, other, objective))
