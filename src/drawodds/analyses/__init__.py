"""Analyses built on the core: game-theoretic solving of heads-up limit draw."""
