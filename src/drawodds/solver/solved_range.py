"""The solved range: which hands a player of the heads-up solution holds after a betting line
and a draw count, as the holdings that ``read`` and ``keep --vs`` work with.

Each hand the opponent can hold is weighted by the solution's probability of taking the
opponent's own actions on the betting line with it (ours do not depend on their cards) and of
then drawing each number of cards, keeping the hold the solution keeps for that draw. Hands are
mapped to the solution's pre-draw buckets through their suit-isomorphism class, so every one of
the C(52, 5) (or, knowing our cards, C(47, 5)) hands is weighted exactly; card removal between
the two hands enters through the deck, as the solution itself ignores it.

Seats follow the solver: seat 0 sits left of the dealer, acts first before the draw and draws
first; heads-up seat 1 is the dealer and draws after seeing seat 0's draw. At a table of three
(``table_range``, ``table_opponents``) seat 1 sits second and the dealer is seat 2; each seat's
draw depends on the draw counts of the seats still in that drew before it, and given the line
and those counts the seats' holdings are independent (each is dealt apart in the solver's model),
so the dealer's two opponents are two sources, one per seat.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from drawodds.cards import unseen
from drawodds.combinatorics import combinations
from drawodds.errors import RequestError
from drawodds.rules import RuleSet
from drawodds.sim.ranges import Holdings, hand_labels
from drawodds.solver import cfr
from drawodds.solver.abstraction import Abstraction
from drawodds.solver.classes import class_hold_cards, classify, deal_classes
from drawodds.solver.game import ACTION_NAMES, draw_row
from drawodds.solver.solution import DrawSolution
from drawodds.solver.table import TableSolution

Floats = npt.NDArray[np.float64]
_LETTERS = {name: letter for letter, name in ACTION_NAMES.items()} | {letter: letter for letter in ACTION_NAMES}
SEATS = ("first", "dealer")
TABLE_SEATS = ("first", "second", "dealer")


def parse_line(text: str) -> str:
    """A betting line as action letters: ``check-bet-call`` (or ``xbc``) -> ``"xbc"``.

    Words (check, bet, raise, call, fold) are separated by hyphens, commas or spaces; seat 0,
    left of the dealer, acts first.
    """
    words = [w for w in text.strip().lower().replace(",", " ").replace("-", " ").split() if w]
    if len(words) == 1 and words[0] not in _LETTERS and set(words[0]) <= set(ACTION_NAMES):
        words = list(words[0])                                  # letters: "xbc"
    bad = next((w for w in words if w not in _LETTERS), None)
    if not words or bad is not None:
        raise RequestError("{line} takes betting words (check, bet, raise, call, fold), e.g. check-bet-call; got "
                           "{value}", "line", value=repr(bad or text))
    return "".join(_LETTERS[w] for w in words)


def line_words(history: str) -> str:
    """Action letters as the hyphenated words a user types."""
    return "-".join(ACTION_NAMES[a] for a in history) if history else "any line"


@dataclass(frozen=True, eq=False, repr=False)
class SolvedRange:
    """The solution's player in one seat after a betting line (``""``: every line that reaches
    the draw, each as likely as both seats' strategies make it), as a holdings source.

    ``bucket_weight[b, k]`` is the probability that a hand of pre-draw bucket ``b`` takes the
    line's actions of this seat and then draws ``options[k]`` cards keeping ``class_holds[:, k]``,
    the hold of every deal class in column ``k`` (a draw count appears twice when the solution
    chooses between two holds for it). At a table of three (``seats`` 3), ``before`` holds the
    draw counts of the seats still in that drew before this one, in seat order. Equal and hashed
    by the digest of its arrays.
    """

    seat: int
    line: str
    our_draw: int | None
    options: tuple[int, ...]
    class_bucket: npt.NDArray[np.int32] = field(repr=False)
    class_holds: npt.NDArray[np.int8] = field(repr=False)
    bucket_weight: Floats = field(repr=False)
    name: str = "equilibrium"
    seats: int = 2
    before: tuple[int, ...] = ()

    @functools.cached_property
    def key(self) -> str:
        h = hashlib.sha1(repr((self.seat, self.line, self.our_draw, self.options, self.name, self.seats,
                               self.before)).encode())
        for a in (self.class_bucket, self.class_holds, self.bucket_weight):
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SolvedRange) and self.key == other.key

    @property
    def seat_name(self) -> str:
        return (SEATS if self.seats == 2 else TABLE_SEATS)[self.seat]

    @property
    def line_text(self) -> str:
        return line_words(self.line)

    def keep(self, cards: npt.NDArray[np.int8], columns: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
        """The cards each hand keeps when it draws ``options[column]`` (the solution's hold)."""
        return class_hold_cards(cards, self.class_holds, columns)

    def holdings(self, rules: RuleSet, known: tuple[int, ...]) -> Holdings:
        """Every hand from the deck less ``known``, weighted by the solution's play."""
        if rules.joker:
            raise RequestError("the solution is for a 52-card deck; the joker is not supported")
        stub = unseen(known)
        cards = stub[combinations(len(stub), 5)]
        cls, _ = classify(cards)
        weight = self.bucket_weight[self.class_bucket[cls]]
        weight = np.where(self.class_holds[cls] >= 0, weight, 0.0)
        draws = np.broadcast_to(np.asarray(self.options, dtype=np.int8), weight.shape)
        labels, category = _class_labels(self.options)
        return Holdings(rules, self.name, cards, np.ascontiguousarray(draws), weight, labels[cls], category[cls],
                        tuple(int(c) for c in known), self)


@functools.cache
def _class_labels(options: tuple[int, ...]) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """Posterior labels and category of every deal class (they do not depend on the suits' names)."""
    return hand_labels(deal_classes()[0], options)


def _seat_probability(sol: DrawSolution | TableSolution, history: str, seat: int) -> Floats:
    """(P,) probability that a hand of each pre-draw bucket takes ``seat``'s actions on the line."""
    g = sol.game
    out = np.ones(sol.abstraction.pre_buckets)
    for i, action in enumerate(history):
        node = g.pre_nodes[history[:i]]
        decision = g.tree.nodes[node]
        assert isinstance(decision, cfr.Decision)
        if decision.player != seat:
            continue
        strategy = sol.strategy[node]
        assert strategy is not None
        out = out * strategy[0, :, decision.actions.index(ACTION_NAMES[action])]
    return out


def _draw_strategy(sol: DrawSolution, history: str, seat: int, our_draw: int | None) -> Floats:
    """(P, columns) the heads-up seat's draw probabilities after the line (seat 1: after our draw)."""
    g, a = sol.game, sol.abstraction
    index = next(i for i, ln in enumerate(g.lines) if ln.history == history)
    q = g.lines[index].first_after
    row = g.groups[q].index(index)
    if seat == 1:
        assert our_draw is not None
        row += a.options.index(our_draw) * len(g.groups[q])
    return _draw_columns(sol, q, seat, row)


def _draw_columns(sol: DrawSolution | TableSolution, q: int, seat: int, row: int) -> Floats:
    """(P, columns) the draw probabilities of ``seat`` in group ``q`` at ``row``: one column per
    option, then, when the abstraction offers second holds, one per option's second hold (each
    option's probability split by the seat's private choice)."""
    g, a = sol.game, sol.abstraction
    strategy = sol.strategy[g.draw_nodes[(q, seat)]]
    assert strategy is not None
    if a.alt_holds is None:
        return strategy[row]
    out = np.concatenate([strategy[row], np.zeros_like(strategy[row])], axis=1)
    for k in range(len(a.options)):
        node = g.hold_nodes.get((q, seat, k))
        if node is not None:
            choice = sol.strategy[node]
            assert choice is not None
            out[:, len(a.options) + k] = out[:, k] * choice[row, :, 1]
            out[:, k] = out[:, k] * choice[row, :, 0]
    return out


def solved_range(solution: DrawSolution, *, line: str | None = None, seat: str = "first",
                 our_draw: int | None = None, our_hand: Sequence[int] | npt.NDArray[np.integer] | None = None,
                 ) -> SolvedRange:
    """The opponent's range under the solution: in ``seat`` ("first": left of the dealer, acts
    and draws first; "dealer": acts second and draws after us, so ``our_draw`` is needed) after
    the betting ``line`` (words or letters from the first actor; None: every line that reaches
    the draw, weighted by both seats' strategies, ours from ``our_hand``'s bucket when given).

    Raises a one-line ``RequestError`` for a line that does not reach the draw or a missing draw.
    """
    if seat not in SEATS:
        raise RequestError("the opponent's seat is first or dealer, not {seat}", seat=repr(seat))
    s = SEATS.index(seat)
    a, g = solution.abstraction, solution.game
    if s == 1:
        if our_draw is None:
            raise RequestError("a dealer draws after us: say how many cards we drew ({our_draw})", "our_draw")
        if our_draw not in a.options:
            raise RequestError("we draw {choices} cards under these rules, not {our_draw}",
                               choices=', '.join(map(str, a.options)), our_draw=our_draw)
    elif our_draw is not None:
        raise RequestError("{our_draw} is for an opponent who is the dealer (draws after us)", "our_draw")
    reaching = [ln.history for ln in g.lines]
    if line is not None:
        history = parse_line(line)
        if history not in reaching:
            raise RequestError("the line {line} does not reach the draw; lines that do: {lines}",
                               line=line_words(history), lines=", ".join(line_words(h) for h in reaching))
        weight = _seat_probability(solution, history, s)[:, None] * _draw_strategy(solution, history, s, our_draw)
    else:
        history = ""
        if our_hand is not None:
            cls, _ = classify(np.sort(np.asarray(our_hand, dtype=np.int64)).reshape(1, 5))
            ours = np.zeros(a.pre_buckets)
            ours[a.class_bucket[cls[0]]] = 1.0
        else:
            ours = a.prior
        columns = len(a.options) * (1 if a.alt_holds is None else 2)
        weight = np.zeros((a.pre_buckets, columns))
        for h in reaching:
            other = float(ours @ _seat_probability(solution, h, 1 - s))
            weight += other * _seat_probability(solution, h, s)[:, None] * _draw_strategy(solution, h, s, our_draw)
    holds, options = _holds_and_options(a)
    return SolvedRange(s, history, our_draw, options, np.asarray(a.class_bucket, dtype=np.int32), holds,
                       np.ascontiguousarray(weight))


def _holds_and_options(a: Abstraction) -> tuple[npt.NDArray[np.int8], tuple[int, ...]]:
    """Every deal class's hold per column, and the draw count of each column."""
    options = tuple(a.options) * (1 if a.alt_holds is None else 2)
    return np.asarray(a.all_holds, dtype=np.int8), options


def _table_line(solution: TableSolution, line: str) -> tuple[str, int, int]:
    """A line of the three-handed game that reaches the draw: (its letters, its group, its place in
    the group); a one-line ``RequestError`` for any other."""
    g = solution.game
    history = parse_line(line)
    index = next((i for i, ln in enumerate(g.lines) if ln.history == history), None)
    if index is None:
        shown = [line_words(ln.history) for ln in g.lines if len(ln.active) == len(TABLE_SEATS)][:4]
        raise RequestError("at a table of three the line {line} does not reach the draw; lines that do start "
                           "{lines}, ...", line=line_words(history), lines=", ".join(shown))
    q = next(k for k, (_, _, members) in enumerate(g.groups) if index in members)
    return history, q, g.groups[q][2].index(index)


def table_range(solution: TableSolution, *, line: str, seat: str, before: Sequence[int] = ()) -> SolvedRange:
    """The player of the three-handed solution in ``seat`` (first or second from the dealer's
    left, or dealer) after the betting ``line`` (needed: it says who is still in), as a holdings
    source. ``before``: the draw counts of the seats still in that drew before it, in seat order
    (its draw depends on them). A one-line ``RequestError`` for a seat not in, a line that does
    not reach the draw, or missing or impossible draw counts."""
    if seat not in TABLE_SEATS:
        raise RequestError("a seat at a table of three is first, second or dealer, not {seat}", seat=repr(seat))
    s = TABLE_SEATS.index(seat)
    a, g = solution.abstraction, solution.game
    history, q, pos = _table_line(solution, line)
    active = g.groups[q][0]
    if s not in active:
        raise RequestError("the {seat} seat folded on the line {line}", seat=seat, line=line_words(history))
    earlier = [t for t in active if t < s]
    before = tuple(int(d) for d in before)
    if len(before) != len(earlier):
        raise RequestError("the {seat} seat draws after {count} players still in on this line: give their draw "
                           "counts, in seat order (got {given})", seat=seat, count=len(earlier), given=len(before))
    bad = next((d for d in before if d not in a.options), None)
    if bad is not None:
        raise RequestError("a player draws {choices} cards under these rules, not {draw}",
                           choices=", ".join(map(str, a.options)), draw=bad)
    row = draw_row(pos, len(g.groups[q][2]), a.options, before)
    weight = _seat_probability(solution, history, s)[:, None] * _draw_columns(solution, q, s, row)
    holds, options = _holds_and_options(a)
    return SolvedRange(s, history, None, options, np.asarray(a.class_bucket, dtype=np.int32), holds,
                       np.ascontiguousarray(weight), seats=len(TABLE_SEATS), before=before)


def table_opponents(solution: TableSolution, *, line: str, vs: Sequence[int]) -> tuple[SolvedRange, ...]:
    """The dealer's opponents at a table of three after the betting ``line``: one source per seat
    still in before the dealer, each drawing ``vs[j]`` cards (in seat order); the second seat's
    range follows the first seat's draw. We are the dealer and drew last, having seen both draws."""
    history, q, _ = _table_line(solution, line)
    active = solution.game.groups[q][0]
    if TABLE_SEATS.index("dealer") not in active:
        raise RequestError("the dealer folded on the line {line}: we are the dealer, so we are not in",
                           line=line_words(history))
    seats = [s for s in active if TABLE_SEATS[s] != "dealer"]
    draws = tuple(int(d) for d in vs)
    if len(draws) != len(seats):
        raise RequestError("{count} opponents are in after the line {line}: give each one's draw count ({vs}), in "
                           "seat order (got {given})", "vs", count=len(seats), line=line_words(history),
                           given=len(draws))
    return tuple(table_range(solution, line=line, seat=TABLE_SEATS[s], before=draws[:j])
                 for j, s in enumerate(seats))
