"""Benchmarks: `make bench` runs each module's main() and prints figures with peer ratios."""
