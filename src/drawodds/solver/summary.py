"""A solved heads-up game in plain words: how each kind of hand bets, draws and bets again.

``DrawSolution``'s summaries are by betting line and final bucket; these condense them further,
to the few numbers a player can remember: how often each kind of dealt hand opens, calls or
raises before the draw, how often it stands pat or draws 1, 2, 3, and after the draw how often
each kind of final hand bets, folds, calls or raises against an opponent who drew 0-3 cards.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pandas as pd

from drawodds.evaluate import FLUSH, FULL_HOUSE, ONE_PAIR, STRAIGHT, TRIPS, TWO_PAIR, category_of, jacks_or_better_floor
from drawodds.i18n import N_
from drawodds.kinds import FinalKind, SolvedKind, StartingHand
from drawodds.paths import write_file
from drawodds.solver.abstraction import Abstraction
from drawodds.solver.hand_kinds import HAND_KINDS, hand_kinds
from drawodds.solver.solution import DrawSolution

FINAL_KINDS = FinalKind.labels()
_NOTHING = tuple(k for k in SolvedKind if k <= SolvedKind.FOUR_CARD_DRAW)   # no pair: high cards, 3- or 4-card draws
NOTHING = tuple(k.label for k in _NOTHING)


def final_kinds(abstraction: Abstraction) -> npt.NDArray[np.object_]:
    """The ``FINAL_KINDS`` name of each final bucket (by its lowest hand: buckets never mix
    categories; a bucket across the jacks line counts below it)."""
    lo, _ = abstraction.final_range
    cat = category_of(lo)
    out = np.empty(len(lo), dtype=object)
    out[:] = FinalKind.HIGH_CARD.label
    out[cat == ONE_PAIR] = FinalKind.PAIR_BELOW_JACKS.label
    out[(cat == ONE_PAIR) & (lo >= jacks_or_better_floor())] = FinalKind.JACKS_OR_BETTER.label
    for kind, c in ((FinalKind.TWO_PAIR, TWO_PAIR), (FinalKind.TRIPS, TRIPS), (FinalKind.STRAIGHT, STRAIGHT),
                    (FinalKind.FLUSH, FLUSH)):
        out[cat == c] = kind.label
    out[cat >= FULL_HOUSE] = FinalKind.FULL_HOUSE_OR_BETTER.label
    return out


def _weighted(frame: pd.DataFrame, keys: list[str], columns: list[str], weight: str) -> pd.DataFrame:
    """Weighted means of ``columns`` within groups of ``keys`` (NaN where nothing gets there)."""
    w = frame[weight].to_numpy()
    parts = pd.DataFrame({c: frame[c].fillna(0.0).to_numpy() * w for c in columns})
    parts[keys] = frame[keys].to_numpy()
    parts["_w"] = w
    grouped = parts.groupby(keys, sort=False).sum()
    out = grouped[columns].div(grouped["_w"].where(grouped["_w"] > 0), axis=0)
    out[weight] = grouped["_w"]
    return out.reset_index()


def predraw_overview(solution: DrawSolution) -> pd.DataFrame:
    """Before the draw, by kind of dealt hand: ``share`` of deals; ``open``: how often the first
    to act (left of the dealer) bets; ``bet after check``: how often the dealer bets when checked
    to; ``fold``/``call``/``raise``: the dealer facing the first bet."""
    table = solution.predraw_summary()
    first = table[(table["seat"] == 0) & (table["line"] == "first to act")].set_index("hand")
    checked = table[(table["seat"] == 1) & (table["line"] == "check")].set_index("hand")
    facing = table[(table["seat"] == 1) & (table["line"] == "bet")].set_index("hand")
    a = solution.abstraction
    kind = _dealt_kinds(a)
    w = a.class_weights.astype(np.float64)
    share = pd.Series({k: w[kind == k].sum() / w.sum() for k in HAND_KINDS})
    out = pd.DataFrame({"share": share, "open": first["bet"], "bet after check": checked["bet"],
                        "fold": facing["fold"], "call": facing["call"], "raise": facing["raise"]})
    return out.reindex(list(HAND_KINDS)).rename_axis("hand").reset_index()


def _dealt_kinds(a: Abstraction) -> npt.NDArray[np.object_]:
    return hand_kinds(a.classes, np.asarray(a.options)[a.class_natural])


def draw_overview(solution: DrawSolution) -> pd.DataFrame:
    """The draw, by kind of dealt hand, both seats together: ``reaches draw`` (how often the
    hand gets there), then how often it stands pat (``pat``) or draws 1, 2, 3 (``draw 1`` ...)."""
    table = solution.draw_summary()
    draws = [c for c in table.columns if c == "pat" or c.startswith("draw ")]
    table = table.assign(weight=table["share"] * table["reaches_draw"])
    out = _weighted(table, ["hand"], draws, "weight")
    share = table.groupby("hand", sort=False)["share"].first()
    reach = table.groupby("hand", sort=False)["reaches_draw"].mean()
    out.insert(1, "reaches draw", out["hand"].map(reach))
    out.insert(1, "share", out["hand"].map(share))
    return out.drop(columns="weight")


def postdraw_overview(solution: DrawSolution) -> pd.DataFrame:
    """After the draw, by kind of final hand and the opponent's draw count: ``bet first``: how
    often the first to act bets; ``bet after check``: how often the second bets when checked to;
    ``fold``/``call``/``raise``: facing a first bet (either seat); ``reach``: chance per deal."""
    table = solution.postdraw_table()
    table = table.assign(kind=final_kinds(solution.abstraction)[table["final"].to_numpy()])
    keys = ["kind", "opponent_draw"]
    lead = _weighted(table[(table["line"] == "first to act")], keys, ["bet"], "reach")
    second = _weighted(table[(table["line"] == "check") & ~table["first"]], keys, ["bet"], "reach")
    facing = table[((table["line"] == "bet") & ~table["first"]) | ((table["line"] == "check, bet") & table["first"])]
    face = _weighted(facing, keys, ["fold", "call", "raise"], "reach")
    out = lead.rename(columns={"bet": "bet first"}).drop(columns="reach").merge(
        second.rename(columns={"bet": "bet after check"}).drop(columns="reach"), on=keys, how="outer").merge(
        face.rename(columns={"reach": "facing a bet"}), on=keys, how="outer")
    order = {k: i for i, k in enumerate(FINAL_KINDS)}
    out = out.sort_values(keys, key=lambda s: s.map(order) if s.name == "kind" else s, ignore_index=True)
    return out.rename(columns={"kind": "hand"})


@dataclass(frozen=True)
class PatGroup:
    """Hands the pat overview reports together: its key, its words, its dealt and its final kinds."""

    slug: str
    label: str
    dealt: tuple[SolvedKind, ...]
    final: tuple[FinalKind, ...]


_BETTER = StartingHand.STRAIGHT_OR_BETTER
# The groups of ``pat_overview``, in its order: the dealt kinds of a snow, two pair, trips, and a straight or better.
PAT = (PatGroup("nothing", N_("nothing (a snow)"), _NOTHING, (FinalKind.HIGH_CARD,)),
       PatGroup(SolvedKind.TWO_PAIR.slug, SolvedKind.TWO_PAIR.label, (SolvedKind.TWO_PAIR,), (FinalKind.TWO_PAIR,)),
       PatGroup(SolvedKind.TRIPS.slug, SolvedKind.TRIPS.label, (SolvedKind.TRIPS,), (FinalKind.TRIPS,)),
       PatGroup(_BETTER.slug, N_("a straight or better"),
                (SolvedKind.STRAIGHT, SolvedKind.FLUSH, SolvedKind.FULL_HOUSE_OR_BETTER),
                (FinalKind.STRAIGHT, FinalKind.FLUSH, FinalKind.FULL_HOUSE_OR_BETTER)))
PAT_GROUPS = {g.slug: tuple(k.label for k in g.dealt) for g in PAT}
PAT_FINALS = {g.slug: tuple(k.label for k in g.final) for g in PAT}


def pat_overview(solution: DrawSolution) -> dict[str, dict[str, float]]:
    """Standing pat in the solution. ``stand_pat``: how often it stands pat when it gets to the
    draw with nothing (a snow: no pair, three- and four-card draws included), two pair, trips
    and a straight or better. ``bet_after``: how often, having stood pat with such a hand, it
    bets after the draw when it may open the betting there (first to act, or checked to)."""
    table = solution.draw_summary()
    w = table["share"] * table["reaches_draw"]
    stand = {}
    for name, kinds in PAT_GROUPS.items():
        sel = table["hand"].isin(kinds)
        stand[name] = float((w[sel] * table.loc[sel, "pat"]).sum() / w[sel].sum())
    post = solution.postdraw_table()
    post = post[(post["own_draw"] == 0) & (((post["line"] == "first to act") & post["first"])
                                          | ((post["line"] == "check") & ~post["first"]))]
    kind = final_kinds(solution.abstraction)[post["final"].to_numpy()]
    reach, bet = post["reach"].to_numpy(), post["bet"].to_numpy()
    after = {}
    for name, kinds in PAT_FINALS.items():
        mine = np.isin(kind, kinds)
        total = reach[mine].sum()
        after[name] = float((reach[mine] * bet[mine]).sum() / total) if total > 0 else float("nan")
    return {"stand_pat": stand, "bet_after": after}


def _write_csv(frame: pd.DataFrame, path: Path) -> None:
    frame.to_csv(path, index=False)


def write_tables(solution: DrawSolution, folder: str | Path) -> list[Path]:
    """The strategy tables as CSV files in ``folder``: by bucket before the draw and at the draw
    (every betting line), by final bucket after it (averaged over lines and own draws), and the
    three plain-words overviews by kind of hand. (The full after-the-draw table, about a million
    rows at the default size, is ``solution.postdraw_table()``.)"""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    frames = {"predraw.csv": solution.predraw_table(), "draw.csv": solution.draw_table(),
              "postdraw.csv": solution.postdraw_summary(), "predraw_by_hand.csv": predraw_overview(solution),
              "draw_by_hand.csv": draw_overview(solution), "postdraw_by_hand.csv": postdraw_overview(solution)}
    written = []
    for name, frame in frames.items():
        written.append(write_file(out / name, functools.partial(_write_csv, frame)))
    return written
