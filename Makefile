# Two commands on a fresh machine: `make lab` and `make test` (see README.md).
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
EXTRAS := notebooks,test,sat,browser
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test lint bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $(STAMP)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) notebooks/

test: $(STAMP)
	$(VENV)/bin/ruff check csp_puzzles tests
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest tests notebooks --nbval-lax

lint: $(STAMP)
	$(VENV)/bin/ruff check csp_puzzles tests
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(VENV)/bin/csp-puzzles bench core

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/artifacts
