"""Samplers and simulations: dealing, draw policies, equity, reading draws, the rules engine."""
