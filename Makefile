# `make run` serves Pöytä on PORT (default 8000); `make test` runs every test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

TS_EXAMPLE := examples/typescript
TS_STAMP := $(TS_EXAMPLE)/node_modules/.package-lock.json

.PHONY: run test chromium bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

# The TypeScript bot example's compiler and type generator, pinned by its lockfile.
$(TS_STAMP): $(TS_EXAMPLE)/package-lock.json
	npm ci --prefix $(TS_EXAMPLE) --no-audit --no-fund --loglevel=error

run: $(STAMP)
	$(BIN)/python -m api.serve

# The browser tests drive Debian's Chromium; never a browser download.
chromium:
	@command -v chromium >/dev/null || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# Two processes: the machine this project is built for has two cores.
test: $(STAMP) chromium $(TS_STAMP)
	$(BIN)/python -m pytest -q -n 2

clean:
	rm -rf $(VENV) data .pytest_cache .hypothesis $(TS_EXAMPLE)/node_modules
