"""`drawodds solve`: the solution's figures, then its strategy in plain words (tables fold to fit the page)."""

from __future__ import annotations

import math
import resource
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pandas as pd
from rich import box
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from drawodds.execution import Stage
from drawodds.i18n import N_, _, local_number, number
from drawodds.render.console import folded, pulse, stderr_is_terminal, stdout
from drawodds.solver.best_response import LEAK_STAGES, BestResponse, SeatGains
from drawodds.solver.cfr import Checkpoint
from drawodds.solver.playout import OneDeck
from drawodds.solver.solution import DrawSolution
from drawodds.solver.summary import draw_overview, pat_overview, postdraw_overview, predraw_overview
from drawodds.solver.table import TableSolution

SCHEDULE_NAMES = {"dcfr": "discounted CFR", "cfr+": "CFR+"}


def peak_memory_bytes() -> int:
    """The peak resident memory of this process so far (all of it, not only the solve)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def solve_json(solution: DrawSolution, real: BestResponse | None = None, leaks: pd.DataFrame | None = None,
               dealt: OneDeck | None = None) -> dict[str, Any]:
    """The solution's ``to_dict`` with the real game's exploitability and the one-deck check (None
    when not measured), the leaks (with ``--leaks``) and the process's peak memory."""
    out = {**solution.to_dict(), "real_exploitability": None if real is None else real_json(real),
           "one_deck": None if dealt is None else dealt.to_dict()}
    if leaks is not None:
        out["leaks"] = leaks.to_dict(orient="records")
    return {**out, "peak_memory_mb": round(peak_memory_bytes() / 2**20, 1)}


def real_json(real: BestResponse) -> dict[str, Any]:
    """A full-resolution best response in JSON: antes and milli-antes per deal, each seat's
    best-response value, seconds."""
    return {"antes_per_deal": real.exploitability, "milli_antes": 1000 * real.exploitability,
            "best_response": list(real.best_response), "seconds": round(real.seconds, 3),
            "model": HANDS_APART}


HANDS_APART = N_("Hands dealt independently: each seat from its own deck, as the solver's model deals them.")


def _one_deck_rows(facts: Table, dealt: OneDeck | None) -> None:
    """The one-deck check as two rows of figures: every seat's result with one deck and with a deck each."""
    if dealt is None:
        return

    def seats(values: tuple[float, ...], errors: tuple[float, ...]) -> str:
        return ", ".join(_("seat {seat} {value} ± {se}").format(seat=k, value=number(v, 4, signed=True),
                                                               se=number(e, 4))
                         for k, (v, e) in enumerate(zip(values, errors, strict=True)))

    facts.add_row(_("one deck, as at the table"), _("{seats} antes per deal ({deals} deals, seed {seed})").format(
        seats=seats(dealt.value, dealt.standard_error), deals=number(dealt.deals, grouped=True), seed=dealt.seed))
    facts.add_row(_("a deck for each seat"), _("{seats} antes per deal").format(
        seats=seats(dealt.own_decks, dealt.own_decks_standard_error)))


def share(p: float) -> str:
    """A frequency in whole percent; one decimal below 10%; a dash where nothing gets there."""
    if p is None or not math.isfinite(p):
        return "—"
    if p >= 0.995:
        return local_number("100%")
    if p < 0.0005:
        return local_number("0%")
    return local_number(f"{100 * p:.1f}%" if p < 0.1 else f"{100 * p:.0f}%")


