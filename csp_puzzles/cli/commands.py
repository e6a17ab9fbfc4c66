"""The `csp-puzzles` command line: solve, generate, bench, cnf, course, lite.

Exit status: 0 answered, 3 no solution, 4 a limit was reached first, 2 bad input or usage
(one line on stderr: `csp-puzzles: error: FILE:LINE:COL: what was wrong, what was expected`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NoReturn

from .. import __version__
from ..bench.options import BenchOptionError
from ..core.errors import LimitReached, MissingExtra, ParseError
from ..core.options import check_count_limit, check_max_nodes, check_timeout
from ..core.stats import Stats
from ..core.trace import Trace
from ..puzzle.formats import is_number
from ..puzzle.limits import GENERATE_SIDE, caps_text
from ..puzzle.protocol import LIMIT, SOLVED, UNSATISFIABLE, Puzzle, PuzzleResult
from ..puzzle.registry import KINDS, puzzle_module
from ..puzzle.sizes import sides_offered
from .deadline import Clock, process_age, whole_command
from .outputs import OutputError, check_output, write_failed
from .sources import read_source

EXIT_OK, EXIT_USAGE, EXIT_UNSAT, EXIT_LIMIT = 0, 2, 3, 4


class UsageError(Exception):
    """Bad input or usage, already phrased as `FILE:LINE:COL: message`."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, never argparse's usage block
        raise UsageError(f"<command line>:1:1: {message}")


def load_puzzle(kind: str, source: str) -> Puzzle:
    name = source
    try:
        text, name = read_source(source)
        return puzzle_module(kind).parse(text, filename=name)
    except ParseError as err:
        raise UsageError(str(err.in_file(name))) from None


def _check_limits(args: argparse.Namespace) -> None:
    """Limit values are checked before anything runs (a negative timeout is no limit)."""
    for flag, value, check in (("--timeout", args.timeout, check_timeout),
                               ("--max-nodes", args.max_nodes, check_max_nodes),
                               ("--max-solutions", args.max_solutions, check_count_limit)):
        try:
            check(value)
        except (TypeError, ValueError) as err:
            raise UsageError(f"<command line>:1:1: {flag}: {err}") from None


def _check_outputs(args: argparse.Namespace) -> None:
    """Output paths and the optional packages they need, checked before the work."""
    try:
        if args.trace:
            check_output(args.trace, "--trace")
        if args.png:
            check_output(args.png, "--png", ".png")
    except OutputError as err:
        raise UsageError(str(err)) from None
    if args.png and find_spec("matplotlib") is None:
        raise _missing_package("--png", "matplotlib", "png")


def _missing_package(what: str, package: str, extra: str) -> UsageError:
    return UsageError(f"<command line>:1:1: {what} needs the optional package {package!r}, "
                      f"expected it installed (pip install 'csp-puzzles[{extra}]' or "
                      f"pip install {package})")


