"""The install path: the server's venv carries no test tool, its code needs nothing else, the
Makefile picks a working Python, and `make serve` leaves no zombie (issue 22).

References, none of them our own lock-making code:

* the packages' own metadata (``Requires-Dist`` read with ``importlib.metadata`` and evaluated
  with ``packaging``'s PEP 508 markers): which packages the test tools pull in that no server
  dependency needs, walked from the test tools by hand;
* the distributions really installed in ``.venv`` (listed by its own interpreter, which has no
  view of the tests' venv);
* the import statements of runtime/, generator/, build.py and announce.py, read with ``ast``,
  resolved by the server venv's interpreter (``importlib.util.find_spec`` and
  ``packages_distributions``);
* ``make`` itself, run with a PATH of stand-in interpreters (one fails as an inactive pyenv
  shim does: ``pyenv: python3.13: command not found``, status 127);
* the kernel's process table (``/proc/<pid>/stat``: state ``Z`` is a zombie) while `make serve`
  runs the real server.
"""
from __future__ import annotations

import ast
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
SERVER_PYTHON = ROOT / ".venv" / "bin" / "python"
SERVER_LOCK = ROOT / "requirements.lock"
TEST_LOCK = ROOT / "requirements-test.lock"
MAKE = shutil.which("make")
# The tools the issue names; none may reach the server's venv, nor may anything only they need.
TEST_TOOLS = ("pytest", "pytest-xdist", "hypothesis", "schemathesis", "openapi-spec-validator",
              "astronomy-engine", "ical", "httpx2")
SERVER_CODE = ("runtime", "generator", "build.py", "announce.py", "mosque.py")
VENV_TOOLS = {"pip", "setuptools"}  # what `python -m venv` itself puts in (setuptools up to 3.11)


def _pins(path: Path) -> dict[str, str]:
    """{canonical name: version} of a lock's ``name==version`` lines."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep and version.strip(), f"{path.name}: {line!r} is not an exact pin"
            pins[canonicalize_name(name)] = version.strip()
    return pins


def _server_venv(code: str, *args: str) -> str:
    """Run ``code`` (with ``args`` in sys.argv[1:]) by the server venv's own interpreter; return its stdout."""
    if not SERVER_PYTHON.exists():
        pytest.fail(".venv is missing: `make setup` builds the server's venv")
    return subprocess.run([SERVER_PYTHON, "-c", code, *args], check=True, capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": ""}).stdout


def _requires(name: str) -> set[str]:
    """Canonical names a distribution requires (its markers evaluated here, extras left out)."""
    environment = default_environment() | {"extra": ""}
    out = set()
    for line in metadata.requires(name) or ():
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(environment):
            out.add(canonicalize_name(requirement.name))
    return out


def _closure(names) -> set[str]:
    seen, todo = set(), [canonicalize_name(n) for n in names]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_requires(name))
    return seen


def test_locks_are_disjoint_exact_pins():
    server, tests = _pins(SERVER_LOCK), _pins(TEST_LOCK)
    assert len(server) >= 20 and len(tests) >= 8
    assert not set(server) & set(tests), "a package is pinned in both locks"


def test_test_tools_and_what_only_they_need_are_only_in_the_test_lock():
    server, tests = _pins(SERVER_LOCK), _pins(TEST_LOCK)
    server_direct = [Requirement(r).name for r in
                     tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]]
    needed_by_server = _closure(server_direct)
    exclusive = _closure(TEST_TOOLS) - needed_by_server
    assert {canonicalize_name(t) for t in TEST_TOOLS} <= exclusive
    assert len(exclusive) >= 30  # pytest, schemathesis, hypothesis... pull in about forty more
    assert not exclusive & set(server), f"test-only packages in requirements.lock: {sorted(exclusive & set(server))}"
    assert exclusive <= set(tests), f"not pinned in requirements-test.lock: {sorted(exclusive - set(tests))}"
    assert needed_by_server == set(server), "requirements.lock is not exactly what the server's dependencies need"


