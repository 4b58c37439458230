"""A throw-away PostgreSQL cluster for tests (issue 27's hosted profiles): initdb into a temp directory, pg_ctl on a free
loopback port, trust authentication, removed at the end.  `make test` installs the Debian ``postgresql`` package
(Makefile ``system-packages``); where no initdb is found the tests that need it are skipped with that message.
Run as root (a container), the cluster belongs to the ``postgres`` system user (initdb refuses root)."""
from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from deploy import local_stack


def binaries() -> Path | None:
    """The directory of initdb and pg_ctl (Debian keeps them under /usr/lib/postgresql/<major>/bin), or None."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(candidates[-1]).parent if candidates else None


SKIP_REASON = "no PostgreSQL server binaries (initdb, pg_ctl): `make system-packages` installs Debian's postgresql"


def _as_owner() -> tuple[list[str], int | None]:
    if os.geteuid() != 0:
        return [], None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        return None, None  # root without a postgres user: initdb would refuse
    return ["runuser", "-u", "postgres", "--"], user.pw_uid


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0]
    except (OSError, IndexError):
        return "zombie"  # gone


class Cluster:
    """``with Cluster() as cluster:`` → ``cluster.url(database)`` connection URLs; ``cluster.create(name)``."""

    def __init__(self):
        self.bin = binaries()
        self.directory = Path(tempfile.mkdtemp(prefix="pg-test-"))
        self.port = local_stack.free_port()

    def __enter__(self) -> "Cluster":
        prefix, uid = _as_owner()
        if prefix is None:
            raise RuntimeError("running as root without a postgres user: initdb cannot run")
        self.prefix = prefix
        if uid is not None:
            os.chmod(self.directory, 0o755)
            os.chown(self.directory, uid, -1)
        data, log = self.directory / "data", self.directory / "log"
        subprocess.run([*prefix, str(self.bin / "initdb"), "-D", str(data), "-U", "test", "--auth=trust", "-E", "UTF8",
                        "--no-sync"], check=True, capture_output=True)
        subprocess.run([*prefix, str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
                        f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off",
                        "start"], check=True, capture_output=True)
        self.data = data
        return self

    def start(self) -> None:
        """Start the server again (after `stop` or `crash`)."""
        subprocess.run([*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.directory / "log"),
                        "-w", "-t", "60", "-o",
                        f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                       check=True, capture_output=True)

    def stop(self, mode: str = "fast") -> None:
        """pg_ctl stop (``fast``: sessions are ended, the server shuts down cleanly)."""
        subprocess.run([*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"],
                       check=True, capture_output=True)

    def restart(self, mode: str = "fast") -> None:
        subprocess.run([*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.directory / "log"),
                        "-m", mode, "-w", "-t", "60", "-o",
                        f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off", "restart"],
                       check=True, capture_output=True)

    def postmaster(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def processes(self) -> list[int]:
        """The postmaster and its children (every process of this cluster), by /proc's parent ids."""
        root, found = self.postmaster(), []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                parent = int(stat.rpartition(")")[2].split()[1])
                if parent == root:
                    found.append(int(entry.name))
        return [root, *found]

    def crash(self) -> None:
        """kill -9 of the postmaster (as a crash would), then wait for its children to go (they follow it)."""
        pids = self.processes()
        os.kill(pids[0], 9)
        deadline = time.monotonic() + 30
        while any(Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid) for pid in pids):
            if time.monotonic() > deadline:
                for pid in pids[1:]:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, 9)
            time.sleep(0.05)
        # The killed postmaster may stay a zombie here (its parent, pg_ctl, is gone and this container's init may not
        # reap): its pid would still "exist" to the next start's check, so its lock file goes, as an operator would.
        (self.data / "postmaster.pid").unlink(missing_ok=True)
        (self.directory / f".s.PGSQL.{self.port}.lock").unlink(missing_ok=True)

    def pause(self) -> list[int]:
        """SIGSTOP every process of the cluster (a stopped VM, a partition: connections open, nothing answers)."""
        pids = self.processes()
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        return pids

    @staticmethod
    def resume(pids: list[int]) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://test@127.0.0.1:{self.port}/{database}"

    def create(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def __exit__(self, *exc) -> None:
        with contextlib.suppress(Exception):  # a paused cluster must still stop
            self.resume(self.processes())
        subprocess.run([*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.directory, ignore_errors=True)
