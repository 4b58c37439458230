"""Where a pre-rendered response lives: the static path scheme shared by build.py, the runtime and nginx.

For endpoint ``name`` and canonical parameters ``params``::

    v1/<name>.json                                  no parameters (e.g. v1/methods.json)
    v1/<name>/<k1>=<v1>&<k2>=<v2>&….json            keys sorted, values percent-encoded
    v1/<base>/<…>.ics                               a name with its own extension ("events.ics",
                                                    "openapi.json", "prayer-times.csv") keeps it:
                                                    base "events", "openapi", "prayer-times"

The file name is the canonical query string itself, so a front (nginx, a CDN) serves a
URL whose query is already canonical with ``try_files /v1/<name>/$args.json`` and passes
anything else to the app.  Values are percent-encoded with every character outside
A–Z a–z 0–9 ``- . _ ~`` escaped, so a segment never holds ``/`` and is never ``..``:
no query can name a path outside ``static_out/``.  A query string longer than
`MAX_NAME_CHARS` (e.g. fifteen method ids) is stored as ``v1/<name>/_/<sha256>.json``,
which only the app resolves.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import quote

STATIC_ROOT = Path(__file__).resolve().parent.parent / "static_out"
MAX_NAME_CHARS = 200  # file names must stay under the usual 255-byte limit


def canonical_query(params: Mapping[str, Any]) -> str:
    """Return the canonical query string: sorted keys, values percent-encoded (RFC 3986 unreserved kept)."""
    return "&".join(f"{key}={quote(str(value), safe='')}" for key, value in sorted(params.items()))


def relative_path(name: str, params: Mapping[str, Any]) -> str:
    """Return the path of a response under ``static_out/`` (always inside it)."""
    base, extension = name, "json"
    for suffix in (".ics", ".json", ".svg", ".csv"):
        if name.endswith(suffix):
            base, extension = name[: -len(suffix)], suffix[1:]
    if not params:
        return f"v1/{base}.{extension}"
    query = canonical_query(params)
    if len(query) > MAX_NAME_CHARS:
        return f"v1/{base}/_/{hashlib.sha256(query.encode()).hexdigest()}.{extension}"
    return f"v1/{base}/{query}.{extension}"
