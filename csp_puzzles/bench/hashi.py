"""`csp-puzzles bench hashi`: the Hashi solver against its peers, measured in one run.

Four parts (choose with --parts):

- `coelho`: the Coelho et al. instances (100-400 islands) per size class: solved count,
  median / mean / max seconds, nodes and backtracks of each engine (`--engines csp,sat`:
  the CSP search and the SAT back end, whose python-sat solver `--sat-solver` picks;
  `pycosat` adds the same SAT loop on PicoSAT, if installed), next to OR-Tools CP-SAT (one
  worker, a single-commodity flow model) on the same instances with the same time limit,
  and the ratios of the times;
- `tatham`: Tatham's Bridges puzzles: how many need no backtrack, and the seconds;
- `janko`: the janko.at Hashi puzzles, the same, by the default solve and by failed-literal
  probing (`var_order="probe"`), which solves every one without a backtrack;
- `peer`: python-constraint2 on the same CSP (degree sums and crossings propagated by
  forward checking, connectivity checked once everything is assigned) on small puzzles.

`--limit N` takes N instances per class (every k-th file, spread over the densities);
the default runs all 1440, which takes hours with the peers. `--quick` is `--limit 3`.
`--clock cpu` reports CPU seconds instead of wall-clock ones (steadier on a shared
machine; the time limit itself stays wall-clock, so a loaded machine still stops runs
early); `--log FILE` keeps every instance's times as they come, for long runs.

`--generate` adds the generator's table (seconds per size and difficulty, see
`hashi_generate.py`) and `--sat` the SAT back end against the CSP solver.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .. import hashi
from ..hashi.check import check
from ..hashi.sat import DEFAULT_SOLVER, SOLVERS
from . import hashi_generate
from .options import BenchParser, at_least_one, names_from
from .peers import run_limited, to_python_constraint
from .pycosat_backend import PicoSat, pycosat_available
from .report import Progress, median, performance_profile, table

SHARED = Path(os.environ.get("CSP_PUZZLES_SHARED",
                           Path(__file__).resolve().parents[3] / "shared")) / "data"
SIZES = ("100", "200", "300", "400")
PARTS = ("coelho", "tatham", "janko", "peer")


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    limit = 3 if args.quick else args.limit
    parts = set(args.parts)
    if "coelho" in parts:
        print(bench_coelho(args.data / "coelho-hashi", args.sizes, limit,
                           args.timeout, not args.no_ortools, args.engines,
                           args.plot, args.sat_solver, args.log, args.clock))
    if "tatham" in parts:
        print(bench_tatham(args.data / "tatham" / "bridges.tsv", args.timeout))
    if "janko" in parts:
        print(bench_janko(args.data / "janko" / "hashi.json", args.timeout))
    if "peer" in parts:
        print(bench_peer(args.data / "tatham" / "bridges.tsv", args.peer_timeout,
                         args.timeout))
    if args.generate:
        sizes = hashi_generate.QUICK_SIZES if args.quick else hashi_generate.SIZES
        count = 2 if args.quick else 5
        print("Generator (seconds per puzzle)\n"
              + hashi_generate.generation_table(sizes, hashi_generate.LEVELS, count))
    if args.sat:
        print("SAT back end against the CSP solver\n" + hashi_generate.sat_table(limit))
    return 0


def _parser() -> BenchParser:
    parser = BenchParser(prog="csp-puzzles bench hashi", description=__doc__)
    parser.add_argument("--data", type=Path, default=SHARED, help="the shared data folder")
    parser.add_argument("--parts", type=names_from(PARTS), default=list(PARTS),
                        help="comma-separated: coelho, tatham, janko, peer")
    parser.add_argument("--sizes", type=names_from(SIZES), default=list(SIZES),
                        help="Coelho size classes")
    parser.add_argument("--limit", type=at_least_one,
                        help="instances per Coelho class (default all)")
    parser.add_argument("--quick", action="store_true", help="same as --limit 3")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds per instance and solver (default 60)")
    parser.add_argument("--engines", type=names_from(ENGINE_NAMES), default=["csp", "sat"],
                        help="our engines on the Coelho instances, comma-separated: csp, sat, "
                             "pycosat (the SAT engine's loop on PicoSAT, if installed), and "
                             "the CSP engine with a chosen look-back: csp+none (chronological "
                             "backtracking), csp+cbj (backjumping), csp+learn (1-UIP nogood "
                             "learning)")
    parser.add_argument("--sat-solver", default=DEFAULT_SOLVER, choices=SOLVERS,
                        help=f"the python-sat solver of the sat engine (default {DEFAULT_SOLVER})")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="Coelho table: wall-clock seconds (default) or CPU seconds of "
                             "the process (steadier on a busy machine; the limit stays "
                             "wall-clock)")
    parser.add_argument("--log", metavar="FILE",
                        help="append one line per Coelho instance and solver as it is timed")
    parser.add_argument("--no-ortools", action="store_true", help="skip CP-SAT")
    parser.add_argument("--plot", metavar="PNG",
                        help="also save the Coelho performance profile (one panel a class)")
    parser.add_argument("--peer-timeout", type=float, default=10.0,
                        help="seconds per puzzle for python-constraint2 (default 10)")
    parser.add_argument("--generate", action="store_true",
                        help="also time the generator per size and difficulty")
    parser.add_argument("--sat", action="store_true",
                        help="also compare the SAT back end with the CSP solver")
    return parser


# -- Coelho et al. ---------------------------------------------------------------------------
def sample(files: list[Path], limit: int | None) -> list[Path]:
    """`limit` files spread evenly over the sorted list (all of them without a limit)."""
    if limit is None or limit >= len(files):
        return files
    step = len(files) / limit
    return [files[int(i * step)] for i in range(limit)]


def bench_coelho(folder: Path, sizes: list[str], limit: int | None, timeout: float,
                 ortools: bool, engines: list[str] | None = None,
                 plot: str | None = None, sat_solver: str = DEFAULT_SOLVER,
                 log: str | None = None, clock: str = "wall") -> str:
    """Per class: each engine's row, CP-SAT's, then each engine's times over its peers'.

    `log` names a file that receives one tab-separated line per instance and solver as
    soon as it is timed (size, file, solver, solved, wall-clock and CPU seconds): a long
    run stopped early still leaves its measurements. `clock` ("wall" or "cpu") is the
    time the table reports.
    """
    if not folder.exists():
        return f"coelho: {folder} not found, skipped"
    solvers, notes = _coelho_solvers(engines or ["csp", "sat"], ortools, timeout, sat_solver,
                                     clock)
    solvers.warm_up()
    rows = []
    panels: dict[str, dict[str, list[float | None]]] = {}
    with open(log or os.devnull, "a", encoding="utf-8") as log_file:  # no log: nowhere
        for size in sizes:
            files = sample(sorted((folder / size).glob("*.has")), limit)
            runs = solvers.time_class(size, files, log_file)
            panels[f"{size} islands"] = {
                solvers.label(name): [r["seconds"] if r["solved"] else None for r in rs]
                for name, rs in runs.items()}
            rows += _coelho_rows(size, runs, solvers.label)
    headers = ("class", "solved", "n", "median s", "mean s", "max s", "med nodes",
               "med backtracks", "med backjumps", "med learnt", "nogood literals")
    note = "".join("\n" + line for line in notes)
    if plot:
        performance_profile(plot, panels, timeout,
                            f"Coelho et al. Hashi instances, {timeout:g} s limit")
        note += f"\n(performance profile saved to {plot})"
    return (f"Coelho et al. instances, {timeout:g} s (wall-clock) per instance, {clock} seconds "
            "(an unsolved instance counts "
            "its time spent; a row 'X / Y' holds the ratios of X's median, mean and max over "
            "Y's)\n" + table(headers, rows) + note)


@dataclass
class _Solvers:
    """The solvers timed on each Coelho instance (our `engines`, then CP-SAT if `cpsat`),
    with the settings they share."""

    engines: list[str]
    cpsat: bool
    timeout: float
    sat_solver: str
    clock: str

    def names(self) -> list[str]:
        """The solvers in the table's order: our engines, then CP-SAT."""
        return [*self.engines, CPSAT] if self.cpsat else list(self.engines)

    def label(self, name: str) -> str:
        """A solver's name in the table: `csp-puzzles CSP`, ..., `CP-SAT`."""
        return "CP-SAT" if name == CPSAT else ENGINE_NAMES[name]

    def time(self, puzzle: hashi.Hashi) -> dict[str, dict[str, Any]]:
        """Each solver's timed run on `puzzle`, by solver (CP-SAT last)."""
        runs = {engine: run_ours(puzzle, self.timeout, engine, self.sat_solver, self.clock)
                for engine in self.engines}
        if self.cpsat:
            runs[CPSAT] = run_cpsat(puzzle, self.timeout, self.clock)
        return runs

    def warm_up(self) -> None:
        """Imports and first calls, kept out of the timings."""
        self.time(hashi.parse("2 0 2\n"))

    def time_class(self, size: str, files: list[Path],
                   log: TextIO) -> dict[str, list[dict[str, Any]]]:
        """Every solver's runs on the instances of one size class, each logged as it ends."""
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in self.names()}
        progress = Progress(f"coelho {size}", len(files))
        for path in files:
            puzzle = hashi.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for name, run in self.time(puzzle).items():
                runs[name].append(run)
                log.write(f"{size}\t{path.name}\t{name}\t{int(run['solved'])}\t"
                          f"{run['wall']:.6f}\t{run['cpu']:.6f}\n")
            log.flush()
            progress.step(path.name)
        return runs


