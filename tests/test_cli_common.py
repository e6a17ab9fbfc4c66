"""Command-line behaviour shared by every puzzle: usage errors, sources, bench, packaging."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from csp_puzzles.cli import main
from tests.conftest import REPO


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


ERROR_LINE = re.compile(r"^csp-puzzles: error: [^:\n]+:\d+:\d+: .+\n$")


@pytest.mark.parametrize("argv", [
    ["solve", "sudoku", "x"],
    ["solve", "hashi", "no/such/file.txt"],
    ["solve", "hashi"],
    ["generate", "towers", "--size", "axb"],
    ["generate", "towers", "--count", "0"],
    ["solve", "towers", "--max-solutions", "0", "x:y"],
    ["bench", "nothing"],
    ["bench", "hashi", "--engines", "bogus"],
    ["bench", "hashi", "--sizes", "999"],
    ["bench", "hashi", "--parts", "nope"],
    ["bench", "hashi", "--limit", "0"],
    ["bench", "core", "--timeout", "abc"],
    ["bench", "towers", "--sizes", "4,x"],
    ["bench", "milp", "--parts", "a,b"],
    [],
])
def test_usage_errors_are_one_line_with_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert ERROR_LINE.match(err), err
    assert "Traceback" not in err


def test_directory_is_not_a_puzzle(capsys, tmp_path):
    code, _, err = run(capsys, "solve", "hashi", str(tmp_path))
    assert code == 2 and "is a directory" in err


def test_binary_file_is_reported_not_crashed(capsys, tmp_path):
    path = tmp_path / "puzzle.bin"
    path.write_bytes(b"\xff\xfe\x00\x01")
    code, _, err = run(capsys, "solve", "hashi", str(path))
    assert code == 2 and ERROR_LINE.match(err)


def test_python_dash_m_is_the_same_program():
    done = subprocess.run([sys.executable, "-m", "csp_puzzles", "solve", "nope", "x"],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 2
    assert done.stderr.startswith("csp-puzzles: error:")


def test_bench_core_prints_a_table_with_ratios(capsys):
    code, out, _ = run(capsys, "bench", "core", "--quick", "--timeout", "0.5")
    assert code == 0
    assert "/ pc optimized" in out and "8-queens, all" in out and "ours mac + mrv" in out


def test_readme_commands_exist_and_ci_calls_them():
    readme = (REPO / "README.md").read_text()
    makefile = (REPO / "Makefile").read_text()
    assert "make lab" in readme and "make test" in readme
    assert re.search(r"^lab:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "make test" in (REPO / ".ci" / "run").read_text()
