"""Generated tables under data/tables/: written atomically, rebuilt when their stamp changes.

Each table carries a small stamp (format version, ephemeris, a hash of its source data)
in its Parquet schema metadata; a table whose stamp differs from the code's is stale and
is rebuilt on first use.  Several processes may build at once: each writes a private
temporary file and renames it into place, so readers never see a partial file.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, Mapping

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


def read_parquet(path: Path, stamp: Mapping[str, str], build: Callable[[Path], object]) -> pa.Table:
    """Return the table at ``path``, first building it with ``build(path)`` if missing or stale."""
    if not _is_current(path, stamp):
        build(path)
    return pq.read_table(path)


def _is_current(path: Path, stamp: Mapping[str, str]) -> bool:
    if not path.is_file():
        return False
    metadata = pq.read_schema(path).metadata or {}
    return all(metadata.get(key.encode()) == value.encode() for key, value in stamp.items())
