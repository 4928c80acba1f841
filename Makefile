# Two commands on a fresh machine with Python 3.11+: `make serve` and `make test`.
# Both build the virtual environment in .venv the first time (and again when
# pyproject.toml or uv.lock changes), so nothing needs installing by hand:
# `make serve` only what the server runs (the bots' brain included), `make test`
# the development tools as well. `make help` lists every target.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
AXE := $(VENV)/axe/node_modules/axe-core/axe.min.js

# uv installs exactly the versions in uv.lock, so every machine and CI run the
# same ones. It comes from PyPI into a small venv of its own, at a pinned version:
# the machine needs nothing but Python, and every uv reads and writes the lock alike.
UV_VERSION := 0.13.9
TOOLS := .venv-tools
UV := $(TOOLS)/bin/uv
# Always the machine's own Python: uv never downloads one.
export UV_PYTHON_DOWNLOADS := never

.DEFAULT_GOAL := help
.PHONY: help serve runtime test test-postgres test-wheel test-containers lock lint format \
	screenshots icons catalogs compile-catalogs clean distclean

help:  ## this list
	@echo "So Clover! table: make TARGET"
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-17s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# The API tests again on PostgreSQL, plus the several-workers tests.
POSTGRES ?= postgresql://postgres@127.0.0.1:5432

CHECK_PYTHON := $(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "So Clover! table needs Python 3.11 or newer")'

# The stamp names uv's version, so changing UV_VERSION installs that one.
$(TOOLS)/.uv-$(UV_VERSION):
	@$(CHECK_PYTHON)
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet uv==$(UV_VERSION)
	@touch $@

# --locked: a uv.lock that no longer matches pyproject.toml is an error (run
# `make lock`), never a silent new resolution. The app itself is installed
# editable, so .venv/bin/soclover serves the checkout as it is edited.
# --compile-bytecode: compiled once here, not at every start of the server or a
# test's server (where PYTHONDONTWRITEBYTECODE is set, each start compiled
# everything again).
SYNC := UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --locked --compile-bytecode --python $(PYTHON)

# What the server runs, and nothing of the tests: `make serve` and the systemd recipe.
# --inexact keeps the test tools of an earlier `make test` rather than removing them.
$(VENV)/.runtime: pyproject.toml uv.lock | $(TOOLS)/.uv-$(UV_VERSION)
	@$(CHECK_PYTHON)
	$(SYNC) --inexact --extra bots
	@touch $@

# Everything: the server, the bots' brain and the development tools (`make test`).
$(VENV)/.installed: pyproject.toml uv.lock | $(TOOLS)/.uv-$(UV_VERSION)
	@$(CHECK_PYTHON)
	$(SYNC) --extra dev --extra bots
	@touch $@ $(VENV)/.runtime

runtime: $(VENV)/.runtime  ## install what the server runs into .venv, no test tool

# The newest versions pyproject.toml's ranges allow, written to uv.lock (commit
# it); the next `make` installs them.
lock: | $(TOOLS)/.uv-$(UV_VERSION)  ## move uv.lock to the newest versions pyproject.toml allows
	$(UV) lock --upgrade --python $(PYTHON)

# axe-core (accessibility checks in the browser tests) comes from npm; without
# npm or chromium the browser tests skip and say why.
$(AXE):
	@if command -v npm >/dev/null 2>&1; then \
		npm install --silent --prefix $(VENV)/axe axe-core@4 --no-audit --no-fund; \
	else echo "npm not found: the browser tests will skip their accessibility checks"; fi

serve: $(VENV)/.runtime  ## serve the game on SQLite (soclover.sqlite3) at the printed URL
	$(BIN)/soclover

# The app's own bytecode too: every test starts servers, each importing the app.
# Two test processes (pytest-xdist), a module to each at a time, on two cores: most
# of the tests' time is Chromium's (a third process, and why it was dropped:
# docs/performance.md). The modules are handed out in the
# order tests/conftest.py gives them, the longest folders first, not by xdist's
# reordering by number of tests (which kept a browser game of one test for last).
PYTEST_PROCESSES := -n 2 --dist loadfile --no-loadscope-reorder
# pytest rewrites the test modules' asserts and keeps them so in __pycache__; where
# PYTHONDONTWRITEBYTECODE is set it rewrote them all again in each process at every
# run, 3 s of the 7 a process takes to collect the tests.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/pytest
test: $(VENV)/.installed $(AXE)  ## ruff, mypy and the whole test suite
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	@$(BIN)/python -m compileall -q app
	$(PYTEST) $(PYTEST_PROCESSES)

