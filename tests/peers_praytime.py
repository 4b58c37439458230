"""The praytimes.org v3 peer (npm ``praytime`` 3.2.0, pinned in tests/peers).

Kept out of tests/conftest.py while that file is being reworked; it reuses the same
node runner, so a missing peer fails the same way (run ``make peers``).
"""
from __future__ import annotations

from conftest import run_node_peer


def run_praytime(cases: list[dict]) -> list[dict]:
    """Run praytime on ``cases``; see tests/peers/praytime_times.js for both formats.

    Each case: ``{"lat", "lng", "date": "YYYY-MM-DD", "params": {...}}`` with optional
    ``rounding`` (default ``"none"``) and ``iterations`` (default 3).  Each result maps
    fajr, sunrise, dhuhr, asr, sunset, maghrib, isha, midnight to Unix seconds or None.
    """
    return run_node_peer("praytime_times.js", "praytime", cases)
