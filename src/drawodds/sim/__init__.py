"""Simulation: draw policies, sampling, reading draw counts."""
