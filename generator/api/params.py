"""One declaration per query parameter: how it is read and checked, and how OpenAPI shows it.

A `Param` carries the name, the JSON-schema type with its range or choices, the default,
a description and an example.  `read()` checks a request's query against an endpoint's
declarations (in order) and refuses every name not declared (`Query.finish`); the OpenAPI
document lists the same declarations (`Param.openapi`), so what is documented is what is
enforced (tests/test_parameters.py probes every documented bound).  Rules that involve
several fields (lat needs lng, hd within the month's length) stay in each endpoint's
``canonical`` function.

``keep_default`` says whether a default is written into the canonical key (and so into
the static file name): True for the parameters the SPEC's first version keyed that way,
False for every option added since, so that an option left at its default keeps every
existing answer and file name.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from generator.errors import QueryError
from generator.query import MAX_VALUE_CHARS, Query

Reader = Callable[[Query, str], Any]  # (query, name) -> the checked value, or None when absent


@dataclass(frozen=True)
class Param:
    """A query parameter: its check (`reader`) and its OpenAPI description (`schema`)."""

    name: str
    schema: Mapping[str, Any]
    reader: Reader
    description: str
    default: Any = None
    example: Any = None
    required: bool = False  # a query without it is refused, naming it
    keep_default: bool = True

    def read(self, query: Query) -> Any:
        return self.reader(query, self.name)

    def openapi(self) -> dict:
        schema = dict(self.schema)
        if self.default is not None:
            schema["default"] = self.default
        out = {"name": self.name, "in": "query", "required": self.required, "description": self.description,
               "schema": schema}
        if self.example is not None:
            out["example"] = self.example
        return out

    def but(self, **changes: Any) -> "Param":
        """Return this declaration with some fields changed (e.g. a description for one endpoint)."""
        return dataclasses.replace(self, **changes)


class Values(dict):
    """The checked values of one query by name: given ones, else the declared defaults (or None).

    ``given`` holds the names the query actually carried, for rules such as "offset applies
    to forward conversion only"; ``supplied`` those of them a mosque profile filled in
    (`generator.api.mosques.fill`): an option a profile sets that moves nothing in an answer is
    left out, where the same option in a query is refused.
    """

    def __init__(self, values: Mapping[str, Any], given: Iterable[str], supplied: Iterable[str] = ()):
        super().__init__(values)
        self.given = frozenset(given)
        self.supplied = frozenset(supplied)


def read(query: Query, parameters: Sequence[Param], refused: Mapping[str, str] | None = None) -> Values:
    """Check ``query`` against the declarations; refuse undeclared names (``refused`` gives reasons)."""
    for name, reason in (refused or {}).items():
        if query.has(name):
            raise QueryError(name, reason)
    values, given = {}, []
    for param in parameters:
        # A reader gives None for an absent name (tests/test_parameters.py checks every one), so
        # only the names the query carries are read: a query names a few of up to 20 parameters.
        value = param.read(query) if query.has(param.name) else None
        if value is not None:
            given.append(param.name)
        elif param.required:
            raise QueryError(param.name, "required: " + param.description[:1].lower() + param.description[1:], "required")
        values[param.name] = param.default if value is None else value
    query.finish()
    return Values(values, given)


def drop_defaults(params: Mapping[str, Any], parameters: Sequence[Param]) -> dict[str, Any]:
    """Return canonical params sorted by name, without the defaults that are not part of the key."""
    dropped = {p.name for p in parameters if not p.keep_default and params.get(p.name, p) == p.default}
    return {name: params[name] for name in sorted(params) if name not in dropped}


# --- declarations by type -----------------------------------------------------------------------


def number(name: str, low: float, high: float, description: str, **extra: Any) -> Param:
    """A decimal number in [low, high]."""
    return Param(name, {"type": "number", "minimum": low, "maximum": high},
                 lambda q, n: q.number(n, low, high), description, **extra)


def integer(name: str, low: int, high: int, description: str, **extra: Any) -> Param:
    """A whole number in [low, high]."""
    return Param(name, {"type": "integer", "minimum": low, "maximum": high},
                 lambda q, n: q.integer(n, low, high), description, **extra)


def choice(name: str, choices: Sequence[str], description: str, *, fold_case: bool = False, **extra: Any) -> Param:
    """One of ``choices`` (exact spelling, or any letter case with ``fold_case``)."""
    allowed = tuple(choices)
    by_folded = {c.casefold(): c for c in allowed}

    def reader(query: Query, name: str) -> str | None:
        value = query.raw(name)
        if value is None:
            return None
        canonical = by_folded.get(value.casefold()) if fold_case else (value if value in allowed else None)
        if canonical is None:
            raise QueryError(name, f"must be one of {', '.join(allowed)}", "one_of", {"allowed": list(allowed)})
        return canonical

    return Param(name, {"type": "string", "enum": list(allowed)}, reader, description, **extra)


def integer_choice(name: str, choices: Sequence[int], description: str, **extra: Any) -> Param:
    """One of a few whole numbers (e.g. a grid resolution)."""
    allowed = tuple(str(c) for c in choices)

    def reader(query: Query, name: str) -> int | None:
        value = query.choice(name, allowed)
        return None if value is None else int(value)

    return Param(name, {"type": "integer", "enum": list(choices)}, reader, description, **extra)


def text(name: str, max_chars: int, description: str, *, min_chars: int = 0, **extra: Any) -> Param:
    """Free text up to ``max_chars`` characters (its meaning is checked by the endpoint's rules)."""
    schema = {"type": "string", "maxLength": max_chars, **({"minLength": min_chars} if min_chars else {})}
    return Param(name, schema, lambda q, n: q.string(n, max_chars=max_chars), description, **extra)


DATE_SCHEMA = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}


