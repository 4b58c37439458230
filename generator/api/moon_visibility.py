"""GET /v1/moon-visibility: the crescent of a Hijri month's lunation (SPEC 2.6, 4.6).

The lunation is that of ``hy``/``hm`` (default: the month containing today, UTC, under
``calendar``).  Its *sighting evening* is the 29th day of the previous month under
``calendar``: the evening on which the crescent that begins ``hy``/``hm`` is looked for.

* Grid mode (no place): one evening (``evening`` −2..2 days from the sighting evening),
  cells of ``res`` degrees, each evaluated at its own local date and best time.
  ``rows[r][c]`` is the digit of the cell centred on lat = 70 − (r + 0.5)·res,
  lng = −180 + (c + 0.5)·res.  Digits (from both criteria, `generator.astronomy.crescent.digit`):
  0 not visible, 1 easily visible to the naked eye, 2 visible to the naked eye,
  3 naked eye possible after finding it with optical aid, 4 optical aid (telescope) only.
  ``counts`` = {digits, yallop, odeh, status}: number of cells per digit, per zone
  ("none" = no crescent possible) and per status; ``legend`` = {digits, yallop, odeh,
  danjonLimitDeg} with the zone thresholds.
* Point mode (``lat``+``lng`` or ``city``): ``evenings[]``, the seven evenings from the
  local date of the conjunction (local mean time by longitude), each with date, Yallop q
  and zone, Odeh V and zone, and the geometry; ``firstVisible`` gives per criterion the
  first evening the crescent is visible to the naked eye (Yallop A–C, Odeh A–B), and
  under ``withOpticalAid`` the first evening with optical aid (Yallop A–D, Odeh A–C).

``meta.conjunction`` is the geocentric new moon in UTC (computed in UT1; the two differ by
under a second), to the second.
"""
from __future__ import annotations

import numpy as np

from generator.astronomy import crescent
from generator.calendars import hijri
from generator.places import days
from generator.api import params as P
from generator.api import schemas
from generator.api.common import CALENDAR, HM, HY
from generator.api.endpoint import Canonical, Endpoint, Params, Window
from generator.api.location import PLACE, coordinates, is_point, place
from generator.errors import QueryError

RESOLUTIONS_DEG = (5, 2)
NORTH_EDGE_DEG, SOUTH_EDGE_DEG = 70.0, -60.0
WEST_EDGE_DEG, EAST_EDGE_DEG = -180.0, 180.0
POINT_EVENINGS = 7
SIGHTING_DAY = 29  # the 29th of the previous month
NAKED_EYE_YALLOP_WORST = 2  # zone C
NAKED_EYE_ODEH_WORST = 1  # zone B
OPTICAL_YALLOP_WORST = 3  # zone D
OPTICAL_ODEH_WORST = 2  # zone C

DIGIT_MEANING = {
    0: "not visible (or no crescent: moon sets first, conjunction after sunset, no sunset)",
    1: "easily visible to the naked eye",
    2: "visible to the naked eye",
    3: "may need optical aid to find, then visible to the naked eye",
    4: "visible with optical aid (telescope) only",
}
DIGIT_ZONES = {  # which zones give the digit (the digit is the more favourable criterion)
    0: {"yallop": ["E", "F"], "odeh": ["D"]},
    1: {"yallop": ["A"], "odeh": []},
    2: {"yallop": ["B"], "odeh": ["A"]},
    3: {"yallop": ["C"], "odeh": ["B"]},
    4: {"yallop": ["D"], "odeh": ["C"]},
}


EVENING = P.integer("evening", -2, 2, "Evening relative to the sighting evening (grid).")
RES = P.integer_choice("res", RESOLUTIONS_DEG, "Grid cell size in degrees (default 5).")
GRID_PARAMETERS = (CALENDAR, HY, HM, EVENING, RES)


def canonical(values, now_unix_s: float) -> Canonical:
    """Apply the rules across parameters of a /v1/moon-visibility query."""
    calendar, hy, hm, evening, res = (values[p.name] for p in GRID_PARAMETERS)
    point = any(values.get(p.name) is not None for p in PLACE)
    found = place(values, with_tz=False) if point else {}
    if (hy is None) != (hm is None):
        raise QueryError("hm" if hm is None else "hy", "give hy and hm together (or neither, for the current month)")
    params: dict = {"calendar": calendar, **found}
    today_dependent = hy is None
    if today_dependent:
        current = hijri.to_hijri(days.unix_day(days.today(now_unix_s)), calendar)
        hy, hm = int(current.year), int(current.month)
    params.update(hy=hy, hm=hm)
    if point:
        for name, value in (("evening", evening), ("res", res)):
            if value is not None:
                raise QueryError(name, "applies to grid mode only (without lat, lng or city)")
    else:
        params["evening"] = evening if evening is not None else 0
        params["res"] = res if res is not None else 5
    return Canonical(params, today_dependent)


def build(params: Params) -> dict:
    """Return the /v1/moon-visibility response for canonical parameters."""
    if is_point(params):
        return point_mode(params)
    return grid_mode(params)