def test_server_venv_holds_exactly_the_server_lock():
    listed = json.loads(_server_venv(
        "import json, importlib.metadata as m; "
        "print(json.dumps([(d.metadata['Name'], d.version) for d in m.distributions()]))"))
    installed = {canonicalize_name(name): version for name, version in listed}
    tests = _pins(TEST_LOCK)
    assert not set(installed) & set(tests), f"test packages in .venv: {sorted(set(installed) & set(tests))}"
    assert not set(installed) & {canonicalize_name(t) for t in TEST_TOOLS}
    assert {n: v for n, v in installed.items() if n not in VENV_TOOLS} == _pins(SERVER_LOCK)


def test_every_import_of_the_server_code_resolves_in_the_server_venv():
    files = [p for part in SERVER_CODE for p in ((ROOT / part).rglob("*.py") if (ROOT / part).is_dir() else [ROOT / part])]
    assert len(files) > 40
    modules = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules.add(node.module.split(".")[0])
    own = {p.stem for p in ROOT.glob("*.py")} | {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    third_party = sorted(modules - set(sys.stdlib_module_names) - own - {"__future__"})
    assert {"numpy", "starlette", "skyfield", "pyarrow"} <= set(third_party)
    found = json.loads(_server_venv(
        "import json, sys, importlib.util, importlib.metadata as m; names = sys.argv[1:]; "
        "providers = m.packages_distributions(); "
        "print(json.dumps({n: [importlib.util.find_spec(n) is not None, providers.get(n, [])] for n in names}))",
        *third_party))
    server = _pins(SERVER_LOCK)
    for module, (importable, providers) in found.items():
        assert importable, f"{module} is imported by the server code but not installed in .venv"
        assert any(canonicalize_name(p) in server for p in providers), f"{module} comes from {providers}, not requirements.lock"


# --- the Makefile's choice of interpreter ---------------------------------------------------------

def _stand_in(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return path


INACTIVE_SHIM = 'echo "pyenv: $(basename "$0"): command not found" >&2; exit 127'
REAL = f'exec {os.path.realpath(sys.executable)} "$@"'


def _make(*args: str, path: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHON", "MAKEFLAGS", "MAKELEVEL")}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([MAKE, "--no-print-directory", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_make_takes_the_newest_python_that_runs(tmp_path):
    _stand_in(tmp_path, "python3.13", INACTIVE_SHIM)
    _stand_in(tmp_path, "python3.12", REAL)
    _stand_in(tmp_path, "python3.11", REAL)
    run = _make("-s", "python-version", path=str(tmp_path))
    assert run.returncode == 0, run.stderr
    version = ".".join(map(str, sys.version_info[:3]))
    assert run.stdout.strip() == f"python3.12 (cpython-{version})"
    _stand_in(tmp_path, "python3.13", REAL)
    assert _make("-s", "python-version", path=str(tmp_path)).stdout.split()[0] == "python3.13"
    override = _make("-s", "python-version", f"PYTHON={tmp_path / 'python3.11'}", path=str(tmp_path))
    assert override.stdout.split()[0] == str(tmp_path / "python3.11")


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_make_stops_with_a_message_when_no_python_runs(tmp_path):
    for name in ("python3.13", "python3.12", "python3.11"):
        _stand_in(tmp_path, name, INACTIVE_SHIM)
    for target in ("python-version", "setup"):
        run = _make(target, "VENV=" + str(tmp_path / "venv"), path=str(tmp_path))
        assert run.returncode != 0
        assert "no usable Python 3.11+" in run.stderr and "PYTHON=" in run.stderr
        assert not (tmp_path / "venv").exists()


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_another_interpreter_recreates_the_venv(tmp_path):
    """The stamp names the interpreter: the same one keeps the venv, another rebuilds it from scratch."""
    version = ".".join(map(str, sys.version_info[:3]))
    venv = tmp_path / "venv"
    venv.mkdir()
    stamp = venv / f".installed-cpython-{version}"
    stamp.touch()
    os.utime(stamp, (time.time() + 5, time.time() + 5))  # newer than requirements.lock
    same = _stand_in(tmp_path, "python3.12", REAL)
    assert _make("-q", "setup", f"VENV={venv}", f"PYTHON={same}").returncode == 0
    other = _stand_in(tmp_path, "python3.99", 'case "$2" in *python_version*) echo cpython-3.99.0; exit;; esac; ' + REAL)
    dry = _make("-n", "setup", f"VENV={venv}", f"PYTHON={other}")
    assert f"rm -rf {venv}" in dry.stdout and f"{other} -m venv {venv}" in dry.stdout
    assert f"touch {venv}/.installed-cpython-3.99.0" in dry.stdout


# --- make serve's background pre-render -----------------------------------------------------------

def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def _processes() -> list[tuple[int, str, int, str]]:
    """Every (pid, state, parent pid, command line) in /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if stat:
                out.append((int(entry.name), *stat, cmdline))
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(MAKE is None or not Path("/proc/self/stat").exists(), reason="needs make and /proc")
@contextlib.contextmanager
def _serve(tmp_path, port: int, prerender: str):
    """`make serve` on ``port`` (its venv as it is), static root and log (serve.log) in ``tmp_path``, PRERENDER
    given; yields the make process and stops its whole group afterwards."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")}
    env["STATIC_ROOT"] = str(tmp_path)
    with (tmp_path / "serve.log").open("w") as log:
        make = subprocess.Popen([MAKE, "--no-print-directory", "-o", "setup", "serve", f"PORT={port}",
                                 f"PRERENDER={prerender}"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            yield make
        finally:
            os.killpg(make.pid, signal.SIGTERM)
            try:
                make.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(make.pid, signal.SIGKILL)
                make.wait()


def test_make_serve_leaves_no_zombie_pre_render(tmp_path):
    """`make serve` starts the pre-render in the background and execs the server: once the
    pre-render ends, the server must have no zombie child (it never waits for one)."""
    port, marker = _free_port(), tmp_path / "prerender-out"
    with _serve(tmp_path, port, f"--tables-only --out {marker}") as make:
        deadline = time.monotonic() + 180
        while True:
            assert make.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/qibla?lat=1&lng=1", timeout=5) as answer:
                    assert json.loads(answer.read())["qibla"] > 0
                    break
            except OSError:
                assert time.monotonic() < deadline, "make serve did not answer in 180 s"
                time.sleep(0.5)
        deadline = time.monotonic() + 120
        while any("build.py" in cmd and str(marker) in cmd and state != "Z" for _, state, _, cmd in _processes()):
            assert time.monotonic() < deadline, "the pre-render did not end"
            time.sleep(0.2)
        time.sleep(0.5)
        assert (tmp_path / "serve.log").read_text().count("tables ready") == 2  # the tables step, then the pre-render's own check
        servers = [pid for pid, _, parent, cmd in _processes() if parent == make.pid and "uvicorn" in cmd]
        assert len(servers) == 1
        children = [(pid, state) for pid, state, parent, _ in _processes() if parent == servers[0]]
        assert not [c for c in children if c[1] == "Z"], f"zombie children of the server: {children}"


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
def test_a_failed_pre_render_is_reported_and_a_bad_years_is_a_usage_error(tmp_path):
    """Issue 29: `build.py --years 2026` ended in a ValueError traceback (after building the tables), and
    through `make serve`'s PRERENDER the pre-render then died without a word while the server ran on.
    Now it is a usage error (exit 2, before any work) and `make serve` reports the failed pre-render."""
    for bad in ("2026", "2027-2026", "1800-2026", "20x6-2027"):
        run = subprocess.run([sys.executable, "build.py", "--years", bad, "--out", str(tmp_path / "out")], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and "usage:" in run.stderr and "--years" in run.stderr, run.stderr
        assert "Traceback" not in run.stderr and "tables ready" not in run.stdout
    run = subprocess.run([sys.executable, "build.py", "--today", "2026-02-30"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2 and "is not a date" in run.stderr and "Traceback" not in run.stderr
    port = _free_port()
    with _serve(tmp_path, port, f"--years 2026 --out {tmp_path / 'out'}") as make:
        deadline = time.monotonic() + 180
        while "the pre-render failed (exit 2)" not in (tmp_path / "serve.log").read_text():
            assert make.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        text = (tmp_path / "serve.log").read_text()
        assert "Traceback" not in text and "argument --years" in text
