"""Issue 34's abuse items on the hosted mosque profiles: the sweep's 500s, the smaller refusals, writes only from
the service's own origin, IPv6 clients by their /64, bounded storage, and edit links (rotate, named, revoked).

References, named in each test: the outside report ../shared/reference/reliability_2026-11-28/REPORT.md (each
defect as it was found there); RFC 9110 (§13.1.1 If-Match: the strong comparison; §11.1: an authentication scheme
is case-insensitive); the Fetch standard (CORS: a cross-origin request carries Origin); RFC 4291 §2.5.4 (a global
unicast address's interface identifier is its last 64 bits); Unicode's General Categories (Cf, Zs) and its
Default_Ignorable_Code_Point property, restated here as explicit code points.
"""
from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.prayer import mosques
from generator.site import responses
from runtime import hosted, mosque_store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_hosted_mosques import _auth, _bad, _create, profile  # noqa: E402  (the same helpers and fixture profile)

# The report's profile (section G, 7 of 649 generated profiles): accepted with 201, its page, screen and widget 500.
TORONTO_NEVER_WITHIN = {
    "names": {"en": "Never within"}, "place": {"city": "toronto"}, "reckoning": "moonsighting", "languages": ["en"],
    "times": {"method": "IslamicCentreOfEngland", "highLatitudeRule": "middleOfNight"},
    "jamaat": {"jamaat": "fajr:166,dhuhr:18:28", "eid": "10:30", "jamaatDst": "asr:70,maghrib:10:49,dhuhr:18:12"},
    "sources": [{"about": "a test", "url": "https://example.org/", "read": "2026-11-28"}]}


@pytest.fixture
def api(tmp_path, monkeypatch):
    """The app (in process) on a fresh SQLite store, with fresh per-client buckets; the previous store put back."""
    from runtime.app import app

    monkeypatch.setattr(hosted, "creations", hosted.HourlyBucket(1000))
    monkeypatch.setattr(hosted, "edits", hosted.HourlyBucket(1000))
    previous = hosted._store
    store = mosque_store.open_store("", tmp_path / "mosques.sqlite3")
    hosted.open_store(store)
    responses._body.cache_clear()
    yield TestClient(app), store
    responses._body.cache_clear()
    store.close()
    if previous is not None:
        hosted.open_store(previous)
    else:
        hosted.close_store()


# ------------------------------------------------------------------ the sweep's 500s

def test_a_profile_is_checked_in_the_years_it_is_served_not_2000(api, monkeypatch):
    """REPORT.md section G: the creation check read the year 2000 only, where this rule happens to fit (Toronto's
    clock rules and the Hijri dates of that year), so the profile was accepted and its pages then failed in every
    year served.  Now it is a 400 naming the jamaat field, and nothing is stored; the same profile still passes a
    check of the year 2000 alone (the old check, reproduced by narrowing the window to that year)."""
    from generator.api import mosque_list

    client, store = api
    response = client.post("/v1/mosques", json=TORONTO_NEVER_WITHIN)
    _bad(response, "jamaat.jamaat")
    assert "never within its prayer's time" in response.json()["error"]
    assert store.ids() == []
    mosque = mosques.parse(TORONTO_NEVER_WITHIN, "abcdefghijklm", "body")
    with monkeypatch.context() as patch:
        patch.setattr(mosque_list, "CHECK_YEARS_AROUND", 0)
        mosque_list.check_one(mosque, datetime(2000, 7, 1, tzinfo=timezone.utc).timestamp())  # 2000 alone: passes
    with pytest.raises(mosques.ProfileError):
        mosque_list.check_one(mosque, datetime(2026, 11, 28, tzinfo=timezone.utc).timestamp())


@pytest.mark.parametrize("from_date", ["9999-01-02", "9999-12-31", "0001-01-01"])
def test_salahapi_csv_far_dates_are_400_not_500(api, from_date):
    """REPORT.md section G: fromDate 9999-01-02 or later was a 500 (OverflowError past date.max), file profiles
    too; the API's range is 1900-2100, so any such date is a 400 naming fromDate."""
    client, _ = api
    for mosque_id in ("jaffari-toronto", _create(client)["id"]):
        _bad(client.get(f"/v1/mosques/{mosque_id}/salahapi.csv", params={"fromDate": from_date}), "fromDate")


def test_a_stored_profile_that_no_longer_reads_gets_error_pages_not_500(api):
    """REPORT.md section G: the pages turned the endpoints' refusal into a 500.  A profile stored before the check
    read the served years (written to the store directly, as it was then accepted) now gets 400 pages and 400
    answers, never a 5xx, on its page, screen and widget."""
    client, store = api
    mosque_id, _, _ = store.create(json.dumps(TORONTO_NEVER_WITHIN))
    for path in (f"/mosque/{mosque_id}/", f"/screen/?mosque={mosque_id}", f"/widget/?mosque={mosque_id}",
                 f"/v1/prayer-times?mosque={mosque_id}"):
        response = client.get(path)
        assert response.status_code == 400, (path, response.status_code)