# -- solve ---------------------------------------------------------------------------------
def _model_options(puzzle: Puzzle, args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if args.no_adjacent:
        options["adjacent"] = False
    if getattr(args, "model", None):
        options["model"] = args.model
    for key in options:
        if key not in puzzle.model_options:
            flag = "--no-adjacent" if key == "adjacent" else f"--{key}"
            raise UsageError(f"<command line>:1:1: {flag} does not apply to {puzzle.kind}")
    return options


def cmd_solve(args: argparse.Namespace) -> int:
    # one deadline for reading, parsing, the model and the search; run as a program, the
    # interpreter's start and the imports count too
    clock = Clock(args.timeout, spent=args.started_ago)
    _check_limits(args)
    _check_outputs(args)
    try:
        with whole_command(clock):
            puzzle = load_puzzle(args.kind, args.source)
            result = _run_solver(puzzle, args, clock)
    except LimitReached:  # the whole command ran past its deadline
        return _deadline_passed(args)
    if args.trace and result.trace is not None:
        trace = result.trace
        _write_output(args.trace, "--trace", lambda: _save_trace(trace, args.trace))
    if args.png:
        _write_output(args.png, "--png", lambda: _save_png(puzzle, result, args.png))
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        print(_result_text(puzzle, result))
    if result.status == LIMIT:
        return EXIT_LIMIT
    if result.status == UNSATISFIABLE:
        return EXIT_UNSAT
    return EXIT_OK


def _run_solver(puzzle: Puzzle, args: argparse.Namespace, clock: Clock) -> PuzzleResult:
    options = _model_options(puzzle, args)
    limits = dict(inference=args.inference, var_order=args.var_order, val_order=args.val_order,
                  timeout=clock.remaining(), max_nodes=args.max_nodes,
                  trace=bool(args.trace))
    if args.engine is not None:
        if args.engine not in puzzle.engines:
            raise UsageError(f"<command line>:1:1: --engine {args.engine} does not apply to "
                             f"{puzzle.kind} (engines: {', '.join(puzzle.engines)})")
        limits["engine"] = args.engine
    try:
        if args.count:
            return puzzle.count(limit=args.max_solutions, **limits, **options)
        return puzzle.solve(**limits, **options)
    except ValueError as err:  # unknown heuristic or model name
        raise UsageError(f"<command line>:1:1: {err}") from None
    except MissingExtra as err:  # the engine names its extra itself
        raise UsageError(f"<command line>:1:1: --engine {args.engine}: {err}") from None
    except ImportError as err:  # any other optional package that is not installed
        engine = args.engine or "csp"
        raise _missing_package(f"--engine {engine}", err.name or "?", engine) from None


def _deadline_passed(args: argparse.Namespace) -> int:
    """The answer when the deadline passed before the search could report (exit 4)."""
    stats = Stats(seconds=args.timeout or 0.0)
    if args.json:
        print(json.dumps({"kind": args.kind, "status": LIMIT, "solution": None,
                          "solutions": 0 if args.count else None, "unique": None,
                          "stats": {"nodes": stats.nodes, "backtracks": stats.backtracks,
                                    "seconds": round(stats.seconds, 6)}}))
    else:
        print(f"limit reached before an answer (--timeout {args.timeout} s passed while "
              "reading the puzzle or building its model)")
    return EXIT_LIMIT


def _write_output(path: str, flag: str, write: Callable[[], None]) -> None:
    """Run `write`; a failure the early check could not foresee (a full disk) is one line."""
    try:
        write()
    except OSError as err:
        raise UsageError(str(write_failed(path, flag, err))) from None


def _result_text(puzzle: Puzzle, result: PuzzleResult) -> str:
    """The answer for the terminal: what was found, with the effort, then the solved grid."""
    stats = result.stats
    effort = f"{stats.nodes} nodes, {stats.backtracks} backtracks, {stats.seconds:.3f} s"
    if result.engine != "csp":  # other engines report no search statistics
        effort = f"{result.engine.upper()} engine, {stats.seconds:.3f} s"
    lines = []
    if result.solutions is not None:
        if result.status == LIMIT:
            lines.append(f"limit reached after {result.solutions} solution(s) ({effort})")
        elif result.solutions == 0:
            lines.append(f"unsatisfiable: no solution ({effort})")
        elif result.unique:
            lines.append(f"unique: exactly 1 solution ({effort})")
        else:
            lines.append(f"not unique: at least {result.solutions} solutions ({effort})")
    elif result.status == SOLVED:
        lines.append(f"solved ({effort})")
    elif result.status == UNSATISFIABLE:
        lines.append(f"unsatisfiable: no solution ({effort})")
    else:
        lines.append(f"limit reached before an answer ({effort})")
    if result.solution is not None:
        lines.append(puzzle.solution_to_text(result.solution))
    return "\n".join(lines)


def _save_trace(trace: Trace, path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        trace.write_jsonl(handle)


def _save_png(puzzle: Puzzle, result: PuzzleResult, path: str) -> None:
    """The explorer's picture of the solution (or of the puzzle, unsolved), with matplotlib."""
    from ..viz.matplotlib_drawing import puzzle_figure

    puzzle_figure(puzzle, result.solution).savefig(path, dpi=100)


# -- generate ------------------------------------------------------------------------------
def _parse_size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.lower().split("x")
    if len(parts) in (1, 2) and all(is_number(p) and int(p) > 0 for p in parts):
        width = int(parts[0])
        height = int(parts[-1])
        return width, height
    raise UsageError(
        f"<command line>:1:1: bad --size {text!r}, expected WxH or N (like 10x10 or 7)")


def _levels_help() -> str:
    """Each kind's levels and the sides each offers (its generator's `SIZES`)."""
    offered = []
    for kind in KINDS:
        sizes = getattr(import_module(f"csp_puzzles.{kind}.generate"), "SIZES", None)
        if sizes is not None:
            offered.append(f"{kind} {sides_offered(sizes)}")
    return ("a level, offered at these sides (hashi: maxb 2, see hashi.generate): "
            + "; ".join(offered))


def cmd_generate(args: argparse.Namespace) -> int:
    module = puzzle_module(args.kind)
    size = _parse_size(args.size)
    cap = GENERATE_SIDE[args.kind]
    if size is not None and max(size) > cap:
        raise UsageError(f"<command line>:1:1: --size {args.size} is above the cap of {cap} "
                         f"for generated {args.kind} puzzles, expected sides up to {cap}")
    if args.difficulty is not None and args.difficulty not in module.DIFFICULTIES:
        raise UsageError(f"<command line>:1:1: unknown difficulty {args.difficulty!r} for "
                         f"{args.kind}, expected one of {', '.join(module.DIFFICULTIES)}")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    chunks = []
    for i in range(args.count):
        options: dict[str, Any] = {"seed": seed + i}
        if size is not None:
            options["width"], options["height"] = size
        if args.difficulty is not None:
            options["difficulty"] = args.difficulty
        try:
            puzzle = module.generate(**options)
        except ValueError as err:
            raise UsageError(f"<command line>:1:1: {err}") from None
        if args.format == "tatham":
            try:
                chunks.append(puzzle.to_tatham())
            except ValueError as err:
                raise UsageError(f"<command line>:1:1: {err}, expected --format native") from None
        else:
            chunks.append(f"# {args.kind} seed {seed + i}\n{puzzle.to_text().rstrip()}")
        print(chunks[-1] + ("\n" if args.format == "native" and i + 1 < args.count else ""),
              flush=True)
    return EXIT_OK


# -- cnf, bench, course ----------------------------------------------------------------------
def cmd_cnf(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args.kind, args.source)
    try:
        text = puzzle.to_dimacs(three_sat=args.three_sat, **_model_options(puzzle, args))
    except ValueError as err:  # a kind without a SAT encoding
        raise UsageError(f"<command line>:1:1: {err}, expected a kind with one") from None
    sys.stdout.write(text)
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    bench = import_module(f"csp_puzzles.bench.{args.what}")
    try:
        return bench.main(args.rest) or EXIT_OK
    except BenchOptionError as err:  # found before any clock starts
        raise UsageError(f"<command line>:1:1: {err}") from None
    except ImportError as err:  # a peer from an extra (python-constraint2: peers)
        if err.name == "constraint":
            raise _missing_package(f"bench {args.what}", "python-constraint2", "peers") from None
        raise _missing_package(f"bench {args.what}", err.name or "?", "bench") from None


def cmd_course(args: argparse.Namespace) -> int:
    course = import_module("csp_puzzles.teaching.course")
    try:
        written = course.write_course(Path(args.dir), instructor=args.instructor)
    except course.CourseError as err:
        raise UsageError(f"{args.dir}:1:1: {err}") from None
    form = "instructor" if args.instructor else "student"
    print(f"wrote the {form} course ({len(written)} files) to {args.dir}; "
          f"open {Path(args.dir) / 'notebooks' / '00_start_here.ipynb'} in JupyterLab")
    return EXIT_OK


def cmd_app(args: argparse.Namespace) -> int:
    app = import_module("csp_puzzles.teaching.app.launch")
    try:
        return app.serve(args.port, open_browser=not args.no_browser)
    except ImportError as err:  # Voila is in the app extra
        raise UsageError(f"<command line>:1:1: {err}") from None


def cmd_exercises(args: argparse.Namespace) -> int:
    course = import_module("csp_puzzles.teaching.course")
    try:
        written = course.write_student_exercises(Path(args.student))
    except course.CourseError as err:
        raise UsageError(f"{args.student}:1:1: {err}") from None
    for path in written:
        print(path)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    export = import_module("csp_puzzles.viz.export")
    try:
        print(export.run_export(args.notebook, args.output, args.timeout))
    except (FileNotFoundError, ImportError) as err:
        raise UsageError(str(err)) from None
    return EXIT_OK


def cmd_lite(args: argparse.Namespace) -> int:
    lite = import_module("csp_puzzles.teaching.lite")
    pyodide = Path(args.pyodide) if args.pyodide else None
    try:
        print(lite.build_site(Path(args.dir), pyodide))
    except lite.LiteError as err:
        raise UsageError(f"{err.path}:1:1: {err}") from None
    return EXIT_OK


def ascii_int(text: str) -> int:
    """A whole number in ASCII digits (`int()` would also take `١٠` or `１０`)."""
    body = text[1:] if text[:1] in "+-" else text
    if not (body.isascii() and body.isdigit()) or len(body) > 18:
        raise argparse.ArgumentTypeError(f"invalid whole number {text!r}, expected ASCII "
                                         "digits like 42")
    return int(text)


def ascii_float(text: str) -> float:
    """A number in ASCII (`float()` would also take `١.٥`); range checks come later."""
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"invalid number {text!r}, expected ASCII digits "
                                         "like 2.5")
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number {text!r}, expected a number like "
                                         "2.5") from None


