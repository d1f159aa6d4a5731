"""Lessons: strategy claims from the rule documents, tested with numbers.

``standing_pat`` checks the Swedish Mörkpoker page's advice that standing pat is a move: with two
pair against a player who drew three, the card you would draw is worth little at the showdown,
while the pat you show changes how the second betting round goes against a player who reads draws.
Given a solved heads-up game, it also shows how often unexploitable play stands pat, and bets after.
``standing_pat_table`` asks the same against two players of the three-handed solution, at a table
of one deck: what standing pat with two pair and snowing with nothing are worth there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds.cards import format_cards, parse_hand
from drawodds.engine.deal import BET, Action, DealState, play
from drawodds.engine.players import DrawReader, PatTwoPair, RuleBased
from drawodds.errors import LESSON_DEALS, RequestError, check_seed
from drawodds.evaluate import ONE_PAIR, TRIPS, TWO_PAIR, category_floor, evaluate
from drawodds.i18n import N_, _, local_number, number, percent
from drawodds.results import Result
from drawodds.rules import RuleSet, preset
from drawodds.sim.equity import OpponentModel, hold_equities
from drawodds.sim.stats import Estimate, mean_se
from drawodds.solver.solution import DrawSolution
from drawodds.solver.solve import equilibrium_solution
from drawodds.solver.summary import PAT, pat_overview
from drawodds.solver.table import TableSolution
from drawodds.solver.table_player import STACK, TablePlayer, TableTables, check_table_seats

LESSON_HAND = "QsQd5h5c9s"


@dataclass(frozen=True, repr=False)
class LineResult(Result):
    """Chips won per deal by one line of play against one opponent type (with its SE)."""

    opponent: str          # "reader" (reads draw counts) or "rule" (ignores them)
    line: str              # "draw one" or "stand pat"
    deals: int             # deals in the situation: we hold two pair, the opponent drew three
    net_per_deal: float
    net_per_deal_se: float
    gain_vs_drawing: float          # this line minus drawing one, on the same deals
    gain_vs_drawing_se: float


@dataclass(frozen=True, repr=False)
class PatLesson(Result):
    """The numbers behind "standing pat is a move"."""

    rules: str
    hand: list[str]
    fill_probability: float        # two pair drawing one makes a full house: 4/47
    equity_draw: float             # showdown equity vs one opponent who drew three
    equity_draw_se: float
    equity_pat: float
    equity_pat_se: float
    equity_gap_se: float
    equity_trials: int
    dealt: int                     # two-pair deals played per opponent type
    seed: int
    lines: tuple[LineResult, ...]
    equilibrium: dict[str, Any] | None = None     # standing pat in the solved heads-up game, if given
    interrupted: bool = False      # stopped by Ctrl-C: the lines cover the first ``dealt`` deals

    def to_markdown(self) -> str:
        """The lesson as a short page for reports/ (numbers from this run), in the reader's language."""
        gap = self.equity_draw - self.equity_pat
        rows = "\n".join(
            f"| {r.opponent} | {_(LINES.get(r.line, r.line))} | {number(r.deals, grouped=True)} | "
            f"{local_number(Estimate(r.net_per_deal, r.net_per_deal_se).text(3, signed=True))} | "
            + ("—" if r.line == "draw one" else
               local_number(Estimate(r.gain_vs_drawing, r.gain_vs_drawing_se).text(3, signed=True)))
            + " |" for r in self.lines)
        card = _("""## What the card is worth

With two pair ({hand}) drawing one card fills a full house
{fill} of the time (4 of 47). Against one opponent who drew three
(standard draw policy), the showdown equity is:""").format(hand=" ".join(self.hand),
                                                       fill=percent(self.fill_probability, 1))
        line, showdown, draw_one, stand_pat = _("line"), _("showdown equity"), _("draw one"), _("stand pat")
        equity = "\n".join([f"| {line} | {showdown} |", "|---|---|",
                            f"| {draw_one} | "
                            f"{local_number(Estimate(self.equity_draw, self.equity_draw_se).percent(2))} |",
                            f"| {stand_pat} | "
                            f"{local_number(Estimate(self.equity_pat, self.equity_pat_se).percent(2))} |"])
        gains = _("""Drawing gains only {gain} of the pot at the showdown
({trials} trials, common random numbers).""").format(
            gain=local_number(Estimate(gap, self.equity_gap_se).percent(2)),
            trials=number(self.equity_trials, grouped=True))
        pat = _("""## What the pat is worth

Whole deals played by the rules engine: we hold two pair (dealt {dealt} such deals, the
same deals for both lines) and either draw one like a standard player or stand pat and bet it
as a made hand. The opponent either reads draw counts (`reader`: judges its hand against what
our draw count says) or ignores them (`rule`). Chips per deal where the opponent drew three:""").format(
            dealt=number(self.dealt, grouped=True))
        head = "| {} | {} | {} | {} | {} |".format(_("opponent"), _("our line"), _("deals"), _("chips per deal"),
                                                   _("gain from standing pat"))
        verdict = _("{verdict} Seed {seed}; every figure carries its standard error.").format(
            verdict=self._verdict(), seed=self.seed)
        intro = _("""The Swedish Mörkpoker page's advice: against a player who drew three, standing pat can be worth
more than the card you would draw, because the second betting round is then played against a
hand that believes it is behind. Here is that claim in numbers ({rules} rules, heads-up).""").format(
            rules=self.rules)
        title = _("Standing pat is a move")
        return f"""# {title}

{intro}

{card}

{equity}

{gains}

{pat}

{head}
|---|---|---|---|---|
{rows}

{verdict}
{self._equilibrium_markdown()}"""

    def _equilibrium_markdown(self) -> str:
        eq = self.equilibrium
        if eq is None:
            return ""
        stand, bet = eq["stand_pat"], eq["bet_after"]
        names = {g.slug: g.label for g in PAT}
        rows = "\n".join(f"| {_(names[k])} | {percent(stand[k], 1)} | {percent(bet[k], 0)} |" for k in names)
        intro = _("""## What unexploitable play does

The heads-up equilibrium of {rules} (`drawodds solve`; {iterations} iterations, within
{milli} milli-antes per deal of unexploitable in its abstract game) stands pat
this often when it gets to the draw, and then bets this often when it may open the betting after
the draw (first to act, or checked to):""").format(
            rules=eq["rules"], iterations=number(eq["iterations"], grouped=True),
            milli=local_number(format(1000 * eq["exploitability"], ".2g")))
        figures = {"two_pair": percent(stand["two_pair"], 1), "nothing": percent(stand["nothing"], 1),
                   "bet": percent(bet["nothing"], 0)}
        if stand["two_pair"] < 0.05:
            said = _("""The lesson's line, standing pat with two pair, is one the equilibrium takes {two_pair} of
the time: against a player who reads draws it earns chips, against one who cannot be exploited two pair draws. \
Its pats with nothing are snows, bluffs made at the draw ({nothing} of the
time, bet {bet} of the time after): the pat is a move when the betting backs it up.""").format(**figures)
        else:
            said = _("""The lesson's line, standing pat with two pair, is one the equilibrium takes {two_pair} of
the time. Its pats with nothing are snows, bluffs made at the draw ({nothing} of the
time, bet {bet} of the time after): the pat is a move when the betting backs it up.""").format(**figures)
        head = "| {} | {} | {} |".format(_("dealt"), _("stands pat"), _("then bets"))
        return f"""
{intro}

{head}
|---|---|---|
{rows}

{said}
"""

    def _verdict(self) -> str:
        gain = {r.opponent: r for r in self.lines if r.line == "stand pat"}
        reader, rule = gain["reader"], gain["rule"]
        return _("Against the player who reads draws, standing pat changes our result by {reader} chips per deal; "
                 "against the one who ignores draw counts, by {rule}. "
                 "The card is worth about one percent of the pot either way: whatever the pat earns, "
                 "it earns through what it tells the other player.").format(
            reader=local_number(Estimate(reader.gain_vs_drawing, reader.gain_vs_drawing_se).text(2, signed=True)),
            rule=local_number(Estimate(rule.gain_vs_drawing, rule.gain_vs_drawing_se).text(2, signed=True)))


LINES = {"draw one": N_("draw one"), "stand pat": N_("stand pat")}   # the lesson's two lines, shown by _()


def _decks_where(rng: np.random.Generator, count: int, deck_size: int,
                 accept: Callable[[npt.NDArray[np.int8]], tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]]
                 ) -> Iterator[tuple[npt.NDArray[np.int8], int]]:
    """``count`` shuffled decks that ``accept`` keeps, each with the number it gives the deck
    (``accept(batch)`` -> (kept, number per deck)), drawn in batches and handed out as each batch
    is drawn: conditioning on one seat's hand and nothing else."""
    have = 0
    while have < count:
        batch = rng.permuted(np.tile(np.arange(deck_size, dtype=np.int8), (20_000, 1)), axis=1)
        keep, number = accept(batch)
        for deck, n in zip(batch[keep][:count - have], number[keep][:count - have], strict=True):
            yield deck, int(n)
        have += int(keep.sum())


def _two_pair_decks(rng: np.random.Generator, count: int, deck_size: int) -> Iterator[tuple[np.ndarray, int]]:
    """``count`` shuffled decks where seat 0 of two is dealt two pair, each with its button.

    Heads-up the cards go one at a time from the dealer's left: seat 0 holds the odd positions
    when seat 0 deals (button 0), the even ones when seat 1 deals.
    """
    lo, hi = category_floor(TWO_PAIR), category_floor(TRIPS)

    def accept(batch: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        button = rng.integers(0, 2, size=len(batch))
        s = evaluate(np.where(button[:, None] == 0, batch[:, 1:10:2], batch[:, 0:10:2]), joker=deck_size > 52)
        return (s >= lo) & (s < hi), button

    return _decks_where(rng, count, deck_size, accept)


def lesson_rules(rules: str | RuleSet = "morkpoker", *, deals: int = 20_000, seed: int = 1) -> RuleSet:
    """The table the standing-pat lesson plays (heads-up, deep stacks), after checking its
    arguments: a plain betting draw game, ``deals`` and ``seed`` in range."""
    base = preset(rules) if isinstance(rules, str) else rules
    if base.game != "draw":
        raise RequestError("the standing-pat lesson is about betting in the draw game, and {rule_set} is a points "
                           "game: use {rules} morkpoker or svensk", "rules", rule_set=base.name)
    if base.opener == "jacks":
        raise RequestError("the standing-pat lesson plays the plain game: use {rules} morkpoker or svensk", "rules")
    LESSON_DEALS.check(deals)
    check_seed(seed)
    return base.replace(players=2, stack=10_000)


def standing_pat(*, deals: int = 20_000, seed: int = 1, rules: str | RuleSet = "morkpoker",
                 equity_trials: int = 100_000,
                 progress: Callable[[int, int], None] | None = None,
                 equilibrium: DrawSolution | bool = True) -> PatLesson:
    """Measure the lesson: the card's showdown value, and the pat's value in whole deals.

    ``deals`` two-pair deals are played for each opponent type and line (deep stacks, so no
    one busts and the deals stay identical across lines). With ``equilibrium`` (by default the
    rules' cached heads-up equilibrium, solved the first time; a solution of one's own; or False
    for none), also how often that solution stands pat and bets after.
    """
    rs = lesson_rules(rules, deals=deals, seed=seed)
    if equilibrium is True:
        equilibrium = equilibrium_solution(preset(rules) if isinstance(rules, str) else rules)
    hand = parse_hand(LESSON_HAND)
    masks = np.array([[True, True, True, True, False], [True] * 5])   # draw one (the 9), stand pat
    eq = hold_equities(hand, masks, rs, OpponentModel(opponents=1, draw_counts=(3,)),
                       trials=equity_trials, seed=seed).complete()
    gap_se = float(eq.diff_se.max())   # the SE of the two holds' difference (0 for the best one)

    decks = _two_pair_decks(np.random.default_rng(seed), deals, rs.deck_size)
    total = 4 * deals
    # Each opponent type and line has its own players and random streams; the deals run in step
    # across the four, so that a Ctrl-C leaves the same finished deals for every line.
    tables = []
    for opp_cls in (DrawReader, RuleBased):
        for ours_cls in (RuleBased, PatTwoPair):
            seat_rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2)]
            tables.append([ours_cls(rs, seat_rngs[0]), opp_cls(rs, seat_rngs[1])])
    net = np.zeros((4, deals))
    drew_three = np.zeros((2, deals), dtype=bool)
    played, interrupted = 0, False
    try:
        for i, (deck, button) in enumerate(decks):
            cards = deck.tolist()
            for t, players in enumerate(tables):
                state = DealState(rs, [rs.stack, rs.stack], button, list(cards), deal_id=i)
                net[t, i] = play(state, players).net[0]
                if t % 2 == 0:      # drawing one: did the opponent draw three?
                    drew_three[t // 2, i] = bool(state.draw_counts) and state.draw_counts[0][1] == 3
            played += 1
            if progress is not None and played % 125 == 0:
                progress(4 * played, total)
    except KeyboardInterrupt:
        if played < 2:
            raise
        interrupted = True
    lines: list[LineResult] = []
    for o, opp_name in enumerate(("reader", "rule")):
        three = drew_three[o, :played]
        nets = {"draw one": net[2 * o, :played][three], "stand pat": net[2 * o + 1, :played][three]}
        for line in ("draw one", "stand pat"):
            mean, se = mean_se(nets[line])
            gain, gain_se = mean_se(nets[line] - nets["draw one"])
            lines.append(LineResult(opp_name, line, int(three.sum()), mean, se, gain, gain_se))
    if progress is not None and not interrupted:
        progress(total, total)
    return PatLesson(rules=rs.name, hand=format_cards(hand), fill_probability=4 / 47,
                     equity_draw=float(eq.equity[0]), equity_draw_se=float(eq.equity_se[0]),
                     equity_pat=float(eq.equity[1]), equity_pat_se=float(eq.equity_se[1]),
                     equity_gap_se=gap_se, equity_trials=eq.trials, dealt=played, seed=seed,
                     lines=tuple(lines), equilibrium=_equilibrium_pat(equilibrium) if equilibrium else None,
                     interrupted=interrupted)


def _equilibrium_pat(solution: DrawSolution) -> dict[str, Any]:
    """The standing-pat figures of a solved game, with what it is."""
    return {"rules": solution.rules.name, "exploitability": solution.exploitability,
            "iterations": solution.iterations, **pat_overview(solution)}


# --- three at the table -------------------------------------------------------------------------

TABLE_LINES = {"two pair": ("own", "draw one", "stand pat", "stand pat and bet"),
               "nothing": ("own", "snow", "snow and bet")}
LINE_WORDS = {"own": N_("the solution's own draw"), "draw one": N_("draw one"), "stand pat": N_("stand pat"),
              "stand pat and bet": N_("stand pat, bet when checked to"), "snow": N_("snow (stand pat)"),
              "snow and bet": N_("snow, bet when checked to")}
HAND_WORDS = {"two pair": N_("two pair"), "nothing": N_("nothing (no pair)")}


@dataclass(frozen=True, repr=False)
class TableLineResult(Result):
    """Chips won per deal (in antes) by one line of play at the draw in one situation, and its
    gain over the solution's own draw on the same deals (with SEs)."""

    hand: str              # "two pair" or "nothing"
    line: str              # "own", "draw one", "stand pat" or "snow"
    deals: int             # deals where we reached the draw against both opponents
    antes_per_deal: float
    antes_per_deal_se: float
    gain_vs_own: float
    gain_vs_own_se: float


@dataclass(frozen=True, repr=False)
class TablePatLesson(Result):
    """Standing pat and snowing against two: the three-handed solution's players at a one-deck
    table in the rules engine; we are the dealer and play the solution except at the draw."""

    rules: str
    players: int
    dealt: dict[str, int]          # decks dealt per situation (our dealt hand)
    pat_share: dict[str, float]    # how often the solution's own draw stands pat there, against two
    pat_share_se: dict[str, float]
    seed: int
    lines: tuple[TableLineResult, ...]
    model: str
    solution: dict[str, Any]       # what the solution is: iterations, largest seat gain
    interrupted: bool = False

    def to_markdown(self) -> str:
        """The lesson as a short page, in the reader's language."""
        title = _("Standing pat is a move: three at the table")
        shares = _("""Against two, the solution itself stands pat with two pair {two_pair} of the time and with
nothing {nothing} of the time (its snows).""").format(
            two_pair=local_number(Estimate(self.pat_share["two pair"], self.pat_share_se["two pair"]).percent(1)),
            nothing=local_number(Estimate(self.pat_share["nothing"], self.pat_share_se["nothing"]).percent(1)))
        gain = {(r.hand, r.line): Estimate(r.gain_vs_own, r.gain_vs_own_se) for r in self.lines}
        verdict = _("Against two players of the solution, standing pat with two pair instead of its own draw changes "
                    "our result by {pat} antes per deal, and a snow with nothing by {snow}.").format(
            pat=local_number(gain[("two pair", "stand pat")].text(2, signed=True)),
            snow=local_number(gain[("nothing", "snow")].text(2, signed=True))) if len(gain) == 7 else ""
        return f"""# {title}

{self.figures_markdown()}

{shares} {verdict}
"""

    def figures_markdown(self) -> str:
        """What was played and its table, with the model and the seed: the lesson without its
        title and closing words (the guide says those in its own)."""
        intro = _("""The three-handed solution of {rules} ({iterations} iterations; no seat gains more than {milli}
milli-antes per deal by deviating alone in its abstract game) plays all three seats of whole deals
in the rules engine, from one shuffled deck. We are the dealer and draw last, having seen both
opponents draw. We play the solution everywhere but at the draw, where each line below draws as
it says; the solution plays on after it, knowing what we drew. Each figure counts the deals where
both opponents were still in at the draw, the same deals for every line.""").format(
            rules=self.rules, iterations=number(self.solution["iterations"], grouped=True),
            milli=local_number(format(1000 * self.solution["exploitability"], ".2g")))
        head = "| {} | {} | {} | {} | {} |".format(_("dealt"), _("our line at the draw"), _("deals"),
                                                   _("antes per deal"), _("gain over the solution's draw"))
        rows = "\n".join(
            f"| {_(HAND_WORDS[r.hand])} | {_(LINE_WORDS[r.line])} | {number(r.deals, grouped=True)} | "
            f"{local_number(Estimate(r.antes_per_deal, r.antes_per_deal_se).text(3, signed=True))} | "
            + ("—" if r.line == "own" else local_number(Estimate(r.gain_vs_own, r.gain_vs_own_se).text(3, signed=True)))
            + " |" for r in self.lines)
        tail = _("{model} Seed {seed}; every figure carries its standard error.").format(model=_(self.model),
                                                                                       seed=self.seed)
        return f"""{intro}

{head}
|---|---|---|---|---|
{rows}

{tail}"""


TABLE_MODEL = N_("The figures hold at a one-deck table of the solution's players, which is not the model the "
                 "solution was solved in (there each seat is dealt from its own deck).")


DECISIONS = 64     # random numbers given to each player per deal (a deal asks far fewer)


class _DrawsAsTold:
    """A solution's player that draws as the lesson's line says (and, in a line "... and bet",
    bets after the draw when no one has yet) and otherwise plays as itself. It asks its own player
    first, so that its random numbers stay in step with the other lines'."""

    def __init__(self, inner: Any, line: str) -> None:
        self.inner, self.line = inner, line
        self.name, self.always_shows = inner.name, inner.always_shows
        self.use_numbers = inner.use_numbers

    def __call__(self, obs: Any) -> Any:
        action = self.inner(obs)
        if obs.phase == "bet" and obs.round > 0 and self.line.endswith("and bet") and obs.can("bet"):
            return BET
        if obs.phase != "draw" or self.line == "own":
            return action
        if self.line == "draw one":          # two pair: throw the odd card
            ranks = [c >> 2 for c in obs.hand]
            return Action("draw", tuple(c for c, r in zip(obs.hand, ranks, strict=True) if ranks.count(r) == 1))
        return Action("draw", ())


def _dealer_decks(rng: np.random.Generator, count: int, deck_size: int, lo: int, hi: int
                  ) -> Iterator[npt.NDArray[np.int8]]:
    """``count`` shuffled decks in which the dealer of three (seat 2: every third card from the
    third) is dealt a hand of strength in [lo, hi)."""
    def accept(batch: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        s = evaluate(batch[:, 2:15:3], joker=deck_size > 52)
        return (s >= lo) & (s < hi), np.zeros(len(batch), dtype=np.int64)

    return (deck for deck, _ in _decks_where(rng, count, deck_size, accept))


def standing_pat_table(solution: TableSolution, *, deals: int = 20_000, seed: int = 1,
                       progress: Callable[[int, int], None] | None = None) -> TablePatLesson:
    """What standing pat with two pair and snowing with nothing are worth against two, at a table
    of the three-handed ``solution``'s players (see ``TablePatLesson``): ``deals`` decks for each
    situation, every line on the same decks with the same random numbers up to our draw."""
    LESSON_DEALS.check(deals)
    check_seed(seed)
    rules = solution.rules.replace(players=solution.players)
    check_table_seats(rules)
    if rules.opener == "jacks":
        raise RequestError("the standing-pat lesson plays the plain game: use {rules} morkpoker or svensk", "rules")
    tables = TableTables(solution)
    rng = np.random.default_rng(seed)
    bounds = {"two pair": (category_floor(TWO_PAIR), category_floor(TRIPS)), "nothing": (0, category_floor(ONE_PAIR))}
    total = deals * sum(len(v) for v in TABLE_LINES.values())
    done, interrupted = 0, False
    results: list[TableLineResult] = []
    share: dict[str, float] = {}
    share_se: dict[str, float] = {}
    dealt: dict[str, int] = {}
    for situation, lines in TABLE_LINES.items():
        seeds = np.random.SeedSequence([seed, len(dealt)]).spawn(solution.players + 1)
        tables_by_line = {line: [TablePlayer(tables, rules, np.random.default_rng(seeds[s]))
                                 for s in range(solution.players)] for line in lines}
        numbers = np.random.default_rng(seeds[-1])
        for line, players in tables_by_line.items():
            players[-1] = _DrawsAsTold(players[-1], line)        # type: ignore[call-overload]
        net = {line: np.zeros(deals) for line in lines}
        against_two = np.zeros(deals, dtype=bool)
        pat = np.zeros(deals, dtype=bool)
        played = 0
        try:
            for i, deck in enumerate(_dealer_decks(rng, deals, rules.deck_size, *bounds[situation])):
                cards = deck.tolist()
                uniforms = numbers.random((solution.players, DECISIONS)).tolist()
                for line, players in tables_by_line.items():
                    for player, mine in zip(players, uniforms, strict=True):
                        player.use_numbers(mine)                  # every line decides alike until our draw
                    state = DealState(rules, [STACK] * solution.players, solution.players - 1, list(cards), deal_id=i)
                    result = play(state, players)
                    net[line][i] = result.net[-1] / rules.ante
                    if line == "own":
                        counts = state.draw_counts[0] if state.draw_counts else [-1]   # -1: did not draw
                        against_two[i] = min(counts) >= 0
                        pat[i] = counts[-1] == 0
                played += 1
                done += len(lines)
                if progress is not None and played % 250 == 0:
                    progress(done, total)
        except KeyboardInterrupt:
            if played < 2:
                raise
            interrupted = True
        dealt[situation] = played
        sel = against_two[:played]
        share[situation], share_se[situation] = mean_se(pat[:played][sel].astype(np.float64))
        for line in lines:
            mean, se = mean_se(net[line][:played][sel])
            gain, gain_se = mean_se(net[line][:played][sel] - net["own"][:played][sel])
            results.append(TableLineResult(situation, line, int(sel.sum()), mean, se, gain, gain_se))
        if interrupted:
            break
    if progress is not None and not interrupted:
        progress(total, total)
    about = {"iterations": solution.iterations, "exploitability": solution.exploitability,
             "seat_gains": list(solution.seat_gains), "value": list(solution.value)}
    return TablePatLesson(rules=rules.name, players=solution.players, dealt=dealt, pat_share=share,
                          pat_share_se=share_se, seed=seed, lines=tuple(results), model=TABLE_MODEL, solution=about,
                          interrupted=interrupted)
