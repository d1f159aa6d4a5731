"""`drawodds report`: the player's guide as Markdown, and the console summary of what was written.

``guide_markdown`` turns a ``Guide`` into reports/README.md, one function per section
(``SECTION_TEXT``); the charts it links to are named in ``FILES`` and drawn by
``drawodds.charts.report``. The text holds no time, host or worker count, so the same version
and seed give the same bytes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence

from drawodds.analyses.condensed import CondensedStrategy
from drawodds.analyses.lessons import TableLineResult
from drawodds.analyses.openers import TableOdds
from drawodds.analyses.read import DrawReading
from drawodds.analyses.report import (
    POINTS_OPPONENTS,
    POLICY,
    CheatSheet,
    Guide,
    KeepSection,
    Report,
)
from drawodds.i18n import N_, _, local_number, ngettext, number, percent, pgettext
from drawodds.kinds import FinalGroup
from drawodds.render.console import holding_words, pretty_hand, stdout
from drawodds.render.strategy import list_cost_sentences
from drawodds.rules import preset
from drawodds.sim.stats import Estimate

# Files of the guide beside README.md (the cheat sheets are named by CheatSheet.key).
GUIDE = "README.md"
HEATMAP = "strategy_heatmap.png"
DILEMMAS = "strategy_dilemmas.png"
READ_DRAWS = "read_draws.png"
PASSOUTS = "passout_by_table_size.png"
POT_AT_OPENING = "pot_at_opening.png"
POT_SIZES = (2, 4, 6)
STANDING_PAT = "standing_pat.md"
LAST_TRICK = "last_trick_vs_pair.png"

SECTION_TITLES = {          # shown through _()
    "keep": N_("1. What to keep"),
    "reading": N_("2. Reading draw counts"),
    "openers": N_("3. Jacks or Better: pass-outs and pot growth"),
    "pat": N_("4. Standing pat"),
    "points": N_("5. Poengpoker and Chicago: what to keep"),
}


# --- small formatting helpers --------------------------------------------------------------------

def _pct(p: float, digits: int = 1) -> str:
    return percent(p, digits)


def _pct_se(p: float, se: float | None, digits: int = 1) -> str:
    """``12.3% ± 0.4%``; without the ± when the figure is exact."""
    if not se:
        return _pct(p, digits)
    e = Estimate(p, se)
    return local_number(e.percent(e.visible_decimals(digits, scale=100)))   # the error shows at least one digit


def _num_se(x: float, se: float, digits: int = 2) -> str:
    return local_number(Estimate(x, se).text(digits))


def _count(n: int) -> str:
    """A count with its thousands grouped (``20,000``; ``20 000`` in Swedish)."""
    return number(n, grouped=True)


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], align: str = "") -> str:
    """A Markdown table; ``align`` gives 'l' or 'r' per column (default: first left, rest right)."""
    align = align or "l" + "r" * (len(head) - 1)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _anchor(title: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def _plan_table(plan: CondensedStrategy, wins: bool = False) -> str:
    """A list as a Markdown table; ``wins``: with the average share of the pot of each line's hands."""
    rows = []
    for i, line in enumerate(plan.lines, 1):
        row = [str(i), line.words + ("" if line.core else " *"), line.hold]
        if wins:
            row.append(_pct(plan.mean[i - 1]))
        rows.append((*row, _pct(line.share, 2)))
    head = ("#", _("your hand holds"), _("play"), *((_("wins"),) if wins else ()), _("share of deals"))
    return _table(head, rows, "rll" + "r" * (len(head) - 3))


def _folded(summary: str, body: str) -> str:
    return f"<details>\n<summary>{summary}</summary>\n\n{body}\n\n</details>"


def _title(key: str) -> str:
    return _(SECTION_TITLES[key])


# --- the sections ----------------------------------------------------------------------------------

