"""The solver's settings in one object: bucket budgets, field rounds and stopping point, which also name
the cache files (with the game's options and the store's format)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from drawodds.rules import RuleSet

ONE_DECK_DEALS = 200_000    # deals of a solution's one-deck check (``playout.one_deck``)
STORE_FORMAT = 6            # the store's file format: bump when a stored layout or the abstraction changes

# The options that shape the heads-up game the solver plays; the table size, stacks and session
# length do not, so rule sets that differ only there share one stored solution.
GAME_OPTIONS = ("game", "joker", "draws", "blinds", "ante", "small_bet", "big_bet", "max_raises", "opener",
                "first_after_draw", "all_check_redeal", "max_draw")


def settings_key(rules: RuleSet, **settings: object) -> str:
    """A short stable name for a rule set and solver settings (file names in the cache)."""
    game = {k: v for k, v in rules.to_dict().items() if k in GAME_OPTIONS}
    text = json.dumps({"format": STORE_FORMAT, "rules": game, **settings}, sort_keys=True)
    return f"{rules.name}-{hashlib.sha256(text.encode()).hexdigest()[:16]}"


@dataclass(frozen=True)
class SolverSettings:
    """What a solve of one game is asked for: the pre-draw and final bucket budgets, the field's
    fixed-point rounds, and the exploitability (antes per deal, abstract game) where CFR stops.
    Equal settings make the same solve, so they name its files in the cache (``key``)."""

    pre_buckets: int = 4096
    final_buckets: int = 512
    rounds: int = 2
    exploitability: float = 0.0002

    @property
    def abstraction(self) -> tuple[int, int, int]:
        """The part that shapes the abstraction: (pre-draw buckets, final buckets, field rounds)."""
        return (self.pre_buckets, self.final_buckets, self.rounds)

    def key(self, rules: RuleSet, solution: bool = True) -> str:
        """The cache name of the solution (or, ``solution=False``, of the abstraction) for ``rules``."""
        extra: dict[str, object] = {"exploitability": self.exploitability} if solution else {}
        return settings_key(rules, pre=self.pre_buckets, final=self.final_buckets, rounds=self.rounds, **extra)


DEFAULT_SETTINGS = SolverSettings()      # the default solve: the cached equilibrium every tool reads
DEFAULT_EXPLOITABILITY = DEFAULT_SETTINGS.exploitability   # the cached equilibrium's stopping point
