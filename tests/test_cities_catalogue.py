"""The city catalogue (data/cities.csv): shape, scripts, zones, and zones against timezonefinder."""
from __future__ import annotations

import re
import zoneinfo

import pytest

from generator.places import cities

ARABIC_SCRIPT_ONLY = re.compile(r"^[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF\u200c\s\-()']+$")
# Zones timezonefinder 9.0.0 answers differently for a reason (data/CITIES.md).
TIMEZONEFINDER_EXCEPTIONS: dict[str, str] = {}


def test_exactly_348_cities_with_unique_slug_ids():
    catalogue = cities.load()
    assert len(catalogue) == 348
    ids = [c["id"] for c in catalogue]
    assert len(set(ids)) == 348
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)


def test_city_shape_and_names():
    for city in cities.load():
        assert set(city) == {"id", "names", "country", "lat", "lng", "tz"}
        assert re.fullmatch(r"[A-Z]{2}", city["country"])
        assert -90 <= city["lat"] <= 90 and -180 <= city["lng"] <= 180
        assert set(city["names"]) == {"en", "ar", "fa", "ur"} and all(city["names"].values())
        for lang in ("ar", "fa", "ur"):
            assert ARABIC_SCRIPT_ONLY.match(city["names"][lang]), (city["id"], lang, city["names"][lang])


def test_every_zone_is_a_zoneinfo_key():
    for city in cities.load():
        zoneinfo.ZoneInfo(city["tz"])


def test_zones_agree_with_timezonefinder():
    """Peer: timezonefinder 9.0.0 (PyPI), polygon lookup of each city's coordinates."""
    timezonefinder = pytest.importorskip("timezonefinder")
    finder = timezonefinder.TimezoneFinder()
    disagreements = {}
    for city in cities.load():
        found = finder.timezone_at(lng=city["lng"], lat=city["lat"])
        if found != city["tz"] and TIMEZONEFINDER_EXCEPTIONS.get(city["id"]) != found:
            disagreements[city["id"]] = (city["tz"], found)
    assert not disagreements


def test_required_shrine_and_capital_cities_are_present():
    ids = set(cities.by_id())
    for required in ("karbala", "najaf", "mashhad", "qom", "tehran", "london", "kadhimiya", "samarra", "medina", "mecca",
                     "baghdad", "beirut", "manama", "islamabad", "kabul", "baku", "damascus", "sanaa", "cairo", "jakarta"):
        assert required in ids, required


def test_every_other_spelling_finds_its_city_first_and_names_no_other():
    """data/city_aliases.csv: an alias never equals (folded) another city's name or id, and a
    search for it puts its own city first."""
    from generator.places import city_search

    names: dict[str, set[str]] = {}
    for city in cities.load():
        for name in [*city["names"].values(), city["id"]]:
            names.setdefault(city_search.fold(name), set()).add(city["id"])
    aliases = cities.aliases()
    assert sum(len(spellings) for spellings in aliases.values()) >= 60
    for city_id, spellings in aliases.items():
        for spelling in spellings:
            assert names.get(city_search.fold(spelling), set()) <= {city_id}, spelling
            assert city_search.search(spelling)[0]["id"] == city_id, spelling


def test_ids_resolve_case_insensitively():
    assert cities.resolve("London") == "london" and cities.resolve("KUWAIT-CITY") == "kuwait-city"
    assert cities.resolve("Londres") is None
