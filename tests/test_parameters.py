"""One declaration per parameter: the OpenAPI document and the checks come from the same place.

Reference: the served /v1/openapi.json.  For every operation, every documented numeric bound
is probed over HTTP on a query that is otherwise valid: the bound itself is accepted, one step
beyond it is a 400 naming the parameter; every documented enum value is accepted and a value
outside the enum refused; a string one character over maxLength is refused.  A parameter the
document does not list is refused too.  So a drift like the old `offsets` (maxLength 200
documented, 120 enforced) fails here.
"""
from __future__ import annotations

import pytest
from conftest import assert_bad_request

from generator.api import ENDPOINTS

# An otherwise valid query per operation, into which one parameter at a time is probed.
BASE = {
    "prayer-times": {"lat": "35.69", "lng": "51.39", "date": "2026-03-20"},
    "methods": {},
    "mosques": {},
    "qibla": {"lat": "35.69", "lng": "51.39"},
    "cities": {"q": "karbala"},
    "hijri": {"date": "2026-03-20"},
    "moon-visibility": {"hy": "1447", "hm": "9"},
    "moon-visibility.svg": {"hy": "1447", "hm": "9"},
    "events": {},
    "eclipses": {},
    "day-status": {"date": "2026-03-20"},
    "openapi.json": {},
    "events.ics": {},
    "prayer-times.ics": {"city": "karbala"},
    "fasting.ics": {},
    "night.ics": {"city": "karbala"},
}
# Parameters whose probe needs a companion to be valid on its own (a rule across fields).
COMPANIONS = {
    ("prayer-times", "fajrAngle"): {"method": "custom", "ishaAngle": "14"},
    ("prayer-times", "ishaAngle"): {"method": "custom", "fajrAngle": "16"},
    ("prayer-times", "ishaInterval"): {"method": "custom", "fajrAngle": "16"},
    ("prayer-times", "maghribAngle"): {"method": "custom", "fajrAngle": "16", "ishaAngle": "14"},
    ("prayer-times", "maghribInterval"): {"method": "custom", "fajrAngle": "16", "ishaAngle": "14"},
    ("prayer-times", "month"): {"year": "2026"},
    ("prayer-times", "year"): {"month": "3"},
    ("hijri", "month"): {"year": "2026"},
    ("hijri", "hm"): {"hy": "1447"},
    ("hijri", "hy"): {"hm": "9"},
    ("hijri", "hd"): {"hy": "1447", "hm": "9"},
    ("events", "upcoming"): {},
    ("day-status", "method"): {"city": "karbala"},
    ("events", "offset"): {"upcoming": "3"},  # an offset moves dated events only  # a method bounds a place's nights and maghrib
    ("moon-visibility", "hy"): {"hm": "9"},
    ("moon-visibility", "hm"): {"hy": "1447"},
    ("moon-visibility.svg", "hy"): {"hm": "9"},
    ("moon-visibility.svg", "hm"): {"hy": "1447"},
}
# Jamaat (issue 20): a weekly hold needs a minutes-after rule, a reckoning an Eid slot (or ramadan=1 in the feed).
for _name in ("prayer-times", "prayer-times.ics"):
    COMPANIONS[_name, "jamaatWeekly"] = {"jamaat": "fajr:20"}
    COMPANIONS[_name, "jamaatNotice"] = {"jamaat": "fajr:20"}  # issue 28: a notice of changes needs jamaat times
    COMPANIONS[_name, "calendar"] = {"eid": "07:30", **({"tz": "Asia/Tehran"} if _name == "prayer-times" else {})}
COMPANIONS["cities", "limit"] = {"lat": "35.69", "lng": "51.39"}  # the nearest cities (issue 35)
COMPANIONS["prayer-times.ics", "midnight"] = {"prayers": "fajr,midnight"}  # the prayer feed shows them if asked
COMPANIONS["prayer-times.ics", "imsak"] = {"prayers": "imsak,fajr"}
BASE["prayer-times.csv"] = BASE["prayer-times"]
_CUSTOM = {p: q for (name, p), q in COMPANIONS.items() if name == "prayer-times" and "method" in q}
COMPANIONS.update({("prayer-times.csv", p): q for (name, p), q in list(COMPANIONS.items()) if name == "prayer-times"})
COMPANIONS.update({(feed, p): q for feed in ("prayer-times.ics", "night.ics") for p, q in _CUSTOM.items()})
# Enum values that need companions to be valid (method=custom needs its angles).
VALUE_COMPANIONS = {("method", "custom"): {"fajrAngle": "16", "ishaAngle": "14"}}
# Fields that replace what the base query gives (they exclude each other).
REPLACES = {"date": ("year", "month", "hy", "hm", "hd"), "year": ("date",), "month": ("date",), "hy": ("date",),
            "hm": ("date",), "hd": ("date",), "lat": ("city",), "lng": ("city",), "city": ("lat", "lng"),
            "upcoming": ("hy",), "offset": ("hy", "hm", "hd"), "all": ("q",)}
