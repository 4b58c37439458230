"""Typed reading of query parameters into canonical values.

Every failure is a `QueryError` naming the parameter and what is allowed, so the
runtime can answer 400 with a message a person can act on.
"""
from __future__ import annotations

import math
import re
from datetime import date
from typing import Iterable, Mapping, Sequence

from generator.errors import QueryError

MAX_VALUE_CHARS = 200
# Values that are documents rather than words: their own bound, checked again by their reader
# (issue 28: a mosque's typed-in jamaat table, generator.prayer.jamaat.MAX_TABLE_CHARS).
LONG_VALUE_CHARS = {"jamaatTable": 32_000}
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?", re.ASCII)
_INTEGER = re.compile(r"[+-]?\d{1,9}", re.ASCII)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
# What a number may carry around it: ASCII white space only (str.strip() also takes the control characters
# U+001C..U+001F, which float() and int() refuse: "0\x1f" passed the check and was a 500, found by the fuzz test).
_SPACES = " \t\n\r\f\v"


class Query:
    """Read-once view of a request's query parameters.

    ``items`` keeps every (name, value) pair, so repeated names can be refused.
    `finish()` refuses parameters the endpoint does not know, since a mistyped name
    silently ignored would give someone the wrong times.
    """

    def __init__(self, items: Iterable[tuple[str, str]]):
        self._values: dict[str, str] = {}
        for name, value in items:
            if name in self._values:
                raise QueryError(name, "given more than once", "repeated")
            most = LONG_VALUE_CHARS.get(name, MAX_VALUE_CHARS)
            if len(value) > most:
                raise QueryError(name, f"longer than {most} characters", "too_long", {"most": most})
            self._values[name] = value
        self._read: set[str] = set()

    @classmethod
    def of(cls, mapping: Mapping[str, str]) -> "Query":
        return cls(mapping.items())

    def has(self, name: str) -> bool:
        return name in self._values

    def raw(self, name: str) -> str | None:
        self._read.add(name)
        value = self._values.get(name)
        return value

    def string(self, name: str, *, max_chars: int = MAX_VALUE_CHARS, default: str | None = None) -> str | None:
        value = self.raw(name)
        if value is None:
            return default
        if len(value) > max_chars:
            raise QueryError(name, f"at most {max_chars} characters", "at_most_chars", {"most": max_chars})
        return value

    def choice(self, name: str, allowed: Sequence[str], default: str | None = None) -> str | None:
        value = self.raw(name)
        if value is None:
            return default
        if value not in allowed:
            raise QueryError(name, f"must be one of {', '.join(allowed)}", "one_of", {"allowed": list(allowed)})
        return value

    def number(self, name: str, low: float, high: float, default: float | None = None) -> float | None:
        value = self.raw(name)
        if value is None:
            return default
        text = value.strip(_SPACES)
        if not _NUMBER.fullmatch(text):
            raise QueryError(name, f"must be a number from {_fmt(low)} to {_fmt(high)}", "number_range",
                                 {"low": low, "high": high})
        number = float(text)
        if not (math.isfinite(number) and low <= number <= high):
            raise QueryError(name, f"must be a number from {_fmt(low)} to {_fmt(high)}", "number_range",
                                 {"low": low, "high": high})
        return number

    def integer(self, name: str, low: int, high: int, default: int | None = None) -> int | None:
        value = self.raw(name)
        if value is None:
            return default
        text = value.strip(_SPACES)
        if not _INTEGER.fullmatch(text) or not low <= int(text) <= high:
            raise QueryError(name, f"must be a whole number from {low} to {high}", "whole_number_range",
                             {"low": low, "high": high})
        return int(text)

    def date(self, name: str, low_year: int = 1900, high_year: int = 2100) -> date | None:
        value = self.raw(name)
        if value is None:
            return None
        try:
            if not _DATE.fullmatch(value):
                raise ValueError
            parsed = date.fromisoformat(value)
        except ValueError:
            raise QueryError(name, "must be a date YYYY-MM-DD", "date_format") from None
        if not low_year <= parsed.year <= high_year:
            raise QueryError(name, f"must be a date in the years {low_year} to {high_year}", "date_years",
                             {"low": low_year, "high": high_year})
        return parsed

    def finish(self) -> None:
        """Refuse any parameter that was never read."""
        unknown = sorted(set(self._values) - self._read)
        if unknown:
            raise QueryError(unknown[0], "is not a parameter of this endpoint", "unknown_parameter")


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
