"""GET /v1/prayer-times: validation into canonical parameters, and the response body."""
from __future__ import annotations

import calendar
import math
from datetime import date

import numpy as np

from generator.calendars import ummalqura
from generator.places import days, timezones
from generator.prayer import mosques, place_defaults, prayer, qibla, timetables
from generator.api import day_rows, schemas
from generator.api import jamaat_params as JP
from generator.api import mosques as MQ
from generator.api import params as P
from generator.api.common import MONTH, YEAR
from generator.api.dates import gregorian_range
from generator.api.endpoint import Canonical, Endpoint, Params, Window, dumps
from generator.api.location import LAT, LNG, CITY, TZ, coordinates, place
from generator.errors import QueryError
from generator.prayer.methods import METHODS, DEFAULT_METHOD, SPEC_METHODS, HighLatitudeRule, custom_method, resolve as resolve_method
from generator.prayer.methods import Midnight

MAX_DAY_METHODS = 496  # SPEC 8
CUSTOM = "custom"

METHOD = P.text("method", 400, f"A method id ({', '.join(METHODS)}), a comma list of them, all, or custom. "
                               f"Default {DEFAULT_METHOD}.", example="Jafari")
DATE = P.day("date", "A day (default today in the zone).", example="2026-03-20")
CUSTOM_PARAMETERS = (
    P.number("fajrAngle", 4, 24, "method=custom: fajr depression angle (required)."),
    P.number("ishaAngle", 4, 24, "method=custom: isha angle (or ishaInterval)."),
    P.number("ishaInterval", 0, 180, "method=custom: isha minutes after maghrib."),
    P.number("maghribAngle", 0.5, 12, "method=custom: maghrib depression angle (default sunset)."),
    P.number("maghribInterval", 0, 120, "method=custom: maghrib minutes after sunset."),
)

# --- options beyond the method (issue 9; docs/decisions.md "Prayer options") ---------------------
# Each default gives the SPEC's times, and keep_default=False keeps a default out of the key: a
# request that spells a default out gets the same bytes and the same static file as one that omits it.
MAX_TUNE_MIN = 60
MAX_TUNE_CHARS = 160  # nine name:-60 pairs fit
MAX_ELEVATION_M = 9000
MAX_IMSAK_MIN = 60
ASR_SHADOW_FACTORS = {"standard": 1.0, "hanafi": 2.0}  # shadow = noon shadow + factor × the object
TUNABLE = prayer.OUTPUT_TIMES
RULE_CHOICES = tuple(r.value for r in HighLatitudeRule if r is not HighLatitudeRule.MOONSIGHTING_SEASONAL)


def read_tune(raw: str | None) -> str | None:
    """Return the canonical ``tune``: ``name:minutes`` pairs in output-time order, zeros dropped, or None.

    Names: imsak, fajr, sunrise, dhuhr, asr, sunset, maghrib, isha, midnight (any case), each at
    most once; minutes a whole number from -60 to 60 (`params.read_minutes`).  E.g.
    ``Isha:-1, fajr:+2`` is ``fajr:2,isha:-1``.
    """
    return P.read_minutes(raw, "tune", TUNABLE, -MAX_TUNE_MIN, MAX_TUNE_MIN, item="time", example="fajr:2,isha:-1",
                          keep_zeros=False)


tune_min = P.minutes_of  # {time name: minutes} of a canonical ``tune``


MIDNIGHT = P.choice(
    "midnight", tuple(Midnight), "Which night midnight halves: maghribToFajr (SPEC; maghrib to the next fajr), "
    "sunsetToFajr (sunset to the next fajr, as Iran's Institute of Geophysics prints it), sunsetToSunrise, or "
    "sunsetToSameDayFajr (sunset to the same date's fajr + 24 h, as the Imam Ali Foundation's tables print it). "
    "Absent: the method's own, maghribToFajr for every method but IslamicCentreOfEngland and ImamAliFoundation "
    "(sunsetToSameDayFajr). Not applied to times a printed table gives (the day lists it in `ignored`).",
    keep_default=False)
