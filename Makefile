# Two entry points for a fresh machine: `make demo` and `make test` (see README).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test setup setup-dev lint

$(BIN)/tilesight: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev: $(BIN)/tilesight
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

setup: $(BIN)/tilesight
setup-dev: $(VENV)/.dev

demo: $(BIN)/tilesight
	$(BIN)/tilesight demo

test: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest -q

lint: $(VENV)/.dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy
