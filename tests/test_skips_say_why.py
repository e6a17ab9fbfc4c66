"""A test that cannot check says why, as a skip; a build of the project that fails fails.

Issue 39: without axe-core the browser tests reported "passed" with no accessibility check
made, and a wheel of the project that failed to build turned the install tests into skips.
"""

from __future__ import annotations

import pytest

from tests import wheel
from tests.browser import pages


def _without_axe(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("AXE_CORE_JS", str(tmp_path / "absent.js"))
    monkeypatch.setattr(pages, "AXE_PLACES", [])
    assert pages.axe_script() is None


def test_without_axe_a_browser_test_runs_its_other_checks_then_skips(monkeypatch, tmp_path):
    _without_axe(monkeypatch, tmp_path)
    ran = []
    with pytest.raises(pytest.skip.Exception, match="axe-core is not installed.*"
                       r"\.csp-playground"):
        with pages.axe_checks() as no_serious_violations:
            no_serious_violations(None, ".csp-playground")
            ran.append("the checks after it")
    assert ran == ["the checks after it"]


def test_without_axe_a_failing_check_still_fails(monkeypatch, tmp_path):
    _without_axe(monkeypatch, tmp_path)
    with pytest.raises(AssertionError, match="the picture changed"):
        with pages.axe_checks() as no_serious_violations:
            no_serious_violations(None, ".csp-playground")
            raise AssertionError("the picture changed")


def test_a_block_with_no_accessibility_check_is_not_skipped(monkeypatch, tmp_path):
    _without_axe(monkeypatch, tmp_path)
    with pages.axe_checks():
        pass


def test_a_wheel_that_does_not_build_is_a_failure(monkeypatch, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = []\nbuild-backend = "no_such_backend"\n')
    monkeypatch.setattr(wheel, "REPO", project)
    with pytest.raises(AssertionError, match="the project's wheel did not build"):
        wheel.build_wheel(tmp_path / "out", timeout=120)


def test_without_axe_a_last_accessibility_check_skips(monkeypatch, tmp_path):
    _without_axe(monkeypatch, tmp_path)
    with pytest.raises(pytest.skip.Exception, match=r"\.csp-code-stepper"):
        pages.no_serious_violations_last(None, ".csp-code-stepper")