ASR = P.choice("asr", tuple(ASR_SHADOW_FACTORS), "Asr shadow: standard (noon shadow + 1× the object: Jafari, "
               "Shafi'i, Maliki, Hanbali) or hanafi (noon shadow + 2×).", default="standard", keep_default=False)
HIGH_LATITUDE_RULE = P.choice(
    "highLatitudeRule", RULE_CHOICES, "What bounds fajr and isha where twilight lasts long: twilightAngle "
    "(angle/60 of the night), middleOfNight (½), seventhOfNight (⅐) or none (a time whose angle is never reached "
    "is null and the day lists it in `unreached`). Absent: each method's own rule (twilightAngle for every method "
    "but MoonsightingCommittee, which has its seasonal limits).", keep_default=False, example="middleOfNight")
TUNE = P.custom("tune", {"type": "string", "maxLength": MAX_TUNE_CHARS},
                lambda q, n: read_tune(q.string(n, max_chars=MAX_TUNE_CHARS)),
                f"Minutes added to computed times: name:minutes pairs, comma-separated; names {', '.join(TUNABLE)}; "
                f"whole minutes {-MAX_TUNE_MIN}..{MAX_TUNE_MIN}. Each moves only the time it names.",
                keep_default=False, example="fajr:2,isha:-1")
ELEVATION = P.number("elevation", 0, MAX_ELEVATION_M, "Metres above the surrounding horizon (rounded to whole "
                     "metres): sunrise and sunset use the dip of the horizon seen from that height, which also moves "
                     "sunset-based maghrib, midnight and the night of the high-latitude rules.",
                     default=0, keep_default=False, example=900)
IMSAK = P.integer("imsak", 0, MAX_IMSAK_MIN, f"Imsak: minutes before fajr. Absent: the method's own, "
                  f"{prayer.IMSAK_BEFORE_FAJR_MIN} for every method but ImamAliFoundation (15; 20 in its summer "
                  f"weeks from latitude 52.2° N). Not applied to a printed imsak (the day lists it in `ignored`).",
                  keep_default=False)
OPTION_PARAMETERS = (MIDNIGHT, ASR, HIGH_LATITUDE_RULE, TUNE, ELEVATION, IMSAK)
NIGHT_THIRDS = P.integer_choice(
    "nightThirds", (0, 1), "1: each day also gives firstThird (when the night's first third ends) and lastThird "
    "(when its last third begins, the time many keep for salat al-layl), in thirds of the night `midnight` halves "
    "(the method's own without it): from the day's maghrib or sunset to the next day's fajr or sunrise, as the day's "
    "times show them, rounded to the minute (30 s up). 0: not given (the SPEC's days).", default=0, keep_default=False,
    example=1)
THIRDS = ("firstThird", "lastThird")


def read_options(values, parameters: tuple[P.Param, ...] = OPTION_PARAMETERS) -> dict:
    """Return the canonical options among ``parameters`` (defaults included; `Endpoint.parse` drops them)."""
    options = {p.name: values[p.name] for p in parameters if values.get(p.name) is not None}
    if "elevation" in options:
        options["elevation"] = math.floor(options["elevation"] + 0.5)  # whole metres, half up
    return options


def options_of(params: Params) -> prayer.Options:
    """Return the engine's `prayer.Options` for canonical params (absent options: the SPEC's defaults; the
    request's zone, if any, decides which solar day each date is: `prayer.solar_days`)."""
    rule, midnight = params.get("highLatitudeRule"), params.get("midnight")
    return prayer.Options(
        midnight=None if midnight is None else Midnight(midnight),
        asr_shadow_factor=ASR_SHADOW_FACTORS[params.get("asr", ASR.default)],
        high_latitude_rule=None if rule is None else HighLatitudeRule(rule),
        tune_min=tune_min(params.get("tune")),
        elevation_m=float(params.get("elevation", ELEVATION.default)),
        imsak_before_fajr_min=params.get("imsak"),
        zone=params.get("tz"),  # each date a day of the zone's clock, also beyond the date line
    )


