"""Mosque profiles (issue 20): the file format, ``mosque=<id>`` on every output, /v1/mosques, the mosque's page.

References, named in each test:
* the profile files themselves, read here as plain JSON (data/mosques/jaffari-toronto.json, whose
  facts are cited in its ``sources``; tests/fixtures/mosques/example-mosque.json, an invented
  profile with every field): the explicit query each stands for is written here by hand from the
  documented format (docs/mosques.md), so ``mosque=<id>`` must answer those bytes;
* the Jaffari Community Centre's published location (Wikipedia's infobox: 43.8417, -79.4608;
  America/Toronto) and the rules its perpetual table fits (shared/reference/mosques.md: fajr 16°,
  imsak fajr - 5, maghrib sunset + 15);
* the JSON answer of the same query, for its CSV and ICS (the three must agree);
* what a browser and an HTML parser make of the page (html.parser: the text, never markup).
"""
from __future__ import annotations

import html as html_text
import json
import re
import shutil
from datetime import datetime, timezone
from html.parser import HTMLParser
from pathlib import Path

import icalendar
import pytest
from conftest import assert_bad_request, call

from generator.prayer import mosques
from generator.api import mosque_list
from generator.site import responses

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "mosques" / "example-mosque.json"
JCC = "jaffari-toronto"
NOW = datetime(2026, 3, 12, 12, tzinfo=timezone.utc).timestamp()  # a feed window over Ramadan and Eid al-Fitr 1447
# What mosque=jaffari-toronto stands for, written from the profile's published facts (see the module docstring).
JCC_QUERY = {"lat": "43.8417", "lng": "-79.4608", "tz": "America/Toronto", "method": "custom", "fajrAngle": "16",
             "ishaAngle": "14", "maghribInterval": "15", "imsak": "5"}
# What the example fixture stands for (its file, field by field).
EXAMPLE_QUERY = {"city": "london", "method": "Jafari", "imsak": "10", "tune": "isha:2",
                 "jamaat": "fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:5",
                 "jamaatWeekly": "fri", "jumuah": "13:15,14:00", "eid": "07:30,09:00"}


def _write(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _fixture_data() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


# --- the format ----------------------------------------------------------------------------------


def test_shipped_profiles_load_and_cite_sources():
    """Every file of data/mosques/ loads, passes the endpoints' own check, and cites where its facts come from."""
    served = mosques.load()
    assert JCC in served and served == mosques.by_id()
    mosque_list.check()
    for mosque in served.values():
        assert mosque.sources and all(s["about"] and s["read"] for s in mosque.sources)
    jcc = served[JCC]
    assert (jcc.place["lat"], jcc.place["lng"], jcc.place["tz"]) == ("43.8417", "-79.4608", "America/Toronto")
    assert jcc.jamaat == {}  # the centre publishes no jamaat rule: none is invented


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(colour="green"), "colour"),
    (lambda d: d["names"].pop("en"), "names.en"),
    (lambda d: d["names"].update(en="A\nB"), "names.en"),
    (lambda d: d["names"].update(de="Moschee"), "names.de"),
    (lambda d: d["names"].update(en="x" * 61), "names.en"),
    (lambda d: d.update(place={"city": "london", "lat": 51.5}), "place"),
    (lambda d: d.update(place={"lat": 51.5, "lng": 0.1}), "place"),
    (lambda d: d["times"].pop("method"), "times.method"),
    (lambda d: d["times"].update(speed=3), "times.speed"),
    (lambda d: d["times"].update(imsak=True), "times.imsak"),
    (lambda d: d["jamaat"].update(iqama="fajr:10"), "jamaat.iqama"),
    (lambda d: d.update(reckoning="saudi"), "reckoning"),
    (lambda d: d.update(languages=["en", "en"]), "languages"),
    (lambda d: d.update(languages=[]), "languages"),
    (lambda d: d["announcement"].update(en="line\r\nInjected: header"), "announcement.en"),
    (lambda d: d["announcement"].update(en="x" * 121), "announcement.en"),
    (lambda d: d.update(website="javascript:alert(1)"), "website"),
    (lambda d: d.update(website="http://example.org"), "website"),
    (lambda d: d.update(sources=[]), "sources"),
    (lambda d: d["sources"][0].update(read="yesterday"), "sources[0].read"),
    (lambda d: d.pop("sources"), "sources"),
])
def test_corrupt_profile_is_refused_naming_file_and_field(tmp_path, change, field):
    """The documented format (docs/mosques.md): each violation names the file and the field."""
    data = _fixture_data()
    change(data)
    path = _write(tmp_path, "bad-mosque", data)
    with pytest.raises(mosques.ProfileError) as error:
        mosques.read(path)
    assert error.value.field == field and error.value.path == str(path)
    assert str(error.value).startswith(f"{path}: {field}: ")


