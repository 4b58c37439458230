"""Asr from its physical definition at random places and days, as an independent test reference.

Writes tests/fixtures/asr_reference.csv and prints how far the engine's asr is from it.
Run: ``python -m bench.asr_reference`` (about half a minute; needs node for praytime).

The definition (shadow factor f = 1 standard, 2 Hanafi): asr is the moment after the
Sun's transit when an object's shadow equals f times the object plus its noon shadow.
With z0 the Sun's zenith distance at that day's transit, the Sun's altitude is then
acot(f + tan z0).  Two independent computations, neither of them ours:

* astronomy-engine (PyPI ``astronomy-engine``, pinned as a test peer): the transit from
  ``SearchHourAngle(Sun, observer, 0)`` after the place's local mean midnight, its
  altitude without refraction (``Horizon(..., Refraction.Airless)``; asr is defined by the
  geometric Sun, as the twilight angles are), then ``SearchAltitude`` for the asr altitude
  descending after the transit (airless by that function's convention).
* praytimes.org v3 (npm ``praytime`` 3.2.0, tests/peers/praytime_times.js) unrounded, with
  5 refinement passes; it takes the noon shadow from the declination at the asr moment
  rather than at transit, a difference of a few seconds at most (printed below).

Place-days: |lat| ≤ 58°, any longitude, 1900–2100, drawn with a fixed seed.  The day is
the local mean solar day at the place's longitude, the same day the engine and praytime
compute for that date.  The engine's asr takes the noon shadow from the declination at
0h UT of the date (adhan-js' shortcut, generator/prayer/prayer.py); the statistics below measure
that shortcut against the reference.
"""
from __future__ import annotations

import csv
import datetime as dt
import json
import subprocess
from pathlib import Path

import astronomy
import numpy as np

from generator.prayer.methods import METHODS
from generator.prayer.prayer import _sun, compute, time_of_altitude, transit

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "asr_reference.csv"
PEER = ROOT / "tests" / "peers" / "praytime_times.js"
SEED = 20261122
N_PLACE_DAYS = 300
LAT_MAX_DEG = 58.0
FACTORS = (1, 2)
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def place_days() -> list[tuple[float, float, dt.date]]:
    rng = np.random.default_rng(SEED)
    lat = np.round(rng.uniform(-LAT_MAX_DEG, LAT_MAX_DEG, N_PLACE_DAYS), 4)
    lng = np.round(rng.uniform(-180.0, 180.0, N_PLACE_DAYS), 4)
    first, last = dt.date(1900, 1, 1).toordinal(), dt.date(2100, 12, 31).toordinal()
    days = rng.integers(first, last + 1, N_PLACE_DAYS)
    return [(float(a), float(b), dt.date.fromordinal(int(d))) for a, b, d in zip(lat, lng, days)]


def _unix(t: astronomy.Time) -> float:
    return t.ut * 86400.0 + 946728000.0  # astronomy-engine counts UT days from J2000 (2000-01-01 12:00 UT)


def asr_astronomy_engine(lat: float, lng: float, date: dt.date, factor: int) -> float:
    """Unix seconds (UT) of asr from the physical definition (module docstring)."""
    observer = astronomy.Observer(lat, lng, 0.0)
    midnight = dt.datetime(date.year, date.month, date.day, tzinfo=dt.UTC) - dt.timedelta(days=lng / 360.0)
    start = astronomy.Time.Make(midnight.year, midnight.month, midnight.day, midnight.hour, midnight.minute,
                                midnight.second + midnight.microsecond / 1e6)
    noon = astronomy.SearchHourAngle(astronomy.Body.Sun, observer, 0.0, start, +1).time
    sky = astronomy.Equator(astronomy.Body.Sun, noon, observer, True, True)
    altitude_noon = astronomy.Horizon(noon, observer, sky.ra, sky.dec, astronomy.Refraction.Airless).altitude
    zenith_noon = np.radians(90.0 - altitude_noon)
    altitude_asr = np.degrees(np.arctan(1.0 / (factor + np.tan(zenith_noon))))
    asr = astronomy.SearchAltitude(astronomy.Body.Sun, observer, astronomy.Direction.Set, noon, 1.0, altitude_asr)
    return _unix(asr)


