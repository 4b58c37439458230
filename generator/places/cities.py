"""The curated city catalogue (data/cities.csv): ids, names in four languages, places, zones."""
from __future__ import annotations

import csv
import difflib
import functools
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

CITIES_PATH = Path(__file__).resolve().parents[2] / "data" / "cities.csv"
ALIASES_PATH = CITIES_PATH.with_name("city_aliases.csv")
LANGUAGES = ("en", "ar", "fa", "ur")


@functools.cache
def _catalogue() -> tuple[Mapping[str, object], ...]:
    with CITIES_PATH.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return tuple(
        MappingProxyType(
            {
                "id": row["id"],
                "names": MappingProxyType({lang: row[lang] for lang in LANGUAGES}),
                "country": row["country"],
                "lat": float(row["lat"]),
                "lng": float(row["lng"]),
                "tz": row["tz"],
            }
        )
        for row in rows
    )


def load() -> list[dict]:
    """Return the whole catalogue as a list of dicts in the SPEC 2.3 city shape."""
    return [{**city, "names": dict(city["names"])} for city in _catalogue()]


@functools.cache
def by_id() -> Mapping[str, Mapping[str, object]]:
    """Return an id → city mapping (read-only)."""
    return MappingProxyType({city["id"]: city for city in _catalogue()})


def resolve(city_id: str) -> str | None:
    """Return the catalogue id ``city_id`` names, case-insensitively (``London`` → ``london``), or None."""
    folded = city_id.casefold()
    return folded if folded in by_id() else None


@functools.cache
def aliases() -> Mapping[str, tuple[str, ...]]:
    """Return id → other spellings people search with (data/city_aliases.csv; not part of answers)."""
    with ALIASES_PATH.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    out: dict[str, tuple[str, ...]] = {}
    for row in rows:
        assert row["id"] in by_id(), row["id"]
        out[row["id"]] = out.get(row["id"], ()) + (row["spelling"],)
    return MappingProxyType(out)


def suggest(unknown_id: str, limit: int = 3) -> list[str]:
    """Return up to ``limit`` catalogue ids that look like ``unknown_id``."""
    return difflib.get_close_matches(unknown_id.lower()[:60], list(by_id()), n=limit, cutoff=0.6)
