"""The trainer: deals hands, grades holds and draw readings, explains each grade, remembers the mistakes."""
