"""Why-lines: one line on why the best hold beats another, in a player's words, from their exact figures."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from drawodds.cards import JOKER, RANK_NAMES, RANK_PLURALS, format_cards, parse_cards
from drawodds.evaluate import CATEGORIES
from drawodds.patterns import HoldKind, hold_pattern_label, kept_cards
from drawodds.trainer.questions import Position


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


def _pc(p: float) -> str:
    return f"{100 * p:.1f}%"


K = HoldKind
_PAIRS = {K.PAIR, K.PAIR_K, K.PAIR_KK}
_MADE = {*_PAIRS, K.TRIPS, K.TRIPS_K, K.TWO_PAIR, K.QUADS}
_DRAWS = {K.ROYAL_DRAW, K.SF_DRAW, K.FLUSH_DRAW, K.STRAIGHT_DRAW}
_HIGH = {K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT, K.CARD_PLUS_LOW, K.ONE_CARD, K.UNRELATED, K.DISCARD}
_AT_LEAST = {1: "a pair", 2: "two pair", 3: "trips", 4: "a straight", 5: "a flush", 6: "a full house",
             7: "four of a kind", 8: "a straight flush", 9: "five of a kind"}
_MADE_WORDS = {1: "pair", 2: "two pair", 3: "trips", 4: "straight", 5: "flush", 6: "full house",
               7: "four of a kind", 8: "straight flush", 9: "five of a kind"}
_COUNT_WORDS = ("none", "one", "two", "three", "four", "five")


def _shown(cards: Sequence[str]) -> str:
    return " ".join(format_cards(parse_cards(list(cards), joker=True), pretty=True))


def _hold(f: HoldFacts) -> str:
    return "standing pat" if f.draw == 0 else f"{_shown(f.keep) or 'nothing'} drawing {f.draw}"


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


def _odds(f: HoldFacts, category: int, pc: bool = False) -> str:
    """'9 times in 47' on a one-card draw (with the percentage if ``pc``), else a percentage."""
    n = _count(f, category)
    if n is None:
        return _pc(f.at_least(category))
    if n == 0:
        return "never"
    text = f"{'once' if n == 1 else f'{n} times'} in {f.unseen}"
    return f"{text} ({_pc(f.at_least(category))})" if pc else text


def _name(f: HoldFacts) -> str:
    """The hold in a player's words: 'the four-flush', 'the pair of fours', 'ace-king suited'."""
    kind, kept = f.kind, kept_cards(f.code)
    ranks = _ranks(f)
    if kind < 0:
        return _shown(f.keep)
    low = f.code & 0xF
    if kind in (K.TWO_HIGH_SUITED, K.TWO_HIGH_OFFSUIT, K.CARD_PLUS_LOW):
        suited = len({c[-1] for c in f.keep}) == 1
        return f"{RANK_NAMES[ranks[0]]}-{RANK_NAMES[ranks[1]]}" + (" suited" if suited else "")
    if kind in (K.FLUSH_DRAW, K.STRAIGHT_DRAW, K.SF_DRAW, K.ROYAL_DRAW) and kept == 3:
        what = {K.FLUSH_DRAW: "a flush", K.STRAIGHT_DRAW: "a straight", K.SF_DRAW: "a straight flush",
                K.ROYAL_DRAW: "a royal"}[HoldKind(kind)]
        return f"three to {what}"
    if kind in (K.PAIR, K.PAIR_K, K.PAIR_KK, K.TRIPS, K.TRIPS_K, K.QUADS, K.PAIR_PAT, K.TRIPS_PAT, K.QUADS_PAT):
        plural = RANK_PLURALS[_group_rank(f)]
        kickers = [RANK_NAMES[r] for r in ranks if ranks.count(r) == 1]
        return {K.PAIR: f"the pair of {plural}", K.PAIR_K: f"the {plural} and the {kickers[0] if kickers else 'joker'}",
                K.PAIR_KK: f"the {plural} and two kickers", K.TRIPS: f"three {plural}",
                K.TRIPS_K: f"three {plural} and a kicker", K.QUADS: f"four {plural}",
                K.PAIR_PAT: f"the pat pair of {plural}", K.TRIPS_PAT: f"the pat three {plural}",
                K.QUADS_PAT: f"the pat four {plural}"}[HoldKind(kind)]
    names: dict[int, str] = {
        K.DISCARD: "drawing five", K.ONE_CARD: f"the {RANK_NAMES[ranks[0]] if ranks else 'joker'} alone",
        K.UNRELATED: _shown(f.keep), K.FLUSH_DRAW: "the four-flush",
        K.STRAIGHT_DRAW: "the inside straight draw" if low >> 3 else "the open-ended draw",
        K.SF_DRAW: "four to a straight flush", K.ROYAL_DRAW: "four to a royal", K.TWO_PAIR: "two pair",
        K.TWO_PAIR_PAT: "the pat two pair", K.FULL_HOUSE: "the pat full house", K.PAT_FLUSH: "the pat flush",
        K.PAT_STRAIGHT: "the pat straight", K.PAT_SF: "the pat straight flush",
        K.PAT_NOTHING: f"{RANK_NAMES[ranks[0]]} high" if ranks else "nothing",
    }
    return names.get(kind, _shown(f.keep))


