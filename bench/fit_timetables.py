"""Fit what each Shia authority's printed timetable does, with the project's own solver.

Reads the printed cells saved in tests/fixtures/timetables/ (index.csv lists each file's
authority, place, zone and source; README.md there has the notes), grid-searches each
time's rule and prints, per authority, the best parameters and the agreement: the share
of printed cells the rule reproduces exactly and within 1 minute, and the largest
deviation.  Run: ``python -m bench.fit_timetables`` (about a second).

All instants come from generator.prayer.prayer: ``transit`` (dhuhr) and ``time_of_altitude``
(the Sun's centre at a given altitude before or after transit, from the DE440 sun
table), sunrise and sunset at −0.8333°, as the engine computes them.  The engine always
bounds fajr/isha by the twilight-angle rule and has one midnight; the variants below are
computed here from the same unrounded instants so that the lead can implement them:

  night N            = next day's sunrise − sunset (the night after the day, as the engine
                       and adhan-js measure it for that day's fajr and isha)
  fajr, rule none    = T(−a, morning), missing where the Sun never gets a° below the horizon
  fajr, twilightAngle= max(T(−a), sunrise − a/60·N)   (later wins; the missing T gives the bound)
  fajr, middleOfNight= max(T(−a), sunrise − N/2)
  fajr, seventhOfNight = max(T(−a), sunrise − N/7)
  fajr, nearestLatitude(L) = T(−a) computed at latitude L instead of the place's
  maghrib            = sunset + k minutes, or T(−b, evening) for an angle b
  dhuhr              = transit + k minutes
  midnight           = (maghrib + next day's fajr)/2      maghribToFajr (the SPEC's)
                     = (sunset + next day's fajr)/2       sunsetToFajr
                     = (sunset + next day's sunrise)/2    sunsetToSunrise
                     = (sunset + same day's fajr + 24 h)/2  sunsetToSameDayFajr
                       (praytime's "Jafari" midnight once its high-latitude rule moved fajr)
  rounding           = nearest (floor to the second, then half a minute up: the engine's),
                       down (floor to the minute) or up (next whole minute); printed cells
                       with seconds are compared unrounded.
"""
from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np

from generator.prayer.prayer import SUN_HORIZON_DEG, time_of_altitude, transit

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "timetables"
CITIES = ROOT / "data" / "cities.csv"
SECONDS_PER_DAY = 86400.0
TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "sunset", "maghrib", "midnight")
ROUNDINGS = ("nearest", "down", "up")


@dataclass
class Cells:
    """Printed cells of one authority: one row per (place, day)."""

    day: np.ndarray  # (n,) local calendar date as days since 1970-01-01
    lat: np.ndarray  # (n,)
    lng: np.ndarray  # (n,)
    printed: dict[str, np.ndarray]  # name -> (n,) Unix seconds, NaN where not printed
    has_seconds: dict[str, np.ndarray]  # name -> (n,) bool: the cell printed seconds
    files: np.ndarray  # (n,) fixture file of each row


def _coordinates() -> dict[str, tuple[float, float]]:
    with CITIES.open(encoding="utf-8") as f:
        return {row["id"]: (float(row["lat"]), float(row["lng"])) for row in csv.DictReader(f)}


def _instant(date: dt.date, text: str, zone: ZoneInfo, name: str) -> tuple[float, bool]:
    """Unix seconds of a printed local time; a midnight printed before noon is the next day's."""
    parts = [int(p) for p in text.split(":")]
    hour, minute, second = (parts + [0])[:3]
    day = date + dt.timedelta(days=1) if name == "midnight" and hour < 12 else date
    local = dt.datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=zone)
    return local.timestamp(), len(parts) == 3


