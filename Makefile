# Two commands do all set-up on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-fast test-deep lint simulate bench clean locale

$(STAMP): pyproject.toml setup.py engine/rummy/solver/_c.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/rummy play $(ARGS)

# The suite on JOBS workers (pytest-xdist; each has its own PostgreSQL database), then the few
# `realtime` tests (the wall clock under the real limits) alone, so no other test's work
# crowds the pace they measure.
JOBS ?= auto
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest -q -n $(JOBS) -m "not realtime" $(PYTEST_ARGS)
	$(BIN)/pytest -q -m realtime $(PYTEST_ARGS)

# Everything but the whole-game end-to-end tests and the multi-process workers (marker e2e),
# the seeded games at scale (games: a sample of each stays) and the wall-clock tier (realtime,
# which `make test` runs alone): the quick loop while working.
test-fast: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest -q -n $(JOBS) -m "not e2e and not games and not realtime" $(PYTEST_ARGS)

# The deep budgets the suite keeps small by default (each test says its variable): the issue's
# 300 seeded Rummikub games for the joker referee, the long whole games. Slow; before a release.
test-deep: $(STAMP)
	RUMMY_JOKER_GAMES=300 RUMMY_FUZZ_EXAMPLES=400 RUMMY_E2E_ALL=1 $(BIN)/pytest -q -n $(JOBS) -m "not realtime" $(PYTEST_ARGS)

simulate: $(STAMP)
	$(BIN)/rummy simulate $(ARGS)

bench: $(STAMP)
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/render.py

# The catalogs: extract every msgid from bot/ and merge it into bot/i18n/locale/{he,ru}; the bot
# compiles them in memory at start (bot/i18n), so nothing else needs building.
LOCALE := bot/i18n/locale
locale: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k t -k tn:1,2 --no-location --width=100 \
		--sort-output -o $(LOCALE)/messages.pot .
	$(BIN)/pybabel update -i $(LOCALE)/messages.pot -d $(LOCALE) --no-fuzzy-matching \
		--ignore-obsolete --width=100

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
