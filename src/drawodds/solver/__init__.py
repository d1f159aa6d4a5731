"""The heads-up solver: abstraction, game tree, CFR, the solution and its store, and what is built on a
solution (summaries, solved ranges, the table player, best responses)."""
