"""SEND + MORE = MONEY: a cryptarithm, one linear equation plus all-different letters."""

from __future__ import annotations

from ..core import CSP, AllDifferent, Sum


def send_more_money() -> CSP:
    """Letters are digits, all different, leading letters non-zero, and the sum holds.

    The column sum is written as one weighted `Sum`:
    1000 S + 91 E - 90 N + D - 9000 M - 900 O + 10 R - Y = 0.
    """
    csp = CSP("SEND+MORE=MONEY")
    letters = "SENDMORY"
    for letter in letters:
        csp.add_variable(letter, range(1, 10) if letter in "SM" else range(10))
    csp.add_constraint(AllDifferent(letters, name="letters differ"))
    weights = {"S": 1000, "E": 91, "N": -90, "D": 1, "M": -9000, "O": -900, "R": 10, "Y": -1}
    csp.add_constraint(Sum(weights, 0, weights=list(weights.values()), name="SEND+MORE=MONEY"))
    return csp
