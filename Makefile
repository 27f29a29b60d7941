# Two entry points for a fresh machine: `make demo` and `make test` (see README).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test test-training setup setup-dev lint

$(BIN)/tilesight: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev: $(BIN)/tilesight
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

# The training extra (ultralytics, torch) in .venv; Blender's Python module in its own
# .venv-render (about 1 GB; it renders the photo scenes, models/scenes).
$(VENV)/.train: $(VENV)/.dev
	$(BIN)/pip install -q -e '.[train]'
	touch $@

.venv-render/.ready: pyproject.toml
	$(PY) -m venv .venv-render
	.venv-render/bin/pip install -q --upgrade pip
	.venv-render/bin/pip install -q -e '.[render]'
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

# Smoke tests of the scene generator and of training, on a tiny budget (CI runs them too).
test-training: $(VENV)/.train .venv-render/.ready
	$(BIN)/pytest -q -m "training or render"

lint: $(VENV)/.dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy
