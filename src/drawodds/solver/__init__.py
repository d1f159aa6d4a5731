"""The heads-up solver: abstraction, game tree, CFR, solution, store, and what is built on a solution."""