@pytest.mark.parametrize("name, text, field", [
    ("Bad_Name", "{}", "id"),
    ("ok", "{not json", "file"),
    ("ok2", "[1, 2]", "file"),
])
def test_unreadable_profile_is_refused(tmp_path, name, text, field):
    with pytest.raises(mosques.ProfileError) as error:
        mosques.read(_write(tmp_path, name, text))
    assert error.value.field == field


@pytest.mark.parametrize("group, name, value, field", [
    ("times", "method", "Sunni", "times.method"),
    ("times", "fajrAngle", "30", "times.fajrAngle"),
    ("jamaat", "jamaat", "fajr:25:00", "jamaat.jamaat"),
    ("jamaat", "jumuah", "12:00,13:00,14:00,15:00", "jamaat.jumuah"),
    ("place", "city", "atlantis", "place.city"),
])
def test_profile_with_a_query_the_api_refuses_stops_the_check(tmp_path, monkeypatch, group, name, value, field):
    """Start-up check (`mosque_list.check`): the endpoints' own readers, the field of the file named."""
    data = _fixture_data()
    data[group][name] = value
    profile = mosques.read(_write(tmp_path, "bad-mosque", data))
    monkeypatch.setattr(mosques, "by_id", lambda: {profile.id: profile})
    with pytest.raises(mosques.ProfileError) as error:
        mosque_list.check()
    assert error.value.field == field, str(error.value)