# --- shared ----------------------------------------------------------------------------


def month_meta(hy: int, hm: int, calendar: str) -> dict:
    """Return meta common to both modes: conjunction, monthBegins, sightingEvening."""
    begins = int(hijri.month_start(hy, hm, calendar))
    previous_year, previous_month = (hy, hm - 1) if hm > 1 else (hy - 1, 12)
    sighting = int(hijri.month_start(previous_year, previous_month, calendar)) + SIGHTING_DAY - 1
    return {
        "hy": hy,
        "hm": hm,
        "calendar": calendar,
        "conjunction": _instant(float(hijri.conjunction_day(hy, hm))),
        "timeScale": "UTC (computed in UT1, within 0.9 s of UTC)",
        "monthBegins": {"date": days.iso(begins), "source": str(hijri.month_source(hy, hm, calendar))},
        "sightingEvening": days.iso(sighting),
    }


def _sighting_day(meta: dict) -> int:
    return days.unix_day(meta["sightingEvening"])


def _instant(ut1_day: float) -> str | None:
    if not np.isfinite(ut1_day):
        return None
    seconds = int(np.rint(ut1_day * 86400.0))
    return str(np.datetime64(seconds, "s")) + "Z"


def _rounded(value: float, decimals: int) -> float | None:
    return round(float(value), decimals) if np.isfinite(value) else None


# --- grid mode -------------------------------------------------------------------------


