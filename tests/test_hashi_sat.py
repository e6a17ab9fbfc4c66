"""Hashi as SAT: the cardinality encoding, 3-SAT, DIMACS, and solutions equal the CSP's."""

from __future__ import annotations

import contextlib
import io
import itertools
import random

import pytest
from pysat.solvers import Glucose4

from csp_puzzles.cli import main
from csp_puzzles.hashi import parse, sat
from tests.conftest import janko, shared_file, tatham


def tatham_solution(move: str) -> dict[tuple[int, int, int, int], int]:
    """Bridges of a Tatham solve move `S;L x1,y1,x2,y2,n;...` (x = column, y = row)."""
    bridges = {}
    for part in move.split(";"):
        if part.startswith("L"):
            x1, y1, x2, y2, n = map(int, part[1:].split(","))
            (r1, c1), (r2, c2) = sorted([(y1, x1), (y2, x2)])
            bridges[(r1, c1, r2, c2)] = n
    return bridges


def a_model(clauses: list[list[int]]) -> list[int] | None:
    """A model of `clauses` by Glucose 4, or None when unsatisfiable.

    The independent checks ask python-sat directly, never the engine's own solver wrapper.
    """
    with Glucose4(bootstrap_with=clauses) as solver:
        return solver.get_model() if solver.solve() else None


def satisfiable(clauses: list[list[int]]) -> bool:
    return a_model(clauses) is not None


# -- the pieces ------------------------------------------------------------------------------
@pytest.mark.parametrize("m", range(6))
def test_sequential_counter_is_exact(m: int) -> None:
    """`exactly(lits, n)` admits an assignment of the m literals iff n of them are true."""
    for n in range(-1, m + 2):
        cnf = sat.Cnf()
        lits = [cnf.new_var() for _ in range(m)]
        sat.exactly(cnf, lits, n)
        for values in itertools.product((False, True), repeat=m):
            units = [[v if on else -v] for v, on in zip(lits, values, strict=True)]
            assert satisfiable(cnf.clauses + units) == (sum(values) == n), (m, n, values)


@pytest.mark.parametrize("sizes", [(), (2,), (1, 1), (2, 2, 2), (2, 1, 2, 1), (3, 4), (2, 2, 2, 2)])
def test_ladder_degree_clauses_are_exact(sizes: tuple[int, ...]) -> None:
    """`exactly_on_ladders` admits exactly the consistent ladders whose counts sum to n."""
    for n in range(-1, sum(sizes) + 2):
        cnf = sat.Cnf()
        ladders = [[cnf.new_var() for _ in range(size)] for size in sizes]
        sat.exactly_on_ladders(cnf, ladders, n)
        for counts in itertools.product(*(range(size + 1) for size in sizes)):
            units = [[v if k < count else -v] for ladder, count in zip(ladders, counts,
                                                                        strict=True)
                     for k, v in enumerate(ladder)]
            assert satisfiable(cnf.clauses + units) == (sum(counts) == n), (sizes, n, counts)


def random_cnf(rng: random.Random, num_vars: int, num_clauses: int) -> list[list[int]]:
    return [[rng.choice((1, -1)) * rng.randint(1, num_vars)
             for _ in range(rng.randint(1, 7))] for _ in range(num_clauses)]


@pytest.mark.parametrize("seed", range(40))
def test_three_sat_is_equisatisfiable(seed: int) -> None:
    rng = random.Random(seed)
    num_vars = rng.randint(3, 9)
    clauses = random_cnf(rng, num_vars, rng.randint(5, 40))
    if seed == 0:
        clauses.append([])  # an empty clause, unsatisfiable either way
    three, total = sat.to_three_sat(clauses, num_vars)
    assert all(len(clause) == 3 and len({abs(x) for x in clause}) == 3 for clause in three)
    assert total >= num_vars and all(abs(x) <= total for clause in three for x in clause)
    model = a_model(three)
    assert (model is not None) == satisfiable(clauses)
    if model is not None:
        true = {x for x in model if abs(x) <= num_vars}
        assert all(any(x in true for x in clause) for clause in clauses)