def asr_praytime(cases: list[tuple[float, float, dt.date]], factor: int) -> np.ndarray:
    payload = [
        {"lat": lat, "lng": lng, "date": date.isoformat(), "iterations": 5,
         "params": {"asr": {1: "Standard", 2: "Hanafi"}[factor], "highLats": "None", "maghrib": "0 min"}}
        for lat, lng, date in cases
    ]
    result = subprocess.run(["node", str(PEER)], input=json.dumps(payload), capture_output=True, text=True, check=True,
                            timeout=120)
    return np.array([r["asr"] for r in json.loads(result.stdout)], dtype=float)


def asr_engine_shortcut(lat: float, lng: float, date: dt.date, factor: int) -> float:
    """The engine's asr formula (generator/prayer/prayer.py: noon shadow from the declination at 0h UT), any factor."""
    day = np.array([float((date - dt.date(1970, 1, 1)).days)])
    declination_0h, _ = _sun(day)
    zenith_noon = np.radians(np.abs(lat - declination_0h))
    altitude = np.degrees(np.arctan(1.0 / (factor + np.tan(zenith_noon))))
    return float(time_of_altitude(day, transit(day, lng), lat, lng, altitude, +1)[0] * 86400.0)


def asr_engine_at_transit(lat: float, lng: float, date: dt.date, factor: int) -> float:
    """The engine's solver with the noon shadow from the declination at transit (the fix issue 9 asks for)."""
    day = np.array([float((date - dt.date(1970, 1, 1)).days)])
    noon = transit(day, lng)
    declination_noon, _ = _sun(noon)
    zenith_noon = np.radians(np.abs(lat - declination_noon))
    altitude = np.degrees(np.arctan(1.0 / (factor + np.tan(zenith_noon))))
    return float(time_of_altitude(day, noon, lat, lng, altitude, +1)[0] * 86400.0)


def _iso(unix_s: float) -> str:
    return (EPOCH + dt.timedelta(seconds=float(unix_s))).isoformat(timespec="seconds").replace("+00:00", "Z")


def main() -> None:
    cases = place_days()
    rows = []
    tehran = [METHODS["Tehran"]]
    for factor in FACTORS:
        reference = np.array([asr_astronomy_engine(lat, lng, date, factor) for lat, lng, date in cases])
        peer = asr_praytime(cases, factor)
        shortcut = np.array([asr_engine_shortcut(lat, lng, date, factor) for lat, lng, date in cases])
        if factor == 1:  # the shortcut reproduced here is the engine's own asr
            engine = np.array([compute(lat, lng, (date - dt.date(1970, 1, 1)).days, 1, tehran).unrounded_s["asr"][0, 0]
                               for lat, lng, date in cases])
            assert np.max(np.abs(engine - shortcut)) < 0.01, np.max(np.abs(engine - shortcut))
        for (lat, lng, date), a, b in zip(cases, reference, peer):
            rows.append((lat, lng, date.isoformat(), factor, _iso(a), _iso(b)))

        peer_s = np.abs(peer - reference)
        print(f"factor {factor}: praytime − astronomy-engine: worst {peer_s.max():.1f} s, "
              f"99th percentile {np.percentile(peer_s, 99):.1f} s")
        off_min = (shortcut - reference) / 60.0
        worst = int(np.argmax(np.abs(off_min)))
        lat, lng, date = cases[worst]
        print(f"factor {factor}: engine (0h UT declination) − astronomy-engine: "
              f"{100 * np.mean(np.abs(off_min) > 1.0):.1f}% beyond 1 min, {100 * np.mean(np.abs(off_min) > 0.5):.1f}% beyond 30 s, "
              f"worst {off_min[worst]:+.2f} min at lat {lat:.2f}, lng {lng:.2f}, {date}")
        fixed = np.array([asr_engine_at_transit(lat, lng, date, factor) for lat, lng, date in cases])
        fixed_s = np.abs(fixed - reference)
        print(f"          with the declination at transit instead: worst {fixed_s.max():.1f} s, "
              f"99th percentile {np.percentile(fixed_s, 99):.1f} s")
        west = np.array([c[1] for c in cases]) < -90.0
        print(f"          |Δ| mean {np.mean(np.abs(off_min[west])):.2f} min at lng < −90°, "
              f"{np.mean(np.abs(off_min[~west])):.2f} min elsewhere")
    with OUT.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["lat", "lng", "date", "factor", "asr_utc_astronomy_engine", "asr_utc_praytime"])
        w.writerows(rows)
    print(f"wrote {OUT.relative_to(ROOT)}: {len(rows)} rows")


if __name__ == "__main__":
    main()