#: the subcommands' parsers, to which each `_add_...` below adds its own
Commands = argparse._SubParsersAction  # argparse names no public type for it


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="csp-puzzles", description=__doc__.splitlines()[0],
                     epilog=caps_text())
    parser.add_argument("--version", action="version", version=f"csp-puzzles {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add in (_add_solve, _add_generate, _add_cnf, _add_bench, _add_app, _add_course,
                _add_lite, _add_exercises, _add_export):
        add(commands)
    return parser


def _add_solve(commands: Commands) -> None:
    solve = commands.add_parser("solve", help="solve a puzzle", epilog=caps_text())
    solve.add_argument("kind", choices=KINDS)
    solve.add_argument("source", help="file, '-' for stdin, or a Tatham game ID")
    solve.add_argument("--inference", choices=("none", "fc", "mac"))
    solve.add_argument("--var-order", choices=("input", "mrv", "mrv-degree"))
    solve.add_argument("--val-order", choices=("input", "lcv"))
    solve.add_argument("--timeout", type=ascii_float, metavar="SECONDS",
                       help="one deadline for the whole command: reading, parsing, building "
                            "the model and the search")
    solve.add_argument("--max-nodes", type=ascii_int, metavar="N")
    solve.add_argument("--count", action="store_true", help="count solutions, say if unique")
    solve.add_argument("--max-solutions", type=ascii_int, default=2, metavar="K")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--png", metavar="FILE.png", help="also draw the solution")
    solve.add_argument("--trace", metavar="FILE", help="write the search trace (JSON Lines)")
    solve.add_argument("--no-adjacent", action="store_true",
                       help="hashi: orthogonally adjacent islands may not be joined")
    solve.add_argument("--model", help="the model variant: kakuro combined (default) or "
                                       "decomposed; towers full (default), easy, extreme, plain")
    solve.add_argument("--engine", choices=("csp", "sat", "milp"),
                       help="csp: the core's search (default); sat: hashi only, CaDiCaL through "
                            "python-sat; milp: every kind, integer programming "
                            "on HiGHS (the milp extra); sat and milp have no trace, their "
                            "stats hold seconds only")
    solve.set_defaults(run=cmd_solve)


