"""Monte Carlo: dealing from the unseen cards, equity of every hold, and opponents' ranges."""
