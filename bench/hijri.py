"""Benchmark and validation report for issue 3: crescent grids and the computed month rule.

1. GET /v1/moon-visibility world grids (res=5: 26×72 cells, res=2: 65×180) answered
   dynamically through the whole app (TestClient, response cache cleared before every
   request), best and median of the runs; beside them the bare vectorised evaluation and
   a plain per-cell Python loop over the same cells (the same function called once per
   cell, sharing one ephemeris sampling), and the ratio loop / vectorised.
2. The `computed` rule against Iran's official table (1423/1–1448/12, and since 1438):
   agreement rate and every mismatching month; alternative zone thresholds on the same
   grid for comparison (none tuned to the data).
3. The `moonsighting` computed rule calibrated on the Sistani office's announcements
   (`generator.calendars.hijri_calibration`): held-out agreement (leave-one-out and a year split),
   printed next to the Iran-table figure, every candidate's score and every mismatch.
4. The `pakistan`, `india` (issue 26), `lebanon`, `azerbaijan`, `cssna-east` and `cssna-west` (issue 37)
   rules fitted on their announced months: the rule chosen, leave-one-year-out agreement, every held-out
   miss, every candidate's score, and the other reckonings on the same months for comparison.

Run: ``python -m bench.hijri`` (or ``make bench``).
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time

os.environ["RATE_LIMIT_PER_MINUTE"] = "0"  # every request here must render, none may be refused (57 renders)
os.environ["STATIC_ROOT"] = tempfile.mkdtemp(prefix="bench-empty-static-")  # nothing pre-rendered: every request renders

import numpy as np  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from generator.astronomy import crescent  # noqa: E402
from generator.calendars import hijri, hijri_calibration, hijri_regions
from generator.api import moon_visibility  # noqa: E402
from runtime import app as runtime_app  # noqa: E402

GRID_RUNS = {5: 40, 2: 15}
HY, HM = 1447, 9  # Ramadan 1447, evening of 2026-02-18 (conjunction 2026-02-17 12:01 UT)
GOAL_MS = {5: 100.0, 2: 500.0}


def _best_median(samples: list[float]) -> tuple[float, float]:
    return min(samples), statistics.median(samples)


def time_app(client: TestClient, res: int) -> tuple[float, float]:
    url = f"/v1/moon-visibility?hy={HY}&hm={HM}&res={res}"
    assert client.get(url).status_code == 200
    samples = []
    for _ in range(GRID_RUNS[res]):
        runtime_app.cache.clear()
        start = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    return _best_median(samples)


def time_vectorised_and_loop(res: int) -> tuple[float, float, int]:
    """Return (vectorised ms, per-cell loop ms, cells) for the evaluation alone."""
    lat, lng = moon_visibility.grid_cells(res)
    meta = moon_visibility.month_meta(HY, HM, "moonsighting")
    day = int(np.datetime64(meta["sightingEvening"]).astype(np.int64))
    conj = float(hijri.conjunction_day(HY, HM))
    samples = crescent.samples_for_evenings(np.array([day]))
    vector = []
    for _ in range(5):
        start = time.perf_counter()
        grid = crescent.evening(lat, lng, day, conj, samples)
        digits = crescent.digit(grid.yallop, grid.odeh)
        vector.append((time.perf_counter() - start) * 1000)
    start = time.perf_counter()
    looped = np.empty(lat.shape, dtype=np.int64)
    for i, j in np.ndindex(lat.shape):
        one = crescent.evening(lat[i, j], lng[i, j], day, conj, (samples[0], samples[1][0]))
        looped[i, j] = crescent.digit(one.yallop, one.odeh)
    loop_ms = (time.perf_counter() - start) * 1000
    assert (looped == digits).all(), "loop and vectorised disagree"
    return min(vector), loop_ms, lat.size


def grid_report() -> None:
    print(f"GET /v1/moon-visibility world grid, Ramadan {HY} sighting evening, uncached, in process (TestClient)")
    print(f"{'res':>4} {'cells':>7} {'app best/median':>20} {'goal':>8} {'vectorised':>12} {'per-cell loop':>15} {'loop/vector':>12}")
    with TestClient(runtime_app.app) as client:
        for res in (5, 2):
            best, median = time_app(client, res)
            vector_ms, loop_ms, cells = time_vectorised_and_loop(res)
            verdict = "ok" if median < GOAL_MS[res] else "MISSED"
            print(f"{res:>4} {cells:>7} {best:9.1f} / {median:6.1f} ms {GOAL_MS[res]:6.0f}ms {verdict:>3} "
                  f"{vector_ms:8.1f} ms {loop_ms:12.0f} ms {loop_ms / vector_ms:10.0f}x")


# --- computed rule ----------------------------------------------------------------------


def _months(first: tuple[int, int], last: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    table = {k: v[0] for k, v in hijri.read_iran_table().items() if first <= k <= last}
    hy, hm = np.array(list(table)).T
    return hy, hm, np.array(list(table.values()))


def agreement_report() -> None:
    print()
    print("computed rule (Yallop q > -0.160 anywhere on the 1° Iran grid 25-40N 44-63E) vs Iran's official table")
    for first, last, note in [((1423, 1), (1448, 12), "issue window"), ((1423, 1), (1447, 10), "computed_rule.md window"),
                              ((1438, 1), (1448, 12), "since 1438")]:
        hy, hm, official = _months(first, last)
        computed = hijri.computed_start(hy, hm)
        hits = computed == official
        early, late = int((computed < official).sum()), int((computed > official).sum())
        print(f"  {first[0]}/{first[1]:<2}-{last[0]}/{last[1]:<2} ({note:24}): {hits.mean() * 100:5.1f} % of {len(hits)} "
              f"months; computed early {early}, late {late}")
    hy, hm, official = _months((1423, 1), (1448, 12))
    computed = hijri.computed_start(hy, hm)
    print("  mismatching months (official -> computed):")
    for y, m, o, c in zip(hy, hm, official, computed):
        if o != c:
            side = "early" if c < o else "late"
            print(f"    {y}/{m:02d} {np.datetime64(int(o), 'D')} -> {np.datetime64(int(c), 'D')} ({side})")
    alternatives_report(hy, hm, official)
    sistani_report()
    for calendar in hijri_regions.CALENDARS:
        regional_report(calendar)


def regional_report(calendar: str) -> None:
    """Print a regional reckoning's fitted rule (pakistan, india, lebanon, azerbaijan, cssna-east, cssna-west) and
    its leave-one-year-out agreement."""
    fit = hijri_calibration.regional_fit(calendar)
    held, n = fit.held_out, len(fit.announced)
    print()
    print(f"{calendar} computed rule fitted on its announced months (data/month_starts/"
          f"{hijri_regions.path_of(calendar).name}, "
          f"generator/calendars/hijri_regions.py)")
    if not n:
        print("  no announced month: the strictest candidate is used")
        return
    print(f"  {n} announced months, {len(np.unique(fit.hy))} Hijri years; chosen on all: {fit.candidates[fit.chosen]}")
    print(f"  held-out, leave one Hijri year out: {held.hits.mean() * 100:5.1f} % ({held.hits.sum()}/{n})")
    for y, m, a, p, c in zip(fit.hy, fit.hm, fit.announced, held.predicted, held.chosen):
        if a != p:
            print(f"    miss: {y}/{m:02d} announced {np.datetime64(int(a), 'D')}, predicted "
                  f"{np.datetime64(int(p), 'D')} ({int(p - a):+d}) by {fit.candidates[c]}")
    others = {f"{c} reckoning": hijri.month_start(fit.hy, fit.hm, c) for c in ("moonsighting", "iran")}
    others.update({f"{c}'s computed rule": hijri.computed_start(fit.hy, fit.hm, c) for c in ("moonsighting", "iran")})
    print("  on the same months (not fitted to them): "
          + ", ".join(f"{c} {(s == fit.announced).sum()}/{n}" for c, s in others.items()))
    print("  every candidate on all announced months (ties go to the first listed):")
    for name, starts in zip(fit.candidates, fit.starts):
        misses = [f"{y}/{m:02d}{int(s - a):+d}" for y, m, s, a in zip(fit.hy, fit.hm, starts, fit.announced) if s != a]
        print(f"    {name:58} {(starts == fit.announced).sum():3}/{n}  {' '.join(misses)}")
    first = hijri_regions.REGIONS[calendar].fit_from_year
    early = hijri_calibration.regional_fit(calendar, before=True)
    if len(early.announced):
        k = len(early.announced)
        print(f"  {k} announced months before {first} (served as announced, not fitted): the rule chosen gives "
              f"{(early.starts[fit.chosen] == early.announced).sum()}/{k}; the rule chosen on them, "
              f"{early.candidates[early.chosen]}, gives {(fit.starts[early.chosen] == fit.announced).sum()}/{n} "
              f"of the months from {first}")


def sistani_report() -> None:
    """Print the Sistani calibration: held-out agreement, the candidates, every mismatch."""
    data = hijri_calibration.announcements()
    cal = hijri_calibration.calibrate(data)
    n, test = len(data.start), cal.split_test
    print()
    print("moonsighting computed rule calibrated on the Sistani office's announcements (generator/calendars/hijri_calibration.py)")
    print(f"  chosen on all {n} announcements: {cal.chosen[1]} over {cal.chosen[0]}")
    print(f"  held-out, leave-one-out:  {cal.loo_hits.mean() * 100:5.1f} % ({cal.loo_hits.sum()}/{n})"
          f"   [Iran rule vs Iran's table: see above, 1423-1448]")
    print(f"  held-out, year split (calibrate on AH <= {hijri_calibration.SPLIT_LAST_CALIBRATION_YEAR}, {(~test).sum()} "
          f"months; score the {test.sum()} later): {cal.split_hits[test].mean() * 100:5.1f} % "
          f"({cal.split_hits[test].sum()}/{test.sum()}), chosen {cal.split_chosen[1]} over {cal.split_chosen[0]}")
    for (y, m, a), held in zip(zip(data.hy, data.hm, data.start), cal.loo_hits):
        if not held:
            print(f"    leave-one-out miss: {y}/{m:02d} announced {np.datetime64(int(a), 'D')}")
    iran_rule = hijri.computed_start(data.hy, data.hm, "iran")
    table_rule = hijri.computed_start(data.hy, data.hm, "moonsighting")
    print(f"  the table's moonsighting rule reproduces {(table_rule == data.start).sum()}/{n}; "
          f"the Iran rule would reproduce {(iran_rule == data.start).sum()}/{n} "
          f"(early on {', '.join(f'{y}/{m:02d}' for y, m, i, a in zip(data.hy, data.hm, iran_rule, data.start) if i < a)})")
    print("  every candidate on all announcements (ties go to the first listed):")
    for (region, criterion), hits in zip(cal.candidates, cal.hits):
        misses = [f"{y}/{m:02d}{int(c - a):+d}" for y, m, c, a, h in
                  zip(data.hy, data.hm, cal.starts[cal.candidates.index((region, criterion))], data.start, hits) if not h]
        print(f"    {region:32} {criterion:12} {hits.sum():3}/{n}  {' '.join(misses)}")


def alternatives_report(hy: np.ndarray, hm: np.ndarray, official: np.ndarray) -> None:
    """Print agreement of other zone thresholds on the same grid (for the record; not tuned)."""
    conj = hijri.conjunction_day(hy, hm)
    first = np.floor(conj + hijri.IRAN_UTC_OFFSET_DAYS).astype(np.int64)
    lat, lng = np.meshgrid(hijri.IRAN_GRID_LAT_DEG, hijri.IRAN_GRID_LNG_DEG, indexing="ij")
    best_q = np.full((len(hy), hijri.EVENINGS_TRIED), -np.inf)
    best_v = np.full((len(hy), hijri.EVENINGS_TRIED), -np.inf)
    tehran_q = np.full((len(hy), hijri.EVENINGS_TRIED), -np.inf)
    for offset in range(hijri.EVENINGS_TRIED):
        e = crescent.evening(lat.ravel()[None, :], lng.ravel()[None, :], (first + offset)[:, None], conj[:, None])
        ok = e.status == crescent.OK
        best_q[:, offset] = np.where(ok, e.q, -np.inf).max(axis=1)
        v = np.where(e.arcl_topo_deg >= crescent.ODEH_DANJON_ARCL_DEG, e.v, -np.inf)
        best_v[:, offset] = np.where(ok, v, -np.inf).max(axis=1)
        t = crescent.evening(35.69, 51.39, first + offset, conj)
        tehran_q[:, offset] = np.where(t.status == crescent.OK, t.q, -np.inf)

    def rate(seen: np.ndarray) -> str:
        evening = np.where(seen.any(axis=1), seen.argmax(axis=1), hijri.EVENINGS_TRIED)
        start = first + evening + 1
        recent = hy >= 1438
        return f"{(start == official).mean() * 100:5.1f} % (since 1438: {(start == official)[recent].mean() * 100:5.1f} %)"

    print("  other zone thresholds on the same evenings (1423/1-1448/12), for comparison:")
    for zone, threshold in zip("BCDE", crescent.YALLOP_Q_ABOVE[1:]):
        marker = "  <- chosen" if zone == "C" else ""
        print(f"    Iran grid, Yallop >= {zone} (q > {threshold:+.3f}): {rate(best_q > threshold)}{marker}")
    for zone, threshold in zip("AB", crescent.ODEH_V_AT_LEAST[:2]):
        print(f"    Iran grid, Odeh >= {zone} (V >= {threshold:.2f}):       {rate(best_v >= threshold)}")
    print(f"    Iran grid, Yallop >= C or Odeh >= B:         {rate((best_q > -0.160) | (best_v >= 2.0))}")
    print(f"    Tehran only, Yallop >= C:                    {rate(tehran_q > -0.160)}")


def main(argv: list[str] | None = None) -> None:
    import sys

    if "--rules-only" not in (sys.argv[1:] if argv is None else argv):  # the agreement figures alone, no timings
        grid_report()
    agreement_report()


if __name__ == "__main__":
    main()