def _intro(guide: Guide) -> str:
    quick = ("\n> " + _("**Quick run.** The simulated figures on this page come from a quick run "
                        "(`drawodds report --quick`) with far fewer deals than the full guide, so their standard "
                        "errors are larger; the exact figures are the same. Run `drawodds report` for the full "
                        "guide.") + "\n"
             if guide.quick else "")
    if guide.keep.classes < 1:
        quick += "\n> " + _("The strategy lists come from {share} of the deal classes only: a rough run for "
                            "testing.").format(share=_pct(guide.keep.classes, 0)) + "\n"
    toc = "\n".join(f"{i}. [{_(title).split('. ', 1)[1]}](#{_anchor(_(title))})"
                    for i, title in enumerate(SECTION_TITLES.values(), 1))
    heading = _("Five-card draw at the kitchen table: a player's guide")
    about = _("""This guide answers the questions that come up at a home game of five-card draw: which cards to
keep, what an opponent's draw tells you, how long a Jacks-or-Better pot waits before somebody can
open it, whether standing pat pays, and what to keep when the game is played for points
(Poengpoker and Chicago). Every number and every chart here was computed by drawodds
{version} from seed {seed}; `drawodds report` makes this page again, byte for byte.""").format(
        version=guide.version, seed=guide.seed)
    numbers = _("""**How to read the numbers.** A figure written like {example} comes from simulated deals: the
± is one standard error, and the true value lies within two of them about 19 times out of 20.
A figure without ± is exact: every possible deal was counted.""").format(
        example=local_number("12.3% ± 0.4%"))
    return f"""# {heading}

{about}
{quick}
{numbers}

{toc}"""


def _keep(guide: Guide) -> str:
    sec = guide.keep
    morkpoker = [s for s in sec.sheets if s.game == "Mørkpoker"]
    jacks = [s for s in sec.sheets if s.game != "Mørkpoker"]
    rows = [(s.title, _against_short(s), _pct(s.plan.optimum - s.plan.loss), _pct(s.value),
             _("[PNG]({key}.png) · [PDF]({key}.pdf)").format(key=s.key)) for s in sec.sheets]
    summary = _table((_("table"), _("you play against"), _("following the list"), _("best possible"),
                      _("printable sheet")), rows, "llrrl")
    example = morkpoker[min(2, len(morkpoker) - 1)]
    lists = "\n\n".join(_sheet_text(s) for s in morkpoker)
    dilemma_rows = []
    for d in sec.dilemmas:
        best = [max(values[j] for _label, values in d.options) for j in range(len(d.opponents))]
        for k, (label, values) in enumerate(d.options):
            cells = [f"**{_pct(v)}**" if v == best[j] else _pct(v) for j, v in enumerate(values)]
            dilemma_rows.append((f"{_(d.title)} {d.hand}" if k == 0 else "", _(label), *cells))
    opponents = sec.dilemmas[0].opponents if sec.dilemmas else ()
    dilemmas = _table((_("hand"), _("keep"), *(_("{n} opp.").format(n=n) for n in opponents)), dilemma_rows,
                      "ll" + "r" * len(opponents))
    return "\n\n".join([
        "## " + _title("keep"),
        _("""Before the draw you choose which cards to keep. The lists below give the best choice for every
hand you can be dealt, boiled down to a few dozen lines you can learn. They come from an exact
table: for each of the {hands} possible hands, the share of the pot that each of its 32 ways of
keeping cards wins at the showdown, against opponents who draw like most players do (the
`{policy}` draw policy: `drawodds policies {policy}` shows it). The list is then built line by
line from that table, and what it gives up against the table is measured over every hand.""").format(
            hands=_count(2_598_960), policy=POLICY),
        _("""**At the table.** Go down the list for your table size and stop at the first line your hand
matches: keep those cards and draw the rest. When several cards fit the line (two possible
kickers, say), keep the highest. "High cards" are J, Q, K and A. Print the sheet for your table:
one A4 page each."""),
        summary,
        _(""""Following the list" and "best possible" are the average share of the pot at the showdown when
nobody folds: betting is left out (sections 2 and 4 show what the draw counts and the betting
change). "Wins" is the average share of the pot of the hands each line decides: when a call
costs a larger share of the final pot than that, the line says fold (calling 1 into a pot of 3
costs a quarter of the final pot of 4)."""),
        _("""**Card removal.** The exact table deals the opponents as if your cards did not matter to theirs.
That moves the gap between two close holds by up to two or three percentage points of the pot, enough to
reverse the choice between a pair and a pair with an ace or king kicker. So wherever two holds of
a hand are within {close} of the pot, the choice between them is decided by a
simulation that deals the opponents from the cards you do not hold, the one `drawodds keep`
runs ({removal}). Everywhere else the exact table decides.""").format(
            close=_close(sec), removal=_removal_sentence(sec)),
        _("The sheet for a table of {players}:").format(players=example.players),
        "![{alt}]({key}.png)".format(
            alt=_("The printable sheet for Mørkpoker with {players} players").format(players=example.players),
            key=example.key),
        "### " + _("The lists, table by table"),
        lists,
        "### " + _("What changes as the table fills up"),
        _("""With more opponents a hand has to end stronger to win. A small pair loses value fast, while a
draw to a flush or a straight, which ends strong or not at all, holds its value better: see the
first dilemma below. The chart shows, for each kind of starting hand, the most common best play
at each number of opponents (the number is the share of such hands where it is best)."""),
        "![{alt}]({file})".format(alt=_("Best hold by starting hand and number of opponents"), file=HEATMAP),
        _("""Classic dilemmas, with the share of the pot of each choice, simulated with the opponents dealt
from the cards you do not hold ({trials} deals per table size, every choice on the
same deals, as `drawodds keep` deals them); the best choice at each table size is in bold:""").format(
            trials=_dilemma_trials(guide)),
        dilemmas,
        "![{alt}]({file})".format(alt=_("Classic dilemmas by number of opponents"), file=DILEMMAS),
        "### " + _("Jacks or Better"),
        _("""In Jacks or Better (Jackpott) nobody may open the betting without at least a pair of jacks. When
you call an opened pot, you are up against a hand that held jacks or better before the draw, so
the best play changes: a small pair is usually behind already, so draws to a flush or a straight
move up the list. This list is the best play heads-up against such an opener. When you opened
yourself, the Mørkpoker list for your table size is the closer guide, since the callers may hold
anything. Against an opener many hands win little: the "wins" column says what each line's hands
are worth, and a line worth less than the call's share of the final pot says fold rather than
draw (with nothing at all, the last line, fold to any bet)."""),
        _sheet_text(jacks[0]) if jacks else "",
    ])


