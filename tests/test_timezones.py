"""Vectorised UTC offsets against Python's zoneinfo applied instant by instant (tzdata 2026.6)."""
from __future__ import annotations

import zoneinfo
from datetime import datetime, timezone

import numpy as np
import pytest

from generator.places import timezones

ZONES = ["Europe/London", "Asia/Tehran", "America/New_York", "Australia/Sydney", "Africa/Casablanca",
         "America/Santiago", "Asia/Baghdad", "Europe/Moscow", "Pacific/Apia", "Asia/Kolkata", "America/St_Johns",
         "Australia/Lord_Howe", "Asia/Jerusalem", "Africa/Cairo", "Pacific/Chatham"]


@pytest.mark.parametrize("name", ZONES)
def test_offsets_equal_zoneinfo_for_random_instants_1900_to_2100(name):
    rng = np.random.default_rng(sum(map(ord, name)))
    start = int(datetime(1900, 1, 1, tzinfo=timezone.utc).timestamp())
    end = int(datetime(2100, 12, 31, tzinfo=timezone.utc).timestamp())
    instants = np.sort(rng.integers(start, end, 3000))
    zone = zoneinfo.ZoneInfo(name)
    expected = [datetime.fromtimestamp(int(t), timezone.utc).astimezone(zone).utcoffset().total_seconds() for t in instants]
    # split into year-long chunks as the service uses it
    got = np.concatenate([timezones.utc_offsets_s(name, chunk) for chunk in np.array_split(instants, 200)])
    assert (got == np.array(expected)).all()


def test_offsets_around_each_transition_of_a_year_are_exact():
    zone = zoneinfo.ZoneInfo("Europe/London")
    instants = np.arange(int(datetime(2026, 3, 29, 0, 0, tzinfo=timezone.utc).timestamp()),
                         int(datetime(2026, 3, 29, 2, 0, tzinfo=timezone.utc).timestamp()), 60)
    expected = [datetime.fromtimestamp(int(t), timezone.utc).astimezone(zone).utcoffset().total_seconds() for t in instants]
    assert (timezones.utc_offsets_s("Europe/London", instants) == expected).all()


def test_only_known_zone_keys_are_valid():
    assert timezones.is_valid("Asia/Tehran")
    for bad in ("", "../../etc/passwd", "/etc/localtime", "Asia/Tehran/..", "asia/tehran", "UTC\n"):
        assert not timezones.is_valid(bad)


def test_zone_names_resolve_case_insensitively_from_the_pinned_tzdata_only():
    """IANA keys are case-sensitive, but no two tzdata keys differ only in case, so a folded
    match is unambiguous; keys only the host's /usr/share/zoneinfo has are refused."""
    assert timezones.canonical_zone("utc") == "UTC"
    assert timezones.canonical_zone("asia/tehran") == "Asia/Tehran"
    assert timezones.canonical_zone("AMERICA/ARGENTINA/BUENOS_AIRES") == "America/Argentina/Buenos_Aires"
    for host_only in ("localtime", "posix/UTC", "right/UTC", "posixrules", "Factory", "factory", "zone.tab"):
        assert timezones.canonical_zone(host_only) is None, host_only
    with pytest.raises(zoneinfo.ZoneInfoNotFoundError):
        zoneinfo.ZoneInfo("localtime")  # the host's files are off zoneinfo's search path


@pytest.mark.parametrize("zone", ["Europe/London", "America/Toronto", "Australia/Lord_Howe", "America/Santiago",
                                  "Asia/Tehran", "Africa/Casablanca"])
def test_wall_clock_to_instant_follows_rfc_5545_around_every_change(zone):
    """Reference: zoneinfo with fold=0, which is RFC 5545 3.3.5's reading of a local time (a skipped time takes
    the offset before the gap, a repeated one its first occurrence): every minute within 3 h of each change of
    offset in 1980, 2007, 2021 and 2026 (half-hour changes at Lord Howe, midnight changes at Santiago and Tehran)."""
    import numpy as np
    from datetime import datetime as dt, timedelta as td
    from zoneinfo import ZoneInfo

    tz, checked = ZoneInfo(zone), 0
    for year in (1980, 2007, 2021, 2026):
        start = dt(year, 1, 1)
        offsets = [tz.utcoffset(start + td(hours=h)) for h in range(0, 366 * 24, 1)]
        changes = [start + td(hours=h) for h in range(1, len(offsets)) if offsets[h] != offsets[h - 1]]
        walls = [c + td(minutes=m) for c in changes for m in range(-180, 181)]
        expected = [int(w.replace(tzinfo=tz, fold=0).timestamp()) for w in walls]
        got = timezones.wall_to_utc_s(zone, np.array([int((w - dt(1970, 1, 1)).total_seconds()) for w in walls]))
        assert got.tolist() == expected
        checked += len(walls)
    assert checked > 1000
