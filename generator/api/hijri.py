"""GET /v1/hijri: Gregorian ↔ Hijri conversion under the service's reckonings (SPEC 2.5, 4.5).

Modes (one per request):

* forward, one day: ``date`` (default today, UTC) → the SPEC 2.5 object;
* forward, month map: ``year`` + ``month``; forward, year map: ``year``;
* reverse, one day: ``hy`` + ``hm`` + ``hd`` → the SPEC 2.5 object of that day;
* reverse, month map: ``hy`` + ``hm``.

``offset`` (−2..2, forward only) reads the reckoning ``offset`` days later: +1 gives the
Hijri date of a place whose month began one day earlier than the reckoning.

Map shapes (SPEC says "not shown"; docs/decisions.md):

* forward maps: ``{calendarUsed, offset, from, to, days, months}`` where ``days`` maps each
  Gregorian date "YYYY-MM-DD" to ``{year, month, day}`` and ``months`` lists the Hijri
  months touched, each ``{year, month, monthName, monthLength, start, end, source}``
  (``start``/``end``: the Gregorian dates of its first and last day, offset applied);
* reverse month map: ``{calendarUsed, hijri {year, month}, monthName, monthLength, start,
  end, source, days}`` where ``days`` maps each Hijri day "1".."29"/"30" to its
  Gregorian date.

Every answer about a `table` month (the day object, each ``months`` item, the reverse month
map) also carries ``authority``: ``sistani`` (the office's announcement, `moonsighting`),
``iran-calendar-center`` (Iran's official calendar, `iran`), or the ``decided_by`` of the
month's row under `pakistan` (``ruet-e-hilal``, the Central Ruet-e-Hilal Committee, or
``shia-ulema``, Pakistan's Shia ulema where they kept another day), `india`
(``lucknow-shia``, the Shia moon-sighting committee of Lucknow), `lebanon`
(``fadlallah-office``, the office of Sayyid Muhammad Husayn Fadlallah, Beirut), `azerbaijan`
(``qmi``, the Caucasian Muslims' Board, Baku) and `cssna-east`, `cssna-west` (``cssna``, the Council
of Shia Muslim Scholars of North America, by region); `computed` and `tabular` months have none.
"""
from __future__ import annotations

import calendar as gregorian_calendar
from datetime import date

import numpy as np

from generator.calendars import hijri
from generator.places import days
from generator.words import hijri_names
from generator.api import params as P
from generator.api import schemas
from generator.api.common import CALENDAR, HM, HY, MONTH, YEAR
from generator.api.dates import gregorian_range
from generator.api.endpoint import Canonical, Endpoint, Params, Window
from generator.errors import QueryError

FORWARD = ("date", "year", "month")
REVERSE = ("hy", "hm", "hd")
PARAMETERS = (
    CALENDAR,
    P.integer("offset", -2, 2, "Local-sighting day adjustment, forward conversion only."),
    P.day("date", "Gregorian day (default today, UTC)."),
    YEAR.but(description="Gregorian year (map of its days)."),
    MONTH.but(description="Gregorian month (with year: map of its days)."),
    HY, HM,
    P.integer("hd", 1, 30, "Hijri day (checked against the month's real length)."),
)


def canonical(values, now_unix_s: float) -> Canonical:
    """Apply the rules across parameters of a /v1/hijri query."""
    calendar, offset = values["calendar"], values["offset"]
    hy, hm, hd = values["hy"], values["hm"], values["hd"]
    forward = [name for name in FORWARD if values[name] is not None]
    reverse = [name for name in REVERSE if values[name] is not None]
    params: dict = {"calendar": calendar}
    if reverse:
        if forward:
            raise QueryError(reverse[0], f"give either a Gregorian date ({', '.join(FORWARD)}) or a Hijri one (hy, hm, hd), not both")
        if offset is not None:
            raise QueryError("offset", "applies to forward conversion (date, year, month) only")
        if hy is None:
            raise QueryError("hy", f"required with {reverse[0]} (a whole number from {hijri.API_FIRST_YEAR} to {hijri.API_LAST_YEAR})")
        if hm is None:
            raise QueryError("hm", "required with hy (a whole number from 1 to 12)")
        params.update(hy=hy, hm=hm)
        if hd is not None:
            length = int(hijri.month_length(hy, hm, calendar))
            if hd > length:
                raise QueryError("hd", f"{hy}/{hm} has {length} days under calendar={calendar}; hd must be from 1 to {length}")
            params["hd"] = hd
        return Canonical(params)

    params["offset"] = offset if offset is not None else 0
    span, today_dependent = gregorian_range(values["date"], values["year"], values["month"],
                                            lambda: days.today(now_unix_s))
    params.update(span)
    return Canonical(params, today_dependent)


def hijri_days(params: Params) -> tuple[str, int, int]:
    """The reckoning and the Gregorian days (first, last) whose Hijri dates the answer states."""
    calendar = params.get("calendar", hijri.DEFAULT_CALENDAR)
    if "hy" in params:  # a month map, or a day of it: the month
        start = int(hijri.month_start(params["hy"], params["hm"], calendar))
        return calendar, start, start + int(hijri.month_length(params["hy"], params["hm"], calendar)) - 1
    offset = params.get("offset", 0)
    if "date" in params:
        day = days.unix_day(params["date"]) + offset
        return calendar, day, day
    first, count = _gregorian_span(params["year"], params.get("month"))
    return calendar, first + offset, first + count - 1 + offset


