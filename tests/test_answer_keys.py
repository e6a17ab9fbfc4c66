"""The numbers the answer keys of the notebooks state, recomputed.

An answer key is Markdown in the instructor version of a notebook, so nbval never runs it;
these tests hold each figure it quotes to the library as it is now. The slowest figures
(20-queens in input order, SEND + MORE = MONEY without inference) are left to the notebooks'
own readers.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

from csp_puzzles import hashi, kakuro, singles, solve, towers
from csp_puzzles.core import Predicate, iter_solutions
from csp_puzzles.examples import map_colouring, queens, send_more_money, sudoku
from csp_puzzles.kakuro.combinations import combinations, is_magic

DATA = Path(__file__).resolve().parent.parent / "data"
KAKURO = """
6 6
-    8,   34,  -    4,   9,
,7   0    0    14,12 0  0
,22  0    0    0    0    -
-    15,11 0   0    13,  -
,22  0    0    0    0    8,
,16  0    0    ,15  0    0
"""


def test_00_an_eighth_region_needs_a_fourth_colour():
    for colours, status in ((("r", "g", "b"), "unsatisfiable"), (("r", "g", "b", "y"), "solved")):
        csp = map_colouring(colours=colours)
        csp.add_variable("X", list(colours))
        for region in ("WA", "NT", "SA"):
            csp.add_constraint(Predicate(lambda a, b: a != b, (region, "X")))
        result = solve(csp, inference="fc", var_order="mrv")
        assert result.status == status
    assert result.stats.nodes == 8


def test_00_send_more_money_nodes():
    assert solve(send_more_money(), inference="fc").stats.nodes == 19
    assert solve(send_more_money(), inference="mac").stats.nodes == 2
    limited = solve(send_more_money(), inference="none", max_nodes=2_000)
    assert limited.status == "limit"


def test_01_queens_counts_and_mrv_under_mac():
    counts = [solve(queens(14), inference=i, var_order="input").stats.nodes
              for i in ("none", "fc", "mac")]
    assert counts == [26495, 1484, 304]
    assert solve(queens(8), inference="mac", var_order="mrv").stats.nodes == \
        solve(queens(8), inference="mac", var_order="input").stats.nodes == 15

    def middle_first(state, var):
        n = len(state.csp.variables)
        return sorted(state.domains[var], key=lambda row: abs(row - (n - 1) / 2))

    nodes = {name: solve(queens(n), inference="fc", var_order="input", val_order=order)
             .stats.nodes for n in (8, 20) for name, order in
             ((f"middle {n}", middle_first), (f"lcv {n}", "lcv"))}
    assert nodes == {"middle 8": 10, "lcv 8": 47, "middle 20": 193, "lcv 20": 69}


def test_02_the_last_cell_the_easy_sudoku_fixes():
    easy = solve(sudoku("003020600900305001001806400008102900700000008"
                        "006708200002609500800203009005010300"), inference="mac", trace=True)
    last = None
    for index, event in enumerate(easy.trace):
        if event.kind == "prune" and len(easy.trace.domains_at(index)[event.var]) == 1:
            last = (index, event.var, event.cause)
    assert last == (391, (2, 7), "box 2") and len(easy.trace) == 393


def test_04_magic_blocks_and_the_decomposed_model():
    magic = [(n, s) for n in range(1, 10) for s in range(1, 46)
             if combinations(n, s) and is_magic(n, s)]
    assert len(magic) == 43 and len([m for m in magic if m[0] >= 2]) == 34
    puzzle = kakuro.parse(KAKURO)
    # node consistency fixes the two one-cell sums before the search: MRV takes them first
    nodes = {order: puzzle.solve(model="decomposed", inference="none", var_order=order).stats.nodes
             for order in ("mrv", "input")}
    assert nodes == {"mrv": 6543, "input": 6545}
    two = KAKURO.replace("-    8,   34,", "-    10,  34,").replace(",7   0", ",9   0")
    assert kakuro.parse(two).count_solutions(limit=3) == 2


def test_05_every_clue_of_5x5_hard_1_is_needed():
    puzzle = towers.parse((DATA / "towers" / "5x5-hard-1.txt").read_text())
    clues = [(side, i) for side in ("top", "bottom", "left", "right")
             for i, clue in enumerate(getattr(puzzle, side)) if clue]
    assert len(clues) == 6
    for side, i in clues:
        fewer = list(getattr(puzzle, side))
        fewer[i] = 0
        assert dataclasses.replace(puzzle, **{side: tuple(fewer)}).count_solutions(limit=2) == 2
    assert puzzle.right[1] == 1 and not any(puzzle.left[:1] + puzzle.right[:1])

    def visible(heights):
        seen = tallest = 0
        for h in heights:
            if h > tallest:
                seen, tallest = seen + 1, h
        return seen

    assert sum(visible(p[::-1]) == 1 for p in itertools.permutations(range(1, 6))) == 24


def test_06_a_grid_where_the_uniqueness_rule_loses_a_solution():
    grid = "4 4\n3 2 4 4\n2 3 2 4\n4 1 1 3\n4 4 3 1\n"
    puzzle = singles.parse(grid)
    solutions = [{cell for cell, shaded in s.items() if shaded}
                 for s in iter_solutions(puzzle.to_csp(counting=True))]
    assert len(solutions) == 2 and sum((3, 3) in s for s in solutions) == 1
    assert (3, 3) not in puzzle.solve().solution
    cut = singles.parse("5x5:4112421234524525441243243").solve(trace=True).trace[7]
    assert cut.var == (1, 0)
    assert cut.cause == "cut rule: shading (1,0) would split the unshaded cells"


def test_07_one_cell_that_makes_the_7x7_hashi_ambiguous():
    puzzle = hashi.parse("7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2")
    text = puzzle.to_text()
    assert hashi.parse(text).solve().solution == puzzle.solve().solution
    rows = [line.split() for line in text.splitlines()]
    assert rows[5][3] == "0"
    rows[5][3] = "4"
    changed = hashi.parse("\n".join(" ".join(row) for row in rows))
    assert changed.count_solutions(limit=3) == 2
    assert hashi.parse("1 1").solve(adjacent=False).status == "unsatisfiable"


def test_08_variable_order_on_the_small_towers():
    nodes = {}
    for path in sorted((DATA / "towers").glob("[45]x*-1.txt")):
        puzzle = towers.parse(path.read_text())
        nodes[path.stem] = tuple(puzzle.solve(inference="mac", var_order=order).stats.nodes
                                 for order in ("input", "mrv"))
    assert nodes["5x5-unreasonable-1"] == (4, 2)
    assert sum(a == b for a, b in nodes.values()) == len(nodes) - 1


def test_09_cutsets_and_two_sided_counts():
    import operator

    from csp_puzzles import CSP, Count, NotInSet
    from csp_puzzles.core.structure import cutset_solve

    for cutset in (["NT", "NSW"], ["SA"]):
        assert cutset_solve(map_colouring(), cutset=cutset).stats.nodes == 7
    two = {tuple(c): cutset_solve(map_colouring(colours=("red", "green")), cutset=c)
           for c in (["NT", "NSW"], ["SA"])}
    assert all(r.status == "unsatisfiable" for r in two.values())
    assert (two["NT", "NSW"].stats.nodes, two["SA",].stats.nodes) == (6, 2)

    def desks(two_sided):
        room = CSP("student desks")
        room.add_variables(range(16), "ABCD")
        for letter in "ABCD":
            ops = (">=", "<=") if two_sided else ("==",)
            for op in ops:
                room.add_constraint(Count(range(16), letter, op, 4))
        for row in range(4):
            room.add_constraint(NotInSet(4 * row, "D"))
            for col in range(4):
                seat = 4 * row + col
                if col < 3:
                    room.add_constraint(Predicate(operator.ne, (seat, seat + 1)))
                if row < 3:
                    room.add_constraint(Predicate(operator.ne, (seat, seat + 4)))
        return room

    for inference, nodes in (("fc", 29), ("mac", 13)):
        runs = [solve(desks(s), inference=inference, var_order="input") for s in (False, True)]
        assert [r.stats.nodes for r in runs] == [nodes, nodes]
        assert runs[0].stats.prunings == runs[1].stats.prunings
