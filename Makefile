# Two commands on a fresh machine: `make lab` and `make test` (see README.md).
VENV   ?= .venv
# `make lab` opens a copy of the course (git-ignored), never the tracked notebooks: JupyterLab's
# autosave then cannot rewrite them. Delete the folder to start again from a fresh copy.
LAB_STUDENT    ?= lab/student
LAB_INSTRUCTOR ?= lab/instructor
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
EXTRAS := notebooks,test,dev,png,browser,instructor,export,lite
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab lab-instructor test test-full lint bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $(STAMP)

lab: $(STAMP)
	@test -d $(LAB_STUDENT) || $(VENV)/bin/csp-puzzles course $(LAB_STUDENT)
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) $(LAB_STUDENT)

lab-instructor: $(STAMP)
	@test -d $(LAB_INSTRUCTOR) || $(VENV)/bin/csp-puzzles course --instructor $(LAB_INSTRUCTOR)
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) $(LAB_INSTRUCTOR)

# testpaths (pyproject.toml) holds tests/ and notebooks/: this is `pytest --nbval-lax`, on
# JOBS processes (pytest-xdist); a file's tests stay in one process (a notebook's cells share
# its kernel)
JOBS ?= 2
PARALLEL := -n $(JOBS) --dist loadfile
test: $(STAMP)
	$(VENV)/bin/ruff check csp_puzzles tests
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest --nbval-lax $(PARALLEL)

# the same, with the sweeps marked `full` (pyproject.toml) that every run leaves out
test-full: $(STAMP)
	$(VENV)/bin/pytest --nbval-lax $(PARALLEL) -m "full or not full"

lint: $(STAMP)
	$(VENV)/bin/ruff check csp_puzzles tests
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(VENV)/bin/csp-puzzles bench core

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/artifacts build dist
