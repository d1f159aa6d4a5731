"""Chart for reading draws: an opponent's final hand by the number of cards they drew."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from drawodds.analyses.read import DrawReading, read_draw
from drawodds.charts.output import save
from drawodds.errors import RequestError
from drawodds.i18n import _, number, percent
from drawodds.kinds import Category
from drawodds.rules import RuleSet, preset

_COLOURS = ("#d9d9d9", "#9ecae1", "#4292c6", "#08519c", "#fdae6b", "#e6550d", "#a63603", "#54278f",
            "#000000", "#e7298a")   # one per Category
_DARK = (Category.TRIPS, Category.QUADS, Category.STRAIGHT_FLUSH)   # written on in white


def plot_read_draws(path: str | Path = "reports/read_draws.png", *, rules: RuleSet | str = "morkpoker",
                    policy: str = "standard", trials: int = 200_000, seed: int = 1) -> Path:
    """Stacked bars: the final-hand distribution of an opponent for each draw count the rules allow.

    Each bar is ``read_draw`` for that count (exact where cheap, else sampled from the exact
    posterior with ``trials`` and ``seed``); the label under it gives how often such a player
    draws that many. Returns the path written.
    """


    rs = preset(rules) if isinstance(rules, str) else rules
    readings = []
    for d in range(rs.max_draw_cards + 1):
        try:
            readings.append(read_draw(d, policy=policy, rules=rs, trials=trials, seed=seed))
        except RequestError:     # a count this policy never draws
            continue
    return draw_read_draws(readings, path, subtitle=read_subtitle(policy, rs, trials, seed))


def read_subtitle(policy: str, rules: RuleSet, trials: int, seed: int) -> str:
    """The second line of the reading chart's title: what the readings assumed."""
    return _("policy '{policy}', rules {rules} (max draw {max_draw}); exact or Monte Carlo {trials} trials, "
             "seed {seed}").format(policy=policy, rules=rules.name, max_draw=rules.max_draw,
                                   trials=number(trials, grouped=True), seed=seed)


def draw_read_draws(readings: list[DrawReading], path: str | Path, subtitle: str) -> Path:
    """Draw readings already made (one per draw count) as the stacked bars of ``plot_read_draws``."""
    kinds = [c for c in Category if any(r.final.get(c.slug, 0) > 0 for r in readings)]
    fig = Figure(figsize=(9, 5.5))
    ax = fig.subplots()
    x = range(len(readings))
    bottom = [0.0] * len(readings)
    for kind in kinds:
        vals = [100 * r.final.get(kind.slug, 0.0) for r in readings]
        ax.bar(x, vals, bottom=bottom, color=_COLOURS[kind], edgecolor="white", linewidth=0.5, label=_(kind.label))
        for i, v in enumerate(vals):
            if v >= 4:
                ax.text(i, bottom[i] + v / 2, percent(v / 100, 0), ha="center", va="center", fontsize=8,
                        color="white" if kind in _DARK else "black")
        bottom = [b + v for b, v in zip(bottom, vals, strict=False)]
    ax.set_xticks(list(x), [_("drew {n}\n({share} of deals)").format(n=r.draw, share=percent(r.p_draw, 1))
                            for r in readings])
    ax.set_ylabel(_("final hand after the draw (%)"))
    ax.set_ylim(0, 100)
    ax.set_title(_("What an opponent ends with, by the number of cards drawn") + f"\n{subtitle}")
    ax.legend(title=_("final hand"), bbox_to_anchor=(1.01, 1), loc="upper left", frameon=False)
    fig.tight_layout()
    return save(fig, path, dpi=120)


if __name__ == "__main__":
    print(plot_read_draws())