def _close(sec: KeepSection) -> str:
    """How close two holds must be for card removal to decide between them, in words."""
    mork = {s.removal.close for s in sec.sheets if s.removal is not None and s.game == "Mørkpoker"}
    opener = {s.removal.close for s in sec.sheets if s.removal is not None and s.game != "Mørkpoker"}
    said = _or([_pct(c) for c in sorted(mork)]) or _pct(0.0, 0)
    if opener and opener != mork:
        said += " " + _("({shares} against the Jacks-or-Better opener, where it moves more)").format(
            shares=_or([_pct(c) for c in sorted(opener)]))
    return said


def _or(items: Sequence[str]) -> str:
    """``a or b or c`` in the reader's language."""
    return _(" or ").join(items)


def _and(items: Sequence[str]) -> str:
    """``a, b and c`` in the reader's language."""
    if len(items) < 2:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _removal_sentence(sec: KeepSection) -> str:
    """How many hands the card-removal simulation ran, and what it changed at each table."""
    fixed = [s for s in sec.sheets if s.removal is not None]
    if not fixed:
        return _("not run in this guide")
    changed = [(_("{share} of the deals at {players} players") if s.game == "Mørkpoker"
                else _("{share} of the deals against the Jacks-or-Better opener")).format(
                    share=_pct(s.removal.share_changed), players=s.players)
               for s in fixed if s.removal is not None]
    first = fixed[0].removal
    assert first is not None
    return _("{hands} hands simulated, {trials} deals each, pooled over the hands whose two holds are the same "
             "two lines of the list; it changed the best hold of {changed}").format(
        hands=_count(sum(s.removal.simulated for s in fixed if s.removal is not None)),
        trials=_count(first.trials), changed=_and(changed))


def _dilemma_trials(guide: Guide) -> str:
    return _count(guide.budget.dilemma_trials)


def _against_short(sheet: CheatSheet) -> str:
    if sheet.game != "Mørkpoker":
        return _("the opener (jacks or better)")
    return ngettext("{n} opponent", "{n} opponents", sheet.opponents).format(n=sheet.opponents)


def _sheet_text(sheet: CheatSheet) -> str:
    plan = sheet.plan
    text = _("""**{title}** (against {against}): [printable sheet, PNG]({key}.png) ·
[PDF]({key}.pdf). Following the list wins {wins} of the pot on
average; the best possible is {best}.""").format(
        title=sheet.title, against=sheet.against_words, key=sheet.key, wins=_pct(plan.optimum - plan.loss, 2),
        best=_pct(sheet.value, 2))
    text += " " + " ".join(list_cost_sentences(plan))
    summary = _("The list for {title} ({lines} lines)").format(title=sheet.title, lines=len(plan.lines))
    return f"{text}\n\n{_folded(summary, _plan_table(plan, wins=True))}"


