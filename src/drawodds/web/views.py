"""What the templates show of a result: cards as cards, numbers as the reader's language writes them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from drawodds import i18n
from drawodds.analyses.keep import KeepResult, ranking
from drawodds.cards import RANKS, SUIT_GLYPHS, SUITS, format_cards
from drawodds.errors import DrawoddsError
from drawodds.kinds import Category
from drawodds.render.keep import verdict
from drawodds.rules import PRESET_TITLES, preset, preset_names
from drawodds.sim.stats import Estimate

RED = {"d", "h"}
SUIT_NAMES = {"c": i18n.N_("clubs"), "d": i18n.N_("diamonds"), "h": i18n.N_("hearts"), "s": i18n.N_("spades")}


@dataclass(frozen=True)
class Card:
    """One card as the page draws it: its code (``As``), rank and suit glyph, and colour."""

    code: str
    rank: str
    suit: str
    red: bool

    @property
    def label(self) -> str:
        """Words for a screen reader (``A of spades``)."""
        if self.code == "Jk":
            return i18n.gettext("joker")
        return i18n.gettext("{rank} of {suit}").format(rank=self.rank, suit=i18n.gettext(SUIT_NAMES[self.code[1]]))


def card(code: str) -> Card:
    """A card code (``As``, ``Th``, ``Jk``) as a ``Card``."""
    if code == "Jk":
        return Card("Jk", "🃏", "", False)
    rank, suit = code[0], code[1]
    return Card(code, "10" if rank == "T" else rank, SUIT_GLYPHS[SUITS.index(suit)], suit in RED)


def cards(codes: Iterable[str]) -> list[Card]:
    return [card(str(c)) for c in codes]


def deck(joker: bool = False) -> list[list[Card]]:
    """The card grid: one row per suit (spades, hearts, diamonds, clubs), aces first; the joker last."""
    rows = [[card(r + s) for r in reversed(RANKS)] for s in reversed(SUITS)]
    if joker:
        rows.append([card("Jk")])
    return rows


def rule_title(name: str) -> str:
    """A rule set's name as a player says it, in the reader's language (a preset's slug otherwise as is)."""
    return i18n.gettext(PRESET_TITLES[name]) if name in PRESET_TITLES else name


def rule_choices() -> list[tuple[str, str, int]]:
    """The rule sets a form offers: (slug, name, the most cards a player may draw)."""
    return [(name, rule_title(name), preset(name).max_draw_cards) for name in preset_names()]


def most_drawn(rules: str | None) -> int:
    """The most cards a player may draw under ``rules`` (a preset's slug; 3, Mørkpoker's, if it is none)."""
    try:
        return preset(rules or "morkpoker").max_draw_cards
    except DrawoddsError:
        return preset().max_draw_cards


_TEN = re.compile(r"(?<![\w])T(?=-)|(?<=-)T(?![\w])")


def tens(text: str) -> str:
    """Ranks written in a run (``J-T-8-3``) with the ten as the cards show it (``J-10-8-3``)."""
    return _TEN.sub("10", text)


def pct(fraction: float | None, decimals: int = 1) -> str:
    """A fraction as a percentage in the reader's language (``52.9%``, ``52,9 %``); a dash for none."""
    if fraction is None or fraction != fraction:
        return "—"
    return i18n.percent(float(fraction), decimals)


@dataclass(frozen=True)
class HoldRow:
    """One ranked hold on the keep page."""

    keep: list[Card]
    draw: int
    value: str
    gap: str                          # behind the best hold: percentage points, or points of the points measure
    best: bool
    near: bool
    final: list[tuple[str, str]]      # the final-hand chances (exact), by category


def keep_view(result: KeepResult, top: int = 12) -> dict[str, Any]:
    """The verdict, the ranked holds and their figures of a keep result."""
    rank = ranking(result)
    rows = result.rows()
    held: list[HoldRow] = []
    for i, row in enumerate(rows[:top]):
        estimate = Estimate(rank.value[i], rank.value_se[i])     # written as the verdict writes it
        if rank.sampled and rank.measure == "equity":
            value = i18n.local_number(estimate.percent())
            gap = i18n.number(100 * rank.gap[i], 2)
        elif rank.sampled:
            value = i18n.local_number(estimate.text(3))
            gap = i18n.number(rank.gap[i], 3)
        elif rank.measure == "points":
            value, gap = i18n.number(rank.value[i], 3), i18n.number(rank.gap[i], 3)
        else:
            value, gap = pct(rank.value[i], 2), i18n.number(100 * rank.gap[i], 2)
        final = [(i18n.gettext(c.label), pct(row[c.slug])) for c in Category
                 if c.slug in row and float(row[c.slug]) >= 0.0005]
        held.append(HoldRow(cards(row["keep"]), int(row["draw"]), value, gap, i == 0 or rank.gap[i] <= 1e-12,
                            bool(rank.near_best[i]) and i > 0, final))
    return {"verdict": tens(i18n.local_number(verdict(result, rank, rows))), "holds": held,
            "more": max(0, len(rows) - top),
            "sampled": rank.sampled, "measure": rank.measure, "hand": cards(_codes(result.hand)),
            "trials": result.trials, "opponents": result.opponents, "rules": rule_title(result.rules.name),
            "interrupted": result.interrupted}


def _codes(hand: Sequence[int] | Any) -> list[str]:
    return format_cards(hand)


def bars(values: Mapping[str, float], rare: float = 0.00005) -> list[tuple[str, str, float]]:
    """(label, percentage, width 0-100) of a distribution, likeliest first, the rarest left out (a label
    is shown in the reader's language where the catalog has its words)."""
    items = sorted(((k, float(v)) for k, v in values.items() if float(v) >= rare), key=lambda kv: -kv[1])
    top = max((v for _, v in items), default=1.0) or 1.0
    return [(i18n.gettext(k.replace("_", " ")), pct(v), round(100 * v / top, 1)) for k, v in items]
