"""N-queens solution counts under every inference and order, and what each inference saves."""

from __future__ import annotations

import pytest

from csp_puzzles import count_solutions
from csp_puzzles.core import count
from csp_puzzles.examples import queens

KNOWN_COUNTS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92}
INFERENCES = ("none", "fc", "mac")
VAR_ORDERS = ("input", "mrv", "mrv-degree")
VAL_ORDERS = ("input", "lcv")


@pytest.mark.parametrize("inference", INFERENCES)
@pytest.mark.parametrize("var_order", VAR_ORDERS)
@pytest.mark.parametrize("val_order", VAL_ORDERS)
def test_queens_counts_every_strategy(inference, var_order, val_order):
    for n, expected in KNOWN_COUNTS.items():
        found = count_solutions(queens(n), inference=inference, var_order=var_order,
                                val_order=val_order)
        assert found == expected, f"{n}-queens"


@pytest.mark.parametrize("var_order", VAR_ORDERS)
def test_nodes_strictly_decrease_from_none_to_fc_to_mac(var_order):
    nodes = {inf: count(queens(8), inference=inf, var_order=var_order).stats.nodes
             for inf in INFERENCES}
    assert nodes["none"] > nodes["fc"] > nodes["mac"], nodes


def test_mac_fails_branches_that_fc_explores():
    """A MAC that never fails a branch (aima-python's bug) would show no fewer backtracks."""
    fc = count(queens(8), inference="fc", var_order="input").stats
    mac = count(queens(8), inference="mac", var_order="input").stats
    assert mac.backtracks < fc.backtracks
    assert mac.prunings > 0


def test_counting_stops_at_the_limit():
    assert count_solutions(queens(8), limit=5) == 5
    result = count(queens(6), limit=None, keep=True)
    assert result.count == 4 and result.complete
    for solution in result.solutions:
        rows = [solution[c] for c in range(6)]
        assert len(set(rows)) == 6
        assert all(abs(rows[a] - rows[b]) != b - a for a in range(6) for b in range(a + 1, 6))
