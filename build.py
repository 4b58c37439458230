"""Build what the service serves from: the generated tables under data/tables/.

Usage: ``python build.py`` (``make build``).  Each table is rebuilt only when it is
missing or its format version changed; the runtime also builds a missing table on
first use, so this step only moves that cost out of the first request.
"""
from __future__ import annotations

import time

from generator import sun_table


def main() -> None:
    start = time.perf_counter()
    table = sun_table.load()
    rows = len(table.declination_deg)
    print(f"sun table: {rows} days at {sun_table.TABLE_PATH} ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