def grid_cells(res_deg: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (lat, lng) cell centres (rows × columns) of the world grid at ``res_deg``."""
    rows = int(round((NORTH_EDGE_DEG - SOUTH_EDGE_DEG) / res_deg))
    columns = int(round((EAST_EDGE_DEG - WEST_EDGE_DEG) / res_deg))
    lat = NORTH_EDGE_DEG - (np.arange(rows) + 0.5) * res_deg
    lng = WEST_EDGE_DEG + (np.arange(columns) + 0.5) * res_deg
    return np.meshgrid(lat, lng, indexing="ij")


def grid_mode(params: Params) -> dict:
    """Return rows of digits, counts and legend for one evening over the world grid."""
    hy, hm, calendar, res = params["hy"], params["hm"], params["calendar"], params["res"]
    meta = month_meta(hy, hm, calendar)
    evening_day = _sighting_day(meta) + params["evening"]
    lat, lng = grid_cells(res)
    result = crescent.evening(lat, lng, evening_day, hijri.conjunction_day(hy, hm))
    digits = crescent.digit(result.yallop, result.odeh)
    meta.update(
        evening=days.iso(evening_day),
        eveningOffset=params["evening"],
        res=res,
        rowCount=int(lat.shape[0]),
        columnCount=int(lat.shape[1]),
        cells="row r, column c: centre lat = 70 − (r + 0.5)·res, lng = −180 + (c + 0.5)·res",
    )
    return {"meta": meta, "rows": digit_rows(digits), "counts": counts(digits, result), "legend": legend()}


def digit_rows(digits: np.ndarray) -> list[str]:
    """Return each row of a digit array as a string of ASCII digits."""
    codes = (np.asarray(digits, dtype=np.uint8) + ord("0")).astype(np.uint8)
    return [row.tobytes().decode("ascii") for row in codes]


def counts(digits: np.ndarray, result: crescent.Evening) -> dict:
    """Return the number of cells per digit, per Yallop zone, per Odeh zone and per status."""
    by_digit = np.bincount(digits.ravel(), minlength=len(crescent.DIGITS))
    by_yallop = np.bincount(result.yallop.ravel() + 1, minlength=len(crescent.YALLOP_ZONES) + 1)
    by_odeh = np.bincount(result.odeh.ravel() + 1, minlength=len(crescent.ODEH_ZONES) + 1)
    by_status = np.bincount(result.status.ravel(), minlength=len(crescent.STATUS))
    return {
        "digits": {str(d): int(by_digit[d]) for d in crescent.DIGITS},
        "yallop": {**{z: int(by_yallop[i + 1]) for i, z in enumerate(crescent.YALLOP_ZONES)}, "none": int(by_yallop[0])},
        "odeh": {**{z: int(by_odeh[i + 1]) for i, z in enumerate(crescent.ODEH_ZONES)}, "none": int(by_odeh[0])},
        "status": {name: int(by_status[i]) for i, name in enumerate(crescent.STATUS)},
    }


def _zone_bands(zones, meanings, thresholds, lower_key: str, upper_key: str) -> list[dict]:
    """Return each zone with its meaning and bounds: zone i lies between thresholds[i] and [i − 1]."""
    bands = []
    for i, zone in enumerate(zones):
        item = {"zone": zone, "meaning": meanings[i]}
        if i < len(thresholds):
            item[lower_key] = thresholds[i]
        if i > 0:
            item[upper_key] = thresholds[i - 1]
        bands.append(item)
    return bands


def legend() -> dict:
    """Return the meaning of the digits and the zone thresholds of both criteria."""
    yallop = _zone_bands(crescent.YALLOP_ZONES, crescent.YALLOP_MEANING, crescent.YALLOP_Q_ABOVE, "qAbove", "qAtMost")
    odeh = _zone_bands(crescent.ODEH_ZONES, crescent.ODEH_MEANING, crescent.ODEH_V_AT_LEAST, "vAtLeast", "vBelow")
    return {
        "digits": [{"digit": d, "meaning": DIGIT_MEANING[d], **DIGIT_ZONES[d]} for d in crescent.DIGITS],
        "yallop": yallop,
        "odeh": odeh,
        "danjonLimitDeg": crescent.ODEH_DANJON_ARCL_DEG,
        "rule": "digit = the more favourable of the two criteria; 0 only when neither sees the crescent",
    }


# --- point mode ------------------------------------------------------------------------


def point_mode(params: Params) -> dict:
    """Return the seven evenings from conjunction at one place, and first-visible dates."""
    hy, hm, calendar = params["hy"], params["hm"], params["calendar"]
    lat, lng = coordinates(params)
    meta = month_meta(hy, hm, calendar)
    conjunction = float(hijri.conjunction_day(hy, hm))
    first = int(np.floor(conjunction + lng / 360.0))  # local mean date of the conjunction
    evening_days = first + np.arange(POINT_EVENINGS)
    result = crescent.evening(lat, lng, evening_days, conjunction)
    evenings = [_evening_item(result, i, int(day)) for i, day in enumerate(evening_days)]
    meta = {"lat": lat, "lng": lng, **({"city": params["city"]} if "city" in params else {}), **meta}
    return {
        "meta": meta,
        "evenings": evenings,
        "firstVisible": {
            "yallop": _first(evening_days, result.yallop, NAKED_EYE_YALLOP_WORST),
            "odeh": _first(evening_days, result.odeh, NAKED_EYE_ODEH_WORST),
            "withOpticalAid": {
                "yallop": _first(evening_days, result.yallop, OPTICAL_YALLOP_WORST),
                "odeh": _first(evening_days, result.odeh, OPTICAL_ODEH_WORST),
            },
        },
    }


def _first(evening_days: np.ndarray, zones: np.ndarray, worst: int) -> str | None:
    hits = np.flatnonzero((zones >= 0) & (zones <= worst))
    return days.iso(int(evening_days[hits[0]])) if len(hits) else None


def _evening_item(result: crescent.Evening, i: int, day: int) -> dict:
    """Return one evening: date, q, zone (Yallop), V, odehZone, the geometry, and status."""
    status = crescent.STATUS[int(result.status[i])]
    ok = status == "ok"
    yallop, odeh = int(result.yallop[i]), int(result.odeh[i])
    return {
        "date": days.iso(day),
        "q": _rounded(result.q[i], 3),
        "zone": crescent.YALLOP_ZONES[yallop] if ok else None,
        "v": _rounded(result.v[i], 2),
        "odehZone": crescent.ODEH_ZONES[odeh] if ok else None,
        "status": status,
        "sunset": _instant(result.sunset_day[i]),
        "moonset": _instant(result.moonset_day[i]),
        "bestTime": _instant(result.best_day[i]),
        "lagMin": _rounded(result.lag_min[i], 1),
        "ageHours": _rounded(result.age_hours[i], 1),
        "geocentric": {
            "arclDeg": _rounded(result.arcl_geo_deg[i], 2),
            "arcvDeg": _rounded(result.arcv_geo_deg[i], 2),
            "dazDeg": _rounded(result.daz_geo_deg[i], 2),
            "widthArcmin": _rounded(result.width_yallop_arcmin[i], 3),
        },
        "topocentric": {
            "arclDeg": _rounded(result.arcl_topo_deg[i], 2),
            "arcvDeg": _rounded(result.arcv_topo_deg[i], 2),
            "dazDeg": _rounded(result.daz_topo_deg[i], 2),
            "widthArcmin": _rounded(result.width_odeh_arcmin[i], 3),
        },
    }


def plan(window: Window):
    """Every evening −2..2 of every Hijri month of the window (grid, default reckoning and resolution)."""
    return [{"hy": str(hy), "hm": str(m), "evening": str(e)}
            for hy in window.hijri_years for m in range(1, 13) for e in range(-2, 3)]


def hijri_days(params: Params) -> tuple[str, int, int]:
    """The month's start (`monthBegins`): once it is announced the month's evening and grid are settled."""
    calendar = params.get("calendar", hijri.DEFAULT_CALENDAR)
    start = int(hijri.month_start(params["hy"], params["hm"], calendar))
    return calendar, start, start


ENDPOINT = Endpoint("moon-visibility", "Crescent visibility (Yallop, Odeh): a world grid, or seven evenings at a place",
                    (*GRID_PARAMETERS, *PLACE), canonical, build, schemas.json_response(schemas.MOON_VISIBILITY),
                    plan=plan, hijri_days=hijri_days)