def cheatsheet_footer(sheet: CheatSheet, guide: Guide) -> list[str]:
    """The footer lines of a printed sheet: what the list is worth and what it assumed."""
    plan = sheet.plan
    fix = sheet.removal
    removal = (_("Opponents are dealt from the cards you do not hold where two holds are within {close} "
                 "of the pot (simulated, as drawodds keep does); elsewhere their cards are treated as independent "
                 "of yours.").format(close=_pct(fix.close))
               if fix is not None else _("Their cards are treated as independent of yours."))
    return [_("Following this list wins {wins} of the pot on average at the showdown; "
              "the best possible is {best}.").format(wins=_pct(plan.optimum - plan.loss, 2), best=_pct(sheet.value, 2)),
            *list_cost_sentences(plan),
            _("Shares of the pot when nobody folds. The opponents draw by the '{policy}' policy (drawodds policies "
              "{policy}).").format(policy=POLICY),
            removal,
            _("'wins': the line's average share of the pot: fold when a call costs a larger share of the final pot. "
              "'deals': how often the line decides a hand."),
            _("drawodds {version}, seed {seed} · made by drawodds report").format(version=guide.version,
                                                                                 seed=guide.seed)]


def _reading(guide: Guide) -> str:
    sec = guide.reading
    return "\n\n".join([
        "## " + _title("reading"),
        _("""How many cards a player draws is the one thing you learn about their hand before the showdown.
The chart shows, for each number of cards drawn, what a player who draws like most players (the
`{policy}` policy) holds after the draw. Use it when you decide whether to bet or call after the
draw: compare your hand with the bar of the player's draw count.""").format(policy=POLICY),
        "![{alt}]({file})".format(alt=_("What an opponent ends with, by the number of cards drawn"), file=READ_DRAWS),
        _("""The same in numbers. "How often" is the share of all deals in which such a player draws that
many; "what they held" is the most likely holdings before the draw; the rest is what they end
with."""),
        _reading_table(sec.plain),
        _("""**At the table.** {summary} A player who stood pat was dealt a made hand,
unless they bluff, which this policy never does (`drawodds read 0 --snow 0.05` shows what a
little bluffing does to the picture).""").format(summary=_reading_summary(sec.plain)),
        "### " + _("The opener in Jacks or Better"),
        _("""In Jacks or Better the opener held at least a pair of jacks before the draw, which narrows the
reading:"""),
        _reading_table(sec.opener),
        _("""`drawodds read N` gives any of these readings, and with `--hand` your own equity for each way of
keeping your cards."""),
    ])


def _reading_summary(readings: Sequence[DrawReading]) -> str:
    """What a draw of three and of one most often means, in numbers."""
    said = []
    for r in readings:
        if r.draw not in (1, 3):
            continue
        top = max(r.holding.items(), key=lambda kv: kv[1])
        better = sum(p for name, p in r.final.items() if name not in ("high_card", "one_pair"))
        said.append((_("A player who drew three held {holding} {held} of the time before the draw and ends with "
                       "two pair or better {better} of the time.") if r.draw == 3 else
                     _("A player who drew one held {holding} {held} of the time before the draw and ends with "
                       "two pair or better {better} of the time.")).format(
            holding=holding_words(top[0]), held=_pct(top[1], 0), better=_pct(better, 0)))
    return " ".join(said)


FINAL_GROUPS = tuple((g.label, tuple(c.slug for c in g.categories)) for g in FinalGroup)   # (column, categories)


def _reading_table(readings: Sequence[DrawReading]) -> str:
    rows = []
    for r in readings:
        held = sorted(r.holding.items(), key=lambda kv: -kv[1])[:3]
        held_text = ", ".join(f"{holding_words(name)} {_pct(p, 0)}" for name, p in held)
        cells = []
        for _column, names in FINAL_GROUPS:
            p = sum(r.final.get(n, 0.0) for n in names)
            se = math.sqrt(max(p * (1 - p), 0.0) / r.trials) if r.trials else None
            cells.append(_pct_se(p, se))
        rows.append((f"{r.draw}", _pct(r.p_draw), held_text, *cells))
    return _table((_("drew"), _("how often"), _("what they held"), *(_(name) for name, _names in FINAL_GROUPS)),
                  rows, "rrl" + "r" * len(FINAL_GROUPS))


