"""Eclipses 2020–2040 against NASA's Five Millennium Canons, and GET /v1/eclipses.

# Compare with NASA: Espenak & Meeus, Five Millennium Canon of Solar Eclipses (NASA/TP-2006-214141),
# https://eclipse.gsfc.nasa.gov/SEcat5/SE2001-2100.html, and Five Millennium Canon of Lunar Eclipses
# (NASA/TP-2009-214172), https://eclipse.gsfc.nasa.gov/LEcat5/LE2001-2100.html — every row of 2020–2040
# is in tests/fixtures/eclipses_canon.csv (values verbatim, provenance in its header).

The canons give times in TD (= TT), so times are compared in TT; our UTC differs from the canon's
UT by the difference of ΔT (the canon extrapolated 72–85 s for 2020–2040, skyfield ~69 s).
"""
from __future__ import annotations

import csv
import json
import math
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from conftest import assert_bad_request

from generator.astronomy import besselian, eclipses, ephemeris
from generator.calendars import hijri
from generator.api import eclipses as api
from generator.api import render
from generator.errors import QueryError
from generator.query import Query

CANON = Path(__file__).resolve().parent / "fixtures" / "eclipses_canon.csv"
NASA_TYPES = {"P": "partial", "A": "annular", "T": "total", "H": "hybrid", "N": "penumbral"}

# Tolerances (the brief's, in the canon's units)
ONE_SECOND_DAYS = 1.0 / 86400.0
TIME_TOLERANCE_S = 30.0
GAMMA_TOLERANCE = 0.001  # Earth equatorial radii
MAGNITUDE_TOLERANCE = 0.005
POINT_TOLERANCE_DEG = 0.5
# The lunar canon rounds the zenith point to whole degrees: its own error is up to 0.5°,
# so ours may differ from it by 0.5° plus our error (0.1° covers ΔT: 15 s ≈ 0.06°).
LUNAR_POINT_TOLERANCE_DEG = 0.5 + 0.1
CENTRAL_DURATION_TOLERANCE_S = 2.0  # canon to the second
# Lunar phase durations (canon to 0.1 min).  A grazing contact stretches any error: the
# penumbral phase of 2027 Jul 18 (penumbral magnitude 0.0014) lasts 11.8 min and moves
# by ~0.8 min for a 1e-4 change in magnitude.
LUNAR_DURATION_TOLERANCE_MIN = 1.0


def _canon_rows() -> list[dict]:
    with CANON.open(encoding="utf-8") as handle:
        return list(csv.DictReader(line for line in handle if not line.startswith("#")))


ROWS = _canon_rows()


def _tt_jd(row: dict) -> float:
    y, m, d = (int(v) for v in row["date"].split("-"))
    hh, mm, ss = (int(v) for v in row["td"].split(":"))
    return float(ephemeris.timescale().tt(y, m, d, hh, mm, ss).tt)


def _signed_deg(text: str) -> float:
    """Return the canon's '25.3N' / '104.1W' as signed degrees (north and east positive)."""
    value = float(text[:-1])
    return -value if text[-1] in "SW" else value


def _minutes(text: str) -> float | None:
    return None if text == "-" else float(text)


@pytest.fixture(scope="module")
def table() -> tuple[eclipses.Eclipse, ...]:
    return eclipses.load()


def _match(records, row) -> eclipses.Eclipse:
    """Return our eclipse of the same kind nearest in time to a canon row (within a day)."""
    target = _tt_jd(row)
    same = [r for r in records if r.kind == row["kind"]]
    best = min(same, key=lambda r: abs(r.tt_jd - target))
    assert abs(best.tt_jd - target) < 1.0, f"no {row['kind']} eclipse near {row['date']}"
    return best


# --------------------------------------------------------------------------- against the canon


