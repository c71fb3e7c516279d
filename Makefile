# chouette-bot: `make test` builds .venv from nothing and runs every check; `make run` starts the bot.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run

.PHONY: test run deps backup bench lint typecheck clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

# What running needs, and only that (make run, make deps, a server).
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

# Running's needs and the test tools (make test): running then needs nothing more.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(RUN_STAMP)

deps: $(RUN_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check rules bot cogs tests bench analysis

typecheck: $(STAMP)
	$(BIN)/mypy

# Three workers, each taking the next test when free: the black-box tests spend most of
# their time waiting on the bot and the fake Discord, so the suite takes half as long.
test: lint typecheck
	$(BIN)/python -m pytest -n 3 --dist worksteal

run: $(RUN_STAMP)
	$(BIN)/python -m bot run

backup: $(RUN_STAMP)
	$(BIN)/python -m bot backup

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
