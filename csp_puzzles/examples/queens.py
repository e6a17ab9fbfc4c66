"""N-queens: one variable per column holding its queen's row.

Every pair of columns is one binary constraint (different rows, different diagonals), so
forward checking and MAC have something to prune and the classic node counts show up.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import CSP, Predicate


def queens(n: int = 8) -> CSP:
    """Place `n` queens on an n x n board, no two attacking. Variable i = row of column i."""
    csp = CSP(f"{n}-queens")
    for column in range(n):
        csp.add_variable(column, range(n))
    for a in range(n):
        for b in range(a + 1, n):
            csp.add_constraint(Predicate(_no_attack(b - a), (a, b), name=f"queens {a} and {b}"))
    return csp


def _no_attack(distance: int) -> Callable[[int, int], bool]:
    def no_attack(row_a: int, row_b: int) -> bool:
        return row_a != row_b and row_a - row_b != distance and row_b - row_a != distance

    return no_attack