def build(params: Params) -> dict:
    """Return the /v1/hijri response for canonical parameters."""
    calendar = params["calendar"]
    if "hy" in params:
        if "hd" in params:
            day = int(hijri.to_gregorian(params["hy"], params["hm"], params["hd"], calendar))
            return day_object(day, calendar)
        return reverse_month(params["hy"], params["hm"], calendar)
    offset = params["offset"]
    if "date" in params:
        return day_object(days.unix_day(params["date"]), calendar, offset)
    first, count = _gregorian_span(params["year"], params.get("month"))
    return forward_map(first, count, calendar, offset)


def day_object(unix_day: int, calendar: str, offset: int | None = None) -> dict:
    """Return the SPEC 2.5 object of one Gregorian day (``offset`` only for forward conversion)."""
    h = hijri.to_hijri(unix_day + (offset or 0), calendar)
    year, month, day = int(h.year), int(h.month), int(h.day)
    gregorian = days.iso(unix_day)
    weekday = date.fromisoformat(gregorian).weekday()
    body = {
        "gregorian": gregorian,
        "weekday": hijri_names.WEEKDAYS["en"][weekday],
        "weekdayName": hijri_names.weekday_names(weekday),
        "hijri": {"year": year, "month": month, "day": day},
        "monthName": hijri_names.month_names(month),
        "formatted": hijri_names.formatted(year, month, day),
        "monthLength": int(h.month_length),
        "calendarUsed": calendar,
        "source": str(h.source),
        **_authority(calendar, year, month),
    }
    if offset is not None:
        body["offset"] = offset
    return body


def forward_map(first: int, count: int, calendar: str, offset: int) -> dict:
    """Return the forward map of ``count`` Gregorian days from ``first`` (see module docstring)."""
    day_numbers = first + np.arange(count)
    h = hijri.to_hijri(day_numbers + offset, calendar)
    isos = days.iso_array(day_numbers)
    ymd = zip(h.year.tolist(), h.month.tolist(), h.day.tolist())
    day_map = {iso: {"year": y, "month": m, "day": d} for iso, (y, m, d) in zip(isos, ymd)}
    firsts = np.flatnonzero(np.r_[True, np.diff(h.month) != 0])
    months = []
    for i in firsts.tolist():
        year, month = int(h.year[i]), int(h.month[i])
        start = int(hijri.month_start(year, month, calendar)) - offset
        length = int(h.month_length[i])
        months.append(
            {
                "year": year,
                "month": month,
                "monthName": hijri_names.month_names(month),
                "monthLength": length,
                "start": days.iso(start),
                "end": days.iso(start + length - 1),
                "source": str(h.source[i]),
                **_authority(calendar, year, month),
            }
        )
    return {
        "calendarUsed": calendar,
        "offset": offset,
        "from": isos[0],
        "to": isos[-1],
        "days": day_map,
        "months": months,
    }


def reverse_month(hy: int, hm: int, calendar: str) -> dict:
    """Return the map of one Hijri month: each day number to its Gregorian date."""
    start = int(hijri.month_start(hy, hm, calendar))
    length = int(hijri.month_length(hy, hm, calendar))
    return {
        "calendarUsed": calendar,
        "hijri": {"year": hy, "month": hm},
        "monthName": hijri_names.month_names(hm),
        "monthLength": length,
        "start": days.iso(start),
        "end": days.iso(start + length - 1),
        "source": str(hijri.month_source(hy, hm, calendar)),
        **_authority(calendar, hy, hm),
        "days": {str(d + 1): days.iso(start + d) for d in range(length)},
    }


def _authority(calendar: str, hy: int, hm: int) -> dict:
    """Return ``{"authority": ...}`` for a `table` month (who announced or published it), else {}."""
    authority = hijri.month_authority(hy, hm, calendar)
    return {"authority": authority} if authority else {}


def _gregorian_span(year: int, month: int | None) -> tuple[int, int]:
    if month is None:
        return days.unix_day(date(year, 1, 1)), 366 if gregorian_calendar.isleap(year) else 365
    return days.unix_day(date(year, month, 1)), gregorian_calendar.monthrange(year, month)[1]


def plan(window: Window):
    """Every reckoning: every Gregorian year and month of the window, and every Hijri month."""
    for calendar in hijri.CALENDARS:
        for year in window.years:
            yield {"calendar": calendar, "year": str(year)}
            yield from ({"calendar": calendar, "year": str(year), "month": str(m)} for m in range(1, 13))
        yield from ({"calendar": calendar, "hy": str(hy), "hm": str(m)} for hy in window.hijri_years
                    for m in range(1, 13))


ENDPOINT = Endpoint("hijri", "Gregorian ↔ Hijri under the moonsighting, iran, pakistan, india, lebanon, azerbaijan, "
                    "cssna-east or cssna-west reckoning", PARAMETERS,
                    canonical, build, schemas.json_response(schemas.HIJRI_RESULT), plan=plan, quick=True,
                    hijri_days=hijri_days)