def day(name: str, description: str, **extra: Any) -> Param:
    """A civil date YYYY-MM-DD within 1900–2100."""
    return Param(name, DATE_SCHEMA, lambda q, n: q.date(n), description, **extra)


def custom(name: str, schema: Mapping[str, Any], reader: Reader, description: str, **extra: Any) -> Param:
    """A parameter with its own reader (a list syntax, a pattern); ``schema`` must say the same."""
    return Param(name, schema, reader, description, **extra)


def pattern_reader(regex: str, message: str, max_chars: int = MAX_VALUE_CHARS) -> Reader:
    """Return a reader that accepts values matching ``regex`` in full."""
    compiled = re.compile(regex, re.ASCII)

    def reader(query: Query, name: str) -> str | None:
        value = query.string(name, max_chars=max_chars)
        if value is not None and not compiled.fullmatch(value):
            raise QueryError(name, message)
        return value

    return reader


# --- name:minutes lists (tune, offsets) ----------------------------------------------------------

_MINUTES_ITEM = re.compile(r"\s*([A-Za-z]+)\s*:\s*([+-]?\d{1,4})\s*", re.ASCII)


def read_minutes(raw: str | None, parameter: str, names: Sequence[str], low: int, high: int, *,
                 item: str, example: str, keep_zeros: bool) -> str | None:
    """Return the canonical ``name:minutes,…`` list of a query value, or None when it names none.

    Grammar: pairs separated by commas; a name of ``names`` (any case), each at most once; whole
    minutes ``low``..``high`` with an optional sign; spaces around items allowed (an unencoded
    ``+`` arrives as a space).  Canonical: lower case, in the order of ``names``, no ``+``, zeros
    dropped unless ``keep_zeros``.  Errors name ``parameter``; ``item`` is what a name is called
    in them (prayer, time) and ``example`` a valid value.
    """
    if raw is None or not raw.strip():
        return None
    found: dict[str, int] = {}
    for part in raw.split(","):
        match = _MINUTES_ITEM.fullmatch(part)
        if match is None:
            raise QueryError(parameter, f"must be {item}:minutes pairs separated by commas, e.g. {example}")
        name, minutes = match.group(1).lower(), int(match.group(2))
        if name not in names:
            raise QueryError(parameter, f"unknown {item} {name[:20]!r}; one of {', '.join(names)}")
        if name in found:
            raise QueryError(parameter, f"{name} given more than once", "name_repeated", {"name": name})
        if not low <= minutes <= high:
            raise QueryError(parameter, f"minutes for {name} must be a whole number from {low} to {high}", "minutes_range",
                             {"name": name, "low": low, "high": high})
        found[name] = minutes
    return ",".join(f"{name}:{found[name]}" for name in names if name in found and (keep_zeros or found[name])) or None


def minutes_of(canonical: str | None) -> dict[str, int]:
    """Return {name: minutes} of a canonical `read_minutes` value."""
    if not canonical:
        return {}
    return {name: int(minutes) for name, minutes in (item.split(":") for item in canonical.split(","))}