def load() -> dict[str, Cells]:
    """Every fixture listed in index.csv, grouped by authority and by authority and city.

    Printed instants of a perpetual table are moved to the same clock time of the
    table's astronomical year (index.csv ``astronomical_year``), so that they can be
    compared with that year's Sun.
    """
    coordinates = _coordinates()
    rows: dict[str, list] = {}
    with (FIXTURES / "index.csv").open(encoding="utf-8") as f:
        for entry in csv.DictReader(f):
            zone = ZoneInfo(entry["tz"])
            with (FIXTURES / entry["file"]).open(encoding="utf-8") as g:
                for cell in csv.DictReader(g):
                    date = dt.date.fromisoformat(cell["date"])
                    # A perpetual table (the same cells every year) is computed for one year
                    # of the leap cycle: the Sun of that year's same date, with the printed
                    # local clock of the printed date. Its 29 February repeats 1 March.
                    sky_date = date
                    if entry["astronomical_year"]:
                        month_day = (3, 1) if (date.month, date.day) == (2, 29) else (date.month, date.day)
                        sky_date = dt.date(int(entry["astronomical_year"]), *month_day)
                    shift_s = (sky_date - date).days * SECONDS_PER_DAY
                    if entry["lat"]:
                        lat, lng = float(entry["lat"]), float(entry["lng"])
                    else:  # a table of several cities: the row names the city (data/cities.csv)
                        lat, lng = coordinates[cell["city"]]
                    printed = {}
                    for name in TIMES:
                        text = (cell.get(name) or "").strip()
                        instant, with_seconds = _instant(date, text, zone, name) if text else (np.nan, False)
                        printed[name] = (instant + shift_s, with_seconds)
                    day = (sky_date - dt.date(1970, 1, 1)).days
                    row = (day, lat, lng, printed, entry["file"])
                    city = entry["city"] or "provincial capitals"
                    rows.setdefault(entry["authority"] + " (all places)", []).append(row)
                    rows.setdefault(f"{entry['authority']}, {city}", []).append(row)
    out = {}
    for authority, items in sorted(rows.items()):
        out[authority] = Cells(
            day=np.array([r[0] for r in items], dtype=float),
            lat=np.array([r[1] for r in items]),
            lng=np.array([r[2] for r in items]),
            printed={n: np.array([r[3][n][0] for r in items]) for n in TIMES},
            has_seconds={n: np.array([r[3][n][1] for r in items]) for n in TIMES},
            files=np.array([r[4] for r in items]),
        )
    return out


class Sky:
    """The engine's unrounded instants (Unix seconds) for the rows of one authority."""

    def __init__(self, cells: Cells):
        self.c = cells
        day, lng = cells.day, cells.lng
        self.noon = transit(day, lng)
        self.noon_next = transit(day + 1, lng)
        self.sunrise = self._at(cells.lat, SUN_HORIZON_DEG, -1)
        self.sunset = self._at(cells.lat, SUN_HORIZON_DEG, +1)
        self.sunrise_next = self._at(cells.lat, SUN_HORIZON_DEG, -1, next_day=True)
        self.night = self.sunrise_next - self.sunset

    def _at(self, lat, altitude_deg, side, next_day=False):
        """time_of_altitude for every row (axis 0) and every altitude (a trailing axis if any)."""
        day = self.c.day + (1 if next_day else 0)
        noon = self.noon_next if next_day else self.noon
        altitude = np.asarray(altitude_deg, dtype=float)
        if altitude.ndim:  # rows × grid
            day, noon, lng = day[:, None], noon[:, None], self.c.lng[:, None]
            lat = np.asarray(lat, dtype=float)
            lat = lat[:, None] if lat.ndim == 1 else lat
        else:
            lng = self.c.lng
        return time_of_altitude(day, noon, lat, lng, altitude, side) * SECONDS_PER_DAY

    def fajr(self, angle_deg: np.ndarray, rule: str, next_day=False, lat=None):
        """Fajr for each row × angle under a high-latitude rule (see the module docstring)."""
        lat = self.c.lat if lat is None else lat
        raw = self._at(lat, -angle_deg, -1, next_day=next_day)
        if rule in ("none", "nearestLatitude"):
            return raw
        if next_day:  # the night before the next day's fajr is the one after this day
            sunrise, night = self.sunrise_next, self.night
        else:  # this day's fajr is bounded by the engine's night (after the day), as adhan-js does
            sunrise, night = self.sunrise, self.night
        portion = {"twilightAngle": angle_deg / 60.0, "middleOfNight": 0.5, "seventhOfNight": 1.0 / 7.0}[rule]
        safe = sunrise[:, None] - portion * night[:, None] * np.ones_like(angle_deg)
        return np.where(np.isnan(raw) | (safe > raw), safe, raw)


