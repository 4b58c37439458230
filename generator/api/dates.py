"""The Gregorian range a request names: one ``date``, ``year`` + ``month``, or ``year``."""
from __future__ import annotations

from datetime import date
from typing import Callable

from generator.errors import QueryError


def gregorian_range(day: date | None, year: int | None, month: int | None,
                    today: Callable[[], date]) -> tuple[dict, bool]:
    """Return canonical {date} | {year, month} | {year}, and True when it defaulted to ``today()``."""
    if day is not None:
        if year is not None or month is not None:
            raise QueryError("date", "give either date, or year (and month), not both", "date_or_year")
        return {"date": day.isoformat()}, False
    if month is not None:
        if year is None:
            raise QueryError("year", "required with month (a whole number from 1900 to 2100)", "year_with_month")
        return {"year": year, "month": month}, False
    if year is not None:
        return {"year": year}, False
    return {"date": today().isoformat()}, True
