# chouette-bot: `make test` builds .venv from nothing and runs every check; `make run` starts the bot.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run

# The locks (requirements/*.txt): every package pinned with its hashes, made by `make lock`
# from the minimums in pyproject.toml; pip installs exactly them, then the project itself.
LOCK_RUN  := requirements/run.txt
LOCK_TEST := requirements/test.txt
UV_VERSION := 0.13.9
LOCK_VENV := .venv-lock
UPGRADE ?= --upgrade  # make lock UPGRADE='--upgrade-package pillow': that one only
COMPILE := $(LOCK_VENV)/bin/uv pip compile --quiet $(UPGRADE) --generate-hashes \
	--python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
	--custom-compile-command 'make lock'

.PHONY: test run deps backup bench lint typecheck clean lock messages browser

# `make test` takes its independent steps two at a time: the venv's packages beside the
# browser's (apt), then the linter beside the type checker; each line of their output kept
# whole, and shown as it comes (pytest's too).
ifeq ($(filter test,$(MAKECMDGOALS)),test)
MAKEFLAGS += --jobs=2 --output-sync=line
endif

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

# What running needs, and only that (make run, make deps, a server).
$(RUN_STAMP): $(LOCK_RUN) pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK_RUN)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(RUN_STAMP)

# Running's needs and the test tools (make test): running then needs nothing more.
$(STAMP): $(LOCK_TEST) pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK_TEST)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP) $(RUN_STAMP)

# The locks anew from pyproject.toml, each package at its newest release that the minimums
# allow (docs/development.md: The locks). The test lock first; the others take its versions.
lock:
	$(PYTHON) -m venv $(LOCK_VENV) || python3 -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet uv==$(UV_VERSION)
	$(COMPILE) --extra test -o $(LOCK_TEST) pyproject.toml requirements/build.in
	$(COMPILE) -c $(LOCK_TEST) -o $(LOCK_RUN) pyproject.toml requirements/build.in
	$(COMPILE) -c $(LOCK_TEST) --extra analysis --extra postgres -o requirements/image.txt \
		pyproject.toml requirements/build.in

deps: $(RUN_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check rules bot cogs tests bench analysis

typecheck: $(STAMP)
	$(BIN)/mypy

# Chromium and ChromeDriver from Debian's packages, for the pages' tests in a real browser
# (tests/web/test_browser.py): installed where missing, as root or through sudo.
BROWSER := /usr/bin/chromium /usr/bin/chromedriver
APT := env DEBIAN_FRONTEND=noninteractive apt-get
browser:
	@for file in $(BROWSER); do [ -x $$file ] || missing=yes; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "make test needs Chromium and ChromeDriver ($(BROWSER)): install them" \
		"as root: apt-get install chromium chromium-driver" >&2; exit 1; fi; \
	set -x; $$sudo $(APT) update && \
	$$sudo $(APT) install -y --no-install-recommends chromium chromium-driver

# Three workers, each taking the next test when free: the black-box tests spend most of
# their time waiting on the bot and the fake Discord, so the suite takes half as long.
test: lint typecheck browser
	$(BIN)/python -m pytest -n 3 --dist worksteal

run: $(RUN_STAMP)
	$(BIN)/python -m bot run

backup: $(RUN_STAMP)
	$(BIN)/python -m bot backup

# The translatable texts extracted anew into locale/chouette.pot, every locale/<lang>
# catalogue updated from it (docs/languages.md). `make messages NEW=sv`
# starts a new language's catalogue.
messages: $(RUN_STAMP)
	$(BIN)/python tools/messages.py $(NEW)

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) $(LOCK_VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