def rounded(seconds: np.ndarray, mode: str) -> np.ndarray:
    s = np.floor(seconds)
    if mode == "nearest":
        return np.floor((s + 30.0) / 60.0) * 60.0
    if mode == "down":
        return np.floor(s / 60.0) * 60.0
    return (np.floor(s / 60.0) + 1.0) * 60.0


def score(computed: np.ndarray, printed: np.ndarray, with_seconds: np.ndarray, mode: str) -> dict:
    """Agreement of computed (rows[, grid]) with printed (rows): exact, ≤ 1 min, worst, rms."""
    printed = printed.reshape(printed.shape + (1,) * (computed.ndim - 1))
    with_seconds = with_seconds.reshape(printed.shape)
    shown = np.where(with_seconds, computed, rounded(computed, mode))
    diff_min = (shown - printed) / 60.0
    have = ~np.isnan(printed) & np.ones(computed.shape, dtype=bool)
    n = have.sum(axis=0)
    bad = np.isnan(diff_min) & have  # a printed cell the rule leaves without a time
    d = np.where(have & ~bad, np.abs(diff_min), 0.0)
    tol_exact = np.where(with_seconds, 0.5 / 60.0 + 1e-9, 1e-9)
    exact = ((d <= tol_exact) & have & ~bad).sum(axis=0) / n
    within = ((d <= 1.0 + 1e-9) & have & ~bad).sum(axis=0) / n
    worst = np.where(bad.any(axis=0), np.inf, d.max(axis=0))
    raw_diff = np.where(have & ~bad, (computed - printed) / 60.0, 0.0)
    rms = np.sqrt((raw_diff**2).sum(axis=0) / n)
    return {"n": n, "exact": exact, "within1": within, "worst": worst, "rms": rms}


def best(candidates: list[tuple[str, np.ndarray]], printed, with_seconds) -> tuple[str, str, dict]:
    """The candidate (label, rows×1 instants) and rounding with the most cells within 1 min."""
    top = None
    for label, computed in candidates:
        for mode in ROUNDINGS:
            s = {k: np.asarray(v).reshape(-1)[0] for k, v in score(computed, printed, with_seconds, mode).items()}
            key = (float(s["within1"]), float(s["exact"]), -float(s["rms"]))
            if top is None or key > top[0]:
                top = (key, label, mode, s)
    return top[1], top[2], top[3]


def _fmt(s: dict) -> str:
    worst = "unreached" if not np.isfinite(s["worst"]) else f"{float(s['worst']):.1f} min"
    return (f"{int(s['n'])} cells: {100 * float(s['exact']):.0f}% exact, {100 * float(s['within1']):.0f}% within 1 min, "
            f"worst {worst}, rms(unrounded − printed) {float(s['rms']):.2f} min")