def drop_own_options(params: dict, methods) -> None:
    """Drop ``midnight`` and ``imsak`` where they equal every requested method's own (its default), in place.

    So ``midnight=maghribToFajr`` or ``imsak=10`` with Tehran keep the SPEC's key and bytes, while with a
    method whose own night or imsak differs they still choose.
    """
    own = {"midnight": lambda m: m.midnight.value,
           "imsak": lambda m: None if m.summer else m.imsak_before_fajr_min}
    for name, of in own.items():
        if name in params and all(of(m) == params[name] for m in methods):
            del params[name]


PARAMETERS = (MQ.MOSQUE, LAT, LNG, CITY, METHOD, DATE,
              YEAR.but(description="A year (with month: that month; alone: the year, single method)."),
              MONTH, TZ, *CUSTOM_PARAMETERS, *OPTION_PARAMETERS, NIGHT_THIRDS, *JP.PARAMETERS)


def canonical(values, now_unix_s: float) -> Canonical:
    """Apply the rules across parameters of a /v1/prayer-times query."""
    values = MQ.fill(values, PARAMETERS)  # mosque=<id>: its profile's parameters, as if given
    params = place(values, with_tz=True)
    params["method"] = read_methods(values["method"])
    params.update(read_options(values))
    params[NIGHT_THIRDS.name] = values[NIGHT_THIRDS.name]  # 0, the default, leaves the key (`Endpoint.parse`)
    params.update(custom_angles(values, params["method"]))
    drop_own_options(params, methods_of(params))
    params.update(JP.read(values, has_zone="tz" in params))  # jamaat rules (issue 20), checked once

    span, today_dependent = gregorian_range(
        values["date"], values["year"], values["month"], lambda: days.today(now_unix_s, params.get("tz", "UTC")))
    params.update(span)

    n_methods = len(params["method"].split(","))
    first, n_days = day_range(params)
    if "month" not in params and "year" in params and n_methods > 1:
        raise QueryError("method", "a whole year (year without month) takes a single method")
    if n_days * n_methods > MAX_DAY_METHODS:
        raise QueryError("method", f"days × methods is {n_days * n_methods}; at most {MAX_DAY_METHODS}")
    JP.refuse_never_within(params, first, lambda f, n: times_for(*coordinates(params), f, n, methods_of(params),
                                                                 options_of(params)), params.get("tz"))
    return Canonical(params, today_dependent)


def read_methods(raw: str | None) -> str:
    """Return the canonical ``method``: sorted ids joined by commas, or ``custom``."""
    if raw is None:
        return DEFAULT_METHOD
    if raw == "all":  # the SPEC's sixteen; an extension (ImamAliFoundation) is asked for by name
        return ",".join(sorted(SPEC_METHODS))
    if raw == CUSTOM:
        return CUSTOM
    ids = [resolve_method(part.strip()) or part.strip() for part in raw.split(",")]
    for method_id in ids:
        if method_id == CUSTOM:
            raise QueryError("method", "custom cannot be combined with other methods")
        if method_id not in METHODS:
            raise QueryError("method", f"unknown method {method_id[:40]!r}; one of {', '.join(METHODS)}, all, custom")
    return ",".join(sorted(set(ids)))


def custom_angles(values, method: str) -> dict:
    """Return the canonical custom angles and intervals (only with ``method=custom``, where fajrAngle is required)."""
    custom = {p.name: values[p.name] for p in CUSTOM_PARAMETERS if values[p.name] is not None}
    if method == CUSTOM:
        _check_custom(custom)
    elif custom:
        raise QueryError(next(iter(custom)), "custom angles apply only with method=custom")
    return custom


def _check_custom(custom: dict) -> None:
    if "fajrAngle" not in custom:
        raise QueryError("fajrAngle", "required with method=custom (degrees, 4 to 24)")
    if ("ishaAngle" in custom) == ("ishaInterval" in custom):
        raise QueryError("ishaAngle", "method=custom takes exactly one of ishaAngle (4 to 24) or ishaInterval (0 to 180)")
    if "maghribAngle" in custom and "maghribInterval" in custom:
        raise QueryError("maghribAngle", "give at most one of maghribAngle or maghribInterval")


