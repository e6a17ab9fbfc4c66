# Two commands on a fresh machine: `make lab` and `make test` (see README.md).
VENV   ?= .venv
# `make lab` opens a copy of the course (git-ignored), never the tracked notebooks: JupyterLab's
# autosave then cannot rewrite them. Delete the folder to start again from a fresh copy.
LAB_STUDENT    ?= lab/student
LAB_INSTRUCTOR ?= lab/instructor
PY     := $(VENV)/bin/python
# What each use installs (README.md, "What each install brings"). One .venv serves all three:
# each target adds its extras (a stamp each) and none takes away what another added.
EXTRAS_lab        := notebooks
EXTRAS_instructor := notebooks,instructor
EXTRAS_test       := notebooks,test,dev,png,browser,instructor,export
# The student's JupyterLab leaves out the instructor's tools that `make lab-instructor` or
# `make test` may have put into .venv (nbgrader's menu and panels): see etc/student-lab/.
STUDENT_LAB := JUPYTER_CONFIG_PATH=$(CURDIR)/etc/student-lab
# JupyterLite's build (the `lite` extra) has an environment of its own: its Pyodide kernel
# installs a lab extension that runs only in JupyterLite, and JupyterLab loads every extension
# of its environment, even a disabled one, then logs "Shared module @jupyterlite/services
# doesn't exist" on every page (jupyterlite/pyodide-kernel#32). The tests build sites there.
LITE_VENV ?= .venv-lite
LITE_PY   := $(LITE_VENV)/bin/python
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab lab-instructor test test-full lint bench clean

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed-%: pyproject.toml setup.py | $(PY)
	$(PY) -m pip install --quiet -e ".[$(EXTRAS_$*)]"
	touch $@

$(LITE_VENV)/.installed: pyproject.toml setup.py
	python3 -m venv $(LITE_VENV)
	$(LITE_PY) -m pip install --quiet --upgrade pip
	$(LITE_PY) -m pip install --quiet -e ".[lite]"
	touch $@

lab: $(VENV)/.installed-lab
	@test -d $(LAB_STUDENT) || $(VENV)/bin/csp-puzzles course $(LAB_STUDENT)
	$(STUDENT_LAB) $(VENV)/bin/jupyter lab $(ROOT_FLAG) $(LAB_STUDENT)

lab-instructor: $(VENV)/.installed-instructor
	@test -d $(LAB_INSTRUCTOR) || $(VENV)/bin/csp-puzzles course --instructor $(LAB_INSTRUCTOR)
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) $(LAB_INSTRUCTOR)

# testpaths (pyproject.toml) holds tests/ and notebooks/: this is `pytest --nbval-lax`, on
# JOBS processes (pytest-xdist); a file's tests stay in one process (a notebook's cells share
# its kernel). The tests that build a JupyterLite site run `csp-puzzles lite` with .venv-lite's
# Python (tests/lite.py).
JOBS ?= 2
PARALLEL := -n $(JOBS) --dist loadfile
TESTING := CSP_PUZZLES_LITE_PYTHON=$(abspath $(LITE_PY)) $(VENV)/bin/pytest --nbval-lax $(PARALLEL)
test: $(VENV)/.installed-test $(LITE_VENV)/.installed
	$(VENV)/bin/ruff check csp_puzzles tests
	$(VENV)/bin/mypy
	$(TESTING)

# the same, with the sweeps marked `full` (pyproject.toml) that every run leaves out
test-full: $(VENV)/.installed-test $(LITE_VENV)/.installed
	$(TESTING) -m "full or not full"

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check csp_puzzles tests
	$(VENV)/bin/mypy

bench: $(VENV)/.installed-lab
	$(VENV)/bin/csp-puzzles bench core

clean:
	rm -rf $(VENV) $(LITE_VENV) .pytest_cache .hypothesis tests/artifacts build dist
