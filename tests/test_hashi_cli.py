"""`csp-puzzles solve hashi ...`: text, --json, --count, --png, --trace, exit codes."""

from __future__ import annotations

import json

import pytest

from csp_puzzles.cli import main

SEED_000 = "1 0 2 0 0\n0 0 0 0 0\n0 0 2 0 2\n0 0 0 0 0\n0 0 2 0 3\n"
GAME_ID = "7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2"


@pytest.fixture
def grid(tmp_path):
    def write(text: str, name: str = "grid.txt") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)
    return write


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_text(capsys, grid):
    code, out, err = run(capsys, "solve", "hashi", grid(SEED_000))
    assert code == 0 and out.startswith("solved (") and err == ""
    assert out.splitlines()[-1] == "..2-3"


def test_solve_json_shape(capsys):
    code, out, _ = run(capsys, "solve", "hashi", GAME_ID, "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"kind", "status", "solution", "solutions", "unique", "stats"}
    assert data["kind"] == "hashi" and data["status"] == "solved"
    assert data["solutions"] is None and data["unique"] is None
    assert set(data["stats"]) == {"nodes", "backtracks", "seconds"}
    bridges = data["solution"]["bridges"]
    assert bridges == sorted(bridges)
    assert all(len(b) == 5 and b[4] in (1, 2) for b in bridges)


def test_count_unique_and_not_unique(capsys, grid):
    code, out, _ = run(capsys, "solve", "hashi", GAME_ID, "--count", "--json")
    data = json.loads(out)
    assert code == 0 and data["solutions"] == 1 and data["unique"] is True
    code, out, _ = run(capsys, "solve", "hashi", grid(SEED_000), "--count")
    assert code == 0 and out.startswith("not unique: at least 2 solutions")


def test_unsatisfiable_exit_3(capsys, grid):
    code, out, _ = run(capsys, "solve", "hashi", grid("1 0 1 0 1\n"), "--json")
    assert code == 3 and json.loads(out)["solution"] is None


def test_no_adjacent_flag(capsys, grid):
    path = grid("1 1\n")
    assert run(capsys, "solve", "hashi", path)[0] == 0
    assert run(capsys, "solve", "hashi", path, "--no-adjacent")[0] == 3


def test_limit_exit_4(capsys, grid):
    # a 6x6 field of 2s has many ways and needs search: one node is not enough
    path = grid("\n".join(" ".join(["2", "0"] * 3) for _ in range(6)) + "\n")
    code, out, _ = run(capsys, "solve", "hashi", path, "--max-nodes", "1",
                       "--inference", "fc", "--json")
    assert code == 4 and json.loads(out)["status"] == "limit"


def test_bad_input_exit_2(capsys, grid):
    path = grid("1 0 2\n0 x 0\n2 0 1\n")
    code, out, err = run(capsys, "solve", "hashi", path)
    assert code == 2 and out == ""
    assert err == f"csp-puzzles: error: {path}:2:3: unexpected 'x', expected 0, '.' or '-' " \
                  "for water or a digit 1-8 for an island\n"
    code, _, err = run(capsys, "solve", "hashi", "5x5m2:2a4")
    assert code == 2 and err.startswith("csp-puzzles: error: <game id>:1:")


def test_png_and_trace(capsys, tmp_path):
    png, trace = tmp_path / "out.png", tmp_path / "trace.jsonl"
    code, _, _ = run(capsys, "solve", "hashi", GAME_ID, "--png", str(png), "--trace", str(trace))
    assert code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert events[0]["event"] == "start"
    assert any(e["event"] == "prune" and e["cause"].startswith("saturation") for e in events)


@pytest.mark.parametrize("inference", ["none", "fc", "mac"])
def test_inference_and_orders(capsys, inference):
    code, out, _ = run(capsys, "solve", "hashi", GAME_ID, "--inference", inference,
                       "--var-order", "mrv-degree", "--val-order", "lcv", "--json")
    assert code == 0 and json.loads(out)["status"] == "solved"


def test_bench_coelho_both_engines_and_profile(capsys, tmp_path):
    """The Coelho table has a row per engine (each solution checked inside) and the plot."""
    from tests.conftest import shared_file

    shared_file("coelho-hashi")
    png = tmp_path / "profile.png"
    code, out, _ = run(capsys, "bench", "hashi", "--parts", "coelho", "--sizes", "100",
                       "--limit", "2", "--timeout", "5", "--no-ortools", "--plot", str(png))
    assert code == 0
    rows = {line.split()[1] + " " + line.split()[2]: line.split()
            for line in out.splitlines() if line.lstrip().startswith("100 ")}
    assert rows["csp-puzzles CSP"][3:5] == ["2", "2"]  # solved, n
    assert rows["csp-puzzles SAT"][3:5] == ["2", "2"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_coelho_chronological_column(capsys):
    """`csp+none` is the CSP engine without looking back: its own row, no backjump, no
    nogood, next to the default engine's (which learns)."""
    from tests.conftest import shared_file

    shared_file("coelho-hashi")
    code, out, _ = run(capsys, "bench", "hashi", "--parts", "coelho", "--sizes", "100",
                       "--limit", "2", "--timeout", "5", "--no-ortools",
                       "--engines", "csp,csp+none")
    assert code == 0
    rows = {" ".join(line.split()[1:4]): line.split()
            for line in out.splitlines() if line.lstrip().startswith("100 ")}
    chronological = rows["csp-puzzles CSP, chronological"]
    assert chronological[4:6] == ["2", "2"]  # solved, n
    assert [float(x) for x in chronological[11:13]] == [0, 0]  # med backjumps, learnt
    assert rows["csp-puzzles CSP 2"][3] == "2"