def test_fixture_holds_every_canon_eclipse_of_the_period():
    assert sum(r["kind"] == "solar" for r in ROWS) == 46  # catalogue numbers 09553..09598
    assert sum(r["kind"] == "lunar" for r in ROWS) == 49  # catalogue numbers 09694..09742
    assert [int(r["catalog"]) for r in ROWS if r["kind"] == "solar"] == list(range(9553, 9599))
    assert [int(r["catalog"]) for r in ROWS if r["kind"] == "lunar"] == list(range(9694, 9743))


def test_counts_per_kind_and_type_equal_the_canon(table):
    ours = {(r.kind, r.type) for r in table}
    for kind, kind_type in ours | {(r["kind"], NASA_TYPES[r["nasa_type"][0]]) for r in ROWS}:
        expected = sum(r["kind"] == kind and NASA_TYPES[r["nasa_type"][0]] == kind_type for r in ROWS)
        got = sum(r.kind == kind and r.type == kind_type for r in table)
        assert got == expected, (kind, kind_type)
    assert len(table) == len(ROWS) == 95


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['kind']}-{r['date']}" for r in ROWS])
def test_eclipse_matches_canon(table, row):
    ours = _match(table, row)
    assert ours.type == NASA_TYPES[row["nasa_type"][0]]
    assert abs(ours.tt_jd - _tt_jd(row)) <= TIME_TOLERANCE_S * ONE_SECOND_DAYS
    assert ours.gamma == pytest.approx(float(row["gamma"]), abs=GAMMA_TOLERANCE)
    assert ours.magnitude == pytest.approx(float(row["magnitude"]), abs=MAGNITUDE_TOLERANCE)
    lat, lon = _signed_deg(row["lat"]), _signed_deg(row["lon"])
    tolerance = POINT_TOLERANCE_DEG if row["kind"] == "solar" else LUNAR_POINT_TOLERANCE_DEG
    assert ours.greatest.lat == pytest.approx(lat, abs=tolerance)
    assert abs((ours.greatest.lon - lon + 180.0) % 360.0 - 180.0) <= tolerance
    # the canon prints the TD time to the second; our stored TT string agrees to rounding
    assert abs(_seconds_of_day(ours.tt) - _seconds_of_day(row["date"] + "T" + row["td"])) <= TIME_TOLERANCE_S

    if row["kind"] == "solar":
        central = row["central_duration"] not in ("", "-")
        assert ours.greatest.central is central
        assert ours.penumbral_mag == ours.magnitude
        if central:
            minutes, seconds = row["central_duration"].rstrip("s").split("m")
            canon_s = int(minutes) * 60 + int(seconds)
            assert ours.central_duration_min * 60 == pytest.approx(canon_s, abs=CENTRAL_DURATION_TOLERANCE_S)
        else:
            assert ours.central_duration_min is None
    else:
        # NASA marks central total lunar eclipses T+ / T- (the Moon's disc covers the shadow axis)
        assert ours.greatest.central is (row["nasa_type"][:2] in ("T+", "T-"))
        assert ours.penumbral_mag == pytest.approx(float(row["penumbral_mag"]), abs=MAGNITUDE_TOLERANCE)
        for phase, column in (("penumbral", "penumbral_min"), ("partial", "partial_min"), ("total", "total_min")):
            canon = _minutes(row[column])
            if canon is None:
                assert ours.durations_min[phase] is None, phase
            else:
                assert ours.durations_min[phase] == pytest.approx(canon, abs=LUNAR_DURATION_TOLERANCE_MIN), phase


def _seconds_of_day(iso: str) -> float:
    day, clock = iso.rstrip("Z").split("T")
    hh, mm, ss = (int(v) for v in clock.split(":"))
    return date.fromisoformat(day).toordinal() * 86400.0 + hh * 3600 + mm * 60 + ss


def test_records_are_finite_and_ordered(table):
    assert [r.tt_jd for r in table] == sorted(r.tt_jd for r in table)
    for r in table:
        numbers = [r.gamma, r.magnitude, r.penumbral_mag, r.greatest.lat, r.greatest.lon]
        numbers += [v for v in r.durations_min.values() if v is not None]
        assert all(math.isfinite(v) for v in numbers), r.utc
        assert -90 <= r.greatest.lat <= 90 and -180 <= r.greatest.lon < 180


