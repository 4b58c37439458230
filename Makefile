# Setup-to-result commands: `make serve` and `make test`. Everything else is a step of those.
#
# The interpreter: PYTHON=... if given, else the newest of PYTHON_CANDIDATES that actually runs
# (a pyenv shim is on PATH for every installed version but fails for one that is not active, so
# being on PATH is not enough).  The venvs record the interpreter's version in their stamp file:
# another PYTHON (or another lock) recreates them.
PYTHON_CANDIDATES := python3.13 python3.12 python3.11
ifeq ($(origin PYTHON),undefined)
PYTHON := $(firstword $(foreach p,$(PYTHON_CANDIDATES),$(shell $(p) -c 'import sys' >/dev/null 2>&1 && echo $(p))))
endif
PYTHON_ID := $(if $(PYTHON),$(shell $(PYTHON) -c 'import platform; print(platform.python_implementation().lower() + "-" + platform.python_version())' 2>/dev/null))
VENV   := .venv
BIN    := $(VENV)/bin
# The tests' venv: only what requirements-test.lock adds, with .venv's packages on its path (a .pth file).
TEST_VENV := .venv-test
TEST_BIN  := $(TEST_VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
PEERS  := tests/peers
PIP_INSTALL = --quiet --disable-pip-version-check --no-deps

.PHONY: setup setup-test python-version build serve test bench bench-http gallery peers system-packages container-check lock clean

# Stops with a message when no interpreter runs or it is older than 3.11.
define check-python
@if [ -z "$(PYTHON_ID)" ]; then \
  echo "error: no usable Python 3.11+: none of $(PYTHON_CANDIDATES) runs here$(if $(PYTHON), and PYTHON=$(PYTHON) does not run either)." >&2; \
  echo "Install Python 3.11, 3.12 or 3.13 (with its venv module), or name one: make ... PYTHON=/path/to/python3.12" >&2; exit 1; fi
@$(PYTHON) -c 'import sys; sys.exit(None if sys.version_info >= (3, 11) else "error: $(PYTHON) is Python %d.%d; 3.11 or newer is needed (PYTHON=...)" % sys.version_info[:2])'
endef

python-version:
	$(check-python)
	@echo "$(PYTHON) ($(PYTHON_ID))"

# The server's venv: requirements.lock only (make serve, make build, production).
setup: $(VENV)/.installed-$(PYTHON_ID)

$(VENV)/.installed-$(PYTHON_ID): requirements.lock
	$(check-python)
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV) || { echo "error: $(PYTHON) -m venv failed (Debian/Ubuntu: apt install python3.X-venv)" >&2; exit 1; }
	$(BIN)/pip install $(PIP_INSTALL) -r requirements.lock
	$(BIN)/pip check
	touch $@

# The tests' venv on top of the server's: requirements-test.lock (make test, make bench).
setup-test: $(TEST_VENV)/.installed-$(PYTHON_ID)

$(TEST_VENV)/.installed-$(PYTHON_ID): $(VENV)/.installed-$(PYTHON_ID) requirements-test.lock
	rm -rf $(TEST_VENV)
	$(PYTHON) -m venv $(TEST_VENV)
	$(TEST_BIN)/python -c 'import sys, sysconfig, pathlib; server = sysconfig.get_path("purelib", vars={"base": sys.argv[1], "platbase": sys.argv[1]}); \
	  pathlib.Path(sysconfig.get_path("purelib"), "server-venv.pth").write_text(f"import site; site.addsitedir({server!r})\n")' $(abspath $(VENV))
	$(TEST_BIN)/pip install $(PIP_INSTALL) -r requirements-test.lock
	$(TEST_BIN)/pip check
	touch $@

# Node peers used side by side in tests and benchmarks (adhan), pinned by package-lock.json.
peers: $(PEERS)/node_modules/.installed

