"""Other processes that keep every core busy while the notebooks run: the package's own
`csp_puzzles.bench.busy` (the playground's latency benchmark runs at a load made the same
way), named here as the tests have always imported it."""

from csp_puzzles.bench.busy import PER_CORE, SPIN, BusyCores, cores

__all__ = ["PER_CORE", "SPIN", "BusyCores", "cores"]