#: CP-SAT's key among the runs of a class
CPSAT = "cpsat"
#: the solvers every engine's times are divided by, and their names in the ratio rows
RATIO_PEERS = {CPSAT: "CP-SAT", "pycosat": "pycosat"}


def _coelho_solvers(engines: list[str], ortools: bool, timeout: float, sat_solver: str,
                    clock: str) -> tuple[_Solvers, list[str]]:
    """The solvers that can run here, and the notes saying which could not."""
    unknown = set(engines) - set(ENGINE_NAMES)
    if unknown:
        raise ValueError(f"unknown engine(s) {', '.join(sorted(unknown))}; expected "
                         f"{', '.join(ENGINE_NAMES)}")
    notes = [f"(SAT engine on python-sat's {sat_solver})"] if "sat" in engines else []
    if "pycosat" in engines and not pycosat_available():
        engines = [e for e in engines if e != "pycosat"]
        notes.append("(pycosat not installed: the PicoSAT column skipped)")
    cpsat = _cpsat_available() if ortools else False
    if ortools and not cpsat:
        notes.append("(ortools not installed: CP-SAT skipped)")
    return _Solvers(engines, cpsat, timeout, sat_solver, clock), notes


def _coelho_rows(size: str, runs: dict[str, list[dict[str, Any]]],
                 label: Callable[[str], str]) -> list[tuple]:
    """One size class: a row per solver, then each engine's times over CP-SAT's and
    PicoSAT's."""
    rows = [_class_row(f"{size} {label(name)}", rs) for name, rs in runs.items()]
    peers = [(peer, runs[name]) for name, peer in RATIO_PEERS.items() if name in runs]
    for engine, engine_runs in runs.items():
        for peer, peer_runs in peers:
            if engine not in (CPSAT, peer):
                rows.append(_ratio_row(f"{size} {engine} / {peer}", engine_runs, peer_runs))
    return rows