def day_range(params: Params) -> tuple[int, int]:
    """Return (first day as a unix day, number of days) of canonical params."""
    if "date" in params:
        return days.unix_day(params["date"]), 1
    year = params["year"]
    if "month" in params:
        return days.unix_day(date(year, params["month"], 1)), calendar.monthrange(year, params["month"])[1]
    return days.unix_day(date(year, 1, 1)), 366 if calendar.isleap(year) else 365


def methods_of(params: Params):
    """Return the Method objects canonical params name (a custom one built from its angles)."""
    if params["method"] == CUSTOM:
        return [
            custom_method(
                fajr_angle_deg=params["fajrAngle"],
                isha_angle_deg=params.get("ishaAngle"),
                isha_interval_min=params.get("ishaInterval"),
                maghrib_angle_deg=params.get("maghribAngle"),
                maghrib_interval_min=params.get("maghribInterval"),
            )
        ]
    return [METHODS[m] for m in params["method"].split(",")]


def times_for(lat: float, lng: float, first: int, n_days: int, methods,
              options: prayer.Options = prayer.DEFAULT_OPTIONS) -> prayer.PrayerTimes:
    """Return the times of ``n_days`` from ``first`` (a unix day), Ramadan known for UmmAlQura, and the
    printed cells of the tables that serve a bound preset here (`timetables.serve`: others untouched)."""
    needs_ramadan = any(m.isha_interval_ramadan_min is not None for m in methods)
    ramadan = ummalqura.is_ramadan(first + np.arange(n_days + 1)) if needs_ramadan else None
    return timetables.serve(prayer.compute(lat, lng, first, n_days, methods, ramadan, options),
                            methods, lat, lng, first, options)


def build(params: Params) -> bytes:
    """Return the /v1/prayer-times response body for canonical parameters."""
    methods = methods_of(params)
    first, n_days = day_range(params)
    lat, lng = coordinates(params)
    result = times_for(lat, lng, first, n_days, methods, options_of(params))

    meta = {"lat": lat, "lng": lng}
    if "city" in params:
        meta["city"] = params["city"]
    meta["tz"] = params.get("tz", "UTC")
    meta["qibla"] = round(float(qibla.bearing_deg(lat, lng)), 2)

    names, instants, unreached = times_with_thirds(params, result, lat, lng, first, n_days, methods)
    offsets = timezones.utc_offsets_s(params["tz"], instants) if "tz" in params else None
    dates = first + np.arange(n_days)
    if len(methods) > 1:
        dates = np.tile(dates, len(methods))
    blob, width = day_rows.json_rows(names, dates, instants, offsets)
    polar_days = (result.latitude_used_deg != lat).nonzero()[0]
    # Jamaat (issue 20): from the final times of the span the rules need, the same function as above.
    jamaats = JP.compute(params, first, n_days, lambda f, n: times_for(lat, lng, f, n, methods, options_of(params)),
                          params.get("tz"))
    # Rows rewritten one by one (then joined) only for the methods that need it; every other method's
    # days are one slice of the buffer (rows end with a comma).  With method=all, only the two presets
    # bound to printed tables mark their rows' source, and away from the tables' places every row the
    # same, all at once (`day_rows.json_rows_with`): the other 14 methods stay slices.
    rewritten = set(range(len(methods))) if polar_days.size or jamaats else set()
    if unreached is not None:
        rewritten.update(np.flatnonzero(unreached.reshape(len(methods), -1).any(axis=1)).tolist())
    computed_only = set()  # bound methods with no printed day here: every row gains the same fields
    if result.provenance:
        for k, bound in enumerate(result.provenance.bound):
            if bound and k not in rewritten and not result.provenance.printed[k].any():
                computed_only.add(k)
            elif bound:
                rewritten.add(k)
    if rewritten:
        rows: list = [None] * (len(methods) * n_days)  # None: a row of a method kept as a slice
        for k in rewritten:
            rows[k * n_days : (k + 1) * n_days] = day_rows.split_json_rows(
                blob[k * n_days * width : (k + 1) * n_days * width], width)
        if unreached is not None:  # highLatitudeRule=none: null times, listed in "unreached"
            day_rows.mark_unreached(rows, names, unreached)
        for i in polar_days:  # polar days: say which latitude was used
            note = dumps({"rule": "nearestLatitude", "latitude": float(result.latitude_used_deg[i])})
            for r in range(i, len(rows), n_days):
                rows[r] = rows[r][:-1] + b',"polar":' + note + b"}"
        if result.provenance:  # a preset bound to printed tables: each day says where it comes from
            for r, suffix in enumerate(day_rows.provenance_fields(result.provenance)):
                if suffix and rows[r] is not None:  # (a method of `computed_only` is written below)
                    rows[r] = rows[r][:-1] + suffix + b"}"
        for k, found in enumerate(jamaats or ()):  # jamaat fields close each row
            for i, suffix in enumerate(JP.json_suffixes(found, params.get("tz"))):
                rows[k * n_days + i] = rows[k * n_days + i][:-1] + suffix + b"}"
    blocks = [b",".join(rows[k * n_days : (k + 1) * n_days]) if k in rewritten
              else day_rows.json_rows_with(blob[k * n_days * width : (k + 1) * n_days * width], width,
                                           day_rows.COMPUTED_SOURCE) if k in computed_only
              else blob[k * n_days * width : (k + 1) * n_days * width - 1] for k in range(len(methods))]
    head = b'{"meta":' + dumps(meta)
    if len(methods) == 1:
        return b"".join((head, b',"days":[', blocks[0], b"]}"))
    parts = [head, b',"results":[']
    for k, (method, block) in enumerate(zip(methods, blocks)):
        parts += [b"," if k else b"", b'{"method":', dumps(method.id), b',"days":[', block, b"]}"]
    return b"".join(parts + [b"]}"])


