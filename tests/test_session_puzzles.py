"""Sessions on puzzles: hints alone solve every shipped puzzle that propagation alone solves,
each removal absent from the puzzle's solution; the highest rung they need is the grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from csp_puzzles import Session, hashi, kakuro, singles, towers
from csp_puzzles.core import solve
from csp_puzzles.core.ladder import UNSATISFIABLE, grade
from tests.conftest import DATA, janko, tatham
from tests.test_towers_data import standard_janko

REPO = Path(__file__).resolve().parent.parent
#: every how many-th janko puzzle the quick tests take (the slow ones take them all)
SAMPLE = 10


def known_solution(puzzle) -> dict:
    """The solution as the core finds it, checked by the puzzle's own checker."""
    csp = puzzle.to_csp(counting=True)
    result = solve(csp, inference="mac", var_order=puzzle.var_order_for("mac"))
    assert result.solved and puzzle.check(puzzle.decode(result.solution)) == []
    return result.solution


def solve_by_hints(puzzle) -> tuple[Session, list[str]]:
    """Apply hints until none is left; each removal must spare the solution."""
    solution = known_solution(puzzle)
    session = Session(puzzle)
    rungs = []
    while (hint := session.hint()) is not None:
        assert hint.removals and all(hint.removals.values()), hint
        for var, values in hint.removals.items():
            assert solution[var] not in values, hint.sentence
        session.apply(hint)
        rungs.append(hint.rung)
    return session, rungs


def check_hints_solve(puzzle) -> str | None:
    """When propagation alone solves `puzzle`, hints alone solve it too; returns its grade."""
    level = grade(puzzle.ladder())
    if level is None:
        return None
    assert level != UNSATISFIABLE
    session, rungs = solve_by_hints(puzzle)
    assert session.status == "solved"
    values = {var: domain[0] for var, domain in session.domains.items()}
    assert puzzle.check(puzzle.decode(values)) == []
    names = [rung.name for rung in puzzle.ladder()]
    assert max(rungs, key=names.index) == level  # the highest rung needed is the grade
    return level


def tatham_puzzles(name: str, module) -> list:
    if not (DATA / "tatham").exists():
        return []
    return [module.parse(row["id"]) for row in tatham(name)]


def janko_puzzles(name: str, module, step: int) -> list:
    if not (DATA / "janko").exists():
        return []
    entries = standard_janko() if name == "skyscraper" else janko(name)
    return [module.parse(entry["problem"], filename=key) for key, entry in entries[::step]]


COLLECTIONS = {
    "tatham bridges": lambda step: tatham_puzzles("bridges", hashi)[::step],
    "tatham towers": lambda step: tatham_puzzles("towers", towers)[::step],
    "tatham singles": lambda step: tatham_puzzles("singles", singles)[::step],
    "janko hashi": lambda step: janko_puzzles("hashi", hashi, step),
    "janko kakuro": lambda step: janko_puzzles("kakuro", kakuro, step),
    "janko hitori": lambda step: janko_puzzles("hitori", singles, step),
    "janko skyscraper": lambda step: janko_puzzles("skyscraper", towers, step),
}


def run_collection(name: str, step: int) -> None:
    puzzles = COLLECTIONS[name](step)
    if not puzzles:
        pytest.skip(f"shared data not available for {name}")
    solved = [check_hints_solve(puzzle) for puzzle in puzzles]
    assert any(solved), f"{name}: propagation alone solved none of {len(puzzles)}"


@pytest.mark.parametrize("name", sorted(COLLECTIONS))
def test_hints_solve_a_sample(name):
    run_collection(name, 1 if name.startswith("tatham") else SAMPLE)


@pytest.mark.full
@pytest.mark.parametrize("name", sorted(n for n in COLLECTIONS if n.startswith("janko")))
def test_hints_solve_every_janko_puzzle(name):
    run_collection(name, 1)


@pytest.mark.parametrize("path", sorted((REPO / "data" / "hashi").glob("*.txt")),
                         ids=lambda p: p.stem)
def test_hints_solve_the_shipped_hashi_puzzles_at_their_grade(path):
    puzzle = hashi.parse(path.read_text())
    level = check_hints_solve(puzzle)
    assert level == path.stem.split("-")[0]  # the file says its grade


def small_hashi() -> hashi.Hashi:
    return hashi.parse((REPO / "data" / "hashi" / "easy-7x7.txt").read_text())


def test_hints_speak_the_puzzles_words():
    """Every hint of a whole solve names the island, or each edge it settles, in the
    puzzle's words; what it read is in the scope of the rule that fired."""
    session = Session(small_hashi())
    constraints = {c.name: c for c in session.csp.constraints}
    while (hint := session.hint()) is not None:
        assert hint.rung in ("easy", "medium", "hard") and hint.constraint in constraints
        scope = set(constraints[hint.constraint].scope)
        assert set(hint.because) <= scope and set(hint.removals) <= scope
        named = [session.words.name(var) for var in hint.removals]
        assert all(name.startswith("edge (") for name in named)
        assert all(name in hint.sentence for name in named) or (
            hint.sentence.startswith("island (") and hint.sentence.endswith("to each"))
        assert "bridge" in hint.sentence
        session.apply(hint)
    assert session.status == "solved"