def _subject(f: HoldFacts) -> str:
    """The hold as the subject of a sentence: its name, and the draw when the name does not say it."""
    if f.draw == 0 and f.kind == K.PAT_NOTHING:
        return f"standing pat on {_name(f)}"
    if f.draw == 0 or f.kind == K.DISCARD or (f.kind in _DRAWS and kept_cards(f.code) + f.draw == 5):
        return _name(f)
    return f"{_name(f)} drawing {_COUNT_WORDS[f.draw] if f.draw < len(_COUNT_WORDS) else f.draw}"


@dataclass(frozen=True)
class _Prospect:
    """What a hold does on the draw: a verb phrase and the figure it is measured by."""

    verb: str
    figure: str = ""
    key: int | str = ""          # what the figure counts (a category, or "value": the objective's value)
    p: float = 0.0

    def text(self, only: bool = False) -> str:
        if self.figure == "never":
            return f"never {self.verb}"
        return " ".join(w for w in (self.verb, "only" if only else "", self.figure) if w)


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
        sf = "" if kind not in (K.SF_DRAW, K.ROYAL_DRAW) else (
            f", {'one a straight flush' if k == 1 else f'{k} of them straight flushes'}"
            if k is not None else f", a straight flush {_pc(f.at_least(8))}")
        n, m = _count(f, cat), round(f.value * f.unseen)
        if jacks and n is not None and m > n and abs(f.value * f.unseen - m) < 1e-6:
            noun = {K.FLUSH_DRAW: "flushes", K.STRAIGHT_DRAW: "straights"}.get(HoldKind(kind), "straights or better")
            return _Prospect("ends jacks or better", f"{m} times in {f.unseen}, {n} of them {noun}", "value", f.value)
        pairs = (_count(f, 1) or 0) - (n or 0)
        more = f", pairs {pairs} more" if pairs > 0 and not jacks and not sf else ""
        return _Prospect(verb, _odds(f, cat, pc=not (sf or more)) + sf + more, "value" if jacks else cat,
                         f.value if jacks else f.at_least(cat))
    if jacks:
        return _Prospect("ends jacks or better", _value_odds(f), "value", f.value)
    if kind in _DRAWS and kept == 3:
        cat = 5 if kind == K.FLUSH_DRAW else 4
        made = "a flush" if cat == 5 else "a straight or better"
        return _Prospect("ends a pair or better", f"{_pc(f.at_least(1))} ({made} {_pc(f.at_least(cat))})", 1,
                         f.at_least(1))
    if kind in _PAIRS:
        return _Prospect("improves", _odds(f, 2), 2, f.at_least(2))
    if kind == K.TWO_PAIR:
        return _Prospect("fills up", _odds(f, 6), 6, f.at_least(6))
    if kind in (K.TRIPS, K.TRIPS_K):
        return _Prospect("improves", _odds(f, 6), 6, f.at_least(6))
    return _Prospect("ends a pair or better", _pc(f.at_least(1)), 1, f.at_least(1))


