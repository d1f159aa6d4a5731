"""The points games Poengpoker and Chicago: tricks, and whole games played to a target score."""