def test_island_rules_say_why():
    """In medium-7x7 the 5 at (1,4) sees three islands. Its hint comes after the cheaper
    ones at (1,2) and (1,6), which gave two of its edges a bridge; its third edge can still
    carry 0, 1 or 2 bridges (checked below): two neighbours give 4 at most, so each of the
    three gets a bridge (Tatham's easy rule "a bridge to every neighbour")."""
    puzzle = hashi.parse((REPO / "data" / "hashi" / "medium-7x7.txt").read_text())
    session = Session(puzzle)
    while not (hint := session.hint()).rule.startswith("a bridge to every neighbour at (1,4)"):
        session.apply(hint)
    assert hint.sentence == ("island (1,4) needs 5 and has 3 neighbours; without one of them "
                             "the others carry 4 at most, so edge (1,4)-(6,4) carries at least "
                             "1 bridge")
    edges = [(1, 2, 1, 4), (1, 4, 1, 6), (1, 4, 6, 4)]
    assert sorted(hint.because) == edges
    assert session.domains[edges[2]] == (0, 1, 2)
    assert all(0 not in session.domains[edge] for edge in edges[:2])
    assert hint.removals == {edges[2]: (0,)}
    assert hint.rung == "easy" and hint.cost == 3 and hint.steps == ()


def test_mistakes_name_the_wrong_decisions():
    puzzle = small_hashi()
    solution = known_solution(puzzle)
    session = Session(puzzle, inference="fc")
    right = next(iter(solution))
    wrong = next(var for var in solution if var != right)
    session.assign(right, solution[right])
    bad = next(x for x in session.domains[wrong] if x != solution[wrong])
    session.assign(wrong, bad)
    assert [(d.var, d.value) for d in session.mistakes()] == [(wrong, bad)]


def test_the_engine_finishes_a_puzzle():
    puzzle = hashi.parse((REPO / "data" / "hashi" / "hard-10x10.txt").read_text())
    session = Session(puzzle, inference="fc")
    first = session.suggest()
    session.assign(first.var, first.value)
    result = session.finish()
    assert result.solved and session.status == "solved"
    assert puzzle.check(puzzle.decode(result.solution)) == []
    trace = session.trace
    assert trace.domains_at(len(trace) - 1) == session.domains


# -- Session(puzzle, **options): every option every puzzle declares (issue 39) ----------------
#: small puzzles of each kind; the Hashi has two islands side by side (an edge `adjacent`
#: keeps or leaves out)
SMALL = {
    "hashi": lambda: hashi.parse("3 0 0 0 4\n0 0 0 0 0\n1 1 0 0 5\n0 0 0 0 0\n0 0 0 0 2"),
    "kakuro": lambda: kakuro.parse((REPO / "data" / "kakuro" / "easy-8x8-seed1.txt").read_text()),
    "towers": lambda: towers.parse((REPO / "data" / "towers" / "5x5-hard-1.txt").read_text()),
    "singles": lambda: singles.parse((REPO / "data" / "singles" / "easy-6x6-seed1.txt")
                                     .read_text()),
}


def option_values(puzzle) -> dict[str, tuple]:
    """The values each declared model option takes; a new option fails this until it is
    listed here."""
    module = __import__(f"csp_puzzles.{puzzle.kind}.model", fromlist=["MODELS"])
    known = {"adjacent": (True, False), "uniqueness": (True, False, None),
             "model": getattr(module, "MODELS", ())}
    assert puzzle.model_options <= set(known), puzzle.model_options - set(known)
    return {name: known[name] for name in sorted(puzzle.model_options)}


CASES = [(kind, name, value) for kind, make in SMALL.items()
         for name, values in option_values(make()).items() for value in values]


@pytest.mark.parametrize(("kind", "name", "value"), CASES,
                         ids=[f"{kind}-{name}={value}" for kind, name, value in CASES])
def test_a_session_takes_every_option_its_puzzle_declares(kind, name, value):
    puzzle = SMALL[kind]()
    session = Session(puzzle, **{name: value})
    variables = puzzle.to_csp(**{name: value}).variables
    assert session.csp.variables == variables
    assert all(rung.csp.variables == variables for rung in session.ladder)
    hint = session.hint()
    assert hint is not None and hint.removals
    session.apply(hint)
    result = session.finish()
    assert result.status == "solved" and session.status == "solved"
    assert puzzle.check(puzzle.decode(result.solution)) == []


def test_the_options_the_issue_named():
    assert len(Session(SMALL["hashi"](), adjacent=False).csp.variables) == 5  # of 6 edges
    assert Session(SMALL["towers"](), model="full").status == "open"
    assert Session(SMALL["singles"](), uniqueness=False).status == "open"


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_a_session_refuses_an_option_its_puzzle_lacks(kind):
    with pytest.raises(ValueError, match="unknown"):
        Session(SMALL[kind](), colour="blue")
