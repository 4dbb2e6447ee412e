# `make run` serves Pöytä on PORT (default 8000); `make test` runs every test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# axe-core for the browser tests' accessibility audit, from the npm registry by its lock file.
AXE := tests/e2e/node_modules/axe-core/axe.min.js

TS_EXAMPLE := examples/typescript
TS_STAMP := $(TS_EXAMPLE)/node_modules/.package-lock.json

.PHONY: run test docs chromium bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

# The TypeScript bot example's compiler and type generator, pinned by its lockfile.
$(TS_STAMP): $(TS_EXAMPLE)/package-lock.json
	npm ci --prefix $(TS_EXAMPLE) --no-audit --no-fund --loglevel=error

run: $(STAMP)
	$(BIN)/python -m api.devtools.serve

# The browser tests drive Debian's Chromium; never a browser download.
chromium:
	@command -v chromium >/dev/null || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

$(AXE): tests/e2e/package.json tests/e2e/package-lock.json
	npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error
	touch $(AXE)

# The documentation site (mkdocs.yml) into site/; --strict fails on a broken link.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

# Two processes: the machine this project is built for has two cores.
test: $(STAMP) docs chromium $(TS_STAMP) $(AXE)
	$(BIN)/python -m pytest -q -n 2

clean:
	rm -rf $(VENV) data site .pytest_cache .hypothesis $(TS_EXAMPLE)/node_modules tests/e2e/node_modules