def _openers(guide: Guide) -> str:
    sec = guide.openers
    na = _("n/a")
    pass_rows = []
    for r in sec.passouts.rows:
        mc = r.p_nobody_opens_mc
        nobody = _pct(r.p_nobody_opens, 2) if r.p_nobody_opens is not None else (
            _pct_se(mc.value, mc.se, 2) if mc is not None else na)
        pass_rows.append((str(r.n), nobody, _pct(r.p_nobody_opens_independent, 2),
                          number(r.expected_deals_per_opened_pot, 2) if r.expected_deals_per_opened_pot else na,
                          number(r.expected_pot, 1) if r.expected_pot else na))
    passouts = _table((_("players"), _("nobody can open"), _("if hands were dealt from separate decks"),
                       _("deals per opened pot"), _("pot when it opens (antes)")), pass_rows)
    wait_rows = []
    for w in sec.passouts.waits():
        if w.players not in POT_SIZES + (3, 5):
            continue
        cells = [f"{_pct(p)} ({pot})" for p, pot in zip(w.probabilities, w.pots, strict=True)]
        wait_rows.append((str(w.players), *cells))
    heads = (_("opens at once"), _("after 1 pass-out"),
             *(_("after {k} pass-outs").format(k=k) for k in range(2, 5)), _("after 5 or more"))
    waits = _table((_("players"), *heads), wait_rows)
    play_rows = []
    for r in sec.played.rows:
        d = r.to_dict()
        play_rows.append((str(r.n), *(_share(d, key) for key in ("passed_out", "uncontested", "showdown")),
                          _chips(d, "average_pot")))
    played = _table((_("players"), _("passed out"), _("won without a showdown"), _("went to a showdown"),
                     _("average pot won")), play_rows)
    ante = sec.passouts.ante
    return "\n\n".join([
        "## " + _title("openers"),
        _("""In Jacks or Better nobody may open without at least a pair of jacks. When nobody can, the cards
are thrown in, everybody antes again and the pot grows. How often does that happen, and how big
is the pot when it finally opens? The table counts every possible deal exactly (hands at one
table come from one deck, so they are not independent; the column beside shows the usual
shortcut that treats them as if they were). The pot counts the antes only, {ante} chip per player
per deal, and assumes that whoever can open does.""").format(ante=ante),
        passouts,
        _("**At the table.** {summary}").format(summary=_openers_summary(sec.passouts.rows)),
        "![{alt}]({file})".format(alt=_("Deals passed out by table size"), file=PASSOUTS),
        _("How many deals a pot waits, with the pot when it finally opens in brackets (antes only):"),
        waits,
        "![{alt}]({file})".format(alt=_("The pot when it opens"), file=POT_AT_OPENING),
        "### " + _("Opened pots, played out"),
        _("""How opened pots end when every player bets by simple rules (open and call with good hands, raise
with very good ones: the `rule` players of `drawodds simulate`), {deals} deals per
table size, Jackpott rules ({stakes}).
"Passed out" is a share of all deals; the other two are shares of the opened pots.""").format(
            deals=_count(sec.played.deals), stakes=_jackpot_stakes(sec.played.ante)),
        played,
        _("`drawodds openers` gives these figures for any table size, ante and house limit on antes."),
    ])


def _openers_summary(rows: Sequence[TableOdds]) -> str:
    """The pass-out figures of the smallest, a middle and the largest table, in a sentence each."""
    exact = [r for r in rows if r.p_nobody_opens is not None and r.expected_deals_per_opened_pot is not None]
    if not exact:
        return ""
    picks = {r.n: r for r in (exact[0], *(r for r in exact if r.n == 4), exact[-1])}
    said = []
    for r in picks.values():
        figures = {"players": r.n, "share": _pct(r.p_nobody_opens or 0.0),
                   "deals": number(r.expected_deals_per_opened_pot or 0, 2), "pot": number(r.expected_pot or 0, 1)}
        said.append((_("Heads-up a deal is passed out {share} of the time, so a pot waits {deals} deals on average "
                       "and holds {pot} chips of antes when it opens.") if r.n == 2 else
                     _("With {players} players a deal is passed out {share} of the time, so a pot waits {deals} "
                       "deals on average and holds {pot} chips of antes when it opens.")).format(**figures))
    return " ".join(said) + " " + _("The fewer the players, the longer the pot waits, and the more antes each "
                                    "player has put in by the time somebody opens.")