def times_with_thirds(params: Params, result: prayer.PrayerTimes, lat: float, lng: float, first: int, n_days: int,
                      methods) -> tuple[tuple[str, ...], np.ndarray, np.ndarray | None]:
    """Return the names of a day's times, their instants (`instants_by_name`) and the unreached mask
    (`unreached_mask`, None when every time is reached): the output times, then with ``nightThirds=1``
    firstThird and lastThird (`night_thirds`)."""
    names = prayer.OUTPUT_TIMES
    instants = instants_by_name(result, names)
    unreached = unreached_mask(result, names) if result.unreached else None
    if not params.get(NIGHT_THIRDS.name):
        return names, instants, unreached
    thirds_s, thirds_unreached = night_thirds(params, result, lat, lng, first, n_days, methods)
    instants = np.concatenate([instants, thirds_s.reshape(len(THIRDS), -1)])
    if unreached is not None or thirds_unreached.any():
        before = unreached if unreached is not None else np.zeros((instants.shape[1], len(names)), dtype=bool)
        unreached = np.concatenate([before, np.repeat(thirds_unreached.reshape(-1, 1), len(THIRDS), axis=1)], axis=1)
    return names + THIRDS, instants, unreached


def night_thirds(params: Params, result: prayer.PrayerTimes, lat: float, lng: float, first: int, n_days: int,
                 methods) -> tuple[np.ndarray, np.ndarray]:
    """Return the (2, methods, days) ends of the first third and starts of the last third of each day's night,
    and (methods, days) True where the night's start or end is never reached (then both are null).

    The night is the one `midnight` halves, by the request's ``midnight`` or else each method's own:
    maghribToFajr (maghrib to the next day's fajr), sunsetToFajr, sunsetToSunrise, or sunsetToSameDayFajr
    (sunset to the same date's fajr + 24 h); its ends are the day's shown (rounded, tuned, printed) times,
    so the last third under maghribToFajr is the night feed's (`prayer.night_thirds_s`).
    """
    options = options_of(params)
    following = times_for(lat, lng, first + n_days, 1, methods, options)  # its fajr and sunrise end the last night

    def extended(name: str) -> tuple[np.ndarray, np.ndarray]:
        times = np.concatenate([result.times[name], following.times[name]], axis=1)
        missing = np.zeros(times.shape, dtype=bool)
        for source, at in ((result, slice(0, n_days)), (following, slice(n_days, None))):
            if name in source.unreached:
                missing[:, at] = source.unreached[name]
        return times, missing

    start_s = np.empty((len(methods), n_days), dtype=np.int64)
    end_s = np.empty_like(start_s)
    unreached = np.zeros(start_s.shape, dtype=bool)
    for k, method in enumerate(methods):
        night = options.midnight or method.midnight
        start, start_missing = extended("maghrib" if night is Midnight.MAGHRIB_TO_FAJR else "sunset")
        end, end_missing = extended("sunrise" if night is Midnight.SUNSET_TO_SUNRISE else "fajr")
        if night is Midnight.SUNSET_TO_SAME_DAY_FAJR:  # the dawn of the same date, a day later
            end, end_missing = end[:, :n_days] + 86400, end_missing[:, :n_days]
        else:
            end, end_missing = end[:, 1:], end_missing[:, 1:]
        start_s[k], end_s[k] = start[k, :n_days], end[k]
        unreached[k] = start_missing[k, :n_days] | end_missing[k]
    unreached |= end_s <= start_s  # never for a reached night; kept null rather than a third outside it
    thirds = np.zeros((len(THIRDS),) + start_s.shape, dtype=np.int64)
    thirds[:, ~unreached] = prayer.night_thirds_s(start_s[~unreached], end_s[~unreached])
    return thirds, unreached