def test_table_is_computed_not_typed(table):
    """Recomputing one month from the ephemeris reproduces the stored record exactly."""
    ts = ephemeris.timescale()
    first, last = float(ts.utc(2024, 4, 1).tt), float(ts.utc(2024, 4, 30).tt)
    (fresh,) = eclipses.solar_eclipses(first, last)
    (stored,) = [r for r in table if r.kind == "solar" and r.utc.startswith("2024-04-08")]
    assert eclipses.Eclipse.of(fresh) == stored


# --------------------------------------------------------------------------- Besselian elements


def test_besselian_elements_match_nasa_2024_apr_08():
    """Compare with NASA's polynomial Besselian elements of 2024 Apr 08 at t0 = 18:00 TDT
    (Five Millennium Canon of Solar Eclipses; eclipse.gsfc.nasa.gov/SEbeselm/SEbeselm2001/SE2024Apr08Tbeselm.html):
    x0 = -0.3182440, y0 = 0.2197640, d0 = 7.5862002°, μ0 = 89.5912170°, l1 = 0.5358140, l2 = -0.0102720,
    tan f1 = 0.0046683, tan f2 = 0.0046450.  NASA's μ is the "ephemeris" hour angle (UT taken equal to TT),
    ours the true one: they differ by 1.002738 × 15″ × ΔT.
    """
    t = ephemeris.timescale().tt(2024, 4, 8, 18)
    el = besselian.elements(np.array([t.tt]))
    mu_ephemeris = el.mu_deg[0] + besselian.EPHEMERIS_MU_DEG_PER_S * float(t.delta_t)
    assert el.x[0] == pytest.approx(-0.3182440, abs=2e-5)  # 2e-5 radii = 130 m
    assert el.y[0] == pytest.approx(0.2197640, abs=2e-5)
    assert el.d_deg[0] == pytest.approx(7.5862002, abs=1e-4)
    assert mu_ephemeris == pytest.approx(89.5912170, abs=1e-3)
    assert el.l1[0] == pytest.approx(0.5358140, abs=2e-5)
    assert el.l2[0] == pytest.approx(-0.0102720, abs=2e-5)
    assert el.tan_f1[0] == pytest.approx(0.0046683, abs=2e-7)  # published to 1e-7
    assert el.tan_f2[0] == pytest.approx(0.0046450, abs=2e-7)


def test_axis_surface_point_on_tiny_cases():
    # axis through the centre, pointing at the equator (d = 0): meets the surface at ζ = 1
    zeta, point = besselian.axis_surface_point(np.array([0.0]), np.array([0.0]), np.array([0.0]))
    assert zeta[0] == pytest.approx(1.0) and point[:, 0] == pytest.approx([1.0, 0.0, 0.0])
    # pointing at the pole (d = 90°): ζ is the polar radius 1 − f
    zeta, point = besselian.axis_surface_point(np.array([0.0]), np.array([0.0]), np.array([90.0]))
    assert zeta[0] == pytest.approx(1.0 - besselian.EARTH_FLATTENING) == point[2, 0]
    # an axis passing outside the Earth has no intersection
    zeta, point = besselian.axis_surface_point(np.array([1.1]), np.array([0.0]), np.array([0.0]))
    assert np.isnan(zeta).all() and np.isnan(point).all()


def test_limb_distance_accounts_for_flattening():
    # seen from the equator plane (d = 0) the outline's north-south semi-axis is 1 − f
    distance, point = besselian.limb_closest_point(np.array([0.0, 1.2]), np.array([1.2, 0.0]), np.array([0.0, 0.0]))
    assert distance == pytest.approx([1.2 - (1.0 - besselian.EARTH_FLATTENING), 0.2])
    lat, _ = besselian.geodetic(point, np.array([0.0, 0.0]))
    assert lat == pytest.approx([90.0, 0.0], abs=1e-9)


