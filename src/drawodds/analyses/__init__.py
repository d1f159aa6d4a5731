"""The questions drawodds answers, one module each: keep, read, openers, strategy, lessons, the guide."""