def _jackpot_stakes(ante: int) -> str:
    rules = preset("jackpot")
    return _("ante {ante} per player, bets {small}/{big}").format(ante=ante, small=rules.small_bet,
                                                                 big=rules.big_bet)


def _share(d: dict[str, object], key: str) -> str:
    value, se = d.get(key), d.get(f"{key}_se")
    if not isinstance(value, float | int):
        return _("n/a")
    return _pct_se(float(value), float(se) if isinstance(se, float | int) else None)


def _chips(d: dict[str, object], key: str) -> str:
    value, se = d.get(key), d.get(f"{key}_se")
    if not isinstance(value, float | int) or not isinstance(se, float | int):
        return _("n/a")
    return _("{chips} chips").format(chips=_num_se(float(value), float(se), 1))


def _pat(guide: Guide) -> str:
    lesson = guide.pat.to_markdown()
    body = lesson.split("\n", 1)[1].strip()              # drop the lesson's own title
    body = re.sub(r"^## ", "### ", body, flags=re.MULTILINE)
    return "\n\n".join([
        "## " + _title("pat"),
        _("""Is standing pat with two pair, instead of drawing one card, ever the better play? The lesson
below plays it out. Use it when you hold two pair against a single player who drew three: the
card itself is worth little, so what matters is how the other player reads your draw. The same
lesson is in [{file}]({file}) (`drawodds lesson pat`).""").format(file=STANDING_PAT),
        body,
        _table_pat(guide),
    ])


def _table_pat(guide: Guide) -> str:
    """Three at the table: what changes from heads-up, in plain words, and the lesson's figures."""
    lesson = guide.table_pat
    if lesson is None:
        return ""
    body = lesson.figures_markdown()
    gain = {(r.hand, r.line): r for r in lesson.lines}
    pat, snow = gain[("two pair", "stand pat")], gain[("nothing", "snow")]
    value = lesson.solution.get("value") or [float("nan")] * lesson.players
    costs = all(r.gain_vs_own + 2 * r.gain_vs_own_se < 0 for r in (pat, snow))

    def change(r: TableLineResult) -> str:          # a cost when both lines cost, else a signed change
        return local_number(Estimate(-r.gain_vs_own if costs else r.gain_vs_own, r.gain_vs_own_se).text(
            2, signed=not costs))

    def share(hand: str) -> str:
        return local_number(Estimate(lesson.pat_share[hand], lesson.pat_share_se[hand]).percent(1))

    figures = {"pat": change(pat), "snow": change(snow), "pat_share": share("two pair"), "snow_share": share("nothing"),
               "dealer": local_number(format(value[-1], ".3f")), "first": local_number(format(-value[0], ".3f"))}
    if costs:
        said = _("""With two opponents the pat loses what it earned heads-up. Against one player who reads draw
counts, standing pat with two pair earned chips; against two players of the three-handed solution,
who read the whole betting line, it costs {pat} antes a deal where both are still in at the draw,
and snowing with any no-pair hand costs {snow}.""")
    else:
        said = _("""With two opponents of the three-handed solution, standing pat with two pair instead of the
solution's own draw changes our result by {pat} antes a deal where both are still in at the draw,
and snowing with any no-pair hand by {snow}.""")
    more = _("""The solution itself stands pat with two pair {pat_share} of the time and snows with
{snow_share} of its no-pair hands, the few it picks. Seats matter more at three: in the solution's
own game the dealer, who acts and draws last, wins {dealer} antes a deal and the first seat left of
the dealer loses {first}.""")
    words = said.format(**figures) + "\n" + more.format(**figures)
    return "\n\n".join(["### " + _("Three at the table"), words, body])


