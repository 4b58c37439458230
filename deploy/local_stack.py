"""Run the app (uvicorn) and nginx on free loopback ports: for tests and benchmarks only."""
from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from deploy.publish import CURRENT, publish
from deploy.render_nginx_conf import render

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(url: str, seconds: float = 30.0) -> None:
    """Poll ``url`` until it answers (any status), or raise after ``seconds``."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up within {seconds} s")


# As docs/operations.md and deploy/systemd run the app: uvicorn keeps an idle connection longer than nginx's
# upstream keepalive_timeout (30 s), so nginx closes first.  With uvicorn's default 5 s, nginx can send a request on
# a connection uvicorn is closing (a reset: a failure, counted towards max_fails; a known race, e.g.
# lsst-sqre/phalanx#5103); in a rolling restart the retry may meet the app being restarted (a 502).  Issue 34: one of
# three rolling restarts beside a CPU hog gave 579 x 502 with the tests' 5 s.
UVICORN_FLAGS = ("--loop", "uvloop", "--http", "runtime.http_protocol:BoundedHttpToolsProtocol", "--no-proxy-headers",
                 "--no-access-log", "--timeout-keep-alive", "75", "--timeout-graceful-shutdown", "20")


def start_app(static_root: Path, port: int, *, workers: int = 1, rate_limit_per_minute: int = 0,
              trusted_proxies: str = "127.0.0.1", extra_env: dict | None = None,
              app: str = "runtime.app:app") -> subprocess.Popen:
    """Start uvicorn on 127.0.0.1:port serving ``static_root`` as deploy/README.md runs it (proxy
    headers off: the app alone decides whom to believe, by TRUSTED_PROXIES).  Behind nginx the
    app's own limit is off (nginx's limit_req is the server's); `make serve` keeps it on."""
    env = {**os.environ, "STATIC_ROOT": str(static_root), "RATE_LIMIT_PER_MINUTE": str(rate_limit_per_minute),
           "TRUSTED_PROXIES": trusted_proxies, **(extra_env or {})}
    command = [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port),
               "--workers", str(workers), "--log-level", "warning", *UVICORN_FLAGS]
    return subprocess.Popen(command, cwd=ROOT, env=env)


@contextlib.contextmanager
def app_on_loopback(static_root: Path, **options):
    """`start_app` on a free port (``options`` as it takes them), waited for, stopped at the end: yields its base URL."""
    port = free_port()
    app = start_app(static_root, port, **options)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/v1/methods", seconds=60)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(app)


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


def start_nginx(prefix: Path, static_root: Path, port: int, app_port: int | list[int], *,
                published_in: Path | None = None, **options) -> subprocess.Popen:
    """Start nginx with deploy/nginx.conf on 127.0.0.1:port in front of the app process(es), its root the
    verified copy of ``static_root`` that deploy/publish.py makes (in a folder of the system's temporary
    folder: nginx's workers run as another user when the master is root).  The process carries
    ``site_root`` (`republish` publishes ``static_root`` there again); `stop` removes it.
    ``published_in``: the site root of another nginx of the same ``static_root``, served as it is (a second
    front on the same publication, as two nginx hosts share one; neither published again nor removed here)."""
    ports = app_port if isinstance(app_port, list) else [app_port]
    if published_in is not None:
        site_root = Path(published_in)
    else:
        site_root = Path(tempfile.mkdtemp(prefix="nginx-site-"))
        site_root.chmod(0o755)
        publish(static_root, site_root)
    conf = render(prefix, f"127.0.0.1:{port}", site_root / CURRENT, ",".join(f"127.0.0.1:{p}" for p in ports),
                  **options)
    process = subprocess.Popen([nginx_binary(), "-c", str(conf), "-p", str(prefix), "-g", "daemon off;"])
    process.site_root, process.static_root = site_root, static_root
    process.owns_site_root = published_in is None  # `stop` removes only a publication of its own
    return process


def republish(nginx: subprocess.Popen, *, fresh: bool = False):
    """Publish the static root of an nginx `start_nginx` started again (as build.py does after a build)."""
    return publish(nginx.static_root, nginx.site_root, fresh=fresh)


def stop(*processes: subprocess.Popen) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(10)
        if getattr(process, "site_root", None) is not None and getattr(process, "owns_site_root", True):
            shutil.rmtree(process.site_root, ignore_errors=True)
