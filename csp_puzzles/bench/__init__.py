"""Benchmarks: `csp-puzzles bench core|hashi|kakuro|towers|singles`.

Each module has a `main(argv)` that prints progress to stderr and a table to stdout.
Timings live here, never in the unit tests.
"""