def _add_generate(commands: Commands) -> None:
    generate = commands.add_parser("generate", help="generate puzzles with one solution")
    generate.add_argument("kind", choices=KINDS)
    generate.add_argument("--size", help="WxH, or N for a square")
    generate.add_argument("--difficulty", help=_levels_help())
    generate.add_argument("--seed", type=ascii_int)
    generate.add_argument("--count", type=ascii_int, default=1)
    generate.add_argument("--format", choices=("native", "tatham"), default="native")
    generate.set_defaults(run=cmd_generate)


def _add_cnf(commands: Commands) -> None:
    cnf = commands.add_parser("cnf", help="DIMACS CNF of a puzzle on stdout")
    cnf.add_argument("kind", choices=KINDS)
    cnf.add_argument("source")
    cnf.add_argument("--3sat", dest="three_sat", action="store_true",
                     help="split long clauses into 3-literal clauses")
    cnf.add_argument("--no-adjacent", action="store_true")
    cnf.set_defaults(run=cmd_cnf)


def _add_bench(commands: Commands) -> None:
    bench = commands.add_parser("bench", help="benchmarks; prints a table")
    bench.add_argument("what", choices=("core", "local", "milp", "deadline", "tatham", "hints",
                                        "walks", "playground", *KINDS))
    bench.add_argument("rest", nargs=argparse.REMAINDER)
    bench.set_defaults(run=cmd_bench)