def instants_by_name(result: prayer.PrayerTimes, names) -> np.ndarray:
    """Return (len(names), methods·days) int64 Unix seconds: column k·days + j is method k's day j."""
    return np.concatenate([result.times[name] for name in names]).reshape(len(names), -1)


def unreached_mask(result: prayer.PrayerTimes, names) -> np.ndarray:
    """Return (methods·days, len(names)) True where a time is never reached (rows in output order)."""
    shape = result.times[names[0]].shape
    return np.stack([result.unreached.get(name, np.zeros(shape, dtype=bool)) for name in names],
                    axis=-1).reshape(-1, len(names))


def screen_query(city_id: str) -> dict:
    """The query a city's screen and widget ask a year of (generator.site.screen): the place's own method where it
    is not the default (issue 26) and its authority's midnight where that is not the method's own (issue 33)."""
    own = place_defaults.for_city(city_id)
    midnight = place_defaults.page_midnight(own.method, city_id)
    return {"city": city_id, **({"method": own.method} if own.method != DEFAULT_METHOD else {}),
            **({"midnight": midnight} if midnight else {})}


def hijri_days(params: Params) -> tuple[str, int, int] | None:
    """With an Eid or Ramadan jamaat rule, the days whose Hijri dates (under `calendar`) place them; else None."""
    if not any(params.get(name) for name in JP.DATED):
        return None
    first, n_days = day_range(params)
    return params.get("calendar", JP.CALENDAR.default), first, first + n_days - 1


def plan(window: Window):
    """A year of the default method for every catalogue city, and of the query its screen and widget read where
    that is another (`screen_query`: the city's own method and its authority's midnight, generator.prayer.place_defaults,
    issues 26 and 33), and each mosque's year
    (`mosque=<id>`: its file is that of the explicit query the profile stands for)."""
    screens = [screen_query(city) for city in window.city_ids]
    return ([{"city": city, "year": str(year)} for city in window.city_ids for year in window.years]
            + [{**query, "year": str(year)} for query in screens if len(query) > 1 for year in window.years]
            + [{"mosque": mosque_id, "year": str(year)} for mosque_id in mosques.by_id() for year in window.years])


ENDPOINT = Endpoint(
    "prayer-times", "Prayer times for a place: one day, a month or a year; one or several methods, or custom angles",
    PARAMETERS, canonical, build, schemas.json_response(schemas.PRAYER_TIMES), plan=plan, quick=True,
    hijri_days=hijri_days)