def test_broken_data_directory_stops_the_service_at_start(tmp_path):
    """A wrong file in data/mosques/ stops `import generator.api` (the runtime's start) with file and field."""
    import subprocess
    import sys

    (tmp_path / "data").mkdir()
    for part in ("generator", "runtime"):
        (tmp_path / part).symlink_to(ROOT / part)
    shutil.copytree(ROOT / "data", tmp_path / "data", dirs_exist_ok=True, ignore=shutil.ignore_patterns("mosques"))
    (tmp_path / "data" / "mosques").mkdir()
    bad = _fixture_data()
    bad["jamaat"]["jamaat"] = "fajr:fajr"
    (tmp_path / "data" / "mosques" / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    code = ("import generator.prayer.mosques as m, pathlib; m.DATA_DIR = pathlib.Path('data/mosques'); "
            "import generator.api")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "ProfileError: data/mosques/bad.json: jamaat.jamaat: " in result.stderr


# --- mosque=<id> stands for its explicit query ------------------------------------------------------


@pytest.mark.parametrize("endpoint, extra", [
    ("prayer-times", {"year": "2026"}),
    ("prayer-times", {"date": "2026-03-08"}),  # the day clocks go forward in Toronto
    ("prayer-times.csv", {"year": "2026", "month": "11"}),
])
def test_jcc_equals_its_explicit_query(endpoint, extra):
    """mosque=jaffari-toronto answers the bytes of the query written from its published facts."""
    assert call(endpoint, NOW, mosque=JCC, **extra) == call(endpoint, NOW, **JCC_QUERY, **extra)


def test_jcc_feeds_equal_their_explicit_queries():
    """The feeds: the mosque's name is the calendar's title; imsak moves nothing a default feed shows, so it is
    left out (in a query it would be refused), and with ramadan=1 it moves the suhoor-ends events."""
    name = "Jaffari Community Centre"
    feed = {k: v for k, v in JCC_QUERY.items() if k != "imsak"}
    assert call("prayer-times.ics", NOW, mosque=JCC) == call("prayer-times.ics", NOW, **feed, name=name)
    assert (call("prayer-times.ics", NOW, mosque=JCC, ramadan=1)
            == call("prayer-times.ics", NOW, **JCC_QUERY, name=name, ramadan=1))
    assert call("night.ics", NOW, mosque=JCC) == call("night.ics", NOW, **feed, name=name)  # titled by its name
    assert b"X-WR-CALNAME:" in call("prayer-times.ics", NOW, mosque=JCC)


def test_jcc_times_follow_its_rules():
    """The centre's rules (shared/reference/mosques.md): imsak = fajr - 5 min, maghrib = sunset + 15 min."""
    days = json.loads(call("prayer-times", NOW, mosque=JCC, year=2026))["days"]
    minute = lambda t: datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp() / 60  # noqa: E731
    assert len(days) == 365
    assert all(minute(d["fajr"]) - minute(d["imsak"]) == 5 for d in days)
    assert all(minute(d["maghrib"]) - minute(d["sunset"]) == 15 for d in days)


def test_example_with_jamaat_equals_its_explicit_query(example):
    """Every field of the fixture, JSON, CSV and ICS: the query written from the file."""
    for endpoint, extra in (("prayer-times", {"year": "2026"}), ("prayer-times.csv", {"year": "2026", "month": "3"})):
        assert call(endpoint, NOW, mosque=example.id, **extra) == call(endpoint, NOW, **EXAMPLE_QUERY, **extra)
    ics = dict(EXAMPLE_QUERY, calendar="moonsighting")
    for lang, name in (("en", "Example Mosque"), ("ur", "مثالی مسجد")):
        assert (call("prayer-times.ics", NOW, mosque=example.id, lang=lang, ramadan=1, prayers="imsak,fajr,isha")
                == call("prayer-times.ics", NOW, **ics, lang=lang, name=name, ramadan=1, prayers="imsak,fajr,isha"))
    # the night feed takes the place, method and name (its title); its tune moves only fajr and maghrib, so
    # isha:2 is left out
    assert call("night.ics", NOW, mosque=example.id) == call("night.ics", NOW, city="london", method="Jafari",
                                                             name="Example Mosque")


def test_example_json_csv_ics_agree_on_jamaat(example):
    """The JSON's jamaat instants are the CSV's cells and the ICS events' starts (Friday: Jumu'ah 13:15)."""
    answer = json.loads(call("prayer-times", NOW, mosque=example.id, year=2026, month=3))["days"]
    rows = call("prayer-times.csv", NOW, mosque=example.id, year=2026, month=3).decode().splitlines()
    header = rows[0].split(",")
    for day, row in zip(answer, rows[1:]):
        cells = dict(zip(header, row.split(",")))
        for prayer, instant in day["jamaat"].items():
            if prayer in ("jumuah", "eid"):
                assert cells[f"{prayer}_utc"].split(" ") == instant
            else:
                assert cells[f"jamaat_{prayer}_utc"] == instant
    fridays = [d for d in answer if "jumuah" in d["jamaat"]]
    assert fridays and all(d["jamaatLocal"]["jumuah"] == ["13:15", "14:00"] for d in fridays)
    calendar = icalendar.Calendar.from_ical(call("prayer-times.ics", NOW, mosque=example.id, days=21))
    starts = {e.get("DTSTART").dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
              for e in calendar.walk("VEVENT")}
    by_date = {d["date"]: d for d in answer}
    for iso in ("2026-03-13", "2026-03-20", "2026-03-25"):
        for prayer, instant in by_date[iso]["jamaat"].items():
            for one in instant if isinstance(instant, list) else [instant]:
                assert one in starts, (iso, prayer, one)


@pytest.mark.parametrize("name, value", [
    ("method", "Jafari"), ("city", "tehran"), ("lat", "1"), ("tz", "UTC"), ("fajrAngle", "18"), ("imsak", "10"),
    ("jamaat", "fajr:10"), ("calendar", "iran"), ("tune", "fajr:1"), ("highLatitudeRule", "middleOfNight"),
])
def test_the_mosques_own_parameters_cannot_be_overridden(client, name, value):
    """What makes the mosque's times is the mosque's: a 400 naming the parameter, on JSON, CSV and ICS."""
    for endpoint, span in (("prayer-times", "&date=2026-03-01"), ("prayer-times.csv", "&date=2026-03-01"),
                           ("prayer-times.ics", "")):
        if endpoint.endswith(".ics") and name in ("imsak",):
            continue  # the feed's own rule refuses it first (no imsak event): also a 400 naming it
        assert_bad_request(client.get(f"/v1/{endpoint}?mosque={JCC}&{name}={value}{span}"), name)
    assert_bad_request(client.get(f"/v1/prayer-times.ics?mosque={JCC}&offsets=fajr:10"), "offsets")


def test_display_parameters_may_be_added(client):
    """Date, language, clock, window, the feed's title and member options are the asker's."""
    ok = client.get(f"/v1/prayer-times.ics?mosque={JCC}&lang=fa&clock=12&days=7&name=My+centre&alarm=10&busy=0"
                    f"&prayers=fajr,maghrib&duration=20")
    assert ok.status_code == 200
    text = ok.text.replace("\r\n ", "")
    assert re.search(r"X-WR-CALNAME:[^\r\n]*My centre", text) and "TRIGGER:-PT10M" in text and "TRANSP:TRANSPARENT" in text


@pytest.mark.parametrize("value", ["", "../../etc/passwd", "<script>alert(1)</script>", "JAFFARI-TORONTO",
                                   "jaffari-toronto\r\nX: y", "x" * 49, "jaffari toronto", "%00", "nope"])
def test_hostile_mosque_ids_are_400(client, value):
    for endpoint in ("prayer-times", "prayer-times.csv", "prayer-times.ics", "night.ics"):
        response = client.get(f"/v1/{endpoint}", params={"mosque": value, "date": "2026-01-01"}
                              if endpoint.startswith("prayer-times") and not endpoint.endswith("ics")
                              else {"mosque": value})
        assert_bad_request(response, "mosque")
    page = client.get("/screen/", params={"mosque": value})
    assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")


# --- /v1/mosques -----------------------------------------------------------------------------------


def test_mosques_endpoint_lists_profiles_and_links_that_answer(client):
    listed = client.get("/v1/mosques").json()["mosques"]
    jcc = next(m for m in listed if m["id"] == JCC)
    assert jcc["place"] == {"lat": 43.84, "lng": -79.46, "tz": "America/Toronto"}
    assert jcc["names"]["en"] == "Jaffari Community Centre" and jcc["reckoning"] == "moonsighting"
    assert jcc["query"] == {"fajrAngle": 16.0, "imsak": 5, "ishaAngle": 14.0, "lat": 43.84, "lng": -79.46,
                            "maghribInterval": 15.0, "method": "custom", "tz": "America/Toronto"}
    for name, link in jcc["links"].items():
        response = client.get(link + ("&date=2026-01-01" if name in ("prayerTimes", "csv") else ""),
                              follow_redirects=False)
        assert response.status_code == (302 if name == "screen" else 200), (name, link)
    assert client.get(jcc["links"]["screen"], follow_redirects=False).headers["location"] == \
        f"/screen/?mosque={JCC}&lang=en"
    assert client.get("/mosque/nope/screen/", follow_redirects=False).status_code == 404


# --- the pages -------------------------------------------------------------------------------------


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def _parsed(html: str) -> _Text:
    parser = _Text()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("lang", ["en", "ar", "fa", "ur"])
def test_jcc_page_shows_the_apis_times_in_four_languages(client, lang):
    """Today's row and the month equal /v1/prayer-times?mosque=… (local HH:mm, in the language's digits)."""
    from generator.words import page_words as words

    path = f"/mosque/{JCC}/" + ("" if lang == "en" else f"{lang}/")
    html = client.get(path).text
    today = re.search(r'class="today-card" aria-labelledby="h-today" data-date="([0-9-]{10})"', html)[1]
    answer = client.get(f"/v1/prayer-times?mosque={JCC}&date={today}").json()["days"][0]["local"]
    card = html[html.index('class="today-card"'):html.index("</section>")]
    for name in ("fajr", "maghrib", "isha"):
        assert f'<span class="time">{words.clock(answer[name], lang)}</span>' in card
    assert f'lang="{lang}"' in html[:200] and f'hreflang="{lang}"' in html
    assert "prayer-times.ics?lang=" in html and f"mosque={JCC}" in html
    assert words.WORDS[lang]["mosque.no_jamaat"] in html  # it publishes none


@pytest.mark.parametrize("lang", ["en", "ar", "fa", "ur"])
def test_jcc_page_describes_its_place_and_reckoning_in_words(client, lang):
    """The meta description names the place by its coordinates as the pages write them (hemisphere words), never
    by the zone id (the 2026-11-25 language review, fa note 2); the reckoning line is a phrase (reckoning.basis),
    not the column label."""
    from generator.words import page_words as words

    html = client.get(f"/mosque/{JCC}/" + ("" if lang == "en" else f"{lang}/")).text
    description = re.search(r'<meta name="description" content="([^"]*)"', html)[1]
    assert "America/Toronto" not in description and "-" not in description
    # the centre's place (data/mosques/jaffari-toronto.json: 43.8417, -79.4608, as /v1/mosques rounds it)
    assert words.coordinate(43.84, "lat", lang) in description and words.coordinate(-79.46, "lng", lang) in description
    line = words.WORDS[lang]["mosque.reckoning"].format(calendar=words.CALENDAR_BASES[lang]["moonsighting"])
    assert line in html and words.CALENDAR_BASES[lang]["moonsighting"] in line


def test_example_page_shows_jamaat_slots_and_escaped_announcement(client, example):
    html = client.get(f"/mosque/{example.id}/").text
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'data-jamaat="fajr"' in html and 'data-jamaat="isha"' in html
    # The page shows the current month: its Fridays' slots as the API gives them (in winter London's 14:00 slot is
    # after the computed asr, where Jumu'ah's time ends, and moves to the last start before it; issue 28).
    month = re.search(r'data-year="(\d{4})" data-month="(\d{2})"', html).groups()
    days = client.get(f"/v1/prayer-times?mosque={example.id}&year={month[0]}&month={int(month[1])}").json()["days"]
    fridays = [d for d in days if "jumuah" in d["jamaatLocal"]]
    assert fridays
    slots = " and ".join(fridays[0]["jamaatLocal"]["jumuah"])
    assert f"Jumu'ah: {slots}" in html_text.unescape(html)


def test_mosque_pages_in_the_sitemap_and_unknown_ones_404(client):
    sitemap = client.get("/sitemap.xml").text
    for lang in ("", "ar/", "fa/", "ur/"):
        assert f"/mosque/{JCC}/{lang}</loc>" in sitemap
    for path in ("/mosque/nope/", "/mosque/%3Cscript%3E/", f"/mosque/{JCC}/de/", "/mosque/a.b/"):
        response = client.get(path)
        assert response.status_code == 404 and response.headers["content-type"].startswith("text/html")


def test_screen_from_a_mosque_shows_its_name_and_announcement(client, example):
    html = client.get(f"/screen/?mosque={example.id}&lang=ur").text
    assert "مثالی مسجد" in html and "آج رات نماز عشا کے بعد دعائے کمیل" in html
    english = client.get(f"/screen/?mosque={example.id}").text
    assert "&lt;script&gt;" in english and "<script>alert" not in english
    assert_canonical = re.search(r'rel="canonical" href="[^"]*/screen/\?mosque=example-mosque&amp;lang=en"', english)
    assert assert_canonical
    assert client.get(f"/screen/?mosque={example.id}&calendar=iran").status_code == 400


def test_a_profile_with_issue_28_rules_is_its_query_and_its_page_marks_moves_back(tmp_path, monkeypatch):
    """A profile may hold every issue-28 rule (summer, Ramadan, a typed-in table): mosque=<id> answers the bytes of
    the explicit query, and its page marks each jamaat moved back inside its time (†) with the note, on exactly
    the days /v1/prayer-times lists in jamaatMovedEnd (a fixed fajr 05:00 in London is after sunrise in summer)."""
    from datetime import date

    from generator.site import mosque_page

    data = _fixture_data()
    data["jamaat"] = {"jamaat": "fajr:05:00,maghrib:10,isha:maghrib", "jamaatDst": "maghrib:5",
                      "jamaatRamadan": "isha:22:00", "jamaatTable": "day,fajr;2026-06-21,03:30;2026-06-22,03:35"}
    profile = mosques.read(_write(tmp_path, "summer-mosque", data))
    monkeypatch.setattr(mosques, "by_id", lambda: {**mosques.load(), profile.id: profile})
    responses._body.cache_clear()
    try:
        query = {"city": "london", "method": "Jafari", "imsak": "10", "tune": "isha:2", **data["jamaat"],
                 "calendar": "moonsighting"}
        for extra in ({"year": "2026"}, {"year": "2026", "month": "6"}):
            assert call("prayer-times", NOW, mosque=profile.id, **extra) == call("prayer-times", NOW, **query, **extra)
        june = json.loads(call("prayer-times", NOW, mosque=profile.id, year=2026, month=6))["days"]
        late = {d["date"] for d in june if "fajr" in d.get("jamaatMovedEnd", [])}
        assert len(late) > 20 and "2026-06-21" not in late  # the table's 03:30 is in time
        html = mosque_page.render(date(2026, 6, 15), profile.id, "en",
                                  now_s=datetime(2026, 6, 15, 9, tzinfo=timezone.utc).timestamp()).decode()
        for d in june:
            cell = re.search(rf'<tr data-date="{d["date"]}".*?<td data-jamaat="fajr">([^<]*)</td>', html, re.S).group(1)
            assert cell.endswith("†") == (d["date"] in late), (d["date"], cell)
        assert ("† On the marked days the mosque's rule would leave the jamaat too little time to be prayed before its "
                "prayer's time ends"
                in html_text.unescape(html))
        by = {d["date"]: d for d in june}
        assert by["2026-06-21"]["jamaatLocal"]["fajr"] == "03:30"
    finally:
        responses._body.cache_clear()
