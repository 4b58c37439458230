# Setup-to-result commands: `make serve` and `make test`. Everything else is a step of those.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
PEERS  := tests/peers

.PHONY: setup build serve test bench peers lock clean

setup: $(VENV)/.installed

$(VENV)/.installed: requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -r requirements.lock
	$(BIN)/pip check
	touch $@

# Node peers used side by side in tests and benchmarks (adhan), pinned by package-lock.json.
peers: $(PEERS)/node_modules/.installed

$(PEERS)/node_modules/.installed: $(PEERS)/package.json $(PEERS)/package-lock.json
	cd $(PEERS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Generated data (the per-day sun table); missing pieces are also built on first use.
build: setup
	$(BIN)/python build.py

serve: build
	$(BIN)/uvicorn runtime.app:app --host $(HOST) --port $(PORT) --loop uvloop --http httptools

test: setup peers
	$(BIN)/python build.py
	$(BIN)/python -m pytest -n 2 --dist loadgroup

bench: setup peers build
	$(BIN)/python -m bench.prayer_times

# Re-resolve requirements.lock from pyproject.toml (run by a person, then commit the lock).
lock:
	rm -rf /tmp/lock-venv && $(PYTHON) -m venv /tmp/lock-venv
	$(PYTHON) -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
	  print('\n'.join(p['dependencies'] + p['optional-dependencies']['test']))" > /tmp/lock-venv/direct.txt
	/tmp/lock-venv/bin/pip install --quiet --disable-pip-version-check -r /tmp/lock-venv/direct.txt
	/tmp/lock-venv/bin/pip freeze | sort -f > requirements.lock

clean:
	rm -rf $(VENV) data/tables static_out $(PEERS)/node_modules