#: our engines; "pycosat" is the SAT engine's loop on PicoSAT (the engine's former solver),
#: "csp+none", "csp+cbj" and "csp+learn" the CSP engine with each look-back (`look_back=
#: "none"`: chronological backtracking, `"cbj"`, `"learn"`), whatever Hashi's default
ENGINE_NAMES = {"csp": "csp-puzzles CSP", "csp+none": "csp-puzzles CSP, chronological",
                "csp+cbj": "csp-puzzles CSP, backjumping",
                "csp+learn": "csp-puzzles CSP, learning", "sat": "csp-puzzles SAT",
                "pycosat": "SAT-loop PicoSAT"}


def stopwatch() -> Callable[[], tuple[float, float]]:
    """Start timing; the function returned gives the (wall-clock, CPU) seconds since.

    CPU seconds (of this process, all threads) do not count the time other programs take
    the processor away: on a shared machine they are the steadier measure.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    return lambda: (time.perf_counter() - wall, time.process_time() - cpu)


def _timing(elapsed: Callable[[], tuple[float, float]], clock: str) -> dict[str, float]:
    wall, cpu = elapsed()
    return {"seconds": cpu if clock == "cpu" else wall, "wall": wall, "cpu": cpu}


def run_ours(puzzle: hashi.Hashi, timeout: float, engine: str = "csp",
             sat_solver: str = DEFAULT_SOLVER, clock: str = "wall",
             var_order: str | None = None) -> dict[str, Any]:
    """One timed solve, its solution checked (`var_order`: the CSP engine's, if not its
    default)."""
    elapsed = stopwatch()
    if engine == "pycosat":
        result = puzzle.solve(timeout=timeout, engine="sat", solver=PicoSat)
    elif engine == "sat":
        result = puzzle.solve(timeout=timeout, engine="sat", solver=sat_solver)
    else:
        engine, _, look_back = engine.partition("+")
        result = puzzle.solve(timeout=timeout, engine=engine, look_back=look_back or None,
                              var_order=var_order)
    timing = _timing(elapsed, clock)
    solved = result.status == "solved"
    if solved and check(puzzle, result.solution):
        raise AssertionError(f"invalid solution for {puzzle}: {check(puzzle, result.solution)}")
    if result.engine == "sat":  # a SAT solver reports no nodes
        return {"solved": solved, **timing}
    return {"solved": solved, **timing, "nodes": result.stats.nodes,
            "backtracks": result.stats.backtracks, "backjumps": result.stats.backjumps,
            "learnt": result.stats.learnt, "learnt_literals": result.stats.learnt_literals}


def _ratio_row(label: str, ours: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> tuple:
    def ratio(statistic: Callable[[list[float]], float]) -> float:
        mine = statistic([r["seconds"] for r in ours])
        other = statistic([r["seconds"] for r in theirs])
        return round(mine / max(other, 1e-9), 3)

    return (label, "", "", ratio(median), ratio(statistics.fmean), ratio(max), "", "", "", "",
            "")


def _class_row(label: str, runs: list[dict[str, Any]]) -> tuple:
    seconds = [r["seconds"] for r in runs]
    return (label, sum(r["solved"] for r in runs), len(runs), median(seconds),
            statistics.fmean(seconds) if seconds else float("nan"),
            max(seconds) if seconds else float("nan"),
            median([r["nodes"] for r in runs]) if runs and "nodes" in runs[0] else "",
            median([r["backtracks"] for r in runs]) if runs and "backtracks" in runs[0] else "",
            median([r["backjumps"] for r in runs]) if runs and "backjumps" in runs[0] else "",
            median([r["learnt"] for r in runs]) if runs and "learnt" in runs[0] else "",
            _nogood_length(runs))


def _nogood_length(runs: list[dict[str, Any]]) -> float | str:
    """The mean number of literals in the nogoods a class's runs learnt ("" if none)."""
    learnt = sum(r.get("learnt", 0) for r in runs)
    if not learnt:
        return ""
    return round(sum(r["learnt_literals"] for r in runs) / learnt, 1)


