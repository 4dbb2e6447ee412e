# `make run` serves Pöytä on PORT (default 8000); `make test` runs every test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test chromium bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m api.serve

# The browser tests drive Debian's Chromium; never a browser download.
chromium:
	@command -v chromium >/dev/null || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# Two processes: the machine this project is built for has two cores.
test: $(STAMP) chromium
	$(BIN)/python -m pytest -q -n 2

clean:
	rm -rf $(VENV) data .pytest_cache .hypothesis
