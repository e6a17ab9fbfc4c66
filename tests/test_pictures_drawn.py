"""Every picture exists once, as plain data; matplotlib only draws it, and only when asked.

- `import csp_puzzles.viz` (and the core) bring in no matplotlib;
- the one generic drawing (`csp_puzzles.viz.matplotlib_drawing`) draws every built-in view and
  every puzzle at any state, and a solution as every variable decided;
- Hashi's counts never overlap, nor sit on a crossing, even with every edge undecided;
- a tree-shaped constraint graph is drawn as a tree: parents above their children, no two
  edges crossing;
- charts and the implication graph are pictures too.
"""

from __future__ import annotations

import operator
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from csp_puzzles import CSP, NotInSet, Predicate, hashi, kakuro, singles, solve, towers
from csp_puzzles.core.learning import LearningSearch
from csp_puzzles.examples import map_colouring, queens, send_more_money, sudoku
from csp_puzzles.hashi.picture import crossing_cells
from csp_puzzles.puzzle import picture as pic
from csp_puzzles.viz import (
    domain_grid_view,
    graph_view,
    map_view,
    queens_view,
    sudoku_view,
)
from csp_puzzles.viz.charts import Scale, bar_chart, line_chart
from csp_puzzles.viz.implication import NOGOOD, UIP, implication_picture
from csp_puzzles.viz.matplotlib_drawing import draw_puzzle
from tests.conftest import REPO, decoded

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

PUZZLES = {
    "hashi": (hashi, "data/random/hashi-20x20.txt"),
    "kakuro": (kakuro, "data/kakuro/easy-8x8-seed1.txt"),
    "towers": (towers, "data/towers/5x5-hard-1.txt"),
    "singles": (singles, "data/singles/easy-6x6-seed1.txt"),
}


def imported_after(statement: str) -> set[str]:
    """The top-level modules a fresh interpreter holds after `statement`."""
    listing = "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    code = f"import sys\n{statement}\n{listing}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, check=True)
    return set(done.stdout.split())


def test_the_core_and_the_puzzles_import_no_drawing_or_widget_library():
    loaded = imported_after("import csp_puzzles, csp_puzzles.cli.commands\n"
                            "from csp_puzzles import hashi, kakuro, towers, singles")
    assert not loaded & {"matplotlib", "numpy", "anywidget", "ipywidgets", "IPython"}


def test_importing_the_viz_package_imports_no_matplotlib_nor_the_widget_libraries():
    loaded = imported_after("import csp_puzzles.viz")
    assert not loaded & {"matplotlib", "anywidget", "ipywidgets"}
    assert "anywidget" in imported_after("from csp_puzzles.viz import Stepper")


def _figure():
    from matplotlib.figure import Figure

    return Figure(figsize=(6, 6)).add_subplot()


def _png(ax) -> bytes:
    import io

    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=40)
    return buffer.getvalue()


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