# -- OR-Tools CP-SAT -------------------------------------------------------------------------
def _cpsat_available() -> bool:
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:
        return False
    return True


def run_cpsat(puzzle: hashi.Hashi, timeout: float, clock: str = "wall") -> dict[str, Any]:
    """CP-SAT with one worker on a flow model; the time includes building the model."""
    from ortools.sat.python import cp_model

    elapsed = stopwatch()
    model = cp_model.CpModel()
    n = len(puzzle.islands)
    count = {e.index: model.new_int_var(0, puzzle.maxb, f"x{e.index}") for e in puzzle.edges}
    used = {e.index: model.new_bool_var(f"y{e.index}") for e in puzzle.edges}
    for k in count:
        model.add(count[k] >= used[k])
        model.add(count[k] <= puzzle.maxb * used[k])
    for island in puzzle.islands:
        model.add(sum(count[k] for k in puzzle.edges_at[island.index]) == island.value)
    for h, v in puzzle.crossings:
        model.add_bool_or([used[h].negated(), used[v].negated()])
    # single-commodity flow: island 0 sends one unit to every other island along used edges
    flow_in: list[list[Any]] = [[] for _ in range(n)]
    flow_out: list[list[Any]] = [[] for _ in range(n)]
    for e in puzzle.edges:
        for a, b in ((e.a, e.b), (e.b, e.a)):
            f = model.new_int_var(0, n - 1, f"f{e.index}_{a}")
            model.add(f <= (n - 1) * used[e.index])
            flow_out[a].append(f)
            flow_in[b].append(f)
    for i in range(n):
        supply = n - 1 if i == 0 else -1
        model.add(sum(flow_out[i]) - sum(flow_in[i]) == supply)
    if not puzzle.loops:
        model.add(sum(used.values()) == n - 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = timeout
    status = solver.solve(model)
    timing = _timing(elapsed, clock)
    solved = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    if solved:
        solution = {e.key: solver.value(count[e.index]) for e in puzzle.edges
                    if solver.value(count[e.index])}
        problems = check(puzzle, solution)
        if problems:
            raise AssertionError(f"CP-SAT gave an invalid solution: {problems}")
    return {"solved": solved, **timing}


# -- Tatham ----------------------------------------------------------------------------------
def _tatham_puzzles(path: Path) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            params, game_id = line.split("\t")
            rows.append((params, game_id))
    return rows


def bench_tatham(path: Path, timeout: float) -> str:
    if not path.exists():
        return f"tatham: {path} not found, skipped"
    groups: dict[str, list[dict[str, Any]]] = {}
    rows = _tatham_puzzles(path)
    progress = Progress("tatham", len(rows))
    for params, game_id in rows:
        puzzle = hashi.parse(game_id)
        level = {"0": "easy", "1": "medium", "2": "hard"}[params[-1]]
        groups.setdefault(level, []).append(run_ours(puzzle, timeout))
        progress.step(params)
    out = [_search_free_row(level, runs) for level, runs in groups.items()]
    headers = ("Tatham level", "puzzles", "solved", "no backtrack", "nodes", "median s",
               "max s")
    return "Tatham Bridges puzzles (all sizes and variants)\n" + table(headers, out)


def _search_free_row(label: str, runs: list[dict[str, Any]]) -> tuple:
    """Published puzzles: how many were solved, and how many with no backtrack."""
    return (label, len(runs), sum(r["solved"] for r in runs),
            sum(r["backtracks"] == 0 for r in runs), sum(r["nodes"] for r in runs),
            median([r["seconds"] for r in runs]), max(r["seconds"] for r in runs))


# -- janko.at -------------------------------------------------------------------------------
#: the two ways of solving a published puzzle: the default (restarts and learning, made for
#: large open instances) and failed-literal probing (a look-ahead before each guess)
JANKO_ORDERS = {"default": None, "probing": "probe"}


def bench_janko(path: Path, timeout: float) -> str:
    if not path.exists():
        return f"janko: {path} not found, skipped"
    with open(path, encoding="utf-8") as handle:
        entries = json.load(handle)["data"]
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in JANKO_ORDERS}
    progress = Progress("janko", len(entries))
    for name, entry in entries.items():
        puzzle = hashi.parse(entry["problem"], filename=f"{path}:{name}")
        for label, order in JANKO_ORDERS.items():
            runs[label].append(run_ours(puzzle, timeout, var_order=order))
        progress.step(name)
    out = [_search_free_row(label, rs) for label, rs in runs.items()]
    headers = ("solve", "puzzles", "solved", "no backtrack", "nodes", "median s", "max s")
    return "janko.at Hashi puzzles\n" + table(headers, out)