def test_crossings_interpolate_between_samples():
    tau = np.arange(0.0, 10.0)
    f = np.array([[3.0, 1.0, -1.0, -3.0, -3.0, -1.0, 1.0, 3.0, 3.0, 3.0]])
    first, last = eclipses._crossings(tau, f)
    assert (first[0], last[0]) == (1.5, 5.5)
    first, last = eclipses._crossings(tau, np.ones((1, 10)))
    assert np.isnan(first[0]) and np.isnan(last[0])


# --------------------------------------------------------------------------- GET /v1/eclipses

NOW_2024_04_01 = 1711929600.0  # 2024-04-01T00:00:00Z


def _parse(params: dict, now: float = NOW_2024_04_01):
    return api.ENDPOINT.parse(Query.of(params), now)


def _body(params: dict, now: float = NOW_2024_04_01) -> dict:
    return json.loads(render("eclipses", _parse(params, now).params))


def test_default_lists_everything_with_meta():
    body = _body({})
    assert body["meta"]["count"] == len(body["eclipses"]) == 95
    assert body["meta"]["counts"] == {"solar": 46, "lunar": 49}
    assert body["meta"]["coverage"] == {"from": "2020-01-01", "to": "2040-12-31"}
    assert body["meta"]["calendar"] == "moonsighting"
    first = body["eclipses"][0]
    assert list(first) == [
        "kind", "type", "utc", "tt", "gamma", "magnitude", "penumbralMag",
        "durationsMin", "centralDurationMin", "greatest", "hijri",
    ]  # fmt: skip
    assert first["utc"] == "2020-01-10T19:10:02Z"
    assert "daysUntil" not in first


def test_item_of_2024_apr_08(client):
    response = client.get("/v1/eclipses", params={"from": "2024-04-08", "to": "2024-04-08"})
    assert response.status_code == 200
    (item,) = response.json()["eclipses"]
    assert item["kind"] == "solar" and item["type"] == "total"
    assert item["utc"].startswith("2024-04-08T18:17:")  # NASA 18:18:29 TD, ΔT ≈ 69 s
    assert item["gamma"] == pytest.approx(0.3431, abs=GAMMA_TOLERANCE)
    assert item["greatest"]["central"] is True
    assert item["centralDurationMin"] == pytest.approx(4 + 28 / 60, abs=CENTRAL_DURATION_TOLERANCE_S / 60)
    dates = hijri.to_hijri(np.array([date(2024, 4, 8).toordinal() - 719163]), "moonsighting")
    assert item["hijri"] == {"hy": int(dates.year[0]), "hm": int(dates.month[0]), "hd": int(dates.day[0])}


@pytest.mark.parametrize("kind", ["solar", "lunar"])
def test_kind_filter(kind):
    body = _body({"kind": kind})
    assert body["eclipses"] and {e["kind"] for e in body["eclipses"]} == {kind}
    assert body["meta"]["filters"] == {"kind": kind}


@pytest.mark.parametrize("kind_type", eclipses.TYPES)
def test_type_filter(kind_type):
    body = _body({"type": kind_type})
    assert body["eclipses"] and {e["type"] for e in body["eclipses"]} == {kind_type}


def test_kind_and_type_together():
    body = _body({"kind": "lunar", "type": "total"})
    assert len(body["eclipses"]) == sum(r["kind"] == "lunar" and r["nasa_type"][0] == "T" for r in ROWS)