@pytest.mark.parametrize("kind", PUZZLES)
def test_a_puzzle_drawn_as_printed_at_a_state_and_solved(kind):
    module, path = PUZZLES[kind]
    puzzle = module.parse((REPO / path).read_text())
    result = puzzle.solve(trace=True)
    variables = puzzle.picture()["variables"]
    printed, middle, solved = _figure(), _figure(), _figure()
    draw_puzzle(printed, puzzle)
    draw_puzzle(middle, puzzle, domains=result.trace.domains_at(len(result.trace) // 3))
    draw_puzzle(solved, puzzle, solution=result.solution)
    domains = puzzle.solution_domains(result.solution)
    assert {pic.key(v) for v in domains} <= {entry["var"] for entry in variables}
    assert all(len(values) == 1 for values in domains.values())
    # the solution as domains is the solution: decoding it gives it back
    assert puzzle.check(decoded(puzzle, domains)) == []
    assert _png(middle) != _png(printed) != _png(solved)


def test_kakuro_solved_shows_every_digit_and_printed_none():
    puzzle = kakuro.parse((REPO / PUZZLES["kakuro"][1]).read_text())
    solution = puzzle.solve().solution
    printed, solved = _figure(), _figure()
    draw_puzzle(printed, puzzle)
    draw_puzzle(solved, puzzle, solution=solution)
    digits = [str(solution[r][c]) for r, c in puzzle.whites]
    clues = _texts(printed)
    assert sorted(_texts(solved)) == sorted(clues + digits)


VIEWS = {
    "queens": (lambda: queens(6), lambda: queens_view(6), "fc"),
    "map": (map_colouring, map_view, "fc"),
    "graph": (send_more_money, lambda: graph_view(send_more_money()), "mac"),
    "grid": (send_more_money, lambda: domain_grid_view(send_more_money()), "mac"),
    "sudoku": (sudoku, sudoku_view, "mac"),
}


@pytest.mark.parametrize("name", VIEWS)
def test_every_view_draws_every_state_and_outlines_the_event(name):
    make, view_of, inference = VIEWS[name]
    view = view_of()
    trace = solve(make(), inference=inference, trace=True).trace
    for position in (0, len(trace) // 2, len(trace) - 1):
        ax = _figure()
        view(ax, trace.domains_at(position), trace[position])
        assert ax.patches or ax.lines
    png = view.png(trace.domains_at(0), trace[0])
    assert png.startswith(b"\x89PNG")


def _label_boxes(puzzle) -> list[tuple[str, float, float, float, float]]:
    """Each edge's counts as the explorer writes them with every count still possible."""
    boxes = []
    width = 0.12 + 0.19 * (puzzle.maxb + 1)
    for entry in puzzle.picture()["variables"]:
        x, y = entry.get("mark") or ((entry["x1"] + entry["x2"]) / 2,
                                     (entry["y1"] + entry["y2"]) / 2)
        boxes.append((entry["var"], x - width / 2, y - 0.17, x + width / 2, y + 0.17))
    return boxes


@pytest.mark.parametrize("path", sorted((REPO / "data" / "hashi").glob("*.txt"))
                         + [REPO / "data" / "random" / "hashi-20x20.txt"], ids=lambda p: p.name)
def test_hashi_counts_never_overlap_nor_sit_on_a_crossing(path):
    puzzle = hashi.parse(path.read_text())
    boxes = _label_boxes(puzzle)
    for a, b in combinations(boxes, 2):
        apart = a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]
        assert apart, f"the counts of {a[0]} and {b[0]} overlap"
    crossings = crossing_cells(puzzle)
    for _, x0, y0, x1, y1 in boxes:
        assert not any(x0 < x < x1 and y0 < y < y1 for x, y in crossings)


def test_the_20x20_grid_had_counts_on_top_of_each_other_at_its_middles():
    """What the marks fix: at the middles, some counts would overlap."""
    puzzle = hashi.parse((REPO / "data" / "random" / "hashi-20x20.txt").read_text())
    moved = [e for e in puzzle.picture()["variables"] if "mark" in e]
    assert moved


def _pay_scale() -> CSP:
    reports_to = {"boss": None, "ann": "boss", "bob": "boss", "cat": "ann", "dan": "ann",
                  "eve": "bob"}
    pay = CSP("pay scale")
    for person in reports_to:
        pay.add_variable(person, range(1, 5))
    for person, manager in reports_to.items():
        if manager is not None:
            pay.add_constraint(Predicate(operator.gt, (manager, person),
                                         name=f"{manager} > {person}"))
    pay.add_constraint(NotInSet("eve", [1]))
    return pay, reports_to


def _crosses(p, q, r, s) -> bool:
    def turn(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (turn(p, q, r) * turn(p, q, s) < 0) and (turn(r, s, p) * turn(r, s, q) < 0)


def test_a_tree_shaped_graph_is_drawn_as_a_tree():
    pay, reports_to = _pay_scale()
    nodes = {e["var"]: (e["x"], e["y"]) for e in graph_view(pay).picture["variables"]}
    for person, manager in reports_to.items():
        if manager is not None:
            assert nodes[manager][1] < nodes[person][1]  # y points down: the manager above
    edges = [(nodes[manager], nodes[person]) for person, manager in reports_to.items()
             if manager is not None]
    assert not any(_crosses(*a, *b) for a, b in combinations(edges, 2))


def test_a_graph_with_a_cycle_goes_round_a_circle():
    nodes = [(e["x"], e["y"]) for e in graph_view(map_colouring()).picture["variables"]]
    centre = (sum(x for x, _ in nodes) / len(nodes), sum(y for _, y in nodes) / len(nodes))
    radii = [((x - centre[0]) ** 2 + (y - centre[1]) ** 2) ** 0.5 for x, y in nodes]
    assert max(radii) - min(radii) < 1e-6


def test_scales_put_their_ticks_round_the_values():
    assert Scale("linear", 0, 7, 0, 10).ticks() == [0, 2, 4, 6, 8]
    assert Scale("log", 3, 4000, 0, 10).ticks() == [1, 10, 100, 1000, 10000]
    symlog = Scale("symlog", 0, 1500, 0, 10)
    assert symlog.ticks()[0] == 0 and symlog.at(0) == 0 and symlog.at(symlog.high) == 10
    with pytest.raises(ValueError, match="symlog"):
        Scale("log", 0, 10, 0, 10)


def test_a_bar_chart_writes_each_value_over_its_bar():
    picture = bar_chart(["bt", "fc", "mac"], [876, 75, 20], ylabel="nodes")
    words = [s["text"] for s in picture["shapes"] if s["type"] == "text"]
    assert {"876", "75", "20", "bt", "fc", "mac", "nodes"} <= set(words)
    assert pic.check(picture) == [] and picture["variables"] == []


def test_a_line_chart_keeps_only_the_corners_of_long_flat_stretches():
    flat = line_chart({"left": (list(range(100)), [5] * 50 + [3] * 50)}, steps=True)
    segments = [s for s in flat["shapes"] if s["type"] == "line" and s["stroke"] == "#1f77b4"]
    assert len(segments) <= 4  # a level, a drop, a level (and the legend's stroke)


def test_the_png_of_a_chart_is_drawn(tmp_path: Path):
    from csp_puzzles.viz.matplotlib_drawing import png

    picture = line_chart({"nodes": ([4, 8, 12], [10, 100, 1000])}, yscale="log", dots=True)
    assert png(picture).startswith(b"\x89PNG")


def test_the_implication_graph_shows_every_fact_read_the_conflict_and_the_uip():
    puzzle = hashi.parse((REPO / "data" / "random" / "hashi-20x20.txt").read_text())
    search = LearningSearch(puzzle.to_csp(), inference="mac", var_order="dom-wdeg")
    search.graphs = []
    next(search.solutions())
    analysis = search.graphs[0]
    picture = implication_picture(analysis)
    words = [s["text"] for s in picture["shapes"] if s["type"] == "text"]
    facts = {fact for fact, _ in analysis.steps} | set(analysis.conflict)
    for literal, _, level in facts:
        if level > 0:
            assert str(literal) in words
    assert "conflict" in words
    uip = str(analysis.nogood.literals[0])
    framed = [s for s in picture["shapes"] if s["type"] == "rect" and s.get("stroke") == UIP]
    boxes = {(round(s["x"], 6), round(s["y"], 6)) for s in framed}
    assert len(framed) == 2  # the UIP's box, and the legend's sample
    label = next(s for s in picture["shapes"] if s["type"] == "text" and s["text"] == uip)
    assert any(abs(label["y"] - (y + 0.25)) < 1e-6 for _, y in boxes)


def test_every_fact_of_the_nogood_is_framed_even_one_it_reads_off_removals():
    """The first nogood on the random 20x20 grid holds (2,3,2,6) = 2, which the search knew
    as (2,3,2,6) ≠ 0 and ≠ 1 (level 1): those two boxes are framed as the nogood's."""
    puzzle = hashi.parse((REPO / "data" / "random" / "hashi-20x20.txt").read_text())
    search = LearningSearch(puzzle.to_csp(), inference="mac", var_order="dom-wdeg")
    search.graphs = []
    next(search.solutions())
    analysis = search.graphs[0]
    assert [str(literal) for literal in analysis.nogood.literals] == [
        "(7,4,11,4) = 0", "(4,3,11,3) = 0", "(2,3,2,6) = 2"]
    shapes = implication_picture(analysis)["shapes"]
    texts = [s for s in shapes if s["type"] == "text"]
    framed = [s for s in shapes if s["type"] == "rect" and s.get("stroke") in (UIP, NOGOOD)]

    def frame_of(words: str) -> str | None:
        label = next(t for t in texts if t["text"] == words)
        return next((s["stroke"] for s in framed if abs(s["y"] + 0.25 - label["y"]) < 1e-6
                     and s["x"] < label["x"] < s["x"] + s["w"]), None)

    assert frame_of("(7,4,11,4) = 0") == UIP
    assert frame_of("(4,3,11,3) = 0") == NOGOOD
    assert frame_of("(2,3,2,6) ≠ 0") == frame_of("(2,3,2,6) ≠ 1") == NOGOOD
    assert frame_of("(4,4,7,4) ≠ 0") is None  # a removal the nogood resolved away
