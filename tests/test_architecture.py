"""The floors of ARCHITECTURE.md, enforced: each floor imports only the floors below it.

Every import in the package is read (at the top of a module or inside a function, static
`import`/`from` statements and `import_module` calls with a literal name) and the floor of
the importer compared with the floor of what it imports. A folder may import itself; the
four puzzles and the examples share a floor and import none of each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "csp_puzzles"

#: each top-level folder of the package and its floor, lowest first (ARCHITECTURE.md)
FLOORS = {
    "core": 0,
    "solvers": 1,
    "puzzle": 2,
    "hashi": 3, "kakuro": 3, "towers": 3, "singles": 3, "examples": 3,
    "viz": 4,
    "teaching": 5,
    "bench": 6,
    "cli": 7,
}
#: the package's roof: `__init__` (the public names) and `__main__` import anything
ROOF = {"__init__", "__main__"}
#: what a floor may read from the roof: the command line prints the package's version
FROM_THE_ROOF = {"cli": {"csp_puzzles.__version__"}}


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "coursefiles" not in p.parts)


def dotted(path: Path) -> list[str]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import of the package in `path`."""
    tree = ast.parse(path.read_text(), str(path))
    here = dotted(path)
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            targets = [name] if node.module else [f"{name}.{a.name}" for a in node.names]
            found += [(node.lineno, t) for t in targets]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            found.append((node.lineno, str(node.args[0].value)))
    return [(line, name) for line, name in found if name.split(".")[0] == "csp_puzzles"]


def folder_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_the_top_holds_the_init_main_and_folders_only():
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.stem not in ROOF)
    assert loose == [], f"modules at the top of csp_puzzles/: {loose} (ARCHITECTURE.md)"
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(FLOORS), "a folder without a floor: add it to ARCHITECTURE.md"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_floor_imports_only_the_floors_below(path):
    mine = dotted(path)
    if len(mine) == 1 or mine[1] in ROOF:
        return  # the roof
    folder = mine[1]
    wrong = []
    for line, name in imported(path):
        other = folder_of(name)
        if other == folder or name in FROM_THE_ROOF.get(folder, ()):
            continue
        if other in ROOF or FLOORS.get(other, 99) >= FLOORS[folder]:
            wrong.append(f"line {line}: {name} (floor {FLOORS.get(other, 'roof')})")
    assert not wrong, (f"{path.relative_to(PACKAGE)} is on floor {FLOORS[folder]} ({folder}) "
                       f"and imports from its floor or above: " + "; ".join(wrong))


#: the modules that import matplotlib (issue 39): the drawing of pictures, and the
#: benchmarks' performance profiles
MATPLOTLIB = {"viz/matplotlib_drawing.py", "bench/report.py"}


def test_matplotlib_is_imported_by_two_modules_only():
    importers = set()
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            if any(name.split(".")[0] == "matplotlib" for name in names):
                importers.add(path.relative_to(PACKAGE).as_posix())
    assert importers == MATPLOTLIB


#: (files, functions) of each walk on the tree before issue 39, counted as `bench walks`
#: counts them (the issue's own count, another way: 7 files and 37 functions; 7 and 22)
WALKS_BEFORE = {"fc": (7, 40), "nogood": (6, 18)}


@pytest.mark.parametrize("name", sorted(WALKS_BEFORE))
def test_each_walk_is_shorter_than_before_and_architecture_md_reads_it(name):
    from csp_puzzles.bench.walks import WALKS

    walk = WALKS[name]()
    files, functions = WALKS_BEFORE[name]
    assert len(walk.files) < files and len(walk.steps) < functions, walk.reading_order()
    text = " ".join((PACKAGE.parent / "ARCHITECTURE.md").read_text().split())
    stale = "ARCHITECTURE.md's reading order is stale: `csp-puzzles bench walks --order`"
    assert " ".join(walk.reading_order().split()) in text, stale
    assert (f"{len(walk.files)} files, {len(walk.steps)} functions ({files} and {functions} "
            "before") in text, stale