# -- python-constraint2 ----------------------------------------------------------------------
def bench_peer(path: Path, peer_timeout: float, timeout: float) -> str:
    """python-constraint2 against csp-puzzles on the classic (m2, loops allowed) Tatham puzzles."""
    if not path.exists():
        return f"peer: {path} not found, skipped"
    rows = [(p, g) for p, g in _tatham_puzzles(path)
            if "m2" in p and "L" not in p]
    by_size: dict[str, list[tuple[float, bool, float]]] = {}
    progress = Progress("python-constraint2", len(rows))
    for params, game_id in rows:
        puzzle = hashi.parse(game_id)
        problem = to_python_constraint(puzzle.to_csp(), "BacktrackingSolver")
        value, seconds, finished = run_limited(problem.getSolution, peer_timeout)
        ok = finished and value is not None and not check(puzzle, puzzle.decode(value))
        ours = run_ours(puzzle, timeout)["seconds"]
        by_size.setdefault(params.split("i")[0], []).append((seconds, ok, ours))
        progress.step(params)
    out = []
    for size, runs in by_size.items():
        peer_median = median([s for s, _, _ in runs])
        ours_median = median([o for _, _, o in runs])
        out.append((size, len(runs), sum(ok for _, ok, _ in runs), peer_median,
                    max(s for s, _, _ in runs), ours_median,
                    round(peer_median / max(ours_median, 1e-9), 1)))
    headers = ("size", "puzzles", "peer solved", "peer median s", "peer max s",
               "ours median s", "peer / ours")
    return (f"python-constraint2 (BacktrackingSolver, {peer_timeout:g} s limit) on the same "
            "CSP\n" + table(headers, out))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
