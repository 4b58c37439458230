"""The sixteen methods (and the extensions ImamAliFoundation, Fadlallah): every preset's numbers pinned to the reference
table, and /v1/methods.

Source of the numbers: shared/reference/methods.md §1 (adhan-js CalculationMethod.ts,
praytimes.org, the Aladhan engine), which data/methods.json must reproduce.
"""
from __future__ import annotations

import re

import pytest

from generator.prayer.methods import METHODS

SPEC_IDS = ["Tehran", "Jafari", "SheikhKalbasi", "IslamicCentreOfEngland", "AlKhoeiFoundation", "MuslimWorldLeague",
            "Egyptian", "Karachi", "UmmAlQura", "Dubai", "MoonsightingCommittee", "NorthAmerica", "Kuwait", "Qatar",
            "Singapore", "Turkey"]

# id: (fajr°, isha° or None, isha interval min or None, maghrib° or None, adjustments, rounding)
PUBLISHED = {
    "Tehran": (17.7, 14, None, 4.5, {}, "nearest"),
    "Jafari": (16, 14, None, 4, {}, "nearest"),
    "MuslimWorldLeague": (18, 17, None, None, {"dhuhr": 1}, "nearest"),
    "Egyptian": (19.5, 17.5, None, None, {"dhuhr": 1}, "nearest"),
    "Karachi": (18, 18, None, None, {"dhuhr": 1}, "nearest"),
    "UmmAlQura": (18.5, None, 90, None, {}, "nearest"),
    "Dubai": (18.2, 18.2, None, None, {"sunrise": -3, "dhuhr": 3, "asr": 3, "maghrib": 3}, "nearest"),
    "MoonsightingCommittee": (18, 18, None, None, {"dhuhr": 5, "maghrib": 3}, "nearest"),
    "NorthAmerica": (15, 15, None, None, {"dhuhr": 1}, "nearest"),
    "Kuwait": (18, 17.5, None, None, {}, "nearest"),
    "Qatar": (18, None, 90, None, {}, "nearest"),
    "Singapore": (20, 18, None, None, {"dhuhr": 1}, "up"),
    "Turkey": (18, 17, None, None, {"sunrise": -7, "dhuhr": 5, "asr": 4, "maghrib": 7}, "nearest"),
}


@pytest.mark.parametrize("method_id", sorted(PUBLISHED))
def test_preset_numbers_match_the_published_parameters(method_id):
    fajr, isha, interval, maghrib, adjustments, rounding = PUBLISHED[method_id]
    m = METHODS[method_id]
    assert (m.fajr_angle_deg, m.isha_angle_deg, m.isha_interval_min, m.maghrib_angle_deg) == (fajr, isha, interval, maghrib)
    assert dict(m.adjustments_min) == adjustments and m.rounding == rounding


def test_special_rules_are_fields():
    assert METHODS["UmmAlQura"].isha_interval_ramadan_min == 120
    assert METHODS["MoonsightingCommittee"].high_latitude_rule == "moonsightingSeasonal"
    assert METHODS["IslamicCentreOfEngland"].maghrib_interval_min == 15  # ICE's own London timetable
    # the presets whose fitted dawn is bounded by half the night, as the Imam Ali Foundation's tables are
    assert [m for m in METHODS if METHODS[m].high_latitude_rule != "twilightAngle"] == [
        "IslamicCentreOfEngland", "MoonsightingCommittee", "ImamAliFoundation"]
    assert [m for m in METHODS if METHODS[m].extension] == ["ImamAliFoundation", "CaucasianMuslimsBoard", "Fadlallah"]


def test_community_presets_say_honestly_that_nothing_is_published():
    for method_id in ("SheikhKalbasi", "AlKhoeiFoundation"):
        assert "No published parameter set" in METHODS[method_id].description
        assert "No public definition found" in METHODS[method_id].source
    assert "publishes no isha" in METHODS["IslamicCentreOfEngland"].description
    assert "publishes no isha" in METHODS["ImamAliFoundation"].description


def test_methods_endpoint(client):
    response = client.get("/v1/methods")
    assert response.status_code == 200
    methods = response.json()["methods"]
    extensions = ["ImamAliFoundation", "CaucasianMuslimsBoard", "Fadlallah"]  # issue 19's and issue 37's
    assert [m["id"] for m in methods] == SPEC_IDS + extensions  # the SPEC's sixteen, then extensions
    assert [m["id"] for m in methods if m.get("extension") is True] == extensions
    assert [m["id"] for m in methods if m["default"] is True] == ["Tehran"]
    assert all(m["default"] is False for m in methods if m["id"] != "Tehran")
    arabic_script = re.compile(r"[\u0600-\u06FF]")
    for m in methods:
        assert set(m["label"]) == {"en", "ar", "fa", "ur"}
        assert all(m["label"][lang] for lang in m["label"])
        assert all(arabic_script.search(m["label"][lang]) for lang in ("ar", "fa", "ur")), m["id"]
        assert m["description"] and m["source"]


def test_methods_takes_no_parameters(client):
    assert client.get("/v1/methods?x=1").status_code == 400


def test_unknown_path_and_method_not_allowed_are_json(client):
    missing = client.get("/v1/nothing-here")
    assert missing.status_code == 404 and "error" in missing.json()
    post = client.post("/v1/methods")
    assert post.status_code == 405 and post.headers["allow"] == "GET, HEAD" and "error" in post.json()
    head = client.head("/v1/methods")
    assert head.status_code == 200 and head.headers["etag"] == client.get("/v1/methods").headers["etag"]