def _points(guide: Guide) -> str:
    sec = guide.points
    ace_rows = [(str(int(r["players"])), _pct_se(r["ace_beats_pair"], r["ace_beats_pair_se"]),
                 _pct_se(r["pair_beats_ace"], r["pair_beats_ace_se"]),
                 _num_se(r["points_pair"], r["points_pair_se"]), _num_se(r["points_ace"], r["points_ace_se"]),
                 _num_se(r["points_pair_ace"], r["points_pair_ace_se"]),
                 _num_se(r["ace_minus_pair"], r["ace_minus_pair_se"])) for r in sec.ace_vs_pair]
    ace = _table((_("players"), _("the ace scores more"), _("the pair scores more"), _("points: pair"),
                  _("points: ace"), _("points: pair + ace"), _("ace minus pair")), ace_rows)
    example_rows = []
    for ex in sec.examples:
        for i, h in enumerate(ex.holds):
            example_rows.append((_(POINTS_GAMES.get(ex.game, ex.game.capitalize())) if i == 0 else "",
                                 pretty_hand(ex.hand) if i == 0 else "",
                                 pretty_hand(h.keep) if h.keep else _("nothing"), str(h.draw),
                                 _num_se(h.points, h.points_se),
                                 f"{number(h.hand_points, 2)} + {number(h.trick_points, 2)}",
                                 _("best") if i == 0 else _num_se(h.behind, h.behind_se)))
    examples = _table((_("game"), _("hand"), _("keep"), pgettext("column", "draw"), _("points ± se"), _("hand + trick"),
                       _("behind the best")), example_rows, "lllrrrr")
    trials = sec.examples[0].trials if sec.examples else 0
    return "\n\n".join([
        "## " + _title("points"),
        _("""Poengpoker and Chicago are played for points, without betting. After the exchange only the single
best hand at the table scores (straight flush 8, four of a kind 7, full house 6, flush 5, straight
4, three of a kind 3, two pair 2, one pair 1), and then five tricks are played in which only the
last one scores: 2 points in Poengpoker, 5 in Chicago. So a card that wins the last trick, most
often an ace, can be worth keeping even when it does nothing for the hand."""),
        "### " + _("The hand points alone"),
        _("""If only your hand counted, this would be the best list (any number of cards may be exchanged).
Following it scores {points} table points a deal for your own hand, against
{best} for the best possible play. It leaves out two things: only the best hand at the table
scores, and the last trick counts too; the rest of this section measures both.""").format(
            points=number(sec.plan.optimum - sec.plan.loss, 3), best=number(sec.value, 3))
        + " " + " ".join(list_cost_sentences(sec.plan)),
        _folded(_("The hand-points list ({lines} lines)").format(lines=len(sec.plan.lines)), _plan_table(sec.plan)),
        "### " + _("The lone ace or the small pair"),
        _("""Dealt a small pair (deuces to sevens) and an ace, should you keep the pair, the ace alone for the
last trick, or both? Each row plays {trials} such hands three ways on the same deals
(Poengpoker, opponents exchange like most players, everyone plays the tricks sensibly). The
points are those of a whole deal: the best hand and the last trick.""").format(trials=_count(sec.ace_trials)),
        "![{alt}]({file})".format(alt=_("Keeping the ace for the last trick or the small pair"), file=LAST_TRICK),
        ace,
        _("**At the table.** {summary}").format(summary=_ace_summary(sec.ace_vs_pair)),
        "### " + _("Example hands"),
        _("""The best three ways to keep some hands at a table of {players}, with the points of the whole deal
(hand + last trick) and how far each is behind the best ({trials} simulated deals per hand; every
choice meets the same deals, so the gaps are sharper than the values). In Chicago the exchange is
repeated three times and the last trick is worth 5.""").format(players=POINTS_OPPONENTS + 1,
                                                               trials=_count(trials)),
        examples,
        _("`drawodds keep HAND --rules poengpoker` (or `--rules chicago`) ranks every way to keep any hand."),
    ])


POINTS_GAMES = {"poengpoker": N_("Poengpoker"), "chicago": N_("Chicago")}   # the example hands' games, by preset
KEEPS = {"pair": N_("the pair alone"), "ace": N_("the ace alone"), "pair_ace": N_("the pair and the ace")}