# Bounds whose other side is a rule across fields, not the declaration (checked elsewhere).
SKIP = {("hijri", "hd", 30)}  # a month of 29 days refuses hd=30: tests/test_hijri_api.py


def _operations(document: dict):
    names = {e.name for e in ENDPOINTS}  # the endpoints' GETs (the hosted profiles' writes: test_hosted_mosques)
    for path, item in document["paths"].items():
        if path[1:] not in names:
            continue
        for parameter in item["get"]["parameters"]:
            yield path[1:], parameter


def _query(name: str, parameter: str, value: str) -> dict:
    query = {k: v for k, v in BASE[name].items() if k not in REPLACES.get(parameter, ()) and k != parameter}
    if parameter in ("lat", "lng") and name in BASE and "city" in BASE[name]:
        return None  # the feeds take a city; coordinates are not theirs to probe here
    query.update(COMPANIONS.get((name, parameter), {}))
    if parameter == "lat":
        query.setdefault("lng", "51.39")
    if parameter == "lng":
        query.setdefault("lat", "35.69")
    query[parameter] = value
    return query


def _number(x) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def test_every_endpoint_is_documented_with_the_declared_parameters(client):
    from generator.api import mosque_edits

    document = client.get("/v1/openapi.json").json()
    names = [e.name for e in ENDPOINTS]
    assert [path[1:] for path in document["paths"] if path[1:] in names] == names
    # Besides the endpoints: the hosted mosque profiles' operations (issue 27), and nothing else.
    assert {path for path in document["paths"] if path[1:] not in names} == set(mosque_edits.PATHS) - {"/mosques"}
    for endpoint in ENDPOINTS:
        documented = [p["name"] for p in document["paths"][f"/{endpoint.name}"]["get"]["parameters"]]
        assert documented == [p.name for p in endpoint.parameters], endpoint.name


def test_every_reader_gives_none_for_an_absent_name():
    """params.read asks a reader only for names the query carries; that is right only while
    every reader of every endpoint answers None (absent) for a query without its name."""
    from generator.query import Query

    assert [(e.name, p.name) for e in ENDPOINTS for p in e.parameters if p.read(Query([])) is not None] == []


def test_every_documented_bound_is_the_enforced_one(client):
    document = client.get("/v1/openapi.json").json()
    probed = 0
    for name, parameter in _operations(document):
        schema, pname = parameter["schema"], parameter["name"]
        if "minimum" in schema:
            step = 1 if schema["type"] == "integer" else 0.5
            for bound, beyond in ((schema["minimum"], schema["minimum"] - step), (schema["maximum"], schema["maximum"] + step)):
                if (name, pname, bound) in SKIP:
                    continue
                query = _query(name, pname, _number(bound))
                if query is None:
                    continue
                ok = client.get(f"/v1/{name}", params=query)
                assert ok.status_code == 200, (name, query, ok.text[:200])
                assert_bad_request(client.get(f"/v1/{name}", params={**query, pname: _number(beyond)}), pname)
                probed += 2
        if "enum" in schema:
            for value in schema["enum"]:
                query = _query(name, pname, str(value))
                if query is None:
                    continue
                query.update(VALUE_COMPANIONS.get((pname, str(value)), {}))
                response = client.get(f"/v1/{name}", params=query)
                assert response.status_code == 200, (name, query, response.text[:200])
                probed += 1
            query = _query(name, pname, "not-a-choice")
            if query is not None:
                assert_bad_request(client.get(f"/v1/{name}", params=query), pname)
        if "maxLength" in schema:
            query = _query(name, pname, "x" * (schema["maxLength"] + 1))
            if query is not None:
                assert_bad_request(client.get(f"/v1/{name}", params=query), pname)
                probed += 1
    assert probed > 100, probed


@pytest.mark.parametrize("endpoint", [e.name for e in ENDPOINTS])
def test_an_undocumented_parameter_is_refused(client, endpoint):
    assert_bad_request(client.get(f"/v1/{endpoint}", params={**BASE[endpoint], "colour": "green"}), "colour")