def _value_odds(f: HoldFacts) -> str:
    """The chance of jacks or better: a count of the unseen cards on a one-card draw, else a percentage."""
    m = f.value * f.unseen
    if f.draw == 1 and abs(m - round(m)) < 1e-6:
        return "never" if round(m) == 0 else f"{round(m)} times in {f.unseen}"
    return _pc(f.value)


def _only_fig(figure: str) -> str:
    return figure if figure == "never" else f"only {figure}"


def _only(a: _Prospect, b: _Prospect) -> bool:
    """Whether the other hold's figure reads 'only': both count the same thing and it shows less."""
    return a.key == b.key != "" and b.p < a.p - 1e-12 and a.figure != b.figure


def _say(f: HoldFacts, p: _Prospect, only: bool = False, subject: str | None = None) -> str:
    """'<hold> <does this>'; a hold already jacks or better says just that."""
    if p.verb == "already":
        name = subject or _name(f)
        plural = name.startswith(("three ", "four ", "the pat three", "the pat four")) and " to " not in name
        return f"{name} {'are' if plural else 'is'} jacks or better already"
    return f"{subject or _subject(f)} {p.text(only)}"


def _say_other(f: HoldFacts, a: _Prospect, b: _Prospect, subject: str) -> str:
    """The other hold's half of a line; a verb the best hold's half just used is not repeated."""
    if a.verb == b.verb and a.key == b.key and b.verb != "already" and b.figure != "never":
        return f"{subject} {'only ' if _only(a, b) else ''}{b.figure}"
    return _say(f, b, _only(a, b), subject)


def _values(best: HoldFacts, other: HoldFacts, objective: str) -> str:
    """The objective's figures of the two holds: 'equity 14.1% to 13.0%'."""
    if objective == "points":
        return f"{best.value:.3f} points to {other.value:.3f}"
    what = "equity" if objective == "equity" else "jacks or better"
    if abs(best.value - other.value) < 1e-12:
        return "both jacks or better" if objective == "jacks" and best.value >= 1 - 1e-12 else \
            f"{what} {_pc(best.value)} either way"
    return f"{what} {_pc(best.value)} to {_pc(other.value)}"


def _with_values(line: str, best: HoldFacts, other: HoldFacts, objective: str, quoted: tuple[float, float] = (-1, -1),
                 ) -> str:
    """The line and the objective's figures, unless the line quotes them already (jacks or better)."""
    if objective == "jacks" and abs(quoted[0] - best.value) < 1e-12 and abs(quoted[1] - other.value) < 1e-12:
        return line
    return f"{line}; {_values(best, other, objective)}"


