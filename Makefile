# Carousel: every target sets itself up from nothing (a fresh clone and python3 3.11+).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements-dev.txt | cksum | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-stack test-e2e lint format install lock migrate demo bench bench-load messages compilemessages clean

# Every installed version, transitive ones included, comes from the lock files
# (requirements*.txt, with hashes; see README "Dependencies" and `make lock`).
$(STAMP): requirements-dev.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check --require-hashes -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

## Re-make the lock files from the *.in files (after changing a pin there, or to take
## newer releases of unpinned transitive dependencies: add --upgrade via ARGS). Review
## the diff, run the tests, commit the .in and .txt files together.
LOCK = $(BIN)/uv pip compile --quiet --generate-hashes --python-version 3.11 \
	--python-platform x86_64-manylinux_2_28 --no-header --annotation-style line $(ARGS)
lock: install
	$(LOCK) requirements.in -o requirements.txt
	$(LOCK) requirements-dev.in -o requirements-dev.txt
	$(LOCK) requirements-e2e.in -o requirements-e2e.txt

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py load_demo

## Serve the site on the embedded default (SQLite, in-memory channel layer), with a
## background worker beside it (timeouts, bot turns, emails and pushes: the task queue in
## the same SQLite file), at http://$(HOST):$(PORT). Both get SITE_URL from that host and
## port, so the links in emails point where this server listens (PORT=8100 must not mail
## :8000 links); a SITE_URL from the environment (e.g. a proxy's address) still wins.
##
## Web push: unless VAPID_PRIVATE_KEY is set, the first start makes a VAPID key pair in
## VAPID_KEY_FILE, outside the repository (never committed), and later starts reuse it,
## so that browsers stay subscribed across restarts.
VAPID_KEY_FILE ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)/carousel/vapid-private.pem
RUN_ENV = SITE_URL=$${SITE_URL:-http://$(HOST):$(PORT)} VAPID_KEY_FILE="$(VAPID_KEY_FILE)"
run: demo
	$(BIN)/python manage.py compilemessages --ignore=.venv >/dev/null 2>&1 || true
	@test -n "$$VAPID_PRIVATE_KEY" || $(BIN)/python manage.py vapid_keys --file "$(VAPID_KEY_FILE)"
	@echo "Carousel on http://$(HOST):$(PORT)  (demo users: alice, bob, carol, dave; password carousel-demo)"
	$(RUN_ENV) $(BIN)/python manage.py run_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(RUN_ENV) $(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

## Tests run in a random order (pytest-randomly). pyproject's -q hides the plugin's own
## "Using --randomly-seed" header, so the seed is chosen here and printed; replay an order
## with `make test TEST_SEED=N`, or keep the file order with ARGS="-p no:randomly".
ifndef TEST_SEED
TEST_SEED := $(shell od -An -N4 -tu4 /dev/urandom | tr -d ' ')
endif
RANDOMLY = -p randomly --randomly-seed=$(TEST_SEED)
SAY_SEED = @echo "test order: --randomly-seed=$(TEST_SEED) (replay with TEST_SEED=$(TEST_SEED))"

## The whole test suite on the default set-up (SQLite, in-memory channel layer).
test: install
	$(SAY_SEED)
	$(BIN)/python -m pytest -m "not e2e and not stack" $(RANDOMLY) $(ARGS)

## The same suite on PostgreSQL + Redis, plus the multi-process proofs.
test-stack: install
	$(SAY_SEED)
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/carousel} \
	REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:6379/0} \
	CACHE_URL=$${CACHE_URL:-redis://127.0.0.1:6379/1} \
	SECRET_KEY=test-only DEBUG=1 \
	$(BIN)/python -m pytest -m "not e2e" $(RANDOMLY) $(ARGS)

## Every static check CI runs first (CONTRIBUTING.md): lint, formatting, types (mypy with
## the django-stubs plugin: strict for rummy.engine, the rest per pyproject.toml), the
## import contracts, and no model change without its migration. Runs them all, then fails
## if any failed (each prints its own findings).
LINT_STEPS = "$(BIN)/ruff check ." "$(BIN)/ruff format --check ." "$(BIN)/mypy" \
	"$(BIN)/lint-imports" "$(BIN)/python manage.py makemigrations --check --dry-run"
lint: install
	@failed=; for step in $(LINT_STEPS); do echo "== $$step"; $$step || failed="$$failed\n  $$step"; done; \
	if [ -n "$$failed" ]; then printf "lint failed:$$failed\n"; exit 1; fi

## Rewrite the tree in place: the formatter, then every safe lint fix.
format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## Real Chromium (Debian's package) through Playwright at a phone viewport.
test-e2e: install
	@test -x /usr/bin/chromium || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)
	$(BIN)/pip install -q --disable-pip-version-check --require-hashes -r requirements-e2e.txt
	$(SAY_SEED)
	$(BIN)/python -m pytest -m e2e tests/e2e $(RANDOMLY) $(ARGS)

bench: install
	$(BIN)/python -m rummy.engine.bench

## Load: 200 players over 50 games through real daphne workers (STACK=pg: 2 workers on
## PostgreSQL + Redis in a scratch database carousel_bench; STACK=default: 1 on SQLite).
STACK ?= pg
bench-load: install
	$(BIN)/python bench/load.py --stack $(STACK) $(ARGS)

## Translations (README, "Translations"): refresh the Latvian and Estonian catalogs from
## the code and templates, translate in locale/*/LC_MESSAGES/django.po, then compile the
## .mo files (committed, so that a machine without gettext serves them). Both need gettext.
GETTEXT_CHECK = @command -v msgfmt >/dev/null || { echo "gettext is missing: apt-get install gettext"; exit 1; }
messages: install
	$(GETTEXT_CHECK)
	$(BIN)/python manage.py makemessages -l lv -l et --ignore=.venv --ignore=tests --ignore=test-artifacts --ignore=staticfiles --no-obsolete

compilemessages: install
	$(GETTEXT_CHECK)
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