def fit(authority: str, cells: Cells) -> None:
    sky = Sky(cells)
    p, sec = cells.printed, cells.has_seconds
    print(f"\n=== {authority}: {len(cells.day)} printed days from {', '.join(sorted(set(cells.files)))}")

    for name, computed in (("sunrise", sky.sunrise), ("sunset", sky.sunset)):
        if np.isfinite(p[name]).any():
            label, mode, s = best([("−0.8333° (standard)", computed[:, None])], p[name], sec[name])
            print(f"{name:9s} {label}, rounding {mode}: {_fmt(s)}")

    if np.isfinite(p["dhuhr"]).any():
        noon_s = sky.noon * SECONDS_PER_DAY
        cands = [(f"transit + {k} min", (noon_s + 60.0 * k)[:, None]) for k in range(6)]
        label, mode, s = best(cands, p["dhuhr"], sec["dhuhr"])
        print(f"dhuhr     {label}, rounding {mode}: {_fmt(s)}")

    fajr_label = fajr_today = fajr_next = None
    if np.isfinite(p["fajr"]).any():
        angles = np.round(np.arange(8.0, 20.01, 0.1), 1)
        results = []
        for rule in ("none", "twilightAngle", "middleOfNight", "seventhOfNight"):
            today = sky.fajr(angles, rule)
            for mode in ROUNDINGS:
                s = score(today, p["fajr"], sec["fajr"], mode)
                k = np.lexsort((-s["rms"], s["exact"], s["within1"]))[-1]
                results.append(((float(s["within1"][k]), float(s["exact"][k]), -float(s["rms"][k])),
                                f"{angles[k]:.1f}°, highLatitudeRule {rule}", mode, {x: v[k] for x, v in s.items()},
                                (rule, angles[k], None)))
        lat_max = float(np.max(np.abs(cells.lat)))
        for lat_used in np.arange(max(30.0, lat_max - 12.0), lat_max + 0.01, 0.5):
            # every place south of lat_used keeps its own latitude
            lat_rows = (np.sign(cells.lat) * np.minimum(np.abs(cells.lat), lat_used))[:, None]
            today = sky.fajr(angles, "nearestLatitude", lat=lat_rows)
            for mode in ROUNDINGS:
                s = score(today, p["fajr"], sec["fajr"], mode)
                k = np.lexsort((-s["rms"], s["exact"], s["within1"]))[-1]
                results.append(((float(s["within1"][k]), float(s["exact"][k]), -float(s["rms"][k])),
                                f"{angles[k]:.1f}° computed at latitude {lat_used:.1f}", mode,
                                {x: v[k] for x, v in s.items()}, ("nearestLatitude", angles[k], lat_rows)))
        results.sort(key=lambda r: r[0], reverse=True)
        print("fajr      best five rules:")
        for _, label, mode, s, _params in results[:5]:
            print(f"            {label}, rounding {mode}: {_fmt(s)}")
        # the best rule of each family, so a reader sees how far the usual ones are
        seen = set()
        for _, label, mode, s, params in results:
            family = params[0]
            if family not in seen:
                seen.add(family)
                print(f"          best {family:16s} {label}, rounding {mode}: {_fmt(s)}")
        # The Sun's depression at each printed dawn (the middle of its minute), by month:
        # a constant says "an angle"; a seasonal drift says a high-latitude rule or a table.
        grid = np.round(np.arange(6.0, 20.001, 0.02), 2)
        times = sky._at(cells.lat, -grid, -1)  # rows × grid, later for smaller angles
        target = p["fajr"] + np.where(sec["fajr"], 0.0, 30.0)
        later = times <= target[:, None]  # angles whose time is not after the printed dawn
        k = np.clip(later.argmax(axis=1), 1, grid.size - 1)
        row = np.arange(len(target))
        t0, t1 = times[row, k - 1], times[row, k]
        implied = grid[k - 1] + (target - t0) / (t1 - t0) * (grid[k] - grid[k - 1])
        implied = np.where(later.any(axis=1) & np.isfinite(t0) & np.isfinite(target), implied, np.nan)
        month = (cells.day.astype("datetime64[D]").astype("datetime64[M]").astype(int) % 12) + 1
        by_month = [f"{m}: {np.nanmean(implied[month == m]):.2f}°" for m in range(1, 13)
                    if np.isfinite(implied[month == m]).any()]
        print("fajr      depression at the printed dawn, monthly mean: " + ", ".join(by_month))
        rule, angle, lat_rows = results[0][4]
        fajr_label = results[0][1]
        fajr_today = sky.fajr(np.array([angle]), rule, lat=lat_rows)[:, 0]
        fajr_next = sky.fajr(np.array([angle]), rule, next_day=True, lat=lat_rows)[:, 0]

    if fajr_today is not None and np.isfinite(p["imsak"]).any():
        printed_gap = (p["fajr"] - p["imsak"]) / 60.0
        gaps, counts = np.unique(printed_gap[np.isfinite(printed_gap)], return_counts=True)
        print("imsak     printed fajr − imsak (min: days): " + ", ".join(f"{g:g}: {c}" for g, c in zip(gaps, counts)))
        cands = [(f"fajr − {k} min", (fajr_today - 60.0 * k)[:, None]) for k in range(31)]
        label, mode, s = best(cands, p["imsak"], sec["imsak"])
        print(f"imsak     {label} (fitted fajr), rounding {mode}: {_fmt(s)}")

    maghrib_best = None
    if np.isfinite(p["maghrib"]).any():
        cands = [(f"sunset + {k:g} min", (sky.sunset + 60.0 * k)[:, None]) for k in np.arange(0.0, 25.01, 0.5)]
        by_interval = best(cands, p["maghrib"], sec["maghrib"])
        angles = np.round(np.arange(2.0, 6.01, 0.1), 1)
        evening = sky._at(cells.lat, -angles, +1)
        cands = [(f"{a:.1f}° below the horizon", evening[:, [i]]) for i, a in enumerate(angles)]
        by_angle = best(cands, p["maghrib"], sec["maghrib"])
        for label, mode, s in (by_interval, by_angle):
            print(f"maghrib   {label}, rounding {mode}: {_fmt(s)}")
        if np.isfinite(p["sunset"]).any():
            printed_gap = (p["maghrib"] - p["sunset"]) / 60.0
            gaps, counts = np.unique(printed_gap[np.isfinite(printed_gap)], return_counts=True)
            print("maghrib   printed maghrib − sunset (min: days): " + ", ".join(f"{g:g}: {c}" for g, c in zip(gaps, counts)))
        winner = max((by_interval, by_angle), key=lambda b: (float(b[2]["within1"]), float(b[2]["exact"]), -float(b[2]["rms"])))
        label = winner[0]
        if label.startswith("sunset"):
            maghrib_best = sky.sunset + 60.0 * float(label.split("+ ")[1].split(" ")[0])
        else:
            maghrib_best = sky._at(cells.lat, -float(label.split("°")[0]), +1)

    if np.isfinite(p["midnight"]).any():
        if fajr_today is None:
            print("midnight  (no fajr printed: modes needing fajr skipped)")
        maghrib = maghrib_best if maghrib_best is not None else sky.sunset
        modes = [("sunsetToSunrise", (sky.sunset + sky.sunrise_next) / 2.0)]
        if fajr_today is not None:
            modes += [
                ("maghribToFajr", (maghrib + fajr_next) / 2.0),
                ("sunsetToFajr", (sky.sunset + fajr_next) / 2.0),
                ("sunsetToSameDayFajr", (sky.sunset + fajr_today + SECONDS_PER_DAY) / 2.0),
            ]
        for label, computed in modes:
            _, mode, s = best([(label, computed[:, None])], p["midnight"], sec["midnight"])
            print(f"midnight  {label:20s} rounding {mode}: {_fmt(s)}")
        # The same test with the printed fajr itself, independent of any fajr rule.
        if np.isfinite(p["fajr"]).any():
            order = np.lexsort((cells.day, cells.lat, cells.lng))
            printed_fajr_next = np.full(cells.day.shape, np.nan)
            i, j = order[:-1], order[1:]  # each row and the row after it, by place then day
            follows = (cells.lat[i] == cells.lat[j]) & (cells.lng[i] == cells.lng[j]) & (cells.day[j] == cells.day[i] + 1)
            printed_fajr_next[i[follows]] = p["fajr"][j[follows]]
            for label, computed in (
                ("sunsetToFajr", (sky.sunset + printed_fajr_next) / 2.0),
                ("sunsetToSameDayFajr", (sky.sunset + p["fajr"] + SECONDS_PER_DAY) / 2.0),
                ("maghribToFajr", (maghrib + printed_fajr_next) / 2.0),
            ):
                ok = np.isfinite(computed)
                if ok.sum() == 0:
                    continue
                target = np.where(ok, p["midnight"], np.nan)
                _, mode, s = best([(label, computed[:, None])], target, sec["midnight"])
                print(f"          with the printed fajr: {label:20s} rounding {mode}: {_fmt(s)}")
    if fajr_label:
        print(f"→ fajr rule used for midnight: {fajr_label}")


def main() -> None:
    for authority, cells in load().items():
        fit(authority, cells)


if __name__ == "__main__":
    main()
