# Sengoku — the README's commands. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
export DJANGO_SETTINGS_MODULE ?= config.settings

# The stamp is keyed on the lock and pyproject: pip only runs when they change
# (or when .venv is missing).
DEPS_HASH := $(shell cat requirements.lock pyproject.toml 2>/dev/null | sha256sum | cut -c1-16)
STAMP     := $(VENV)/.installed-$(DEPS_HASH)

.PHONY: help install run migrate test check lint imports schema schema-check \
        services-up services-down bench bench-bots lock docker-build clean screenshots

help: ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk -F':.*?## ' '{printf "  make %-14s %s\n", $$1, $$2}'

install: $(STAMP) ## create .venv and install pinned dependencies (skipped when up to date)
	@$(VENV)/bin/python scripts/compile_messages.py

$(STAMP):
	@PYTHON=$(PYTHON) scripts/install.sh $(STAMP)

run: install ## serve on 127.0.0.1:$PORT with SQLite + Celery worker + beat (no broker needed)
	@PORT=$(PORT) $(PY) scripts/run_embedded.py

migrate: install ## apply database migrations
	$(PY) manage.py migrate --noinput

test: install ## checks + the whole suite on SQLite, then on PostgreSQL 15 + Redis
	@scripts/test.sh

check: install ## ruff, import-linter, mypy --strict and the OpenAPI staleness check only
	@scripts/test.sh --checks-only

lint: install ## ruff only
	$(VENV)/bin/ruff check .

imports: install ## import-linter contracts only
	$(VENV)/bin/lint-imports

schema: install ## regenerate the committed OpenAPI document schema.yml
	$(PY) manage.py spectacular --file schema.yml --validate --fail-on-warn
	@echo "schema.yml regenerated"

# The pages in all six languages, in headless Chromium with the Noto CJK fonts (for the README).
screenshots: install ## every page of the web client in six languages -> docs/screenshots/
	@scripts/browser.sh install
	@mkdir -p docs/screenshots
	SCREENSHOTS_DIR=$(CURDIR)/docs/screenshots $(PY) -m pytest -q -p no:cacheprovider \
		tests/web/test_browser_languages.py -k six_languages

services-up: ## start project-local PostgreSQL + Redis (installs them if missing)
	@scripts/services.sh up

services-down: ## stop them
	@scripts/services.sh down

bench: install ## benchmarks (event store, API load, engines) -> docs/benchmarks.md
	@scripts/bench.sh

# Resumes: games played with the same bot and engine code are kept (bench/records/, committed),
# so a run interrupted or bounded by BENCH_BOTS_MINUTES (per mode) goes on where it stopped.
bench-bots: install ## bot tables to 200 games each (heuristic, then mcts at 1 s CPU) -> docs/benchmarks.md
	$(PY) bench/bots.py --mode heuristic --games 200 --jobs $${BENCH_JOBS:-1} \
		$${BENCH_BOTS_MINUTES:+--until-minutes $$BENCH_BOTS_MINUTES}
	$(PY) bench/bots.py --mode mcts --games 200 --seconds $${BENCH_MCTS_SECONDS:-1} --clock cpu \
		--jobs $${BENCH_JOBS:-1} $${BENCH_BOTS_MINUTES:+--until-minutes $$BENCH_BOTS_MINUTES}
	$(PY) bench/report.py

lock: ## re-pin requirements.lock from what is installed in .venv
	@scripts/lock.sh

docker-build: ## build the image (needs a Docker daemon)
	docker build -f docker/Dockerfile -t sengoku:latest .

clean: ## remove runtime state (var/, caches); keeps .venv and the database
	rm -rf var/ci-services var/bench-services .pytest_cache .ruff_cache .mypy_cache .hypothesis
	find . -path ./.venv -prune -o -name __pycache__ -type d -print0 | xargs -0 rm -rf
