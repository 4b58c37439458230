# Setup-to-result commands: `make serve` and `make test`. Everything else is a step of those.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
PEERS  := tests/peers

.PHONY: setup build serve test bench bench-http peers system-packages lock clean

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

# Generated tables and the pre-rendered static_out/ (this year ±1; see build.py --help).
build: setup
	$(BIN)/python build.py

# First start: the tables (about a minute), then the server answers at once (rendering on demand)
# while static_out/ is pre-rendered in the background at low priority, with progress lines, if
# no complete build is there yet.  Proxy headers off: the app alone decides whose
# X-Forwarded-For to believe (TRUSTED_PROXIES).  `make serve ACCESS_LOG=` logs every request.
ACCESS_LOG ?= --no-access-log
serve: setup
	$(BIN)/python build.py --tables-only
	nice -n 10 $(BIN)/python build.py --if-missing --jobs 1 & \
	exec $(BIN)/uvicorn runtime.app:app --host $(HOST) --port $(PORT) --loop uvloop --http runtime.http_protocol:BoundedHttpToolsProtocol \
	  --no-proxy-headers $(ACCESS_LOG)

# Debian packages tests and benchmarks use (nginx for tests/test_nginx.py, wrk for bench-http;
# chromium, the Noto fonts for Arabic/Persian/Urdu and pdfinfo for tests/test_site_browser.py).
# Where they cannot be installed (not root, no registry), those tests are skipped with a message.
system-packages:
	@if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ] || ! command -v wrk >/dev/null 2>&1; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    nginx-light libnginx-mod-http-brotli-static wrk) >/dev/null 2>&1 \
	  || echo "warning: could not install nginx/wrk with apt-get; tests/test_nginx.py will be skipped"; \
	fi
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1 \
	  || [ ! -f /usr/share/fonts/truetype/noto/NotoNastaliqUrdu-Regular.ttf ]; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    chromium fonts-noto-core poppler-utils) >/dev/null 2>&1 \
	  || echo "warning: could not install chromium/fonts with apt-get; tests/test_site_browser.py will be skipped"; \
	fi

test: setup peers system-packages
	$(BIN)/python build.py --tables-only
	$(BIN)/python -m pytest -n 2 --dist loadgroup

bench: setup peers system-packages
	$(BIN)/python build.py --tables-only
	$(BIN)/python -m bench.prayer_times
	$(BIN)/python -m bench.hijri
	$(BIN)/python -m bench.printed_tables
	$(BIN)/python -m bench.lighthouse

# HTTP load on loopback with wrk (30 s per case): app static, nginx static, dynamic; then cached
# answers while 30 distinct 90-day feeds render at once (p95 and max latency).
bench-http: setup system-packages
	$(BIN)/python build.py --tables-only
	$(BIN)/python -m bench.http

# Re-resolve requirements.lock from pyproject.toml (run by a person, then commit the lock).
lock:
	rm -rf /tmp/lock-venv && $(PYTHON) -m venv /tmp/lock-venv
	$(PYTHON) -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
	  print('\n'.join(p['dependencies'] + p['optional-dependencies']['test']))" > /tmp/lock-venv/direct.txt
	/tmp/lock-venv/bin/pip install --quiet --disable-pip-version-check -r /tmp/lock-venv/direct.txt
	/tmp/lock-venv/bin/pip freeze | sort -f > requirements.lock

clean:
	rm -rf $(VENV) data/tables static_out $(PEERS)/node_modules
