"""Calibrating the `moonsighting` computed rule on the Sistani office's own announcements.

The office accepts a crescent seen with the naked eye (no telescope) in Iraq or places
sharing its horizon, so the candidates are naked-eye criteria over regions around Najaf:

* criteria (at each grid point's best time, `generator.astronomy.crescent`): Yallop zone A
  (q > +0.216), ≥ B (q > −0.014), ≥ C (q > −0.160); Odeh zone A (V ≥ 5.65), ≥ B (V ≥ 2.00,
  with the 6.4° Danjon limit);
* regions (1° grids, degrees, east positive): Najaf alone; Iraq (29–37° N, 39–48° E);
  Iraq and Iran (25–40° N, 39–63° E); Iraq, the Gulf and Iran (22–40° N, 39–63° E);
  Iraq, Arabia and Iran (20–40° N, 35–63° E).

Evenings are tried from the conjunction's date in Iraq (UTC+3), as in `hijri.computed_starts`.
The reference is the `announcement` rows of ``data/announced_month_starts.csv`` (forecasts
are left out: they are predictions, not sightings).  A candidate is chosen by the number of
announcements it reproduces; ties go to the first in `candidates()` order (smaller region
first, then Yallop before Odeh, stricter before looser).  Held-out agreement is measured two
ways: leave-one-out (choose on all other announcements, score the one left out) and a year
split (choose on AH ≤ `SPLIT_LAST_CALIBRATION_YEAR`, score the later ones).
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import NamedTuple

import numpy as np

from generator.astronomy import crescent
from generator.calendars import hijri, hijri_regions
from generator.places import days

NAJAF_LAT_DEG, NAJAF_LNG_DEG = 31.99, 44.33
REGIONS = {  # name -> (south, north, west, east) in degrees; None = Najaf alone
    "Najaf": None,
    "Iraq 29-37N 39-48E": (29.0, 37.0, 39.0, 48.0),
    "Iraq+Iran 25-40N 39-63E": (25.0, 40.0, 39.0, 63.0),
    "Iraq+Gulf+Iran 22-40N 39-63E": (22.0, 40.0, 39.0, 63.0),
    "Iraq+Arabia+Iran 20-40N 35-63E": (20.0, 40.0, 35.0, 63.0),
}
CRITERIA = {  # name -> (quantity, threshold): seen when q > threshold, or V >= threshold
    "Yallop A": ("q", crescent.YALLOP_Q_ABOVE[0]),
    "Yallop >= B": ("q", crescent.YALLOP_Q_ABOVE[1]),
    "Yallop >= C": ("q", crescent.YALLOP_Q_ABOVE[2]),
    "Odeh A": ("v", crescent.ODEH_V_AT_LEAST[0]),
    "Odeh >= B": ("v", crescent.ODEH_V_AT_LEAST[1]),
}
SPLIT_LAST_CALIBRATION_YEAR = 1442  # calibrate on 1436-1442, score on 1443 onwards


class Announcements(NamedTuple):
    hy: np.ndarray
    hm: np.ndarray
    start: np.ndarray  # unix day of day 1


class Calibration(NamedTuple):
    candidates: list[tuple[str, str]]  # (region, criterion), in tie-break order
    starts: np.ndarray  # (candidates, announcements) computed month start, unix day
    hits: np.ndarray  # (candidates, announcements) bool: computed == announced
    chosen: tuple[str, str]  # best on all announcements
    loo_hits: np.ndarray  # (announcements,) bool: held-out month reproduced by the rule chosen without it
    split_chosen: tuple[str, str]
    split_test: np.ndarray  # (announcements,) bool: which announcements are in the scored part
    split_hits: np.ndarray  # (announcements,) bool: reproduced by the split's chosen rule


def announcements(path: Path | None = None, authority: str = "sistani") -> Announcements:
    """Return the announced (not forecast) month starts of ``authority``, in file order."""
    with (path or hijri.ANNOUNCED_PATH).open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["authority_id"] == authority and r["kind"] == "announcement"]
    return Announcements(
        hy=np.array([int(r["hy"]) for r in rows]),
        hm=np.array([int(r["hm"]) for r in rows]),
        start=np.array([days.unix_day(r["gregorian_start"]) for r in rows]),
    )


def candidates() -> list[tuple[str, str]]:
    return [(region, criterion) for region in REGIONS for criterion in CRITERIA]


def _grid(bounds) -> tuple[np.ndarray, np.ndarray]:
    if bounds is None:
        return np.array([NAJAF_LAT_DEG]), np.array([NAJAF_LNG_DEG])
    south, north, west, east = bounds
    lat, lng = np.meshgrid(np.arange(south, north + 0.5), np.arange(west, east + 0.5), indexing="ij")
    return lat.ravel(), lng.ravel()


def candidate_starts(hy: np.ndarray, hm: np.ndarray) -> np.ndarray:
    """Return (candidates, months) month starts (unix day) of every candidate rule.

    One `crescent.evening` evaluation per region and evening offset (months × points).
    """
    conjunction = hijri.conjunction_day(hy, hm)
    first = np.floor(conjunction + hijri.IRAQ_UTC_OFFSET_DAYS).astype(np.int64)
    out = []
    for bounds in REGIONS.values():
        lat, lng = _grid(bounds)
        best_q = np.full((len(hy), hijri.EVENINGS_TRIED), -np.inf)
        best_v = np.full((len(hy), hijri.EVENINGS_TRIED), -np.inf)
        for offset in range(hijri.EVENINGS_TRIED):
            e = crescent.evening(lat[None, :], lng[None, :], (first + offset)[:, None], conjunction[:, None])
            ok = e.status == crescent.OK
            best_q[:, offset] = np.where(ok, e.q, -np.inf).max(axis=1)
            odeh_ok = ok & (e.arcl_topo_deg >= crescent.ODEH_DANJON_ARCL_DEG)
            best_v[:, offset] = np.where(odeh_ok, e.v, -np.inf).max(axis=1)
        for quantity, threshold in CRITERIA.values():
            seen = best_q > threshold if quantity == "q" else best_v >= threshold
            evening = np.where(seen.any(axis=1), seen.argmax(axis=1), hijri.EVENINGS_TRIED)
            out.append(first + evening + 1)
    return np.array(out)


def _choose(hits: np.ndarray, use: np.ndarray) -> int:
    """Return the index of the candidate with most hits on the months ``use`` (first on ties)."""
    return int(np.argmax(hits[:, use].sum(axis=1)))


def calibrate(data: Announcements | None = None) -> Calibration:
    """Score every candidate on the announcements; choose, then measure held-out agreement."""
    data = data or announcements()
    names = candidates()
    starts = candidate_starts(data.hy, data.hm)
    hits = starts == data.start[None, :]
    n = len(data.start)
    loo = np.array([hits[_choose(hits, np.arange(n) != i), i] for i in range(n)])
    test = data.hy > SPLIT_LAST_CALIBRATION_YEAR
    split = _choose(hits, ~test)
    return Calibration(
        candidates=names,
        starts=starts,
        hits=hits,
        chosen=names[_choose(hits, np.ones(n, dtype=bool))],
        loo_hits=loo,
        split_chosen=names[split],
        split_test=test,
        split_hits=hits[split],
    )


def rule_of(region: str, criterion: str) -> tuple[tuple[float, float, float, float] | None, str, float]:
    """Return (bounds, quantity, threshold) of a candidate (for comparing with `hijri.SISTANI_RULE`)."""
    quantity, threshold = CRITERIA[criterion]
    return REGIONS[region], quantity, threshold


# --- the South Asian reckonings (issue 26) -------------------------------------------------


class RegionalFit(NamedTuple):
    calendar: str
    candidates: list[str]  # names, in tie-break order (`hijri_regions.candidates`)
    hy: np.ndarray  # the announced months scored (inside the month table)
    hm: np.ndarray
    announced: np.ndarray  # unix day of day 1 as announced
    starts: np.ndarray  # (candidates, months) each candidate's start
    chosen: int  # the rule chosen on every announced month (the one the month table computes with)
    held_out: "hijri_regions.HeldOut"  # leave one Hijri year out


def regional_fit(calendar: str, before: bool = False) -> RegionalFit:
    """Fit a regional reckoning's rule on its announced months and measure it leave-one-year-out.

    ``before=True`` gives instead the months its region's ``fit_from_year`` leaves out of the fit
    (served as announced; their ``chosen`` and ``held_out`` are those rows' own, for the report).
    """
    rows = hijri_regions.announced(calendar)
    first = hijri_regions.REGIONS[calendar].fit_from_year
    keys = [k for k in rows if hijri.FIRST_YEAR <= k[0] <= hijri.LAST_YEAR and (k[0] < first) == before]
    hy = np.array([k[0] for k in keys], dtype=np.int64)
    hm = np.array([k[1] for k in keys], dtype=np.int64)
    announced = np.array([rows[k].start for k in keys], dtype=np.int64)
    starts = hijri.candidate_starts(hy, hm, calendar)
    return RegionalFit(
        calendar=calendar,
        candidates=[hijri_regions.candidate_name(c) for c in hijri_regions.candidates(calendar)],
        hy=hy, hm=hm, announced=announced, starts=starts,
        chosen=hijri_regions.choose(starts == announced[None, :]),
        held_out=hijri_regions.leave_one_year_out(hy, hm, announced, starts),
    )