def _add_app(commands: Commands) -> None:
    app = commands.add_parser("app", help="serve the explorer and the editor as a web page "
                                          "on 127.0.0.1 (Voila, the app extra)")
    app.add_argument("--port", type=ascii_int, default=8866)
    app.add_argument("--no-browser", action="store_true", help="do not open a browser")
    app.set_defaults(run=cmd_app)


def _add_folder_writer(commands: Commands, name: str, help: str,
                       description: str) -> argparse.ArgumentParser:
    """A command that writes into the folder DIR (`course`, `lite`)."""
    writer = commands.add_parser(name, help=help, description=description)
    writer.add_argument("dir", metavar="DIR")
    return writer


def _add_course(commands: Commands) -> None:
    course = _add_folder_writer(
        commands, "course", help="write the course: notebooks and the puzzles they read",
        description="Write the course into DIR (a new or empty folder): notebooks/ and data/, "
                    "ready to open in JupyterLab. Exercises are in student form unless "
                    "--instructor is given.")
    course.add_argument("--instructor", action="store_true",
                        help="write the instructor versions: the solutions and the answer "
                             "keys")
    course.set_defaults(run=cmd_course)


def _add_lite(commands: Commands) -> None:
    lite = _add_folder_writer(
        commands, "lite",
        help="write a static JupyterLite site of the student course (the lite extra)",
        description="Write a static JupyterLite site of the student course into DIR (a new or "
                    "empty folder): open DIR/index.html through any static web server and the "
                    "notebooks run in the browser, nothing installed.")
    lite.add_argument("--pyodide", metavar="PATH",
                      help="a local Pyodide distribution (a folder holding pyodide.mjs, e.g. "
                           "the npm package pyodide unpacked): the site then makes no request "
                           "outside its own folder; default: Pyodide from its CDN")
    lite.set_defaults(run=cmd_lite)


def _add_exercises(commands: Commands) -> None:
    exercises = commands.add_parser(
        "exercises", help="write the student versions of the graded exercises only "
                          "(`course DIR` writes the whole course)")
    exercises.add_argument("--student", metavar="OUT_DIR", required=True)
    exercises.set_defaults(run=cmd_exercises)


def _add_export(commands: Commands) -> None:
    export = commands.add_parser("export", help="a notebook as one HTML page whose "
                                 "explorers step with no kernel and no network")
    export.add_argument("notebook")
    export.add_argument("-o", "--output", required=True, metavar="OUT.html")
    export.add_argument("--timeout", type=ascii_int, default=600, metavar="SECONDS",
                        help="longest time one cell may run")
    export.set_defaults(run=cmd_export)


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        args.started_ago = process_age() if argv is None else 0.0
        if args.command == "generate" and args.count < 1:
            raise UsageError("<command line>:1:1: --count must be at least 1")
        return args.run(args)
    except UsageError as err:
        print(f"csp-puzzles: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except ParseError as err:  # a source that could not be read (load_puzzle names it)
        print(f"csp-puzzles: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("csp-puzzles: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