def test_from_to_years_and_dates():
    year = _body({"from": "2024", "to": "2024"})
    assert [e["utc"][:10] for e in year["eclipses"]] == ["2024-03-25", "2024-04-08", "2024-09-18", "2024-10-02"]
    assert year["meta"]["filters"] == {"from": "2024-01-01", "to": "2024-12-31"}
    dates = _body({"from": "2024-03-25", "to": "2024-09-18"})
    assert [e["utc"][:10] for e in dates["eclipses"]] == ["2024-03-25", "2024-04-08", "2024-09-18"]
    assert len(_body({"from": "2040-06-01"})["eclipses"]) == 2  # 2040 Nov 04 (S) and Nov 18 (L)
    assert len(_body({"to": "2020"})["eclipses"]) == 6


def test_upcoming_counts_from_today_with_days_until():
    canonical = _parse({"upcoming": "3", "kind": "solar"}, NOW_2024_04_01 + 7 * 86400 + 3600)  # 2024-04-08 01:00Z
    assert canonical.today_dependent is True
    assert canonical.params["today"] == "2024-04-08"
    body = json.loads(render("eclipses", canonical.params))
    assert [(e["utc"][:10], e["daysUntil"]) for e in body["eclipses"]] == [
        ("2024-04-08", 0),
        ("2024-10-02", 177),
        ("2025-03-29", 355),
    ]
    assert body["meta"]["today"] == "2024-04-08"
    # past the coverage: an empty list, not an error
    late = _body({"upcoming": "24"}, now=2240611200.0)  # 2041-01-01
    assert late["eclipses"] == [] and late["meta"]["count"] == 0


def test_build_is_pure_and_only_upcoming_follows_the_clock():
    assert _parse({"kind": "solar"}).today_dependent is False
    assert _parse({"kind": "solar"}, now=0.0) == _parse({"kind": "solar"}, now=2e9)
    params = _parse({"upcoming": "5"}).params
    assert render("eclipses", params) == render("eclipses", dict(params))


def test_calendar_changes_only_the_hijri_dates():
    moonsighting, iran = _body({"calendar": "moonsighting"}), _body({"calendar": "iran"})
    assert iran["meta"]["calendar"] == "iran"
    strip = [{k: v for k, v in e.items() if k != "hijri"} for e in moonsighting["eclipses"]]
    assert strip == [{k: v for k, v in e.items() if k != "hijri"} for e in iran["eclipses"]]
    for e in iran["eclipses"]:
        assert 1 <= e["hijri"]["hm"] <= 12 and 1 <= e["hijri"]["hd"] <= 30


@pytest.mark.parametrize(
    "params, parameter",
    [
        ({"kind": "comet"}, "kind"),
        ({"type": "annular-total"}, "type"),
        ({"kind": "solar", "type": "penumbral"}, "type"),
        ({"kind": "lunar", "type": "annular"}, "type"),
        ({"kind": "lunar", "type": "hybrid"}, "type"),
        ({"from": "24"}, "from"),
        ({"from": "2024-4-8"}, "from"),
        ({"from": "2024-02-30"}, "from"),
        ({"from": "2019"}, "from"),
        ({"from": "2019-12-31"}, "from"),
        ({"to": "2041"}, "to"),
        ({"to": "2041-01-01"}, "to"),
        ({"to": "yesterday"}, "to"),
        ({"from": "2030", "to": "2025"}, "from"),
        ({"upcoming": "0"}, "upcoming"),
        ({"upcoming": "25"}, "upcoming"),
        ({"upcoming": "two"}, "upcoming"),
        ({"upcoming": "3", "from": "2024"}, "upcoming"),
        ({"upcoming": "3", "to": "2024"}, "upcoming"),
        ({"calendar": "gregorian"}, "calendar"),
        ({"year": "2024"}, "year"),
    ],
)
def test_bad_values_are_400_naming_the_parameter(client, params, parameter):
    with pytest.raises(QueryError) as error:
        _parse(params)
    assert error.value.parameter == parameter
    assert_bad_request(client.get("/v1/eclipses", params=params), parameter)


def test_repeated_parameter_is_400(client):
    response = client.get("/v1/eclipses?kind=solar&kind=lunar")
    assert response.status_code == 400
    assert response.json()["error"].startswith("kind: ")