# Left out: the modules whose outcome cannot depend on the database (the catalogs,
# the API's document, the interface's language, headers and CSP, the service
# worker, static pages, error pages, the forms that post the same actions as the
# API, the look-alike names the rules judge); `make test` runs them.
SAME_ON_ANY_DATABASE := catalogs api_doc interface_language security install pages dead_ends \
	forms lookalikes
test-postgres: $(VENV)/.installed  ## the API tests again on PostgreSQL (POSTGRES=url)
	@$(BIN)/python -m compileall -q app
	SOCLOVER_TEST_POSTGRES=$(POSTGRES) SOCLOVER_REQUIRE_POSTGRES=1 $(PYTEST) $(PYTEST_PROCESSES) tests/web \
		tests/service/test_postgres.py tests/service/test_store_contract.py \
		$(foreach m,$(SAME_ON_ANY_DATABASE),--ignore=tests/web/test_$(m).py)

# The wheel as a user installs it: built, installed with the locked dependencies
# into a venv of its own, and played from an empty folder. Slow, so `make test`
# skips it.
test-wheel: $(VENV)/.installed | $(TOOLS)/.uv-$(UV_VERSION)  ## the wheel built, installed and played
	SOCLOVER_TEST_WHEEL=1 UV=$(abspath $(UV)) $(BIN)/pytest tests/package

# The container image and compose.yaml as self-hosters run them, with podman:
# .ci/containers-setup installs podman and podman-compose if missing, and the base
# images' stand-ins (no registry is reached); then the Containerfile is built and
# played, and compose.yaml with PostgreSQL. Slow, so `make test` skips it.
test-containers: export CONTAINERS_CONF := $(abspath .ci/containers.conf)
test-containers: $(VENV)/.installed  ## the container image and compose.yaml, built and played
	@started=$$(date +%s); \
	.ci/containers-setup && SOCLOVER_TEST_CONTAINERS=1 $(BIN)/pytest -v -s tests/container; \
	status=$$?; echo "test-containers: $$(( $$(date +%s) - started )) s"; exit $$status

# The interface's catalogs: every string of the code (N_) and the templates (_ and
# trans) into app/locale/messages.pot, then merged into the French and Chinese .po
# files, where new strings wait for their translation. Commit the .po and .mo files.
# The template is replaced only when a message changed, so an unchanged tree stays clean.
LOCALE := app/locale
catalogs: $(VENV)/.installed  ## the interface's strings into the catalogs (app/locale)
	$(BIN)/pybabel -q extract -F $(LOCALE)/babel.cfg -k N_ -c Translators: --add-location=file \
		--sort-by-file --no-wrap --project="So Clover! table" -o $(LOCALE)/messages.pot.new app
	$(BIN)/python tools/catalog_template.py $(LOCALE)/messages.pot.new $(LOCALE)/messages.pot
	for lang in fr zh; do \
		$(BIN)/pybabel -q update --no-wrap --ignore-obsolete --no-fuzzy-matching \
			-i $(LOCALE)/messages.pot -d $(LOCALE) -l $$lang; \
	done

# The .mo files the server reads, from the .po files (a test checks they match).
compile-catalogs: $(VENV)/.installed  ## the .mo files the server reads, from the .po files
	$(BIN)/pybabel compile --statistics -d $(LOCALE)

screenshots: $(VENV)/.installed $(AXE)  ## take docs/screenshots/ again (Chromium)
	SOCLOVER_SCREENSHOTS=1 $(BIN)/pytest tests/browser/test_screens.py

# The icons in static/ (the favicon, the manifest's, the home screen's), drawn again
# from tools/icons.py after a change to the drawing: plain Python, same bytes each time.
icons:  ## draw the icons in static/ again (tools/icons.py)
	$(PYTHON) tools/icons.py

lint: $(VENV)/.installed  ## ruff and mypy
	$(BIN)/ruff check .
	$(BIN)/mypy

format: $(VENV)/.installed  ## ruff format and ruff's fixes
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# `clean` keeps the games (soclover.sqlite3): they are the players', not the build's.
clean:  ## remove the venvs, caches and bytecode; keeps soclover.sqlite3
	rm -rf $(VENV) $(TOOLS) .pytest_cache .ruff_cache .mypy_cache .hypothesis build dist
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
	rm -f $(LOCALE)/messages.pot.new

distclean: clean  ## clean, and remove the games too: soclover.sqlite3 and its -wal, -shm
	rm -f soclover.sqlite3 soclover.sqlite3-wal soclover.sqlite3-shm