def _table(title: str, first: str, columns: list[str], rows: list[list[str]]) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    table.add_column(first, no_wrap=True)
    for c in columns:
        table.add_column(c, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    return table


def print_folded(console: Console, title: str, first: str, columns: list[str], rows: list[list[str]]) -> None:
    """Print a table of a label column and value columns; where it is wider than the page it is
    folded: the value columns in parts, each part under the label column, so no value is cut."""
    def build(span: list[int], continued: bool) -> Table:
        return _table(_("{title} (continued)").format(title=title) if continued else title, first,
                      [columns[j] for j in span],
                      [[r[0], *[r[1 + j] for j in span]] for r in rows])

    for t in folded(console, build, len(columns)):
        stdout_blank()
        console.print(t)


def stdout_blank() -> None:
    """An empty line between the sections."""
    stdout().print()


def _draw_word(d: int) -> str:
    return _("stood pat") if d == 0 else _("drew {n}").format(n=d)


def _hand(name: object) -> str:
    """A kind of hand (the English label the solution's tables keep) in the reader's language."""
    return _(str(name))


def render_solve(solution: DrawSolution, real: BestResponse | None = None, leaks: pd.DataFrame | None = None,
                 dealt: OneDeck | None = None) -> None:
    """The figures of the solve (with the real game's exploitability when measured), then the
    strategy before, at and after the draw, and the leaks when measured."""
    console = stdout()
    a = solution.abstraction
    v0, v1 = solution.value
    schedule = SCHEDULE_NAMES.get(solution.schedule, solution.schedule)
    console.print(_("Heads-up {rules}, solved in the abstract game ({pre} pre-draw × {final} final buckets)").format(
        rules=solution.rules.name, pre=number(a.pre_buckets, grouped=True),
        final=number(a.final_buckets, grouped=True)))
    facts = Table.grid(padding=(0, 2))
    facts.add_column(no_wrap=True)
    facts.add_column()
    facts.add_row(_("value, seat 0 (left of the dealer)"),
                  _("{value} antes per deal").format(value=number(v0, 4, signed=True)))
    facts.add_row(_("value, seat 1 (the dealer)"), _("{value} antes per deal").format(value=number(v1, 4, signed=True)))
    facts.add_row(_("exploitability, abstract game"), _("{value} milli-antes per deal").format(
        value=local_number(f"{1000 * solution.exploitability:.3g}")))
    if real is not None:
        b0, b1 = real.best_response
        facts.add_row(_("exploitability, real game"), _("{value} milli-antes per deal (exact, {seconds} s; hands "
                                                        "dealt independently)").format(
            value=local_number(f"{1000 * real.exploitability:.3g}"), seconds=number(real.seconds)))
        facts.add_row(_("best responses, real game"), _("seat 0 {first}, seat 1 {second} antes per deal").format(
            first=number(b0, 4, signed=True), second=number(b1, 4, signed=True)))
    _one_deck_rows(facts, dealt)
    facts.add_row(_("iterations"), f"{number(solution.iterations, grouped=True)} ({schedule})")
    facts.add_row(_("time"), _("{seconds} s CFR (abstraction built in {built} s)").format(
        seconds=number(solution.seconds, 1), built=number(solution.abstraction_seconds)))
    facts.add_row(_("information sets"), number(solution.infosets, grouped=True))
    facts.add_row(_("peak memory"), _("{size} GB (this whole process)").format(
        size=number(peak_memory_bytes() / 2**30, 2)))
    console.print(facts)
    _predraw(console, solution)
    _draw(console, solution)
    _postdraw(console, solution)
    if leaks is not None:
        _leaks(console, leaks)
    console.print(_("[dim]Seat 0 sits left of the dealer and acts first. Exploitability: how much a best "
                    "response gains, in the abstract game (knowing only buckets) and in the real game (knowing "
                    "its exact hand, keeping any cards). See docs/solve.md.[/dim]"))
    if solution.interrupted:
        console.print(_("[yellow]Interrupted: the strategy of the {n} iterations run.[/yellow]").format(
            n=number(solution.iterations, grouped=True)))


def table_json(solution: TableSolution, real: SeatGains | None = None, dealt: OneDeck | None = None,
               leaks: pd.DataFrame | None = None) -> dict[str, Any]:
    """A three-handed solution's ``to_dict`` with each seat's gain in the real game and the one-deck
    check (None when not measured), the leaks (with ``--leaks``) and the process's peak memory."""
    out = {**solution.to_dict(), "real_exploitability": None if real is None else real.to_dict(),
           "one_deck": None if dealt is None else dealt.to_dict()}
    if leaks is not None:
        out["leaks"] = leaks.to_dict(orient="records")
    return {**out, "peak_memory_mb": round(peak_memory_bytes() / 2**20, 1)}


def _seat_name(seat: int, players: int) -> str:
    if seat == 0:
        return _("seat 0 (left of the dealer)")
    if seat == players - 1:
        return _("seat {seat} (the dealer)").format(seat=seat)
    return _("seat {seat}").format(seat=seat)


def render_table(solution: TableSolution, real: SeatGains | None = None, dealt: OneDeck | None = None,
                 leaks: pd.DataFrame | None = None) -> None:
    """The figures of a three-handed solve: each seat's value and its gain from deviating alone, in
    the abstract game and (``real``) in the real game, labelled so that no seat's gain reads as a
    two-player exploitability."""
    console = stdout()
    b = solution.buckets
    console.print(_("Three-handed {rules}, solved in the abstract game ({pre} pre-draw × {final} final buckets, "
                    "{raises} raises a round)").format(
        rules=solution.rules.name, pre=number(b["pre_draw"], grouped=True), final=number(b["final"], grouped=True),
        raises=solution.raises))
    facts = Table.grid(padding=(0, 2))
    facts.add_column(no_wrap=True)
    facts.add_column()
    for seat, v in enumerate(solution.value):
        facts.add_row(_("value, {seat}").format(seat=_seat_name(seat, solution.players)),
                      _("{value} antes per deal").format(value=number(v, 4, signed=True)))
    for seat, g in enumerate(solution.seat_gains):
        facts.add_row(_("gain of {seat} deviating alone").format(seat=_seat_name(seat, solution.players)),
                      _("{value} milli-antes per deal").format(value=local_number(f"{1000 * g:.3g}")))
    facts.add_row(_("largest seat gain, abstract game"), _("{value} milli-antes per deal").format(
        value=local_number(f"{1000 * solution.exploitability:.3g}")))
    if real is not None:
        facts.add_row(_("seat gains, real game"), _(
            "{values} milli-antes per deal (seats 0, 1, 2; {seconds} s)").format(
            values=", ".join(local_number(f"{1000 * g:.3g}") for g in real.seat_gains),
            seconds=number(real.seconds, 1)))
    _one_deck_rows(facts, dealt)
    schedule = SCHEDULE_NAMES.get(solution.schedule, solution.schedule)
    facts.add_row(_("iterations"), f"{number(solution.iterations, grouped=True)} ({schedule})")
    facts.add_row(_("time"), _("{seconds} s CFR (abstraction built in {built} s)").format(
        seconds=number(solution.seconds, 1), built=number(solution.abstraction_seconds)))
    facts.add_row(_("information sets"), number(sum(solution.infosets_per_seat), grouped=True))
    facts.add_row(_("peak memory"), _("{size} GB (this whole process)").format(
        size=number(peak_memory_bytes() / 2**30, 2)))
    console.print(facts)
    console.print(_(solution.model), style="dim")
    console.print(_("[dim]A seat's gain is what it wins by changing its own play alone, the other two held fixed, "
                    "in the abstract game (knowing only buckets). It is not a two-player exploitability: two "
                    "seats changing together may gain more, and with three players CFR is not sure to reach an "
                    "equilibrium. In the real game a seat knows its exact hand and keeps any cards; the hands are "
                    "still dealt independently. See docs/solve.md.[/dim]"))
    if leaks is not None:
        _seat_leaks(console, leaks, solution.players)
    if solution.interrupted:
        console.print(_("[yellow]Interrupted: the strategy of the {n} iterations run.[/yellow]").format(
            n=number(solution.iterations, grouped=True)))


def _predraw(console: Console, solution: DrawSolution) -> None:
    frame = predraw_overview(solution)
    rows = [[_hand(r["hand"]), *[share(r[c]) for c in ("share", "open", "bet after check", "fold", "call", "raise")]]
            for _i, r in frame.iterrows()]
    print_folded(console, _("Before the draw, by the hand dealt"), _("hand dealt"),
                 [_("dealt"), _("opens"), _("bets if\nchecked"), _("folds"), _("calls"), _("raises")], rows)
    console.print(_("dealt: share of deals; opens: the first to act (left of the dealer) bets; bets if "
                    "checked: the dealer, checked to; folds, calls, raises: the dealer facing the open."), style="dim")


def _draw(console: Console, solution: DrawSolution) -> None:
    frame = draw_overview(solution)
    draws = [c for c in frame.columns if c == "pat" or c.startswith("draw ")]
    rows = [[_hand(r["hand"]), share(r["reaches draw"]), *[share(r[d]) for d in draws]]
            for _i, r in frame.iterrows()]
    print_folded(console, _("The draw, by the hand dealt (both seats)"), _("hand dealt"),
                 [_("gets to\nthe draw"), *[_("stands\npat") if d == "pat"
                                            else _("draws\n{n}").format(n=d.split()[-1]) for d in draws]],
                 rows)
    stand = pat_overview(solution)["stand_pat"]
    console.print(_("Stands pat with nothing (a snow) {nothing}, with two pair {two_pair}, trips {trips}, "
                    "a straight or better {better} of the times it gets to the draw.").format(
                      nothing=share(stand["nothing"]), two_pair=share(stand["two_pair"]), trips=share(stand["trips"]),
                      better=share(stand["straight_or_better"])))


def _postdraw(console: Console, solution: DrawSolution) -> None:
    frame = postdraw_overview(solution)
    options = sorted(int(d) for d in frame["opponent_draw"].unique())
    hands = list(dict.fromkeys(frame["hand"]))
    cell = {(r["hand"], int(r["opponent_draw"])): r for _i, r in frame.iterrows()}
    words = [_draw_word(d) for d in options]
    print_folded(console, _("After the draw, first to act: how often it bets, by the opponent's draw"),
                 _("final hand"), words,
                 [[_hand(h), *[share(cell[(h, d)]["bet first"]) if (h, d) in cell else "—" for d in options]]
                  for h in hands])
    print_folded(console, _("Facing a bet after the draw: % fold / call / raise, by the bettor's draw"),
                 _("final hand"), words, [[_hand(h), *[_fcr(cell.get((h, d))) for d in options]] for h in hands])


def _leaks(console: Console, leaks: pd.DataFrame) -> None:
    grid = leaks.groupby(["hand", "stage"], sort=False)["milli_antes"].sum().unstack()[list(LEAK_STAGES)]
    grid["total"] = grid.sum(axis=1)
    grid = grid.sort_values("total", ascending=False)
    sums = grid.sum()
    rows = [[_hand(hand), *[number(r[c], 3) for c in (*LEAK_STAGES, "total")]] for hand, r in grid.iterrows()]
    rows.append([_("all hands"), *[number(sums[c], 3) for c in (*LEAK_STAGES, "total")]])
    print_folded(console, _("Leaks: what a perfect exploiter gains, milli-antes per deal"), _("hand dealt"),
                 [_("betting\nbefore"), _("draw and\ncards kept"), _("betting\nafter"), _("total")], rows)
    console.print(_("Both seats; the total is the real game's exploitability. Where the exploiter plays "
                    "differently from the solution: its betting before the draw, its draw (count and cards), "
                    "its betting after it."), style="dim")


def _seat_leaks(console: Console, leaks: pd.DataFrame, players: int) -> None:
    """The leaks at a table: what each seat's exploiter gains by kind of dealt hand (all stages),
    a column per seat, each column summing to that seat's gain in the real game."""
    grid = leaks.groupby(["hand", "seat"], sort=False)["milli_antes"].sum().unstack()[list(range(players))]
    grid = grid.loc[grid.sum(axis=1).sort_values(ascending=False).index]
    sums = grid.sum()
    rows = [[_hand(hand), *[number(r[s], 3) for s in range(players)]] for hand, r in grid.iterrows()]
    rows.append([_("all hands"), *[number(sums[s], 3) for s in range(players)]])
    print_folded(console, _("Leaks: what each seat gains by deviating alone, milli-antes per deal"), _("hand dealt"),
                 [_("seat {seat}").format(seat=s) for s in range(players)], rows)
    console.print(_("A column is one seat deviating alone, the other two playing the solution; it sums to that "
                    "seat's gain in the real game. The JSON splits each by where the seat plays differently."),
                  style="dim")


def _fcr(row: pd.Series | None) -> str:
    if row is None or not math.isfinite(row["fold"]):
        return "—"
    return "/".join(f"{100 * row[k]:.0f}" for k in ("fold", "call", "raise"))


# --- progress -----------------------------------------------------------------------------------

@contextmanager
def solve_progress(iterations: int, target: float | None, enabled: bool = True
                   ) -> Iterator[tuple[Stage | None, Callable[[Checkpoint], None] | None]]:
    """One bar on stderr (a terminal only): the abstraction's stages, then CFR's iterations with
    the exploitability at the last checkpoint. Yields ``(stage, checkpoint)`` callbacks. Where stderr
    is not a terminal, a line every few seconds names the stage or the iteration (``pulse``)."""
    if not (enabled and stderr_is_terminal()):
        with pulse(_("starting"), enabled) as status:
            yield ((lambda text, done: status(_(text))),
                   (lambda point: status(_("CFR: iteration {n}").format(n=number(point.iteration, grouped=True)))))
        return
    bar = Progress(TextColumn("{task.description:<44}"), BarColumn(), TextColumn("{task.fields[detail]}"),
                   TimeElapsedColumn(), console=Console(stderr=True), transient=True)
    task = bar.add_task(_("starting"), total=100, detail="")
    first: list[float] = []

    def stage(text: str, done: float) -> None:
        bar.update(task, description=_(text), completed=100 * done)

    def checkpoint(point: Checkpoint) -> None:
        done = point.iteration / iterations
        if target is not None and math.isfinite(point.exploitability) and point.exploitability > 0:
            first.append(point.exploitability)
            start = first[0]
            if start > target:
                done = max(done, math.log(start / point.exploitability) / math.log(start / target))
        detail = f"{local_number(f'{1000 * point.exploitability:.3g}')} mA"
        if target is not None:
            detail = _("{detail} (to {target})").format(detail=detail, target=local_number(f"{1000 * target:g}"))
        bar.update(task, description=_("CFR: iteration {n}").format(n=number(point.iteration, grouped=True)),
                   completed=100 * min(done, 1.0), detail=detail)

    with bar:
        yield stage, checkpoint