$(PEERS)/node_modules/.installed: $(PEERS)/package.json $(PEERS)/package-lock.json
	cd $(PEERS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Generated tables and the pre-rendered static_out/ (this year ±1; see build.py --help).
build: setup
	$(BIN)/python build.py

# First start: the server answers at once (rendering on demand) while the tables are built beside
# it (about 20 s; an answer that needs one not built yet waits for it: generator/tables.py), then
# static_out/ is pre-rendered in the background at low priority, with progress lines, if
# no complete build is there yet.  Proxy headers off: the app alone decides whose
# X-Forwarded-For to believe (TRUSTED_PROXIES).  `make serve ACCESS_LOG=` logs every request.
# The tables and the pre-render run in a subshell that exits at once, so they are reparented to
# init (which reaps them) rather than left zombie children of the exec'd server for its life.  A failed
# pre-render says so in the server's output (issue 29: it died silently while the server ran on).
ACCESS_LOG ?= --no-access-log
PRERENDER  ?= --if-missing --jobs 1
serve: setup
	( $(BIN)/python build.py --tables-only && nice -n 10 $(BIN)/python build.py $(PRERENDER) \
	  || echo "make serve: the tables or the pre-render failed (exit $$?): the server renders every answer itself" >&2 & ) ; \
	exec $(BIN)/uvicorn runtime.app:app --host $(HOST) --port $(PORT) --loop uvloop --http runtime.http_protocol:BoundedHttpToolsProtocol \
	  --no-proxy-headers $(ACCESS_LOG)

# Debian packages tests and benchmarks use (nginx for tests/test_nginx.py, wrk for bench-http;
# chromium, the Noto fonts for Arabic/Persian/Urdu and pdfinfo for tests/test_site_browser.py; zbarimg,
# an independent QR decoder, for the screen's QR code in tests/test_screen_browser.py; postgresql's
# initdb/pg_ctl for the throw-away clusters of tests/test_hosted_mosques.py and tests/test_store_faults.py, tests/pg_cluster.py).
# Where they cannot be installed (not root, no registry), those tests are skipped with a message.
system-packages:
	@if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ] || ! command -v wrk >/dev/null 2>&1; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    nginx-light libnginx-mod-http-brotli-static wrk) >/dev/null 2>&1 \
	  || echo "warning: could not install nginx/wrk with apt-get; tests/test_nginx.py will be skipped"; \
	fi
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1 || ! command -v zbarimg >/dev/null 2>&1 \
	  || [ ! -f /usr/share/fonts/truetype/noto/NotoNastaliqUrdu-Regular.ttf ]; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    chromium fonts-noto-core poppler-utils zbar-tools) >/dev/null 2>&1 \
	  || echo "warning: could not install chromium/fonts with apt-get; tests/test_site_browser.py will be skipped"; \
	fi
	@if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    postgresql) >/dev/null 2>&1 \
	  || echo "warning: could not install postgresql with apt-get; the PostgreSQL cases of tests/test_hosted_mosques.py and tests/test_store_faults.py will be skipped"; \
	fi

# The container image and deploy/compose.yaml run for real: nginx, two apps and PostgreSQL (tests/test_containers.py,
# docs/operations.md "Containers"). Not part of `make test` (a Docker engine, 1.6 GB of images, 5–9 minutes). Needs root:
# installs docker.io and debootstrap, starts dockerd if none answers, takes compose v2; builds local stand-ins for
# the public base images only when they cannot be pulled (no registry reachable).
container-check: setup-test
	sh tests/containers/engine.sh
	sh tests/containers/build_standins.sh
	docker build -q -f deploy/Dockerfile -t shia-times:latest .
	CONTAINER_CHECK=1 $(TEST_BIN)/python -m pytest tests/test_containers.py -n 0 -p no:cacheprovider -v -s

# Four workers on two cores: a third of a worker's time is spent waiting on the Chromium, nginx, uvicorn and
# PostgreSQL processes a test starts (28 November: 2,545 tests in 392 s with -n 2, 335 s with -n 4, the same
# verdicts); the groups keep each shared build, browser session and server on one worker.
test: setup-test peers system-packages
	$(BIN)/python build.py --tables-only
	$(TEST_BIN)/python -m pytest -n 4 --dist loadgroup

bench: setup-test peers system-packages
	$(BIN)/python build.py --tables-only
	$(TEST_BIN)/python -m bench.prayer_times
	$(TEST_BIN)/python -m bench.hijri
	$(TEST_BIN)/python -m bench.printed_tables
	$(TEST_BIN)/python -m bench.lighthouse

# The gallery of moments (issue 33): every human surface in four languages at the moments people act, as
# screenshots and visible text under test-artifacts/gallery/ for readers to grade (bench/gallery.py; docs/site.md).
gallery: setup-test peers system-packages
	@command -v faketime >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	  --no-install-recommends faketime) >/dev/null 2>&1 || echo "warning: could not install faketime with apt-get" >&2
	$(BIN)/python build.py --tables-only
	$(TEST_BIN)/python -m bench.gallery

# HTTP load on loopback with wrk (30 s per case): app static, nginx static, dynamic; then cached
# answers while 30 distinct 90-day feeds render at once (p95 and max latency).
bench-http: setup-test system-packages
	$(BIN)/python build.py --tables-only
	$(TEST_BIN)/python -m bench.http

# Re-resolve requirements.lock and requirements-test.lock from pyproject.toml, checking that every
# pin has wheels for 3.11, 3.12 and 3.13 (run by a person, then commit both; deploy/lock.py).
lock:
	$(check-python)
	$(PYTHON) deploy/lock.py

clean:
	rm -rf $(VENV) $(TEST_VENV) data/tables static_out $(PEERS)/node_modules
