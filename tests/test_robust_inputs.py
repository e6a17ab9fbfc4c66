"""Bad input and bad limits get one located error, never a traceback, a hang or a wrong read.

Each case here was a failure once: Unicode digits crashing `int()`, a byte order mark
refused, mistyped game IDs blamed on the grid parser, output paths failing after the
work, limits that did not limit, missing size caps.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import time

import pytest

from csp_puzzles import (
    CSP,
    ParseError,
    Predicate,
    count_solutions,
    hashi,
    kakuro,
    singles,
    solve,
    towers,
)
from csp_puzzles.cli import main
from csp_puzzles.puzzle.limits import GENERATE_SIDE, GRID_SIDE, INPUT_BYTES, MAX_DOMAIN_SIZE
from tests.conftest import REPO

ERROR_LINE = re.compile(r"^csp-puzzles: error: [^\n]+:\d+:\d+: [^\n]+\n$")
PARSERS = {"hashi": hashi.parse, "kakuro": kakuro.parse, "towers": towers.parse,
           "singles": singles.parse}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- digits and encodings -------------------------------------------------------------------
@pytest.mark.parametrize("digit", ["\u00b2", "\u0661", "\uff11", "\u09e7"])
@pytest.mark.parametrize("kind, template", [
    ("hashi", "{d} 0 {d}\n"),
    ("hashi", "3 3 {d}\n1 0 1\n0 0 0\n1 0 1\n"),
    ("hashi", "3x3:{d}a1"),
    ("kakuro", "3 3\n- {d}, 4,\n,{d} 0 0\n,3 0 0\n"),
    ("towers", "2:{d}////////"),
    ("towers", "2 2 2\n{d} -\n- -\n- -\n- -\n"),
    ("singles", "2 2\n1 {d}\n2 1\n"),
    ("singles", "{d}x2:1221"),
])
def test_unicode_digits_are_located_errors(kind, template, digit):
    text = template.format(d=digit)
    with pytest.raises(ParseError) as caught:
        PARSERS[kind](text, filename="f")
    assert caught.value.line >= 1 and caught.value.column >= 1
    assert str(caught.value).startswith("f:")


@pytest.mark.parametrize("kind, text", [
    ("hashi", "2 0 2\n"), ("hashi", "3x1:2a2"),
    ("kakuro", "3 3\n- 4, 3,\n,3 0 0\n,4 0 0\n"),
    ("towers", "2 2 2\n2 1\n1 2\n2 1\n1 2\n"), ("towers", "2:2/1/1/2/2/1/1/2"),
    ("singles", "2 2\n1 2\n2 1\n"), ("singles", "2x2:1221"),
])
def test_a_byte_order_mark_is_accepted(kind, text):
    assert PARSERS[kind]("\ufeff" + text) == PARSERS[kind](text)


def test_a_bom_file_and_a_bad_byte_on_the_command_line(capsys, tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf2 0 2\n")
    assert run(capsys, "solve", "hashi", str(path))[0] == 0
    path.write_bytes(b"2 0 2\n1 \xff 1\n")
    code, _, err = run(capsys, "solve", "hashi", str(path))
    assert code == 2 and f"{path}:2:3: not UTF-8" in err


def test_very_long_numbers_are_errors_not_int_crashes():
    for kind, text in (("hashi", "9" * 5000 + " 1\n1 1\n"), ("singles", "9" * 5000 + "x1:1"),
                       ("towers", "9" * 5000 + ":1"), ("kakuro", "2 2\n- " + "9" * 5000 + ",")):
        with pytest.raises(ParseError):
            PARSERS[kind](text)


# -- misleading errors ------------------------------------------------------------------------
@pytest.mark.parametrize("kind, text, words", [
    ("hashi", "x5Lm2:a2b", "bad Tatham game ID parameters 'x5Lm2'"),
    ("hashi", "5x5Lm2:a2b", "covers 4 cells, expected 25"),  # he reads 5x5L: m2 comes too late
    ("hashi", "5x5m2L:a#", "unexpected '#' in the description"),
    ("singles", "y5:12345", "bad Tatham game ID parameters 'y5'"),
    ("towers", "x4:1/2", "bad Tatham game ID parameters 'x4'"),
    ("towers", "4x4:1/2", "2 clues, expected 16"),  # he reads 4x4 as 4
    ("towers", "4:1/2/3\nmore", "a second line after the game ID"),
])
def test_mistyped_game_ids_are_reported_as_game_ids(kind, text, words):
    with pytest.raises(ParseError) as caught:
        PARSERS[kind](text)
    assert words in caught.value.message


def test_a_bad_island_in_the_first_row_is_not_blamed_on_a_header():
    with pytest.raises(ParseError) as caught:
        hashi.parse("10 0 1\n0 0 0\n1 0 1\n")
    assert "island 10" in caught.value.message and "header" not in caught.value.message


def test_a_missing_towers_clue_line_says_so():
    with pytest.raises(ParseError) as caught:
        towers.parse("4 4 4\n- - 1 -\n- - - -\n- - - -\n")
    assert "the right clue line is missing" in caught.value.message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifos_and_dev_stdin_are_readable(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    script = (f"cat > {fifo} <<< '2 0 2' & "
              f"{sys.executable} -m csp_puzzles solve hashi {fifo} && "
              f"{sys.executable} -m csp_puzzles solve hashi /dev/stdin <<< '2 0 2' && "
              f"{sys.executable} -m csp_puzzles solve hashi <(echo '2 0 2')")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=REPO,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("solved") == 3


# -- size caps --------------------------------------------------------------------------------
def test_endless_input_is_refused_at_the_cap():
    done = subprocess.run([sys.executable, "-m", "csp_puzzles", "solve", "hashi", "-"],
                          stdin=open("/dev/zero", "rb"), capture_output=True, text=True,
                          cwd=REPO, timeout=60)
    assert done.returncode == 2
    assert f"more than {INPUT_BYTES} bytes" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("kind, text", [
    ("hashi", "1" * (GRID_SIDE["hashi"] + 1) + "\n"),
    ("hashi", "101x1:a"),
    ("kakuro", f"{GRID_SIDE['kakuro'] + 1} 3\n"),
    ("singles", "5000 5000\n1 2\n"),
    ("singles", "1 " * (GRID_SIDE["singles"] + 1)),
    ("towers", "10:" + "/" * 39),
    ("towers", "- " * 10 + "\n" + ("- " * 10 + "\n") * 3),
])
def test_grids_above_the_cap_name_the_cap(kind, text):
    with pytest.raises(ParseError) as caught:
        PARSERS[kind](text)
    assert "cap" in caught.value.message or "out of range" in caught.value.message


def test_input_above_the_byte_cap_is_refused():
    for parse in PARSERS.values():
        with pytest.raises(ParseError, match="cap"):
            parse("1" * (INPUT_BYTES + 1))


def test_towers_above_nine_is_a_clear_error_everywhere():
    with pytest.raises(ValueError, match="cap"):
        towers.Towers(11, (2,) + (0,) * 10, (0,) * 11, (0,) * 11, (0,) * 11)
    with pytest.raises(ValueError, match="cap"):
        towers.generate(size=11)


def test_generator_sizes_are_capped(capsys):
    for kind in ("hashi", "kakuro", "singles", "towers"):
        code, _, err = run(capsys, "generate", kind, "--size", "100000")
        assert code == 2 and ERROR_LINE.match(err), err
    with pytest.raises(ValueError, match="cap"):
        hashi.generate(width=1000, height=1000)
    with pytest.raises(ValueError, match="cap"):
        kakuro.generate(width=1000, height=1000)


def test_help_states_the_caps(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert f"input at most {INPUT_BYTES} bytes" in capsys.readouterr().out.replace("\n", " ")


def test_the_readme_states_the_caps():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Limits and size caps"):]
    assert f"| puzzle input | {INPUT_BYTES} bytes" in section
    read = f"hashi {GRID_SIDE['hashi']}, kakuro {GRID_SIDE['kakuro']}, singles " \
           f"{GRID_SIDE['singles']}, towers size {GRID_SIDE['towers']}"
    made = ", ".join(f"{kind} {GENERATE_SIDE[kind]}" for kind in
                     ("hashi", "kakuro", "singles", "towers"))
    assert f"| grid sides read | {read} |" in section
    assert f"| grid sides generated | {made} |" in section
    assert f"| values per variable (core) | {MAX_DOMAIN_SIZE} |" in section


def test_a_count_limit_below_one_is_refused():
    with pytest.raises(ValueError, match="limit"):
        towers.parse("2:2/1/1/2/2/1/1/2").count_solutions(limit=0)


@pytest.mark.parametrize("engine", ["csp", "sat", "milp"])
def test_every_engine_refuses_bad_limits(engine):
    puzzle = hashi.parse("3x1:2a2")
    with pytest.raises(ValueError, match="timeout"):
        puzzle.solve(engine=engine, timeout=-1)
    with pytest.raises(ValueError, match="max_nodes"):
        puzzle.count(engine=engine, max_nodes=-5)


def test_the_core_caps_domain_sizes():
    csp = CSP()
    with pytest.raises(ValueError, match="cap"):
        csp.add_variable("x", range(10 ** 12))


# -- output paths, checked before the work --------------------------------------------------
@pytest.fixture
def puzzle_file(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("2 0 2\n")
    return str(path)


@pytest.mark.parametrize("flag, target, words", [
    ("--trace", "missing/t.jsonl", "does not exist"),
    ("--trace", ".", "is given a folder"),
    ("--trace", "p.txt/t.jsonl", "is a file, not a folder"),
    ("--png", ".", "is given a folder"),
    ("--png", "picture.jpg", "ending in .png"),
    ("--png", "picture", "ending in .png"),
    ("--png", "missing/picture.png", "does not exist"),
])
def test_bad_output_paths_fail_before_the_work(capsys, tmp_path, puzzle_file, flag, target,
                                               words, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "solve", "hashi", puzzle_file, flag, target)
    assert code == 2 and ERROR_LINE.match(err) and words in err, err
    assert out == ""  # nothing was solved first
    assert not os.path.exists(tmp_path / "picture.png")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line(capsys, puzzle_file):
    code, _, err = run(capsys, "solve", "hashi", puzzle_file, "--trace", "/dev/full")
    assert code == 2 and "No space left" in err and ERROR_LINE.match(err)


def test_missing_optional_packages_are_one_line(capsys, puzzle_file, monkeypatch):
    import csp_puzzles.cli.commands as cli

    monkeypatch.setattr(cli, "find_spec", lambda name: None)
    code, _, err = run(capsys, "solve", "hashi", puzzle_file, "--png", "x.png")
    assert code == 2 and "needs the optional package 'matplotlib'" in err

    def no_engine(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'pysat'", name="pysat")

    monkeypatch.setattr(hashi.Hashi, "solve", no_engine)
    code, _, err = run(capsys, "solve", "hashi", puzzle_file, "--engine", "sat")
    assert code == 2 and ERROR_LINE.match(err)
    assert "--engine sat needs the optional package 'pysat'" in err


# -- limits ---------------------------------------------------------------------------------
@pytest.mark.parametrize("flag, value", [
    ("--timeout", "-1"), ("--timeout", "nan"), ("--timeout", "inf"), ("--max-nodes", "-1"),
    ("--max-solutions", "0"),
])
def test_bad_limit_values_are_usage_errors(capsys, puzzle_file, flag, value):
    code, _, err = run(capsys, "solve", "hashi", puzzle_file, flag, value)
    assert code == 2 and ERROR_LINE.match(err) and flag in err, err


@pytest.mark.parametrize("argv", [
    ["generate", "towers", "--seed", "\u0661"],
    ["generate", "towers", "--count", "\uff12"],
    ["solve", "hashi", "3x1:2a2", "--timeout", "\u0661.\u0665"],
    ["solve", "hashi", "3x1:2a2", "--max-nodes", "\u00b2"],
])
def test_unicode_digits_on_the_command_line_are_refused(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and ERROR_LINE.match(err) and "ASCII" in err, err
    assert out == ""


def test_bad_limit_values_in_python():
    csp = CSP()
    csp.add_variable("x", range(3))
    for options in ({"timeout": -1}, {"timeout": math.nan}, {"max_nodes": -1}):
        with pytest.raises(ValueError):
            solve(csp, **options)
    with pytest.raises(ValueError, match="limit"):
        count_solutions(csp, limit=0)
    assert count_solutions(csp, limit=1) == 1 and count_solutions(csp) == 3


def test_macs_first_propagation_honours_the_timeout():
    csp = CSP()
    csp.add_variable("x", range(3000))
    csp.add_variable("y", range(3000))
    csp.add_constraint(Predicate(lambda a, b: a + b == 10 ** 6, ["x", "y"]))
    result = solve(csp, inference="mac", timeout=0.05)
    assert result.status == "limit"  # 9 million checks would say "unsatisfiable"


def test_the_deadline_covers_reading_and_building(capsys, monkeypatch, puzzle_file):
    def slow_parse(text, filename=None):
        time.sleep(30)

    monkeypatch.setattr(hashi, "parse", slow_parse)
    started = time.perf_counter()
    code, out, _ = run(capsys, "solve", "hashi", puzzle_file, "--timeout", "0.2", "--json")
    assert code == 4 and '"status": "limit"' in out
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize("text", ["x" * 200_000, "1 " * 100_000, "1\n" * 100_000])
def test_garbage_up_to_the_byte_cap_stops_at_the_first_cap(text):
    for parse in PARSERS.values():
        with pytest.raises(ParseError, match="cap"):
            parse(text)


def test_bench_deadline_measures_whole_processes(tmp_path):
    (tmp_path / "p.txt").write_text("2 0 2\n")
    done = subprocess.run([sys.executable, "-m", "csp_puzzles", "bench", "deadline",
                           "--folder", str(tmp_path), "--limit", "1", "--timeout", "5"],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "p.txt" in done.stdout and "solved" in done.stdout
    assert "worst wall - T" in done.stdout