def _why_snow(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """The other hold stands pat with nothing: it never improves, and wins only if everyone ends worse."""
    a = _prospect(best, objective)
    if other.kind != K.PAT_NOTHING or a is None:
        return None
    never = {"jacks": "is never jacks or better", "equity": "wins only if everyone ends worse"}.get(
        objective, "never improves")
    line = f"a snow: {_name(other)} {never}; {_say(best, a)}"
    return _with_values(line, best, other, objective, (a.p if a.key == "value" else -1, other.value))


def _why_break_pat(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """The best hold stands pat on a made hand the other breaks (or draws to)."""
    if best.draw != 0 or other.draw == 0 or best.kind in (K.PAT_NOTHING, -1):
        return None
    cat = int(np.argmax(best.cats))
    if cat == 0:
        return None
    made = _MADE_WORDS[cat]
    if set(other.keep) < set(best.keep) and other.at_least(cat) >= 1 - 1e-12:
        return (f"{_subject(other)} improves {_odds(other, cat + 1)}, but standing pat on the {made} does "
                f"better; {_values(best, other, objective)}")
    k = _count(other, 8)
    sf = "" if other.kind not in (K.SF_DRAW, K.ROYAL_DRAW) or cat >= 8 else (
        f", a straight flush {_odds(other, 8)}" if k is None or k < 2 else f", {k} of them straight flushes")
    return (f"breaking the pat {made} for {_name(other)}: {_AT_LEAST[cat]} or better only "
            f"{_odds(other, cat, pc=not sf)}{sf}; {_values(best, other, objective)}").replace("only never", "never")


def _why_kicker(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """The other hold keeps the best one's pair, trips or two pair plus a kicker (or stands pat on them)."""
    if best.kind not in _MADE - {K.QUADS} or not set(best.keep) < set(other.keep):
        return None
    extra = _shown([c for c in other.keep if c not in best.keep])
    if best.kind == K.TWO_PAIR:
        if objective == "jacks" and abs(best.value - other.value) < 1e-12:
            return f"two pair drawing one fills up {_odds(best, 6, pc=True)}; the {extra} kicker adds nothing"
        return (f"two pair drawing one fills up {_odds(best, 6)}; " +
                (f"standing pat with the {extra} never improves" if other.draw == 0
                 else f"keeping the {extra} too, {_odds(other, 6)}") + f"; {_values(best, other, objective)}")
    if objective == "jacks" and best.value < 1 - 1e-12:
        figures = (best.value, other.value)
        improve, a, b = "ends jacks or better", _pc(best.value), _pc(other.value)
    else:
        cat = 6 if best.kind in (K.TRIPS, K.TRIPS_K) else 2
        figures = (-1, -1)
        improve = "improves"
        a, b = _odds(best, cat, pc=True), _odds(other, cat, pc=True)
    name = _name(best).replace("the pair", "a pair")
    kicker = "kicker" if other.draw == best.draw - 1 else "kickers"
    keeping = (f"standing pat with the {extra} never improves" if other.draw == 0
               else f"with the {extra} {kicker} only {b}")
    draws = _COUNT_WORDS[best.draw]
    return _with_values(f"{name} drawing {draws} {improve} {a}; {keeping}", best, other, objective, figures)


def _why_extra_kicker(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """The best hold keeps a kicker the other throws: fewer improvements, but better ones."""
    if other.kind not in _MADE - {K.QUADS} or not set(other.keep) < set(best.keep) or _group(best) != _group(other):
        return None
    extra = [c for c in best.keep if c not in other.keep]
    cat = 6 if other.kind in (K.TRIPS, K.TRIPS_K) else 2
    plural = RANK_PLURALS[_group_rank(other)]
    count = "three " if other.kind in (K.TRIPS, K.TRIPS_K) else ""
    kicker = "kicker" if len(extra) == 1 else "kickers"
    line = f"with the {_shown(extra)} {kicker} the {count}{plural} improve {_odds(best, cat)}, drawing "
    line += f"{_COUNT_WORDS[other.draw]} {_odds(other, cat)}"
    kicks = [r for r in _ranks(best) if _ranks(best).count(r) == 1]
    if other.kind in _PAIRS and len(kicks) == 1 and kicks[0] > _group_rank(other) and \
            best.at_least(cat) < other.at_least(cat):
        line += f", but pairing the {RANK_NAMES[kicks[0]]} makes {RANK_PLURALS[kicks[0]]} up"
    return f"{line}; {_values(best, other, objective)}"


def _why_plain(best: HoldFacts, other: HoldFacts, objective: str) -> str | None:
    """Each hold's own figure side by side: a draw's outs, a pair's improvement, high cards' pairing;
    'breaking' when the other throws part of the best hold's pair, trips or two pair."""
    a, b = _prospect(best, objective), _prospect(other, objective)
    if a is None or b is None or (best.draw == 0 and other.draw == 0):
        return None
    group = _group(best) if best.kind in _MADE else set()
    if group and not group <= set(other.keep):
        return _broken(best, other, objective, a, b, "breaking" if group & set(other.keep) else "throwing")
    if a.key == b.key and a.figure == b.figure:      # level on the quoted figure: say where they differ
        return None
    quoted = (a.p if a.key == "value" else -1.0, b.p if b.key == "value" else -1.0)
    if set(best.keep) < set(other.keep):
        other_subject = f"adding the {_shown([c for c in other.keep if c not in best.keep])}"
    elif set(other.keep) < set(best.keep) and other.kind in _HIGH:
        other_subject = f"throwing the {_shown([c for c in best.keep if c not in other.keep])}"
    else:
        other_subject = _subject(other)
    line = f"{_say(best, a)}; {_say_other(other, a, b, other_subject)}"
    return _with_values(line, best, other, objective, quoted)


def _broken(best: HoldFacts, other: HoldFacts, objective: str, a: _Prospect, b: _Prospect, verb: str) -> str:
    """The other hold throws (part of) the best one's pair, trips or two pair: what that gives up."""
    mine = _name(best)
    if objective == "jacks" and a.verb == "already" and b.verb != "already":
        mine = f"{mine}, already jacks or better,"
    lead = f"{verb} {mine} for {_subject(other) if other.kind not in _DRAWS else _name(other)}"
    if objective == "jacks" and b.key == "value" and b.p < a.p:
        instead = "" if a.verb == "already" else f" instead of {a.figure}"
        return f"{lead}: jacks or better {_only_fig(b.figure)}{instead}"
    if other.kind in _DRAWS and kept_cards(other.code) == 4 and a.key != "value":
        return f"{_say(best, a)}; {lead}, which {b.text()}; {_values(best, other, objective)}"
    made = max(c for c in range(len(best.cats)) if best.at_least(c) >= 1 - 1e-12)
    return f"{lead}: {_AT_LEAST[made]} or better {_only_fig(_odds(other, made))}; {_values(best, other, objective)}"


def _why_compare(best: HoldFacts, other: HoldFacts, objective: str) -> str:
    """Fallback: the exact figure where the two holds differ most, and the objective's values."""
    gain, c = max((best.at_least(c) - other.at_least(c), c) for c in range(1, len(best.cats)))
    if gain <= 1e-12:   # ahead on no threshold: the value alone decides (it counts the whole table)
        gain, c = max((abs(best.at_least(c) - other.at_least(c)), c) for c in range(1, len(best.cats)))
    if gain < 1e-12:    # level on every final hand: the ranks of what they make decide
        mine, theirs = (_name(best), _name(other)) if _name(best) != _name(other) else (_hold(best), _hold(other))
        higher = f", but {mine} pairs higher" if best.kind in _HIGH and _ranks(best) > _ranks(other) else ""
        return f"{mine} and {theirs} end alike{higher}; {_values(best, other, objective)}"
    return (f"{_hold(best)} ends {_AT_LEAST[c]} or better {_pc(best.at_least(c))}, {_hold(other)} "
            f"{_pc(other.at_least(c))}; {_values(best, other, objective)}")


def why_points(best: Mapping[str, Any], other: Mapping[str, Any]) -> str:
    """Poengpoker and Chicago: the points this deal of two holds, split into best hand and last trick."""
    def part(row: Mapping[str, Any]) -> str:
        return f"{row['points_hand']:.3f} + {row['points_trick']:.3f} = {row['points']:.3f}"

    what = "nothing" if not len(best["keep"]) else _shown(best["keep"])
    if best["keep"] == other["keep"]:
        return f"keeping {what} scores {part(best)} points this deal (best hand + last trick)"
    hand = best["points_hand"] - other["points_hand"]
    trick = best["points_trick"] - other["points_trick"]
    lead = "the last trick decides" if abs(trick) >= abs(hand) else "the best hand decides"
    rival = "nothing" if not len(other["keep"]) else _shown(other["keep"])
    return (f"{lead}: keeping {what} scores {part(best)} points this deal (best hand + last trick), "
            f"keeping {rival} {part(other)}")


WHY_RULES = (_why_snow, _why_break_pat, _why_kicker, _why_extra_kicker, _why_plain)
WHY_WIDTH = 130      # a longer line drops its bracketed percentages; one past 140 is said the short way


def why(best: HoldFacts, other: HoldFacts, objective: str) -> str:
    """One line on why the best hold beats the other, in a player's words, from their exact figures:
    the first of ``WHY_RULES`` that fits, else (and with the joker) the figure where the two differ most."""
    if best.keep == other.keep:
        return f"{_hold(best)}: the only legal hold"
    if any(JOKER in parse_cards(list(f.keep), joker=True) for f in (best, other)):   # no kicker, no out
        return _why_compare(best, other, objective)
    for rule in WHY_RULES:
        line = rule(best, other, objective)
        if line:
            if len(line) > WHY_WIDTH:
                line = re.sub(r" \([^)]*\)", "", line)
            return line if len(line) <= WHY_WIDTH + 10 else _why_compare(best, other, objective)
    return _why_compare(best, other, objective)