def test_dimacs_round_trip_and_header() -> None:
    text = sat.write_dimacs([[1, -2], [3]], 3, ["two clauses"])
    assert text.splitlines()[:2] == ["c two clauses", "p cnf 3 2"]
    assert sat.read_dimacs(text) == ([[1, -2], [3]], 3)
    with pytest.raises(ValueError, match="header says 3 clauses"):
        sat.read_dimacs("p cnf 3 3\n1 -2 0\n3 0\n")
    with pytest.raises(ValueError, match="variable 4"):
        sat.read_dimacs("p cnf 3 1\n4 0\n")


# -- whole puzzles ---------------------------------------------------------------------------
SQUARE_OF_ONES = "1 0 1\n0 0 0\n1 0 1\n"  # degrees allow two parallel bridges: disconnected
SEED_001 = "1 0 0 0\n1 0 0 0\n0 0 0 0\n0 0 0 0\n"  # two touching 1s


@pytest.mark.parametrize("mode", ["levels", "cuts"])
def test_unsatisfiable_inputs(mode: str) -> None:
    assert sat.solve_sat(parse("1 0 1 0 1\n"), connectivity=mode) is None  # odd total
    assert sat.solve_sat(parse(SQUARE_OF_ONES), connectivity=mode) is None
    assert sat.solve_sat(parse(SEED_001), connectivity=mode, adjacent=False) is None
    assert sat.solve_sat(parse(SEED_001), connectivity=mode) == {(0, 0, 1, 0): 1}
    # two islands alone may use all their bridges (no isolation cut then)
    assert sat.solve_sat(parse("2 0 2\n"), connectivity=mode) == {(0, 0, 0, 2): 2}
    assert sat.solve_sat(parse("1 0 2 0 1\n"), connectivity=mode) == {(0, 0, 0, 2): 1,
                                                                      (0, 2, 0, 4): 1}


def test_connectivity_is_what_makes_the_square_unsatisfiable() -> None:
    layout = sat.layout_of(parse(SQUARE_OF_ONES))
    assert satisfiable(sat.encode(layout, "none").cnf.clauses)
    assert not satisfiable(sat.encode(layout, "levels").cnf.clauses)


def test_dimacs_of_a_puzzle_is_the_whole_problem() -> None:
    """The file alone (connectivity included) decides the puzzle; its header counts agree."""
    for text, expected in [(SQUARE_OF_ONES, False), ("2 0 2\n0 0 0\n2 0 2\n", True)]:
        for three in (False, True):
            dimacs = sat.to_dimacs(parse(text), three_sat=three)
            clauses, num_vars = sat.read_dimacs(dimacs)  # checks the clause count
            assert max(abs(x) for clause in clauses for x in clause) <= num_vars
            assert satisfiable(clauses) == expected
            if three:
                assert all(len(clause) == 3 for clause in clauses)


def test_no_loops_variant() -> None:
    """A square of 2s: a ring of single bridges, unless loops are forbidden (then UNSAT)."""
    ring = parse("2 0 2\n0 0 0\n2 0 2\n")
    solution = sat.solve_sat(ring)
    assert solution is not None and ring.check(solution) == [] and len(solution) == 4
    tree = parse("3x3L:2a2c2a2")
    assert not tree.loops
    for mode in ("levels", "cuts"):
        assert sat.solve_sat(tree, connectivity=mode) is None


def test_tatham_puzzles_sat_equals_their_solution() -> None:
    """Every Tatham Bridges puzzle: both SAT modes give Tatham's solution, checked; unique."""
    rows = tatham("bridges")
    for row in rows:
        puzzle = parse(row["id"])
        expected = tatham_solution(row["solve_move"])
        for mode in ("cuts", "levels"):
            solution = sat.solve_sat(puzzle, connectivity=mode)
            assert solution == expected, (row["id"], mode)
        assert puzzle.check(expected) == []
    for row in rows[::4]:
        puzzle = parse(row["id"])
        assert sat.count_sat(puzzle) == 1
        assert sat.solve_sat(puzzle, three_sat=True, connectivity="levels") == \
            tatham_solution(row["solve_move"])


@pytest.mark.slow
def test_janko_sat_equals_the_csp_solver() -> None:
    """Every 3rd janko puzzle (206 of 616; all of them run in the benchmark's `--sat`
    table): the SAT solution passes the checker and is the CSP solver's."""
    for name, entry in janko("hashi")[::3]:
        puzzle = parse(entry["problem"])
        solution = sat.solve_sat(puzzle)
        assert solution is not None and puzzle.check(solution) == [], name
        result = puzzle.solve(timeout=20)
        assert result.status == "solved", name
        assert solution == result.solution, name


def test_sequential_counter_encoding_gives_the_same_solutions() -> None:
    for row in tatham("bridges")[::3]:
        puzzle = parse(row["id"])
        encoding = sat.encode(sat.layout_of(puzzle), "levels", degrees="counter")
        model = a_model(encoding.cnf.clauses)
        assert model is not None
        assert encoding.bridges(model) == tatham_solution(row["solve_move"])


@pytest.mark.parametrize("maxb, loops", [(1, True), (3, True), (4, True), (2, False),
                                         (3, False)])
def test_sat_on_generated_variants(maxb: int, loops: bool) -> None:
    """maxb 1-4 and no-loops puzzles: every SAT mode finds the one solution, the CSP's."""
    from csp_puzzles.hashi.generate import generate

    for seed in range(2):
        puzzle = generate(width=10, height=10, maxb=maxb, loops=loops, difficulty="hard",
                          seed=seed)
        expected = puzzle.solve().solution
        for mode in ("cuts", "levels"):
            assert sat.solve_sat(puzzle, connectivity=mode) == expected
        assert sat.solve_sat(puzzle, three_sat=True) == expected
        assert sat.count_sat(puzzle) == 1


def test_ambiguous_coelho_instance_counts_two() -> None:
    path = shared_file("coelho-hashi", "100", "Hs_16_100_25_00_001.has")
    puzzle = parse(path.read_text())
    solution = sat.solve_sat(puzzle)
    assert solution is not None and puzzle.check(solution) == []
    assert sat.count_sat(puzzle, limit=2) == 2


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


def test_cli_cnf_end_to_end(tmp_path) -> None:
    path = tmp_path / "seed001.txt"
    path.write_text(SEED_001)
    status, text = run_cli("cnf", "hashi", str(path))
    assert status == 0
    clauses, _ = sat.read_dimacs(text)
    assert satisfiable(clauses)
    status, text = run_cli("cnf", "hashi", str(path), "--no-adjacent", "--3sat")
    clauses, _ = sat.read_dimacs(text)
    assert status == 0 and all(len(c) == 3 for c in clauses) and not satisfiable(clauses)
    status, text = run_cli("cnf", "hashi", "5x5m2:2a4a3j1c2b2b")
    model = a_model(sat.read_dimacs(text)[0])
    names = [line.split(":", 1) for line in text.splitlines() if line.startswith("c var ")]
    assert status == 0 and model is not None and names[0][1].strip().startswith("at least 1")


# -- the SAT engine behind Hashi.solve / count and `solve --engine sat` ----------------------
def test_sat_engine_solves_and_counts_every_tatham_puzzle() -> None:
    """`solve(engine="sat")` gives Tatham's solution; `count(engine="sat")` says unique."""
    for row in tatham("bridges"):
        puzzle = parse(row["id"])
        result = puzzle.solve(engine="sat")
        assert result.status == "solved" and result.engine == "sat"
        assert result.solution == tatham_solution(row["solve_move"]), row["id"]
        counted = puzzle.count(limit=2, engine="sat")
        assert (counted.status, counted.solutions, counted.unique) == ("solved", 1, True)


def test_sat_solutions_are_distinct_and_valid() -> None:
    """The cut loop with blocking clauses lists different solutions, each one valid."""
    path = shared_file("coelho-hashi", "100", "Hs_16_100_25_00_001.has")
    puzzle = parse(path.read_text())
    found = list(itertools.islice(sat.sat_solutions(puzzle), 5))
    assert len(found) == 5
    assert len({tuple(sorted(s.items())) for s in found}) == 5
    assert all(puzzle.check(s) == [] for s in found)


def test_counting_by_cuts_equals_counting_on_the_complete_encoding() -> None:
    """On random small grids the two SAT counts agree with the CSP's count."""
    rng = random.Random(7)
    for _ in range(40):
        rows = [" ".join(rng.choice("0000123") for _ in range(5)) for _ in range(4)]
        puzzle = parse("\n".join(rows) + "\n")
        if len(puzzle.islands) < 2:
            continue
        by_cuts = sat.count_sat(puzzle, limit=5)
        assert by_cuts == sat.count_sat(puzzle, limit=5, connectivity="levels"), rows
        assert by_cuts == puzzle.count_solutions(limit=5), rows


