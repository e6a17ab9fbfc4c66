"""The class app: its page works without a browser, its command and template are sound."""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path

import pytest

from csp_puzzles.cli import main
from csp_puzzles.puzzle.registry import KINDS
from csp_puzzles.teaching.app import NOTEBOOK, ClassApp, SearchTab, voila_command
from csp_puzzles.teaching.app.launch import SHARE, TEMPLATE
from csp_puzzles.viz import Stepper


def voila_installed() -> None:
    """Skip without Voila (found, not imported: importing it takes seconds)."""
    if find_spec("voila") is None:
        pytest.skip("Voila is not installed (the app extra)")


def test_the_page_holds_a_search_tab_and_an_editor_tab_for_every_kind() -> None:
    app = ClassApp()
    assert [type(child).__name__ for child in app.children] == ["SearchTab", "EditorTab"]
    assert isinstance(app.search.stepper, Stepper)  # hashi, seed 1, on arrival
    assert app.editor.editor is not None
    for kind in KINDS:  # the editor handles a kind, or says why not
        app.editor.kind.value = kind
        assert (app.editor.editor is not None) or app.editor.status.value, kind


@pytest.mark.parametrize("kind", KINDS)
def test_the_search_tab_button_solves_each_kind_checked_and_unique(kind: str) -> None:
    tab = SearchTab()
    tab.kind.value, tab.seed.value = kind, 2
    tab.go.click()
    assert isinstance(tab.stepper, Stepper) and "solved" in tab.status.value
    assert tab.puzzle.kind == kind
    assert tab.puzzle.check(tab.result.solution) == []  # the independent checker
    assert tab.puzzle.count_solutions(limit=2) == 1
    assert tab.stepper.trace is tab.result.trace


def test_the_notebook_only_builds_the_app() -> None:
    notebook = json.loads(NOTEBOOK.read_text())
    code = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert code == ["from csp_puzzles.teaching.app import ClassApp\n\nClassApp()"]
    assert all(not cell.get("outputs") for cell in notebook["cells"])


def test_the_template_drops_only_the_cdn_stylesheets() -> None:
    """It extends Voila's lab template and strips exactly the links that template has."""
    folder = SHARE / "voila" / "templates" / TEMPLATE
    assert json.loads((folder / "conf.json").read_text()) == {"base_template": "lab"}
    ours = (folder / "index.html.j2").read_text()
    voila_installed()
    from jupyter_core.paths import jupyter_path

    found = [Path(p) for p in jupyter_path("voila", "templates", "lab", "index.html.j2")
             if Path(p).exists()]
    if not found:
        pytest.skip("Voila's lab template was not found in the Jupyter data folders")
    lab = found[0]
    links = [line.strip() for line in lab.read_text().splitlines() if "cdn.jsdelivr" in line]
    assert len(links) == 2 and all(link in ours for link in links)


def test_voila_command_serves_the_notebook_with_the_template_on_localhost() -> None:
    voila_installed()
    argv, env = voila_command(port=9999, open_browser=False)
    assert str(NOTEBOOK) in argv and f"--template={TEMPLATE}" in argv
    assert "--Voila.ip=127.0.0.1" in argv and "--port=9999" in argv and "--no-browser" in argv
    assert env["JUPYTER_PATH"].startswith(str(SHARE))


def test_app_without_voila_is_one_line_and_exit_2(monkeypatch, capsys) -> None:
    import csp_puzzles.teaching.app.launch as launch

    monkeypatch.setattr(launch, "find_spec", lambda name: None)
    assert main(["app", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "csp-puzzles[app]" in err
