"""Generated tables under data/tables/: written atomically, rebuilt when their stamp changes.

Each table carries a small stamp (format version, ephemeris, a hash of its source data)
in its Parquet schema metadata; a table whose stamp differs from the code's is stale and
is rebuilt on first use.  One process builds a table at a time (`building`, a lock file
beside it): another that needs it meanwhile waits for that build instead of repeating it (make
serve's server starts while the tables build beside it).  The table is written to a private
temporary file and renamed into place, so readers never see a partial file.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from pathlib import Path
from typing import Callable, Iterator, Mapping

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

TABLES_DIR = Path(__file__).resolve().parent.parent / "data" / "tables"


def write_atomic(path: Path, write: Callable[[str], None]) -> Path:
    """Call ``write(temporary path)`` next to ``path``, then rename the result onto ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)  # the last rename wins; readers see a whole file either way
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def write_parquet(path: Path, columns: Mapping[str, np.ndarray], stamp: Mapping[str, str]) -> Path:
    """Write columns to a Parquet table stamped with ``stamp`` (schema metadata), atomically."""
    table = pa.table(dict(columns)).replace_schema_metadata(dict(stamp))
    return write_atomic(path, lambda tmp: pq.write_table(table, tmp))


@contextlib.contextmanager
def building(path: Path) -> Iterator[None]:
    """Hold the lock of the table at ``path`` (``.<name>.lock`` beside it) while it is built.

    An exclusive ``flock``: the lock goes with the process (a killed builder leaves no stale
    lock), and two threads of one process exclude each other too (each opens its own file).
    Callers check again under the lock whether the table is still to be built.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield


def read_parquet(path: Path, stamp: Mapping[str, str], build: Callable[[Path], object]) -> pa.Table:
    """Return the table at ``path``, first building it with ``build(path)`` if missing or stale
    (or waiting for the process that builds it)."""
    if not is_current(path, stamp):
        with building(path):
            if not is_current(path, stamp):  # not built meanwhile by the lock's last holder
                build(path)
    return pq.read_table(path)


def is_current(path: Path, stamp: Mapping[str, str]) -> bool:
    """Whether the table at ``path`` exists and carries ``stamp``."""
    if not path.is_file():
        return False
    metadata = pq.read_schema(path).metadata or {}
    return all(metadata.get(key.encode()) == value.encode() for key, value in stamp.items())
