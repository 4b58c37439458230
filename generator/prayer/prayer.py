"""Prayer times for one place over a run of days, for several methods at once.

Everything is numpy arrays of shape (methods, days); there is no per-day Python
loop.  Instants are real-valued UT1 day numbers (days since 1970-01-01 0h) until the
very end, where they become whole UTC minutes in Unix seconds.

Definitions (see docs/decisions.md for why):

* Sunrise and sunset: the Sun's centre at −0.8333° (USNO: 34′ refraction + 16′
  semi-diameter), geocentric, no elevation correction (as adhan-js and praytimes).
* Fajr, isha and angle-maghrib: the Sun's centre at the method's depression angle (a fajr
  angle may follow the Sun's declination: a dawn fitted from a printed table).
* Asr: the moment after transit when a shadow equals the noon shadow plus the factor (1,
  or 2 for Hanafi) times the object, with the noon shadow from the declination at that
  day's transit and the altitude solved with the declination of the asr moment itself
  (the physical definition; adhan-js takes the noon shadow at 0h UT of the date).
* High latitudes: each method's rule (the request's ``highLatitudeRule`` if given) is
  applied every day as a bound, as adhan-js applies TwilightAngle: with night = next
  sunrise − sunset and portion = angle/60 (½ for middleOfNight, ⅐ for seventhOfNight),
  fajr is no earlier than sunrise − portion·night and isha no later than sunset +
  portion·night (a method may bound isha by its own rule).  The Moonsighting Committee's
  seasonal limits replace it for that method; ``none`` leaves an unreached time null.
* Angle maghrib is used when it falls after sunset and before isha; where the angle is
  never reached (summer above ~62°) maghrib is sunset + portion·night, the same
  twilight bound (adhan-js would fall back to plain sunset; see decisions).
* Polar days and nights: where the Sun does not both rise and set on a day and the
  next, or stands too low at noon to cast an asr shadow, every time of that day is computed at the nearest latitude (towards the
  equator, in 0.5° steps) where it does (“nearest latitude”, adhan's AqrabBalad);
  the latitude used is reported per day.
* imsak = fajr − 10 min; midnight = midpoint of maghrib and the next day's fajr (the
  SPEC's); a method may have its own (the Imam Ali Foundation's: sunset to the same
  date's fajr + 24 h; imsak 15 min, 20 in its northern summer weeks) and a request its.
* Rounding: an instant is floored to the whole second, then rounded to the nearest
  minute with 30 s going up (adhan-js ``nearest``); methods with ``rounding="up"``
  always move to the next whole minute (adhan-js ``up``), ``"down"`` to the minute it is in.

Printed tables (generator.prayer.timetables) replace the times they print afterwards, for the
presets bound to them; the engine itself only computes.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Callable, Hashable, Mapping, Sequence, TypeVar

import numpy as np

from generator.astronomy import sun_table
from generator.prayer.methods import ADJUSTABLE, DEFAULT_IMSAK_BEFORE_FAJR_MIN, HighLatitudeRule, Method, Midnight, Rounding, Summer

SUN_HORIZON_DEG = -50.0 / 60.0  # USNO: 34' refraction + 16' semi-diameter
ASR_SHADOW_FACTOR = 1.0  # Jafari, Shafi'i, Maliki, Hanbali ("standard"); Hanafi: 2
IMSAK_BEFORE_FAJR_MIN = DEFAULT_IMSAK_BEFORE_FAJR_MIN
EARTH_RADIUS_M = 6_371_000.0  # mean radius
TERRESTRIAL_REFRACTION = 0.175  # k of a ray grazing the surface (Sweer 1938)
SECONDS_PER_DAY = 86400.0
POLAR_STEP_DEG = 0.5
OUTPUT_TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight")
_POLAR_PASSES = 12  # 6° beyond the analytic first guess; 3 passes suffice in practice
_MAX_PASSES = 8  # Newton passes on the hour angle: 2 at most latitudes, up to 5 measured (66°, a barely reached angle)
_CONVERGED_DAYS = 1.0 / 86400.0  # stop after a pass that moved no time by more than 1 s
_UNREACHED_S = -1e18  # what a NaN instant becomes in `_round_to_minute` (masked by the caller)
_MAX_CORRECTION_DAYS = 1.0 / 24.0  # a larger Newton correction (g′ near 1: the Sun touching the altitude) is cut to an hour
_MIN_SIN2_H = 1e-12  # sin² H is kept above this: g′ stays finite where the Sun just touches the altitude


@dataclass(frozen=True)
class PrayerTimes:
    """Rounded times of ``days`` for each method.

    ``times[name]`` is an int64 array (methods, days) of Unix seconds (whole minutes).
    ``latitude_used_deg`` is (days,): the latitude every time of that day was computed
    at, equal to the requested one except on polar days.  ``unrounded_s`` holds the
    same instants (with method adjustments) before rounding, as float Unix seconds
    (computed when asked, from ``unrounded_days``).
    """

    days: np.ndarray
    times: dict[str, np.ndarray]
    latitude_used_deg: np.ndarray
    unrounded_days: dict[str, np.ndarray]  # the same instants as UT1 day numbers (methods, days)
    unreached: dict[str, np.ndarray] = field(default_factory=dict)  # name -> (methods, days) mask, only under rule none
    # Where printed tables serve a method (generator.prayer.timetables.Provenance), else None.
    provenance: object | None = None

    @property
    def unrounded_s(self) -> dict[str, np.ndarray]:
        return {name: value * SECONDS_PER_DAY for name, value in self.unrounded_days.items()}


@dataclass(frozen=True)
class Options:
    """A request's choices beyond the method; the defaults give the SPEC's times.

    ``high_latitude_rule``, ``midnight`` and ``imsak_before_fajr_min`` None keep each method's
    own (the SPEC's for the sixteen but IslamicCentreOfEngland); ``tune_min`` moves the named
    output times by whole minutes; ``elevation_m`` lowers the horizon of sunrise and sunset
    by the dip (`horizon_dip_deg`).
    """

    midnight: Midnight | None = None
    asr_shadow_factor: float = ASR_SHADOW_FACTOR
    high_latitude_rule: HighLatitudeRule | None = None
    tune_min: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    elevation_m: float = 0.0
    imsak_before_fajr_min: int | None = None
    zone: str | None = None


DEFAULT_OPTIONS = Options()


def _sun(days: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return sun_table.load().interpolate(days)


def transit(day: np.ndarray, lng_deg: float) -> np.ndarray:
    """Return the UT1 day number of the Sun's upper transit nearest local mean noon of ``day``."""
    return _transit_and_declination(day, lng_deg)[0]


def _transit_and_declination(day: np.ndarray, lng_deg: float):
    """Return the transit of each day (UT1 day number), the Sun's declination then (degrees), and
    ((eot, sin δ, cos δ) at the transit, their rates per day), shaped (3, *day.shape) each: what
    `_time_of_sin_altitude`'s first pass, which starts there, reads.

    The transit solves x + eot(x)/360° = day + ½ − lng/360°: a plain step from local mean noon
    (within 0.2 s), then a Newton step with eot′ from the same interpolated quadratic, which
    leaves it within 1 µs of converged (1900–2100, every 10° of longitude; two plain steps
    left 48 µs).  The declination is that quadratic's, carried over the Newton step by its
    derivative (3e-12° from evaluating it anew); so are eot, sin δ and cos δ (one table lookup
    for all four instead of a second one at the transit).
    """
    table = sun_table.load()
    mean_noon = day + 0.5 - lng_deg / 360.0
    x = mean_noon - table.interpolate(mean_noon)[1] / 360.0
    values, rates = table.interpolate_all_with_rates(x)  # rows: δ, eot, sin δ, cos δ
    step = (mean_noon - x - values[1] / 360.0) / (1.0 + rates[1] / 360.0)
    values += rates * step
    return x + step, values[0], (values[1:], rates[1:])


def time_of_altitude(
    day: np.ndarray, noon: np.ndarray, lat_deg: np.ndarray, lng_deg: float, altitude_deg: np.ndarray, side: int
) -> np.ndarray:
    """Return when the Sun's centre is at ``altitude_deg`` before (side −1) or after (+1) ``noon``.

    UT1 day numbers; NaN where the Sun never reaches that altitude.  All arguments
    broadcast against each other.
    """
    return _time_of_sin_altitude(day, noon, lat_deg, lng_deg, np.sin(np.radians(altitude_deg)), side)


def _time_of_sin_altitude(day, noon, lat_deg, lng_deg, sin_alt, side, at_noon=None):
    """`time_of_altitude` given the sine of the altitude (the solver takes the sines of its few
    distinct altitudes rather than of every (row, day) element); ``at_noon``, if given, is
    ((eot, sin δ, cos δ), their rates) at ``noon``, as `_transit_and_declination` gives them.

    The time x solves x = g(x) = day + ½ + (side·H − lng − eot)/360°, with
    cos H = (sin a − sin φ sin δ)/(cos φ cos δ) and the Sun's δ and eot taken at x itself.
    Each pass is a Newton step on x − g(x) = 0: x′ = g + (g − x)·g′/(1 − g′), with g′ from the
    derivatives of the same interpolated δ and eot.  The second pass reuses the first pass's g′
    (a chord step: from noon the first pass lands within 0.2 s at Tehran, so g′ barely matters).
    The first pass starts from noon and judges reach by noon's δ, which on days the Sun only just
    reaches (or misses) the altitude can differ from the δ at the time by more than the margin, so
    it aims at the transit or the lower transit instead of giving up; whether the time exists is
    decided from the second pass on (an unreached time stays NaN).  Each time takes passes until
    one moves it by no more than `_CONVERGED_DAYS` (at least 2): 2 where the Sun crosses the
    altitude briskly, more on the days it barely reaches it.  Converged within 59 µs at every
    latitude to ±66° for every method's angle (2026, against 40 Newton passes); three plain
    fixed-point passes, used before, erred there by up to 63 s and called some reachable
    times unreached.
    """
    sin_lat, cos_lat = np.sin(np.radians(lat_deg)), np.cos(np.radians(lat_deg))
    base = day + 0.5 - lng_deg / 360.0
    turns_per_radian = np.asarray(side, dtype=float) / (2.0 * np.pi)
    table = sun_table.load()
    # Every pass computes in place on arrays of the full broadcast shape.
    # (np.broadcast(...).shape: the same shape as np.broadcast_shapes, at a twentieth of its cost)
    sin_alt = np.broadcast_to(sin_alt, np.broadcast(sin_alt, sin_lat, base, turns_per_radian, noon).shape)
    x = noon
    with np.errstate(invalid="ignore", divide="ignore"):
        for passes in range(1, _MAX_PASSES + 1):
            fresh_slope = passes != 2  # the second pass reuses the first pass's g′ (a chord step)
            if passes == 1 and at_noon is not None:
                (eot, sin_dec, cos_dec), (eot_rate, sin_dec_rate, cos_dec_rate) = at_noon
            elif fresh_slope:
                (eot, sin_dec, cos_dec), (eot_rate, sin_dec_rate, cos_dec_rate) = table.interpolate_trig(x, True)
            else:
                eot, sin_dec, cos_dec = table.interpolate_trig(x)
            denominator = cos_lat * cos_dec
            cos_h = sin_alt - sin_lat * sin_dec
            cos_h /= denominator
            beyond = None
            if passes == 1 and np.fmax.reduce(np.abs(cos_h), axis=None) > 1.0:  # NaN (no asr shadow) aside
                # From noon, an altitude beyond reach at noon's δ may be reached at the time's own δ:
                # aim at the transit or the lower transit, and let pass 2 decide.
                beyond = np.abs(cos_h) > 1.0
                np.minimum(np.maximum(cos_h, -1.0, out=cos_h), 1.0, out=cos_h)
            if fresh_slope:
                # g′ = side/2π · dH/dx − eot′/360°, dH/dx = (sin φ·(sin δ)′ + cos H cos φ·(cos δ)′)/(cos φ cos δ sin H),
                # with sin H kept from 0 (the Sun just touching the altitude); then the factor g′/(1 − g′).
                sin_h = cos_h * cos_h
                np.subtract(1.0, sin_h, out=sin_h)
                np.maximum(sin_h, _MIN_SIN2_H, out=sin_h)
                np.sqrt(sin_h, out=sin_h)
                sin_h *= denominator
                slope = cos_h * cos_dec_rate
                slope *= cos_lat
                slope += sin_lat * sin_dec_rate
                slope /= sin_h
                slope *= turns_per_radian
                slope -= eot_rate / 360.0
                newton_factor = np.subtract(1.0, slope, out=sin_h)
                np.divide(slope, newton_factor, out=newton_factor)
                if beyond is not None:
                    newton_factor[beyond] = 0.0  # a plain step there: g′ means nothing at a clipped H
            g = np.arccos(cos_h, out=cos_h)  # NaN when |cos H| > 1: never reached; then g = base + side·H/2π − eot/360
            g *= turns_per_radian
            g += base
            g -= eot / 360.0
            correction = g - x
            correction *= newton_factor
            # Bounded to ±`_MAX_CORRECTION_DAYS`; NaN stays NaN (two ufuncs: np.clip's wrapper costs more than both)
            np.minimum(np.maximum(correction, -_MAX_CORRECTION_DAYS, out=correction), _MAX_CORRECTION_DAYS, out=correction)
            correction += g
            if passes == 1:
                x, active = correction, np.ones(correction.shape, dtype=bool)
                continue
            # Each time stops after its own first pass that moved it by at most `_CONVERGED_DAYS`
            # (or left it unreached, NaN), so it never depends on the other times solved with it:
            # a day's times are the same in a request for the day, its month or its year.
            step = np.subtract(correction, x, out=g)
            np.copyto(x, correction, where=active)
            active &= np.abs(step, out=step) > _CONVERGED_DAYS  # NaN (unreached): settled
            if not active.any():
                break
    return x


def _has_day_and_night(day, lat_deg, lng_deg, horizon_deg=SUN_HORIZON_DEG):
    """True where the Sun rises and sets on ``day`` and rises on ``day + 1``."""
    noon = transit(day, lng_deg)
    rise = time_of_altitude(day, noon, lat_deg, lng_deg, horizon_deg, -1)
    set_ = time_of_altitude(day, noon, lat_deg, lng_deg, horizon_deg, +1)
    next_rise = time_of_altitude(day + 1, transit(day + 1, lng_deg), lat_deg, lng_deg, horizon_deg, -1)
    return np.isfinite(rise) & np.isfinite(set_) & np.isfinite(next_rise)


def latitudes_with_sunrise(day: np.ndarray, lat_deg: float, lng_deg: float,
                           horizon_deg: float = SUN_HORIZON_DEG) -> np.ndarray:
    """Return, per day, ``lat_deg`` or the nearest latitude (0.5° steps) with a sunrise and sunset.

    A bounded number of vectorised passes: an analytic first guess from the
    declination, then 0.5° steps towards the equator until every day is solvable.
    """
    lat = np.full(day.shape, float(lat_deg))
    bad = ~_has_day_and_night(day, lat, lng_deg, horizon_deg)
    if not bad.any():
        return lat
    sign = 1.0 if lat_deg >= 0 else -1.0
    # A first guess no nearer the equator than the answer, so that the steps below find the
    # nearest grid latitude: the least strict limit over the day and the next.  Midnight sun
    # (the Sun in the pole's hemisphere): the Sun must dip below the horizon, |lat| < 90° − |δ| + h.
    # Polar night: it must rise, and stand above 0° at noon for asr (checked by the caller),
    # |lat| < 90° − |δ|.
    dec, _ = _sun(day[bad] + np.array([[0.0], [1.0]]))  # (the day, the next), bad days
    summer = dec[0] * sign > 0
    guess = 90.0 - np.abs(dec).min(axis=0) + np.where(summer, horizon_deg, 0.0)
    guess = np.floor(np.minimum(guess, abs(lat_deg)) / POLAR_STEP_DEG) * POLAR_STEP_DEG
    lat[bad] = sign * guess
    for _ in range(8):
        still = bad.copy()
        still[bad] = ~_has_day_and_night(day[bad], lat[bad], lng_deg, horizon_deg)
        if not still.any():
            break
        lat[still] -= sign * POLAR_STEP_DEG
    return lat


def _days_since_solstice(day: np.ndarray, lat_deg: float) -> np.ndarray:
    """adhan-js ``daysSinceSolstice``: day of year shifted to the (approximate) winter solstice."""
    dates = day.astype("datetime64[D]")
    year_start = dates.astype("datetime64[Y]").astype("datetime64[D]")
    next_year = (dates.astype("datetime64[Y]") + 1).astype("datetime64[D]")
    day_of_year = (dates - year_start).astype(np.int64) + 1
    year_length = (next_year - year_start).astype(np.int64)
    if lat_deg >= 0:
        dyy = day_of_year + 10
        return np.where(dyy >= year_length, dyy - year_length, dyy)
    dyy = day_of_year - np.where(year_length == 366, 173, 172)
    return np.where(dyy < 0, dyy + year_length, dyy)


# Khalid Shaukat's seasonal twilight limits, minutes: a, b, c, d = base + k·|lat|/55.
_SEASONAL_MIN = {
    "morning": (75, (28.65, 19.44, 32.74, 48.1)),
    "general": (75, (25.6, 2.05, -9.21, 6.14)),
    "ahmer": (62, (17.4, -7.16, 5.12, 19.44)),
    "abyad": (75, (25.6, 7.16, 36.84, 81.84)),
}


_SEASONAL_KNOTS = (0.0, 91.0, 137.0, 183.0, 229.0, 275.0, 366.0)  # days after the winter solstice


def seasonal_limits_min(tables: Sequence[str], day: np.ndarray, lat_deg: float) -> dict[str, np.ndarray]:
    """Return the Moonsighting Committee seasonal twilight length in minutes, per day, of each table.

    Piecewise linear through a, b, c, d, c, b, a at 0, 91, 137, 183, 229, 275, 365
    days after the winter solstice (Khalid Shaukat; adhan-js ``seasonAdjusted*``).
    """
    dyy = _days_since_solstice(day, lat_deg).astype(float)  # once for every table
    limits = {}
    for table in tables:
        base, k = _SEASONAL_MIN[table]
        a, b, c, d = (base + ki / 55.0 * abs(lat_deg) for ki in k)
        # np.interp evaluates each piece as (hi − lo)/width · (dyy − knot) + lo, the same operations as
        # the piecewise formula, bit for bit (and a knot itself gives its value), at a tenth of the cost
        # of np.select over every piece.  The last piece runs from 275 to 366 (a leap year's last day is 365).
        limits[table] = np.interp(dyy, _SEASONAL_KNOTS, (a, b, c, d, c, b, a))
    return limits


T = TypeVar("T")
_PER_METHODS: dict[tuple, tuple] = {}  # (what, id of each method) -> (the methods, the value)
_PER_METHODS_MAX = 512


def _per_methods(methods: Sequence[Method], what: Hashable, build: Callable[[], T]) -> T:
    """``build()``, kept per list of methods (and ``what``): arrays a request would otherwise build anew
    from the same presets each time (read only).  Keyed by the methods' identities: the entry holds
    the methods themselves, so no other object can take one of their ids while it is kept (a custom
    method, new in each request, gets an entry of its own and is dropped with the others when full)."""
    key = (what, *map(id, methods))
    hit = _PER_METHODS.get(key)
    if hit is None:
        if len(_PER_METHODS) >= _PER_METHODS_MAX:
            _PER_METHODS.clear()
        hit = _PER_METHODS[key] = (tuple(methods), build())
    return hit[1]


def _read_only(*arrays: np.ndarray | None) -> tuple[np.ndarray | None, ...]:
    """The arrays (None kept), made read only: values `_per_methods` shares between requests."""
    for array in arrays:
        if array is not None:
            array.flags.writeable = False
    return arrays


def _column(methods: Sequence[Method], attribute: str, missing: float = np.nan) -> np.ndarray:
    """Return the methods' ``attribute`` as a (methods, 1) column, ``missing`` where it is None
    (read only: kept per list of methods, `_per_methods`)."""
    def build() -> np.ndarray:
        column = np.array([missing if v is None else float(v) for v in (getattr(m, attribute) for m in methods)])
        column.flags.writeable = False
        return column[:, None]

    return _per_methods(methods, ("column", attribute, repr(missing)), build)


def _flags(values: Sequence[bool]) -> np.ndarray | None:
    """Return per-method flags as a (methods, 1) column, or None when no method has it (the common
    case, decided on the Python list: numpy's any() on a few flags costs more than the list's)."""
    return np.array(values)[:, None] if any(values) else None


def _round_to_minute(x_days: np.ndarray, up: np.ndarray | None = None, down: np.ndarray | None = None) -> np.ndarray:
    """Return Unix seconds on whole minutes: floored to the second, then nearest (30 s up) or, where
    ``up``, the next minute, or where ``down``, the minute it is in (None: no method rounds that way).
    A NaN (unreached) time gives an arbitrary value, which the caller masks."""
    whole_s = x_days * SECONDS_PER_DAY
    np.floor(whole_s, out=whole_s)
    if up is None and down is None:
        minutes = whole_s
        minutes += 30.0
        minutes /= 60.0
        np.floor(minutes, out=minutes)
    else:
        minutes = np.floor((whole_s + 30.0) / 60.0)
        if up is not None:
            minutes = np.where(up, np.floor(whole_s / 60.0) + 1.0, minutes)
        if down is not None:
            minutes = np.where(down, np.floor(whole_s / 60.0), minutes)
    minutes *= 60.0
    # NaN becomes a finite value below every instant (fmax takes the number), so the cast warns of nothing.
    np.fmax(minutes, _UNREACHED_S, out=minutes)
    return minutes.astype(np.int64)


def horizon_dip_deg(elevation_m: float) -> float:
    """Return how far below the astronomical horizon the sea horizon lies for an eye ``elevation_m`` above it.

    dip = sqrt(2h / (R (1 − k))) radians with R = 6,371 km (mean radius) and k = 0.175,
    the coefficient of terrestrial refraction of a ray grazing the surface (Sweer 1938, as
    astronomy-engine's SearchRiseSet uses); about 0.0354° √h, 1.06° at 900 m.
    """
    return float(np.degrees(np.sqrt(2.0 * elevation_m / (EARTH_RADIUS_M * (1.0 - TERRESTRIAL_REFRACTION)))))


@dataclass(frozen=True)
class _Solved:
    """The Sun's events of the requested days (+1), after the polar fallback; UT1 day numbers.

    ``sunrise``, ``sunset``, ``asr``, ``noon``, ``lat``, ``next_sunrise``: (days + 1,);
    ``fajr``, ``isha``, ``maghrib_by_angle``: (methods, days + 1), NaN where never reached.
    """

    day: np.ndarray
    noon: np.ndarray
    lat: np.ndarray
    sunrise: np.ndarray
    sunset: np.ndarray
    next_sunrise: np.ndarray
    asr: np.ndarray
    fajr: np.ndarray
    isha: np.ndarray
    maghrib_by_angle: np.ndarray

    @functools.cached_property
    def night(self) -> np.ndarray:
        return self.next_sunrise - self.sunset


@dataclass(frozen=True)
class _Rows:
    """The solver's rows for a set of methods (`_rows`): each distinct altitude event solved once.

    Events: sunrise, sunset, fajr (m), isha (m), angle maghrib (m), asr; all start from the same
    transit, so the first pass is shared.  Methods share angles (with method=all, the 16 methods
    have 8 fixed fajr angles and a fitted one, 6 isha and 2 maghrib angles: 21 rows for 51 events,
    a NaN altitude, no such angle, being one row per side too), and the solver treats each
    element on its own, so an event of the same side and altitude is one row, and ``expand``
    gathers the rows back into events: the same times, about half the work.  Rows: the distinct
    fixed altitudes (``side``, ``sin_fixed``: their sine), then one per fitted dawn (its altitude
    changes with the day: ``by_day_rows``, with its method's index), then asr's (with the day too).
    """

    side: np.ndarray  # (rows, 1): −1 before noon, +1 after
    sin_fixed: np.ndarray  # (fixed rows, 1)
    by_day_rows: tuple[tuple[int, int], ...]  # (row, method index) of each fitted dawn
    expand: np.ndarray  # (3 + 3m,) the row of each event


@functools.lru_cache(maxsize=256)
def _rows(horizon_deg: float, angles_deg: tuple[tuple[float | None, ...], ...], by_day: tuple[bool, ...]) -> _Rows:
    """The solver's rows for methods of (fajr, isha, maghrib) depression angles (None: none), and
    whether each method's fajr altitude follows the day (`fajr_angle_on`).  Kept per set of methods:
    a request's arrays would otherwise be built anew each time, read only."""
    m = len(angles_deg)
    sides = [-1.0, 1.0] + [-1.0] * m + [1.0] * (2 * m)
    depressions = np.array([[np.nan if a is None else float(a) for a in method] for method in angles_deg]).reshape(m, 3)
    altitudes = np.concatenate([np.full(2, horizon_deg), -depressions.T.ravel()])
    sines = np.sin(np.radians(altitudes))
    distinct: dict[tuple[float, bytes], int] = {}  # (side, the sine's bytes: NaN alike) -> row
    expand = []
    for event, (side, sine) in enumerate(zip(sides, sines)):
        if 2 <= event < 2 + m and by_day[event - 2]:
            expand.append(None)  # a row of its own, after the fixed ones
            continue
        expand.append(distinct.setdefault((side, sine.tobytes()), len(distinct)))
    by_day_rows = []
    for event, row in enumerate(expand):
        if row is None:
            expand[event] = len(distinct) + len(by_day_rows)
            by_day_rows.append((expand[event], event - 2))
    side = np.array([s for s, _ in distinct] + [-1.0] * len(by_day_rows) + [1.0])[:, None]
    sin_fixed = np.frombuffer(b"".join(b for _, b in distinct), dtype=sines.dtype)[:, None]
    expand.append(len(side) - 1)  # asr
    for array in (side, sin_fixed):
        array.flags.writeable = False
    return _Rows(side, sin_fixed, tuple(by_day_rows), np.array(expand))


def solar_days(local_days: np.ndarray, lng_deg: float, zone: str | None) -> np.ndarray:
    """Return, for each local date, the day whose local mean noon (UT 12h − lng/15) the solver starts from.

    Without a zone, the date itself.  With one, the date minus the whole days that round
    (offset at the zone's noon − lng/15 h)/24 h: the transit then falls within 12 h of the zone's
    own noon, so every time of a date lies around noon of that date on the zone's clock.  The
    shift is 0 wherever the zone's clock is within 12 h of mean solar time, everywhere but west
    of 180° on the far side of the date line (Samoa, Tonga, Kiribati's Line and Phoenix Islands,
    Tokelau, New Zealand's Chatham Islands at UTC+13¾): there it is one day, and where a zone
    jumped the line (Samoa on 2011-12-30) each date keeps its own.
    """
    local_days = np.asarray(local_days, dtype=float)
    if zone is None:
        return local_days
    from generator.places import timezones  # the pinned tzdata's offsets (`timezones.is_valid` zones)

    offset_h = timezones.noon_offsets_s(zone, local_days.astype(np.int64)) / 3600.0
    shift = np.floor((offset_h - lng_deg / 15.0) / 24.0 + 0.5)
    return local_days - shift if shift.any() else local_days


def _solve(lat_deg: float, lng_deg: float, first_day: int, n_days: int, methods: Sequence[Method],
           options: Options) -> _Solved:
    """Step 1: every altitude event in one stacked solve, then the nearest-latitude rule on polar days.

    Days solved: the n requested, the next one (its fajr ends the last night, for midnight)
    and one more (its sunrise ends the next day's night).  ``day`` of the result is the local
    date; the Sun is solved for its `solar_days` (the same but beyond the date line).  Where a
    zone skipped a date (Samoa's 2011-12-30) two dates share a solar day: the Sun is solved
    once per solar day, each date taking its own, so the night before the gap ends at the
    next real morning (the skipped date repeats the next date's times).
    """
    local_ext = first_day + np.arange(n_days + 2, dtype=float)
    day_ext = solar_days(local_ext, lng_deg, options.zone)
    if day_ext is not local_ext and not (np.diff(day_ext) > 0).all():
        distinct, of_date = np.unique(day_ext, return_inverse=True)
        solved = _solve_days(lat_deg, lng_deg, np.append(distinct, distinct[-1] + 1.0), methods, options)
        dates = of_date[: n_days + 1]
        return _Solved(local_ext[: n_days + 1], *(getattr(solved, f.name)[..., dates] for f in fields(_Solved)[1:]))
    solved = _solve_days(lat_deg, lng_deg, day_ext, methods, options)
    return solved if day_ext is local_ext else replace(solved, day=local_ext[: n_days + 1])


def _solve_days(lat_deg: float, lng_deg: float, day_ext: np.ndarray, methods: Sequence[Method],
                options: Options) -> _Solved:
    """`_solve` for solar days ``day_ext`` (increasing; the last one only ends the night before it)."""
    n_days = day_ext.size - 2
    # Asr's noon shadow: from the Sun's declination at that day's transit (the physical noon).
    noon_ext, dec_noon, (trig, trig_rates) = _transit_and_declination(day_ext, lng_deg)
    at_noon = (trig[:, None, :], trig_rates[:, None, :])  # shaped as the rows' first pass reads them
    horizon = SUN_HORIZON_DEG - horizon_dip_deg(options.elevation_m)
    m = len(methods)
    rows = _rows(horizon, tuple((mt.fajr_angle_deg, mt.isha_angle_deg, mt.maghrib_angle_deg) for mt in methods),
                 tuple(bool(mt.fajr_angle_declination_terms) for mt in methods))
    # A dawn that follows the Sun's declination (a fitted table): its own altitude each day.
    sin_fajr_by_day = [(row, np.sin(np.radians(-fajr_angle_on(methods[k], dec_noon, lat_deg))))
                       for row, k in rows.by_day_rows]
    n_fixed = len(rows.sin_fixed)

    def solve_all(lat):
        # Asr: the altitude where a shadow equals factor × the object plus its noon shadow.
        zenith_at_noon = np.abs(lat - dec_noon)
        with np.errstate(invalid="ignore"):
            asr_alt = np.degrees(np.arctan(1.0 / (options.asr_shadow_factor + np.tan(np.radians(zenith_at_noon)))))
        asr_alt = np.where(zenith_at_noon < 90.0, asr_alt, np.nan)  # no noon shadow, no asr
        sin_alt = np.empty((len(rows.side), day_ext.size))
        sin_alt[:n_fixed] = rows.sin_fixed
        for row, sin_fajr in sin_fajr_by_day:
            sin_alt[row] = sin_fajr
        sin_alt[-1] = np.sin(np.radians(asr_alt))
        x = _time_of_sin_altitude(day_ext[None, :], noon_ext[None, :], lat, lng_deg, sin_alt, rows.side, at_noon)
        x = x.take(rows.expand, axis=0)  # each event's row
        return x[0], x[1], x[2 : 2 + m], x[2 + m : 2 + 2 * m], x[2 + 2 * m : 2 + 3 * m], x[-1]

    def unsolvable(sunrise, sunset, next_sunrise, asr):
        # A day needs a sunrise, a sunset, the next sunrise and an asr (a noon shadow) before sunset;
        # a comparison with NaN is false, and a sum with one is NaN.
        bad = ~(asr < sunset)
        bad |= np.isnan(sunrise + next_sunrise)
        return bad

    keep = slice(0, n_days + 1)
    lat = np.full(day_ext.shape, float(lat_deg))
    sunrise_ext, sunset, fajr, isha, by_angle, asr = solve_all(float(lat_deg))  # one latitude: a scalar
    sunrise, next_sunrise = sunrise_ext[keep], sunrise_ext[1:]
    bad = unsolvable(sunrise, sunset[keep], next_sunrise, asr[keep])
    if bad.any():  # polar days and nights: nearest latitude, bounded passes of 0.5°
        day = day_ext[keep]
        lat = np.append(latitudes_with_sunrise(day, lat_deg, lng_deg, horizon), 0.0)
        for _ in range(_POLAR_PASSES):
            lat[-1] = lat[-2]  # the extra day only serves the next-sunrise shift, unused here
            sunrise_ext, sunset, fajr, isha, by_angle, asr = solve_all(lat)
            sunrise = sunrise_ext[keep]
            # the night after a day is measured at that day's own latitude
            next_sunrise = time_of_altitude(day_ext[1:], noon_ext[1:], lat[keep], lng_deg, horizon, -1)
            bad = unsolvable(sunrise, sunset[keep], next_sunrise, asr[keep])
            if not bad.any():
                break
            lat[keep][bad] -= np.sign(lat_deg) * POLAR_STEP_DEG
        if bad.any():
            raise ArithmeticError("nearest-latitude rule did not converge")
    return _Solved(day_ext[keep], noon_ext[keep], lat[keep], sunrise, sunset[keep], next_sunrise, asr[keep],
                   fajr[:, keep], isha[:, keep], by_angle[:, keep])


_FIXED_NIGHT_PORTIONS = {HighLatitudeRule.MIDDLE_OF_NIGHT: 0.5, HighLatitudeRule.SEVENTH_OF_NIGHT: 1.0 / 7.0}


def _night_portions(methods: Sequence[Method], rules: Sequence[HighLatitudeRule],
                    isha_rules: Sequence[HighLatitudeRule] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return the (fajr, isha) share of the night each method's rule allows at most (NaN: no bound)."""
    def portion(rule: HighLatitudeRule, angle: float | None) -> float:
        if rule is HighLatitudeRule.TWILIGHT_ANGLE:
            return np.nan if angle is None else angle / 60.0
        return _FIXED_NIGHT_PORTIONS.get(rule, np.nan)

    fajr = [portion(r, m.fajr_angle_deg) for m, r in zip(methods, rules)]
    isha = [portion(r, m.isha_angle_deg) for m, r in zip(methods, isha_rules or rules)]
    return np.array([fajr, isha])[:, :, None]


def _high_latitude_bounds(s: _Solved, methods: Sequence[Method], rules: Sequence[HighLatitudeRule],
                          lat_deg: float, isha_rules: Sequence[HighLatitudeRule] | None = None
                          ) -> tuple[np.ndarray, np.ndarray]:
    """Step 2: bound fajr and isha by each method's high-latitude rule (fill them where never reached).

    twilightAngle (SPEC): fajr no earlier than sunrise − angle/60 · night, isha no later than
    sunset + angle/60 · night (adhan-js TwilightAngle); middleOfNight and seventhOfNight
    use ½ and ⅐ of the night; none leaves a time that is never reached NaN (null in JSON);
    moonsightingSeasonal is Khalid Shaukat's seasonal limits (with ⅐ of the night at 55°+).
    """
    day, night = s.day, s.night
    fajr_portion, isha_portion = _per_methods(methods, ("portions", *rules, None, *(isha_rules or ())),
                                              lambda: _read_only(*_night_portions(methods, rules, isha_rules)))
    safe_fajr, safe_isha = s.sunrise - fajr_portion * night, s.sunset + isha_portion * night
    fajr, isha = s.fajr, s.isha
    seasonal = _flags([r is HighLatitudeRule.MOONSIGHTING_SEASONAL for r in rules])
    if seasonal is not None:
        # Moonsighting Committee: 1/7 of the night at lat >= 55 (signed, as adhan-js), then seasonal limits.
        if lat_deg >= 55:
            fajr = np.where(seasonal, s.sunrise - night / 7.0, fajr)
            isha = np.where(seasonal, s.sunset + night / 7.0, isha)
        tables = seasonal_limits_min(["morning", *dict.fromkeys(m.shafaq for m, flag in zip(methods, seasonal[:, 0])
                                                               if flag)], day, lat_deg)
        morning = np.round(tables["morning"] * 60.0) / SECONDS_PER_DAY
        shafaq_rows = [tables.get(m.shafaq, np.zeros(day.shape)) for m in methods]
        evening = np.round(np.array(shafaq_rows) * 60.0) / SECONDS_PER_DAY
        safe_fajr = np.where(seasonal, s.sunrise - morning, safe_fajr)
        safe_isha = np.where(seasonal, s.sunset + evening, safe_isha)
    # The later of fajr and its bound, the earlier of isha and its: a time never reached (NaN)
    # takes the bound, and a rule without a bound (none: NaN) keeps the time, NaN or not.
    return np.fmax(fajr, safe_fajr), np.fmin(isha, safe_isha)


def _maghrib(s: _Solved, methods: Sequence[Method], rules: Sequence[HighLatitudeRule], isha: np.ndarray,
             summer_maghrib_min: np.ndarray | None = None) -> np.ndarray:
    """Step 3: maghrib at sunset, sunset + interval (``summer_maghrib_min``: per day), or the angle time.

    An angle time is used when it falls after sunset and before isha; where the angle is
    never reached it is bounded like isha by the twilight portion (angle/60 of the night),
    except under the rule none, where it stays NaN.
    """
    has_angle = [m.maghrib_angle_deg is not None for m in methods]  # a list: its all()/any() decide (`_flags`)
    if not all(has_angle):
        maghrib_interval = _column(methods, "maghrib_interval_min", missing=0.0)
        if summer_maghrib_min is not None:
            maghrib_interval = summer_maghrib_min
        maghrib = np.broadcast_to(s.sunset + maghrib_interval / 1440.0, isha.shape)
        if not any(has_angle):
            return maghrib
    with np.errstate(invalid="ignore"):
        # The fallback: angle/60 of the night, and no later than isha (where isha exists).
        bounded = np.fmin(s.sunset + _column(methods, "maghrib_angle_deg") / 60.0 * s.night, isha)
        no_bound = _flags([r is HighLatitudeRule.NONE for r in rules])
        if no_bound is not None:
            bounded = np.where(no_bound, np.nan, bounded)
        # The angle time, where it is after sunset and before isha (or isha has none, or is an interval);
        # comparisons with NaN are false, so a never-reached angle time is not usable.
        after_sunset = s.maghrib_by_angle > s.sunset
        usable = after_sunset & ~(s.maghrib_by_angle >= isha)
        interval_isha = _flags([m.isha_interval_min is not None for m in methods])
        if interval_isha is not None:
            usable |= interval_isha & after_sunset
        by_angle = np.where(usable, s.maghrib_by_angle, bounded)
    return by_angle if all(has_angle) else np.where(np.array(has_angle)[:, None], by_angle, maghrib)


def _isha_intervals(isha: np.ndarray, maghrib: np.ndarray, methods: Sequence[Method],
                    ramadan: np.ndarray | None) -> np.ndarray:
    """Step 4: isha as minutes after maghrib for interval methods (UmmAlQura: 120 in Ramadan)."""
    if all(m.isha_interval_min is None for m in methods):
        return isha
    isha_interval = _column(methods, "isha_interval_min")
    ramadan_interval = _column(methods, "isha_interval_ramadan_min")
    if ramadan is not None:
        in_ramadan = np.asarray(ramadan, dtype=bool)[None, :] & ~np.isnan(ramadan_interval)
        isha_interval = np.where(in_ramadan, ramadan_interval, isha_interval)
    return np.where(np.isnan(isha_interval), isha, maghrib + np.where(np.isnan(isha_interval), 0.0, isha_interval) / 1440.0)


def _adjustments_days(methods: Sequence[Method]) -> np.ndarray | None:
    """The methods' minute adjustments in days, (names + sunset, methods, 1), or None when none has any."""
    if not any(m.adjustments_min for m in methods):
        return None
    adjust_min = np.array([[m.adjustments_min.get(name, 0.0) for m in methods] for name in ADJUSTABLE]
                          + [[0.0] * len(methods)])
    days = adjust_min[:, :, None] / 1440.0
    days.flags.writeable = False
    return days


def _adjust_and_round(s: _Solved, methods: Sequence[Method], fajr: np.ndarray, maghrib: np.ndarray,
                      isha: np.ndarray, options: Options, first_day: int, n_days: int,
                      summer_imsak_min: np.ndarray | None = None) -> PrayerTimes:
    """Step 5: the methods' minute adjustments, midnight, rounding, imsak and the request's tune.

    Midnight and imsak are the request's (``options``) or else each method's own (its
    ``midnight`` night; its ``imsak_before_fajr_min``, per day where it has summer intervals).

    All instants in one array (names, methods, days): adjustments and rounding in single
    passes.  ``tune`` minutes are whole, so adding them after rounding equals adding them
    before it; each moves only the time it names (imsak and midnight are derived from the
    untuned fajr, sunset, sunrise and maghrib).
    """
    shape = fajr.shape
    raw = {"fajr": fajr, "sunrise": s.sunrise, "dhuhr": s.noon, "asr": s.asr, "maghrib": maghrib, "isha": isha}
    names = ADJUSTABLE + ("sunset",)
    # One row per name, then the midnight row (filled below): adjustments, rounding and the
    # unreached test each run once over all of them.
    stacked = np.empty((len(names) + 1,) + shape)
    for k, name in enumerate(names):
        stacked[k] = raw.get(name, s.sunset)  # broadcasts (days,) rows over the methods
    adjust_days = _per_methods(methods, "adjustments", lambda: _adjustments_days(methods))
    if adjust_days is not None:  # adding 0.0 would change nothing
        stacked[: len(names)] += adjust_days
    adjusted = dict(zip(names, stacked))
    nights = [options.midnight or m.midnight for m in methods]
    distinct = dict.fromkeys(nights)
    for night in distinct:
        rows = slice(None) if len(distinct) == 1 else [k for k, other in enumerate(nights) if other is night]
        night_start = adjusted["maghrib" if night is Midnight.MAGHRIB_TO_FAJR else "sunset"][rows]
        if night is Midnight.SUNSET_TO_SAME_DAY_FAJR:  # the dawn of the same date, a day later
            stacked[-1, rows] = (night_start + adjusted["fajr"][rows] + 1.0) / 2.0
            continue
        night_end = adjusted["sunrise" if night is Midnight.SUNSET_TO_SUNRISE else "fajr"][rows]
        stacked[-1, rows, :-1] = (night_start[:, :-1] + night_end[:, 1:]) / 2.0
    all_names = names + ("midnight",)

    up, down = _per_methods(methods, "rounding", lambda: _read_only(*(_flags([m.rounding is rounding for m in methods])
                                                                      for rounding in (Rounding.UP, Rounding.DOWN))))
    requested = stacked[:, :, :n_days]
    rounded = _round_to_minute(requested, up, down)
    times = dict(zip(all_names, rounded))
    if options.imsak_before_fajr_min is not None:
        times["imsak"] = times["fajr"] - round(options.imsak_before_fajr_min * 60)
    elif summer_imsak_min is not None:
        times["imsak"] = times["fajr"] - np.round(summer_imsak_min[:, :n_days] * 60).astype(np.int64)
    else:
        own = [round(m.imsak_before_fajr_min * 60) for m in methods]
        times["imsak"] = times["fajr"] - (own[0] if own.count(own[0]) == len(own) else np.array(own)[:, None])
    for name, minutes in options.tune_min.items():
        times[name] = times[name] + round(minutes * 60)
    unreached = {}
    nan = np.isnan(requested)
    if nan.any():  # only where a time is never reached (rule none)
        for k in np.flatnonzero(nan.any(axis=(1, 2))):
            unreached[all_names[k]] = nan[k]
    if "fajr" in unreached:
        unreached["imsak"] = unreached["fajr"]
    for name, mask in unreached.items():
        times[name] = np.where(mask, 0, times[name])
    return PrayerTimes(
        days=np.arange(first_day, first_day + n_days).astype("datetime64[D]"),
        times={name: times[name] for name in OUTPUT_TIMES},
        latitude_used_deg=s.lat[:n_days],
        unrounded_days=dict(zip(all_names, requested)),
        unreached={name: unreached[name] for name in OUTPUT_TIMES if name in unreached},
    )



def compute(
    lat_deg: float,
    lng_deg: float,
    first_day: int,
    n_days: int,
    methods: Sequence[Method],
    ramadan: np.ndarray | None = None,
    options: Options | None = None,
) -> PrayerTimes:
    """Return the prayer times of ``n_days`` consecutive days for every method.

    ``first_day`` is the local calendar date as a unix day; ``ramadan`` is a bool array
    of ``n_days + 1`` days (the extra one is the next day, whose fajr ends the last night)
    marking Ramadan for methods with a Ramadan isha interval; ``options`` are the
    request's choices beyond the method (`Options`; the default keeps the SPEC's times).
    """
    options = options or DEFAULT_OPTIONS
    rules = [options.high_latitude_rule or m.high_latitude_rule for m in methods]
    isha_rules = [options.high_latitude_rule or m.isha_high_latitude_rule or m.high_latitude_rule for m in methods]
    solved = _solve(lat_deg, lng_deg, first_day, n_days, methods, options)
    fajr, isha = _high_latitude_bounds(solved, methods, rules, lat_deg, isha_rules)
    summer_maghrib, summer_imsak = summer_intervals_min(methods, solved.day, lat_deg)
    maghrib = _maghrib(solved, methods, rules, isha, summer_maghrib)
    isha = _isha_intervals(isha, maghrib, methods, ramadan)
    return _adjust_and_round(solved, methods, fajr, maghrib, isha, options, first_day, n_days, summer_imsak)


def fajr_angle_on(method: Method, declination_deg: np.ndarray, lat_deg: float | np.ndarray) -> np.ndarray:
    """Return ``method``'s fajr depression (degrees) on days of noon declination ``declination_deg``.

    fajr_angle_deg + Σ terms[k]·δ′^(k+1), δ′ the declination towards the place's pole (δ north of
    the equator and at it, −δ south of it), so a dawn fitted on a northern summer follows the
    summer in either hemisphere.
    """
    toward_pole = np.asarray(declination_deg, dtype=float) * np.where(np.asarray(lat_deg) < 0, -1.0, 1.0)
    angle = np.full(toward_pole.shape, float(method.fajr_angle_deg))
    for power, term in enumerate(method.fajr_angle_declination_terms, start=1):
        angle += term * toward_pole**power
    return angle


def month_day(day: np.ndarray) -> np.ndarray:
    """Return the civil date of UT1 day numbers as month × 100 + day (1 March: 301)."""
    dates = np.floor(np.asarray(day, dtype=float)).astype("datetime64[D]")
    months = dates.astype("datetime64[M]")
    day_of_month = (dates - months.astype("datetime64[D]")).astype(np.int64) + 1
    return (months.astype(np.int64) % 12 + 1) * 100 + day_of_month


def _summer_rule(method: Method, lat_deg: float) -> Summer | None:
    """The method's summer intervals for a latitude: the rule of the nearest band south of it, if any."""
    bands = [rule for rule in method.summer if lat_deg >= rule.from_lat_deg]
    return max(bands, key=lambda rule: rule.from_lat_deg) if bands else None


def summer_intervals_min(methods: Sequence[Method], day: np.ndarray,
                         lat_deg: float) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Return (maghrib interval, imsak) minutes per method and day, or (None, None) when no method has
    summer intervals at this latitude (every method then keeps its fixed ones)."""
    if not any(m.summer for m in methods):
        return None, None
    rules = [_summer_rule(m, lat_deg) for m in methods]
    if not any(rules):
        return None, None
    maghrib = np.repeat(_column(methods, "maghrib_interval_min", missing=0.0), day.size, axis=1)
    imsak = np.repeat(_column(methods, "imsak_before_fajr_min"), day.size, axis=1)
    dates = month_day(day)
    for k, rule in enumerate(rules):
        if rule is not None:
            first, last = (int(text.replace("-", "")) for text in (rule.first, rule.last))
            summer = (dates >= first) & (dates <= last)
            maghrib[k, summer] = rule.maghrib_interval_min
            imsak[k, summer] = rule.imsak_before_fajr_min
    return maghrib, imsak


def night_thirds_s(start_s: np.ndarray, end_s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (end of the first third, start of the last third) of nights from ``start_s`` to ``end_s``.

    Unix seconds of whole minutes in, the same out: start + ⅓ and start + ⅔ of the night, in
    integer seconds (exact to the second, since both ends are whole minutes), rounded to the
    nearest minute with 30 s going up.
    """
    start_s = np.asarray(start_s, dtype=np.int64)
    night_s = np.asarray(end_s, dtype=np.int64) - start_s
    if not (night_s > 0).all():
        raise ValueError("a night must end after it begins")
    first_s, last_s = start_s + night_s // 3, start_s + (2 * night_s) // 3
    return (first_s + 30) // 60 * 60, (last_s + 30) // 60 * 60


def last_third_start_s(maghrib_s: np.ndarray, next_fajr_s: np.ndarray) -> np.ndarray:
    """Return when the last third of each night begins, Unix seconds rounded to the nearest minute.

    maghrib + ⅔ × (next fajr − maghrib) (`night_thirds_s`).
    """
    return night_thirds_s(maghrib_s, next_fajr_s)[1]