def _ace_summary(rows: Sequence[dict[str, float]]) -> str:
    """What the lone-ace table says, decided by the numbers (two standard errors) rather than assumed:
    which of the three keeps scores most, then the ace against the pair."""
    best = [max(KEEPS, key=lambda k: r[f"points_{k}"]) for r in rows]
    sizes = [str(int(r["players"])) for r in rows]
    if len(set(best)) == 1:
        said = _("Keep {keep}: it scores most at every table size").format(keep=_(KEEPS[best[0]]))
    else:
        said = _("The keep that scores most depends on the table: {keeps}").format(keeps=", ".join(
            _("{keep} at {players} players").format(keep=_(KEEPS[b]), players=p)
            for b, p in zip(best, sizes, strict=True)))
    leads, clear = [], []
    for r, b in zip(rows, best, strict=True):
        second = max((k for k in KEEPS if k != b), key=lambda k: r[f"points_{k}"])
        lead = r[f"points_{b}"] - r[f"points_{second}"]
        leads.append(lead)
        clear.append(lead > 2 * math.hypot(r[f"points_{b}_se"], r[f"points_{second}_se"]))
    lead_words = {"low": number(min(leads), 2), "high": number(max(leads), 2)}
    said += (_(", {low} to {high} points a deal ahead of the next best keep.") if all(clear) else
             _(", {low} to {high} points a deal ahead of the next best keep (at some table sizes within the noise "
               "of this run).")).format(**lead_words)
    ahead = [str(int(r["players"])) for r in rows if r["ace_minus_pair"] > 2 * r["ace_minus_pair_se"]]
    behind = [str(int(r["players"])) for r in rows if r["ace_minus_pair"] < -2 * r["ace_minus_pair_se"]]
    if len(ahead) == len(rows):
        said += " " + _("Of the two alone, the ace outscores the small pair at every table size.")
    elif ahead:
        said += " " + _("Of the two alone, the ace outscores the small pair clearly at {sizes} players.").format(
            sizes=", ".join(ahead))
    if behind:
        said += " " + _("The pair alone does better than the ace alone at {sizes} players.").format(
            sizes=", ".join(behind))
    return said


def _about(guide: Guide, files: Sequence[str]) -> str:
    b = guide.budget
    listing = "\n".join(f"- [{name}]({name})" for name in files if name != GUIDE)
    made = _("""Made by `{command}` (drawodds {version}, seed {seed}).
The folder holds nothing else: running the command again with the same version and seed writes the
same files. Simulation sizes of this run: {read} sampled hands per draw reading where
not exact, {play} Jackpott deals per table size, {pat} two-pair deals per line in the
standing-pat lesson, {ace} hands per table size for the lone ace, {example} deals per
example hand. Everything else is exact.""").format(
        command="drawodds report" + (" --quick" if guide.quick else ""), version=guide.version, seed=guide.seed,
        read=_count(b.read_trials), play=_count(b.play_deals), pat=_count(b.pat_deals), ace=_count(b.ace_trials),
        example=_count(b.example_trials))
    return "## {heading}\n\n{made}\n\n{listing}\n".format(heading=_("About these numbers"), made=made,
                                                         listing=listing)


SECTION_TEXT: dict[str, Callable[[Guide], str]] = {
    "keep": _keep,
    "reading": _reading,
    "openers": _openers,
    "pat": _pat,
    "points": _points,
}


def guide_files(guide: Guide) -> list[str]:
    """Every file of the guide's folder, README.md included, sorted."""
    sheets = [s.key + ext for s in guide.keep.sheets for ext in (".png", ".pdf")]
    return sorted({GUIDE, STANDING_PAT, HEATMAP, DILEMMAS, READ_DRAWS, PASSOUTS, POT_AT_OPENING, LAST_TRICK, *sheets})


def guide_markdown(guide: Guide, files: Sequence[str]) -> str:
    """The guide's README.md: the intro, every section in order, and the list of ``files``."""
    parts = [_intro(guide), *(SECTION_TEXT[name](guide) for name in guide.sections), _about(guide, files)]
    return "\n\n".join(p.strip() for p in parts) + "\n"


# --- the console ---------------------------------------------------------------------------------

def render_report(report: Report) -> None:
    """What was written, one file a line, and where to start reading."""
    console = stdout()
    folder = report.out_dir.rstrip("/")
    for name in report.files:
        console.print(_("wrote {path}").format(path=f"{folder}/{name}"))
    start = (_("The quick guide starts at {path} ({sections} sections, seed {seed}).") if report.quick else
             _("The guide starts at {path} ({sections} sections, seed {seed})."))
    console.print(start.format(path=f"{folder}/{GUIDE}", sections=len(report.sections), seed=report.seed))

