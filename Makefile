# Two commands on a fresh machine with Python 3.11+: `make serve` and `make test`.
# Both build the virtual environment in .venv the first time (and again when
# pyproject.toml changes), so nothing needs installing by hand.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
AXE := $(VENV)/axe/node_modules/axe-core/axe.min.js

.PHONY: serve test test-postgres lint format screenshots clean

# The API tests again on PostgreSQL, plus the several-workers tests.
POSTGRES ?= postgresql://postgres@127.0.0.1:5432

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "So Clover! table needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

# axe-core (accessibility checks in the browser tests) comes from npm; without
# npm or chromium the browser tests skip and say why.
$(AXE):
	@if command -v npm >/dev/null 2>&1; then \
		npm install --silent --prefix $(VENV)/axe axe-core@4 --no-audit --no-fund; \
	else echo "npm not found: the browser tests will skip their accessibility checks"; fi

serve: $(VENV)/.installed
	$(BIN)/soclover

test: $(VENV)/.installed $(AXE)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest

test-postgres: $(VENV)/.installed
	SOCLOVER_TEST_POSTGRES=$(POSTGRES) SOCLOVER_REQUIRE_POSTGRES=1 $(BIN)/pytest tests/web

screenshots: $(VENV)/.installed $(AXE)
	SOCLOVER_SCREENSHOTS=1 $(BIN)/pytest tests/browser/test_screens.py

lint: $(VENV)/.installed
	$(BIN)/ruff check .

format: $(VENV)/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
