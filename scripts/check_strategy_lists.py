"""Check every printed strategy list over every deal, and the dilemma hands against ``keep``.

    python scripts/check_strategy_lists.py                 # both parts (twenty minutes or more)
    python scripts/check_strategy_lists.py --lists         # the lists only
    python scripts/check_strategy_lists.py --dilemmas      # the hands only (reads the lists' cache)
    python scripts/check_strategy_lists.py --dilemmas --opponents 1 2   # at some table sizes
    python scripts/check_strategy_lists.py --lists --opponents 6 7      # the equity lists at 6 and 7 only

Lists: for every objective ``strategy`` prints (9/6 and 8/5 video poker, jacks, points,
flush-or-better, equity at 1 to 7 opponents without card removal and at 1 to 5 with it: one deck cannot
deal six opponents who may draw three) the list is built as
``strategy`` builds it, then replayed here over every deal class by its printed rule alone (the
first line some legal hold matches, the highest cards among that line's holds, then the lowest
mask), independently of the library's own replay: the average and the worst deal's loss must
agree with the list's ``loss`` and ``max_regret``, and the worst must be within the bound. Each
list's answers are stored in the cache, so ``strategy --hand`` with the same options is quick.

Dilemmas: each hand at 1 to 5 opponents, ``strategy --hand`` (the cached list, card removal
deciding close holds) against ``keep`` (100,000 deals): they agree when ``keep``'s equity of the
list's best hold is within two standard errors of ``keep``'s best.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from drawodds.analyses.condensed import StrategyReport, strategy_report, worst_bound  # noqa: E402
from drawodds.analyses.keep import keep  # noqa: E402
from drawodds.analyses.list_store import answers_of, answers_path, check_hand_cached, write_answers  # noqa: E402
from drawodds.analyses.strategy import default_rules  # noqa: E402
from drawodds.holds import HOLD_POSITIONS, N_HOLDS  # noqa: E402
from drawodds.patterns import hold_pattern_codes  # noqa: E402
from drawodds.solver.cache import store_in_cache  # noqa: E402

LISTS = [("vp96", None, True), ("vp:800/50/25/8/5/4/3/2/1", None, True), ("jacks", None, True),
         ("points", None, True), ("at_least:flush", None, True),
         *(("equity", n, removal) for removal in (False, True) for n in range(1, 8) if n <= 5 or not removal)]
DILEMMAS = ("2s 7h 8h 9h Th", "2h 7d 8d 9d Td", "2s 8h 9h Th Jh", "Ah Qh Jh Th 3c", "4c 5c 6c 7c Kd",
            "7s 7h 8s 9s Ts", "As Ad Kh Qc 4s", "3c 3d 3h Ad Kd",
            # beyond the ones above: royal draw or flush draw, pair or three to a royal, pair or
            # open straight-flush draw, the suited ace-king or a low straight-flush draw, kickers
            "Kh Qh Jh 9h 2c", "5s 5d Ah Kh Qh", "Js Jd Ts 9s 8s", "Ac Kc 4d 3d 2d", "Tc 9d 5d 3d 2c",
            "Ah Kd 8c 5s 2h", "9s 9d As 7h 3c", "6h 7h 8h 9s Kc", "Qs Js Ts 4s 4d")


def replay(report: StrategyReport) -> np.ndarray:
    """The hold a reader of the printed list keeps in each deal class, found line by line."""
    table, plan = report.table, report.condensed
    h = table.holds
    codes = hold_pattern_codes(h.deals, table.rules.joker, fine=True)
    ranks = np.where(h.deals.astype(np.int64) == 52, 13, h.deals.astype(np.int64) // 4)
    key = np.zeros((len(ranks), N_HOLDS), dtype=np.int64)
    for m in range(N_HOLDS):
        kept = np.sort(ranks[:, list(HOLD_POSITIONS[m])], axis=1)[:, ::-1]
        for j in range(kept.shape[1]):
            key[:, m] += (kept[:, j] + 1) * 16 ** (4 - j)
    chosen = np.full(len(ranks), -1)
    order = key * 64 - np.arange(N_HOLDS)
    for line in plan.line_codes:
        match = np.isin(codes, line) & h.legal & (chosen[:, None] < 0)
        pick = np.where(match, order, -1).argmax(axis=1)
        hit = match.any(axis=1)
        chosen[hit] = pick[hit]
    return chosen


def check_lists(sizes: list[int]) -> bool:
    print("| list | lines (short list) | average cost | worst deal's cost | bound | replayed: average, worst "
          "| worst deal |")
    print("|---|---|---|---|---|---|---|")
    fine = True
    for objective, opponents, removal in LISTS:
        if opponents is not None and opponents not in sizes:
            continue
        start = time.perf_counter()
        report = strategy_report(objective, opponents=opponents, card_removal=removal)
        plan, table = report.condensed, report.table
        chosen = replay(report)
        regret = table.holds.best_value - table.holds.values[np.arange(len(chosen)), chosen]
        average = float((regret * table.weights).sum() / table.deals)
        worst = float(regret.max())
        agree = abs(average - plan.loss) < 1e-12 and abs(worst - plan.max_regret) < 1e-12
        bound = worst_bound(report.objective)
        fine &= agree
        name = objective if opponents is None else (f"equity, {opponents} opp., "
                                                    f"{'card removal' if removal else 'no card removal'}")
        w = plan.worst
        deal = "" if w is None else (f"{' '.join(w.hand)}: keeps {' '.join(w.list_keep) or '-'}, "
                                     f"best {' '.join(w.best_keep)}")
        print(f"| {name} | {len(plan.lines)} ({plan.core_lines}) | {plan.loss:.6f} | {plan.max_regret:.4f} | "
              f"{bound:g}{'' if plan.max_regret <= bound else ' (over)'} | {average:.6f}, {worst:.4f}"
              f"{'' if agree else ' DIFFERS'} | {deal} |", flush=True)
        rules = default_rules(objective)
        who = report.opponents if objective == "equity" else None
        path = answers_path(objective, rules, opponents=who, policy="standard", lines=60, card_removal=removal,
                            seed=1)
        answers = answers_of(report)
        path.parent.mkdir(parents=True, exist_ok=True)
        store_in_cache(path, lambda tmp, a=answers: write_answers(a, tmp))
        print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    return fine


def check_dilemmas(table_sizes: list[int]) -> bool:
    print("| hand | opponents | strategy --hand keeps | model | keep's best | keep: behind the best (± se) | agree |")
    print("|---|---|---|---|---|---|---|")
    agree_all, count = 0, 0
    for hand in DILEMMAS:
        for n in table_sizes:
            check = check_hand_cached(hand, "equity", opponents=n)
            ranked = keep(hand, opponents=n, trials=100_000, seed=1, workers=1).to_dict()["holds"]
            mine = next(h for h in ranked if sorted(h["keep"]) == sorted(check.best_keep))
            ok = mine["equity_gap"] <= 2 * mine["equity_diff_se"] + 1e-12
            agree_all += ok
            count += 1
            print(f"| {hand} | {n} | {' '.join(check.best_keep) or '-'} | {check.model} | "
                  f"{' '.join(ranked[0]['keep']) or '-'} | {100 * mine['equity_gap']:.2f} ± "
                  f"{100 * mine['equity_diff_se']:.2f} pts | {'yes' if ok else 'NO'} |", flush=True)
    print(f"\n{agree_all} of {count} agree within two standard errors")
    return agree_all == count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", action="store_true")
    parser.add_argument("--dilemmas", action="store_true")
    parser.add_argument("--opponents", type=int, nargs="+",
                        help="the table sizes (opponents) of the equity lists (default 1 to 7) and of the dilemmas "
                             "(default 1 to 5)")
    args = parser.parse_args()
    both = not (args.lists or args.dilemmas)
    ok = True
    if args.lists or both:
        ok &= check_lists(args.opponents or list(range(1, 8)))
    if args.dilemmas or both:
        ok &= check_dilemmas(args.opponents or [1, 2, 3, 4, 5])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
