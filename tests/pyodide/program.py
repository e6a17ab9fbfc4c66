"""What `tests/test_pyodide.py` runs inside Pyodide: install the wheels, then use the package.

Defines `main()`; the Node script awaits it. Inputs come from /inputs.json (written by the
test): the wheels to install, the README's Python blocks, one puzzle text per kind. Prints
one JSON line per step ({"step", "seconds"}) and raises on the first wrong answer.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager


@contextmanager
def step(name: str):
    start = time.perf_counter()
    yield
    print(json.dumps({"step": name, "seconds": round(time.perf_counter() - start, 3)}))


GENERATE = {  # small sizes: the generators search, and WebAssembly is slower
    "hashi": {"width": 7, "height": 7, "difficulty": "easy"},
    "kakuro": {"width": 6, "height": 6, "difficulty": "easy"},
    "towers": {"size": 4, "difficulty": "easy"},
    "singles": {"width": 5, "difficulty": "easy"},
}


async def main() -> None:
    import sys

    import micropip  # loaded by the Node script from a local wheel

    with open("/inputs.json", encoding="utf-8") as handle:
        inputs = json.load(handle)
    with step("install the wheels (micropip, local files)"):
        await micropip.install(["emfs:" + path for path in inputs["wheels"]], deps=False)
    with step("import csp_puzzles and the four puzzles"):
        import csp_puzzles
        from csp_puzzles import hashi, kakuro, singles, towers  # noqa: F401
    assert sys.platform == "emscripten"
    with step("README tour"):
        for block in inputs["readme_blocks"]:
            exec(block, {})
    for kind, text in inputs["puzzles"].items():
        module = getattr(csp_puzzles, kind)
        with step(f"{kind}: parse, solve, check, count"):
            puzzle = module.parse(text)
            result = puzzle.solve(timeout=60)
            assert result.status == "solved", (kind, result.status)
            assert puzzle.check(result.solution) == [], kind
            assert puzzle.count_solutions(limit=2) == 1, kind
        with step(f"{kind}: generate, then solve and check it"):
            made = module.generate(seed=1, **GENERATE[kind])
            again = module.parse(made.to_text())
            result = again.solve(timeout=60)
            assert result.status == "solved" and again.check(result.solution) == [], kind
            assert again.count_solutions(limit=2) == 1, kind
    with step("hashi: the SAT engine (python-sat, CaDiCaL)"):
        puzzle = hashi.parse(inputs["puzzles"]["hashi"])
        result = puzzle.solve(engine="sat", timeout=60)
        assert result.status == "solved" and puzzle.check(result.solution) == []
        assert result.solution == puzzle.solve().solution
        counted = puzzle.count(limit=2, engine="sat")
        assert (counted.solutions, counted.unique) == (1, True)
        assert hashi.parse("1 0 1 0 1\n").solve(engine="sat").status == "unsatisfiable"
    with step("bench.peers.run_limited without fork or threads"):
        from csp_puzzles.bench.peers import run_limited

        value, seconds, finished = run_limited(lambda: 6 * 7, 5)
        assert (value, finished) == (42, True), (value, finished)
    print(json.dumps({"step": "done", "seconds": 0}))