def test_sat_engine_answers_unsatisfiable_and_limits() -> None:
    odd = parse("1 0 1 0 1\n")
    assert odd.solve(engine="sat").status == "unsatisfiable"
    counted = odd.count(engine="sat")
    assert (counted.status, counted.solutions, counted.unique) == ("unsatisfiable", 0, False)
    assert parse(SEED_001).solve(engine="sat", adjacent=False).status == "unsatisfiable"
    big = parse(shared_file("coelho-hashi", "400", "Hs_34_400_75_10_016.has").read_text())
    assert big.solve(engine="sat", timeout=0.0).status == "limit"
    assert big.count(limit=1000, engine="sat", timeout=0.3).status == "limit"


def test_sat_engine_refuses_search_options() -> None:
    puzzle = parse("2 0 2\n")
    for option in ({"inference": "fc"}, {"var_order": "mrv"}, {"max_nodes": 10},
                   {"trace": True}, {"level": "easy"}):
        with pytest.raises(ValueError, match="SAT engine"):
            puzzle.solve(engine="sat", **option)
    with pytest.raises(ValueError, match="unknown engine"):
        puzzle.solve(engine="cp-sat")


def run_cli_err(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_cli_engine_sat() -> None:
    import json

    code, out, _ = run_cli_err("solve", "hashi", "3x3:2a2c2a2", "--engine", "sat", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["status"] == "solved"
    assert sorted(answer["solution"]["bridges"]) == [[0, 0, 0, 2, 1], [0, 0, 2, 0, 1],
                                                    [0, 2, 2, 2, 1], [2, 0, 2, 2, 1]]
    code, out, _ = run_cli_err("solve", "hashi", "3x3:2a2c2a2", "--engine", "sat", "--count")
    assert code == 0 and out.startswith("unique: exactly 1 solution (SAT engine")
    towers_id = "3:1/2/2/2/1/3/2/2/2/1/3/2"
    code, out, err = run_cli_err("solve", "towers", towers_id, "--engine", "sat")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--engine sat does not apply to towers" in err
    code, _, err = run_cli_err("solve", "hashi", "3x3:2a2c2a2", "--engine", "sat",
                               "--trace", "t")
    assert code == 2 and "SAT engine takes only a timeout" in err


# -- the python-sat back end: one incremental solver, any solver, exact DIMACS ----------------
# sha256 of `csp-puzzles cnf hashi ...` as written before the engine moved to python-sat:
# the DIMACS text must not change.
DIMACS_SHA256 = {
    ("seed001",): "bd0a925356cdc820e56f8e1ef0ec8d2e2c0e71907faad5739e5156521bf3b455",
    ("seed001", "--no-adjacent", "--3sat"):
        "f84135b8706787b1297d7023fe082aca9e49290071ab1e1a1efa6392ebe0adba",
    ("5x5m2:2a4a3j1c2b2b",): "bfeaec87a961950f12ee2606bc8788510703a27916ae9c389a59b5caaae479f3",
    ("3x3L:2a2c2a2",): "f12a7aaeecc3af69507cb5fd8a4aa6be14c75e9c78b5088f7b9ad801804465d3",
    ("5x5m3L:2a4a3j1c2b2b",): "38c4a8cd16880c800f3d896739e9270cccc0d308e4d36efe03bd009ab6840c80",
    ("5x5m3L:2a4a3j1c2b2b", "--3sat", "--no-adjacent"):
        "11294c70d6bb54a58638639584eac0838e4d7bd2816dda28d24e45971bfcb2ce",
}


@pytest.mark.parametrize("argv", list(DIMACS_SHA256), ids=" ".join)
def test_cnf_output_is_unchanged_byte_for_byte(argv: tuple[str, ...], tmp_path) -> None:
    import hashlib

    path = tmp_path / "seed001.txt"
    path.write_text(SEED_001)
    source = str(path) if argv[0] == "seed001" else argv[0]
    status, text = run_cli("cnf", "hashi", source, *argv[1:])
    assert status == 0
    assert hashlib.sha256(text.encode()).hexdigest() == DIMACS_SHA256[argv]


class CountingBackend:
    """The default back end, counting how often it is opened, fed and asked."""

    opened = 0

    def __init__(self, clauses: list[list[int]]) -> None:
        CountingBackend.opened += 1
        self.inner = sat.PySatSolver(sat.DEFAULT_SOLVER, clauses)
        self.added = self.solves = 0

    def add_clause(self, clause) -> None:
        self.added += 1
        self.inner.add_clause(clause)

    def solve(self, deadline):
        self.solves += 1
        return self.inner.solve(deadline)

    def close(self) -> None:
        self.inner.close()


def test_one_incremental_solver_runs_the_whole_cut_loop() -> None:
    """Cuts and blocking clauses go to one solver, opened once, however many rounds."""
    path = shared_file("coelho-hashi", "100", "Hs_16_100_25_00_001.has")
    puzzle = parse(path.read_text())
    backends: list[CountingBackend] = []

    def opener(clauses: list[list[int]]) -> CountingBackend:
        backends.append(CountingBackend(clauses))
        return backends[-1]

    found = list(itertools.islice(sat.sat_solutions(puzzle, solver=opener), 3))
    assert len(backends) == 1 and len(found) == 3
    assert all(puzzle.check(s) == [] for s in found)
    assert backends[0].solves >= 3 and backends[0].added >= 2  # at least the 2 blocking clauses
    assert sat.count_sat(puzzle, limit=3, solver=opener) == 3 and len(backends) == 2


@pytest.mark.parametrize("solver", sat.SOLVERS)
def test_every_listed_solver_solves_counts_and_stops(solver: str) -> None:
    rows = tatham("bridges")[::7]
    for row in rows:
        puzzle = parse(row["id"])
        expected = tatham_solution(row["solve_move"])
        assert sat.solve_sat(puzzle, solver=solver, timeout=30) == expected
        assert sat.solve_sat(puzzle, connectivity="levels", solver=solver) == expected
        assert sat.count_sat(puzzle, solver=solver) == 1
    result = parse(rows[0]["id"]).solve(engine="sat", solver=solver)
    assert result.solution == tatham_solution(rows[0]["solve_move"])
    assert sat.solve_sat(parse(SQUARE_OF_ONES), solver=solver, timeout=5) is None


def test_unknown_solver_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown SAT solver 'kissat404'"):
        sat.solve_sat(parse("2 0 2\n"), solver="kissat404")


def test_engine_sat_without_python_sat_is_one_line_and_exit_2(monkeypatch) -> None:
    """A missing solver package is a usage error, not a traceback."""
    import sys

    monkeypatch.setitem(sys.modules, "pysat", None)
    monkeypatch.setitem(sys.modules, "pysat.solvers", None)
    code, out, err = run_cli_err("solve", "hashi", "3x3:2a2c2a2", "--engine", "sat")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "python-sat" in err and "Traceback" not in err
    code, out, _ = run_cli_err("cnf", "hashi", "3x3:2a2c2a2")  # the CNF needs no solver
    assert code == 0 and out.startswith("c Hashiwokakero")


def test_bench_compares_with_the_former_pycosat_engine_when_installed(capsys) -> None:
    """pycosat is no dependency: the benchmark's PicoSAT column runs only where it is."""
    pytest.importorskip("pycosat")
    from csp_puzzles.bench.pycosat_backend import PicoSat

    for row in tatham("bridges")[::9]:
        puzzle = parse(row["id"])
        assert sat.solve_sat(puzzle, solver=PicoSat) == tatham_solution(row["solve_move"])
        assert sat.count_sat(puzzle, solver=PicoSat) == 1
    shared_file("coelho-hashi")
    code = main(["bench", "hashi", "--parts", "coelho", "--sizes", "100", "--limit", "2",
                 "--engines", "sat,pycosat", "--no-ortools", "--clock", "cpu"])
    out = capsys.readouterr().out
    rows = {" ".join(line.split()[:3]): line.split() for line in out.splitlines()
            if line.lstrip().startswith("100 ")}
    assert code == 0 and "cpu seconds" in out
    assert rows["100 csp-puzzles SAT"][3:5] == ["2", "2"]  # solved, n
    assert rows["100 SAT-loop PicoSAT"][3:5] == ["2", "2"]
    assert rows["100 sat /"][3] == "pycosat"  # the ratio row
