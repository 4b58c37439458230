"""Every generated table under data/tables/ (generator/tables.py), built together.

build.py builds them before it renders anything, and `make serve` runs that step beside the
starting server, which waits for them only when they are all there already (`present`).  Each
table is built under its lock (`tables.building`), so the server, the build and several
workers never build one twice: whoever needs a table while another process builds it waits.
"""
from __future__ import annotations

import multiprocessing

from generator.astronomy import coastline, eclipses, lunar, sun_table
from generator.calendars import hijri

PATHS = (sun_table.TABLE_PATH, lunar.TABLE_PATH, hijri.TABLE_PATH, eclipses.TABLE_PATH, coastline.TABLE_PATH)


def present() -> bool:
    """Whether every table file exists (a stale one is rebuilt on its first use, as ever)."""
    return all(path.is_file() for path in PATHS)


def _hijri_months() -> None:
    for calendar in hijri.CALENDARS:
        hijri.to_hijri(0, calendar)


def build() -> None:
    """Build every missing or stale table and load them all into this process.

    The new moons and the Hijri months built from them (the longest chain: 18 of 25 s of CPU on a
    quiet host, 26 November) are built in a forked process while this one builds the sun table
    and the eclipses, so two cores finish in about the time of that chain.  Nothing is forked
    when those two tables are there.
    """
    chain = None
    if not (hijri.TABLE_PATH.is_file() and lunar.TABLE_PATH.is_file()):
        chain = multiprocessing.get_context("fork").Process(target=_hijri_months, name="hijri-tables")
        chain.start()
    try:
        sun_table.load()
        eclipses.load()
        coastline.polygons()  # the crescent maps' coastlines (data/tables/coastline.json)
    finally:
        if chain is not None:
            chain.join()
    if chain is not None and chain.exitcode != 0:
        raise RuntimeError(f"building the new-moon and Hijri month tables failed (exit code {chain.exitcode})")
    _hijri_months()  # read here (or rebuilt, if stale)
