"""The site as a reader sees it: the real app on loopback, Debian's headless Chromium (playwright-core).

One browser session (tests/peers/site_check.js) opens each page type and reports what it
shows; this file compares that with the JSON API of the same server:

* no console error, failed request or HTTP error on any page;
* every timetable row's times equal /v1/prayer-times' ``local`` HH:mm (same city, method,
  month), digits read back from the page's language;
* the ar/fa/ur pages are ``dir=rtl`` with their ``lang``;
* every crescent map's cells decode to exactly the API's grid (so the cells per zone equal
  ``counts.digits``), on the page and in /v1/moon-visibility.svg;
* a city month printed by Chromium to PDF fits one A4 page (a page count of one per month),
  for the pages opened and for every month of 2026 in English, Urdu and Persian;
* the city search finds Karbala from its Persian/Arabic name (English and ar/fa/ur home pages);
* at a phone size (390×844) and a desktop size (1280×800), no page of any kind in any of the four
  languages scrolls sideways; on city pages the row marked today (aria-current="date") is the
  city's own date (its zone, from the clock), today's card shows that day's /v1/prayer-times and
  sits on the phone's first screen, and the feeds are offered as webcal:// links;
* the Ramadan imsakiya equals /v1/hijri's Ramadan days and /v1/prayer-times day by day, with the
  Nights of Qadr marked on their eves (18, 20, 22 Ramadan), and prints on one A4 page; on a 390- and a 360-px
  phone its imsak and iftar columns are on the first screen, at 1280 px every column in its order;
* the notice board (issue 36), for the Leicester committee of the trial of 28 November published here
  (tests/fixtures/mosques/leicester-committee.json, its fullest month: five jamaat columns and Jumu'ah/Eid): its
  page, in English and Urdu, and its March 2026 (Ramadan's end, Eid, the clock change), print as exactly one A4
  portrait page (pdfinfo) with the mosque's name on it (pdftotext) and a QR code zbarimg reads as the mosque's
  page in that language; the page links the months before and after and its Ramadan timetable; that timetable
  (Ramadan 1447) equals, row by row, /v1/prayer-times asked with the committee's rules written out by hand (not
  ``mosque=``), its iftar jamaat is maghrib + 10 minutes by the Ramadan rule, and it prints on one A4 page.

Screenshots and PDFs are saved in test-artifacts/site/.  Skipped only when Chromium is not
installed (`make system-packages` installs it).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import unicodedata
import urllib.parse
import urllib.request
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from conftest import browser_app_server, run_node_peer

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "site"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
NATIVE_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")
CELL = re.compile(r"M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z")
PHONE, DESKTOP = (390, 844), (1280, 800)
NARROW_PHONE = (360, 800)  # the narrowest common phone (many Android phones are 360 CSS px wide)
VIEWPORTS = [PHONE, DESKTOP]
LANGS = ("en", "ar", "fa", "ur")


def _lang_path(prefix: str, lang: str) -> str:
    return prefix if lang == "en" else f"{prefix}{lang}/"


MOSQUE = "jaffari-toronto"
PAGES = [
    {"name": "index", "path": "/", "kind": "index"},
    {"name": "city-en", "path": "/city/london/", "kind": "city", "pdf": True},
    {"name": "city-fa", "path": "/city/tehran/fa/", "kind": "city", "pdf": True},
    {"name": "city-ar", "path": "/city/najaf/ar/", "kind": "city"},
    {"name": "city-ur-jafari", "path": "/city/karachi/ur/Jafari/", "kind": "city", "pdf": True},
    {"name": "city-en-sydney", "path": "/city/sydney/", "kind": "city"},
    {"name": "city-en-karbala", "path": "/city/karbala/", "kind": "city"},
    {"name": "moon-en", "path": "/moon/1447-10/", "kind": "moon"},
    {"name": "moon-ar", "path": "/moon/1447-9/ar/", "kind": "moon"},
    {"name": "moon-fa", "path": "/moon/1447-9/fa/", "kind": "moon"},
    {"name": "moon-ur", "path": "/moon/1447-9/ur/", "kind": "moon"},
    # an image, not a page: photographed at the desktop size only, 1080 px wide by design
    {"name": "moon-svg", "path": "/v1/moon-visibility.svg?hy=1447&hm=10&evening=0&lang=ur", "kind": "svg",
     "viewports": [DESKTOP]},
    *({"name": f"home-{lang}", "path": f"/{lang}/", "kind": "home"} for lang in LANGS if lang != "en"),
    *({"name": f"imsakiya-{lang}", "path": f"/city/{city}/{lang}/imsakiya/", "kind": "imsakiya", "pdf": True,
       "city": city, "viewports": [PHONE, NARROW_PHONE, DESKTOP]}
      for lang, city in (("en", "london"), ("ar", "karbala"), ("fa", "mashhad"), ("ur", "lahore"))),
    {"name": "imsakiya-en-iran-jafari", "path": "/city/london/en/imsakiya/iran/Jafari/", "kind": "imsakiya",
     "city": "london"},
    *({"name": f"month-{lang}", "path": "MONTH", "kind": "month", "lang": lang, "city": "beirut"} for lang in LANGS),
    # a mosque's page (issue 20): data/mosques/jaffari-toronto.json
    *({"name": f"mosque-{lang}", "path": f"/mosque/{MOSQUE}/" + ("" if lang == "en" else f"{lang}/"), "kind": "mosque"}
      for lang in LANGS),
]
for _page in PAGES:
    _page.setdefault("viewports", VIEWPORTS)
pytestmark = pytest.mark.xdist_group("browser-site_browser")


def _get_json(url: str, **params) -> dict:
    with urllib.request.urlopen(f"{url}?{urllib.parse.urlencode(params)}" if params else url, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app under uvicorn on loopback (conftest.browser_app_server)."""
    yield from browser_app_server(tmp_path_factory, CHROMIUM)


def _print_sweep(folder: Path) -> list[dict]:
    """Save the timetables of every month of 2026 (English: the longest event titles; Urdu: the tallest
    script; Persian: one column more, the Solar Hijri date) as files for the browser to print: each must
    print as one A4 page per month."""
    from generator.site import timetable

    specs = []
    for city, lang in (("london", "en"), ("karachi", "ur"), ("tehran", "fa")):
        for month in range(1, 13):
            file = folder / f"print-{city}-{lang}-{month:02d}.html"
            file.write_bytes(timetable.render(date(2026, month, 1), city, lang))
            specs.append({"name": file.stem, "file": str(file), "kind": "print", "pdf": True})
    return specs


COMMITTEE = ROOT / "tests" / "fixtures" / "mosques" / "leicester-committee.json"
# The committee's profile written out as the explicit query it stands for (docs/mosques.md): the reference the
# Ramadan timetable is compared with is asked with these parameters, not with mosque=<id>.
COMMITTEE_QUERY = {"city": "leicester", "method": "ImamAliFoundation", "calendar": "moonsighting",
                   "jamaat": "fajr:10,dhuhr:13:15,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:5",
                   "jumuah": "13:00,14:00", "eid": "08:30,10:00", "jamaatDst": "dhuhr:13:45",
                   "jumuahDst": "13:30,14:30", "jamaatRamadan": "fajr:15,maghrib:10"}
IFTAR_JAMAAT_MIN = 10  # the committee's Ramadan rule maghrib:10


@pytest.fixture(scope="module")
def committee(server) -> str:
    """The Leicester committee's profile, published on the server under test (POST /v1/mosques): its id."""
    request = urllib.request.Request(f"{server}/v1/mosques", data=COMMITTEE.read_bytes(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 201
        return json.loads(response.read())["id"]


def _notice_pages(mosque_id: str) -> list[dict]:
    """The notice board's pages: the mosque's page (en, ur), a month's page (en, ur: March 2026), its Ramadan 1447
    timetable (en, ur); printed only (their screens are the mosque page's, measured above)."""
    pages = [{"name": f"notice-{lang}", "path": f"/mosque/{mosque_id}/" + ("" if lang == "en" else f"{lang}/"),
              "kind": "mosque", "lang": lang} for lang in ("en", "ur")]
    pages += [{"name": f"notice-{lang}-2026-03", "path": f"/mosque/{mosque_id}/{lang}/2026-03/", "kind": "mosque",
               "lang": lang} for lang in ("en", "ur")]
    pages += [{"name": f"notice-imsakiya-{lang}", "path": f"/mosque/{mosque_id}/{lang}/imsakiya/1447/",
               "kind": "imsakiya", "lang": lang} for lang in ("en", "ur")]
    return [{**page, "pdf": True, "viewports": []} for page in pages]


@pytest.fixture(scope="module")
def seen(server, committee):
    """What the browser saw on every page (one Chromium session for all of them)."""
    started = time.perf_counter()
    next_month = _next_month(date.today())
    pages = [{**page, "path": f"/city/{page['city']}/{page['lang']}/Tehran/{next_month}/"} if page["path"] == "MONTH"
             else page for page in PAGES]
    config = {"base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS),
              "pages": pages + _notice_pages(committee)}
    pages = {page["name"]: page for page in run_node_peer("site_check.js", "playwright-core", config)["pages"]}
    print(f"browser session: {len(pages)} pages in {time.perf_counter() - started:.1f} s")
    return pages


# The year's printed timetables (36 PDFs) in a Chromium of their own on another worker: one after the other with the
# pages above they were the suite's longest group.
PRINT_GROUP = pytest.mark.xdist_group("browser-site_print")


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The saved timetables of every month of 2026 in three languages, printed to PDF by Chromium (files: no server)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (Debian package `chromium`: run `make system-packages`)")
    config = {"base": "http://127.0.0.1:9", "chromium": CHROMIUM, "artifacts": str(ARTIFACTS),
              "pages": _print_sweep(tmp_path_factory.mktemp("print"))}
    return {page["name"]: page for page in run_node_peer("site_check.js", "playwright-core", config)["pages"]}


def test_no_console_errors_and_every_page_answers(seen):
    for name, page in seen.items():
        assert page["status"] == 200, name
        assert page["errors"] == [], (name, page["errors"])
    assert seen["moon-svg"]["contentType"].startswith("image/svg+xml")
    assert seen["index"]["contentType"] == "text/html; charset=utf-8"


def _next_month(day: date) -> str:
    return f"{day.year + day.month // 12:04d}-{day.month % 12 + 1:02d}"


def test_rtl_pages_declare_direction_and_language(seen):
    expected = {"city-en": ("en", "ltr"), "city-fa": ("fa", "rtl"), "city-ar": ("ar", "rtl"),
                "city-ur-jafari": ("ur", "rtl"), "moon-en": ("en", "ltr"), "moon-ar": ("ar", "rtl"),
                "moon-fa": ("fa", "rtl"), "moon-ur": ("ur", "rtl"), "index": ("en", "ltr"),
                **{f"home-{lang}": (lang, "rtl") for lang in ("ar", "fa", "ur")},
                **{f"imsakiya-{lang}": (lang, "ltr" if lang == "en" else "rtl") for lang in LANGS},
                **{f"month-{lang}": (lang, "ltr" if lang == "en" else "rtl") for lang in LANGS}}
    for name, (lang, direction) in expected.items():
        assert (seen[name]["lang"], seen[name]["dir"]) == (lang, direction), name


def test_no_page_scrolls_sideways_on_a_phone_or_a_desktop(seen):
    """Every page kind, in all four languages, fits its viewport's width (wide tables scroll in their own box)."""
    kinds = {(page["kind"], page["lang"]) for page in seen.values() if page.get("layout") and page["kind"] != "svg"}
    assert {kind for kind, _ in kinds} >= {"index", "home", "city", "month", "imsakiya", "moon"}
    for kind in ("city", "month", "imsakiya", "moon"):
        assert {lang for k, lang in kinds if k == kind} == set(LANGS), kind
    for name, page in seen.items():
        if page["kind"] == "svg":
            continue
        for layout in page.get("layout", []):
            assert layout["scrollWidth"] <= layout["clientWidth"], (name, layout["width"], layout["scrollWidth"])
        if page.get("layout"):
            assert [(v["width"], v["height"]) for v in page["layout"]] == next(
                spec["viewports"] for spec in PAGES if spec["name"] == name), name


def _city_dates(tz: str, clocks_ms: list[int]) -> set[str]:
    """The city's dates at the instants the browser read the page (two, should a midnight fall between)."""
    return {datetime.fromtimestamp(ms / 1000, timezone.utc).astimezone(ZoneInfo(tz)).date().isoformat()
            for ms in clocks_ms}


def _night(method: str) -> dict:
    """The midnight a page naming ``method`` prints (issue 33): the Institute's for Tehran and praytimes.org's Jafari
    midnight for Jafari, both half-way from sunset to fajr; the Foundation's tables their own (the API's default)."""
    return {"midnight": "sunsetToFajr"} if method in ("Tehran", "Jafari") else {}


@pytest.mark.parametrize("name, city, method", [
    # London's page shows the Imam Ali Foundation's printed London table by default (issue 19)
    ("city-en", "london", "ImamAliFoundation"), ("city-fa", "tehran", "Tehran"), ("city-ar", "najaf", "Tehran"),
    ("city-ur-jafari", "karachi", "Jafari"), ("city-en-sydney", "sydney", "Tehran"),
    ("city-en-karbala", "karbala", "Tehran"),
])
def test_today_is_the_city_date_and_its_card_is_on_the_first_phone_screen(seen, server, name, city, method):
    page = seen[name]
    phone = page["layout"][0]
    tz = _get_json(f"{server}/v1/prayer-times", city=city, date="2026-01-01")["meta"]["tz"]
    local = _city_dates(tz, [layout["clock"] for layout in page["layout"]])
    assert len(phone["today"]) == 1 and phone["today"][0] in local, (name, phone["today"], local)
    card = phone["card"]
    assert card["date"] == phone["today"][0] and not card["hidden"]
    assert card["bottom"] <= PHONE[1], f"{name}: today's card ends at {card['bottom']} px, below the first screen"
    api = _get_json(f"{server}/v1/prayer-times", city=city, method=method, date=card["date"],
                    **_night(method))["days"][0]["local"]
    expected = api if page["lang"] in ("en", "fa") else {k: _twelve_hour(v) for k, v in api.items()}
    assert {k: v.translate(NATIVE_DIGITS) for k, v in card["times"].items()} == expected
    assert card["next"], "the next time is named (the page's script ran)"


@pytest.mark.parametrize("name", ["city-en", "city-fa", "city-ar", "city-ur-jafari"])
def test_feeds_are_offered_as_webcal_beside_https(seen, server, name):
    layout = seen[name]["layout"][0]
    host = urllib.parse.urlsplit(server).netloc
    # prayer times, the last third of the night, and the events the place's community keeps (issue 33)
    assert len(layout["webcal"]) == 3 and all(h.startswith(f"webcal://{host}/v1/") for h in layout["webcal"])
    assert [h.replace("webcal://", "http://") for h in layout["webcal"]] == layout["https"]


@pytest.mark.parametrize("lang, city", [("en", "london"), ("ar", "karbala"), ("fa", "mashhad"), ("ur", "lahore")])
def test_imsakiya_equals_the_api(seen, server, lang, city):
    shown = seen[f"imsakiya-{lang}"]["imsakiya"]
    _check_imsakiya(server, shown, city, "ImamAliFoundation" if city == "london" else "Tehran", lang)  # London: its table


def test_imsakiya_under_the_other_reckoning_and_method_equals_the_api(seen, server):
    shown = seen["imsakiya-en-iran-jafari"]["imsakiya"]
    assert (shown["calendar"], shown["method"]) == ("iran", "Jafari")
    _check_imsakiya(server, shown, "london", "Jafari", "en")


def _check_imsakiya(server: str, shown: dict, city: str, method: str, lang: str) -> None:
    first = shown["rows"][0]["date"]
    hijri = _get_json(f"{server}/v1/hijri", date=first, calendar=shown["calendar"])["hijri"]
    assert (hijri["month"], hijri["day"]) == (9, 1), "the table starts on 1 Ramadan"
    month = _get_json(f"{server}/v1/hijri", hy=hijri["year"], hm=9, calendar=shown["calendar"])
    assert [row["date"] for row in shown["rows"]] == list(month["days"].values())
    assert [int(row["day"].translate(NATIVE_DIGITS)) for row in shown["rows"]] == [int(d) for d in month["days"]]
    for row in shown["rows"]:
        api = _get_json(f"{server}/v1/prayer-times", city=city, method=method, date=row["date"],
                        **_night(method))["days"][0]["local"]
        assert {k: v.translate(NATIVE_DIGITS) for k, v in row["times"].items()} == \
            {k: api[k] if lang in ("en", "fa") else _twelve_hour(api[k])
             for k in ("imsak", "fajr", "sunrise", "dhuhr", "maghrib", "midnight")}, row["date"]
    assert [int(row["day"].translate(NATIVE_DIGITS)) for row in shown["rows"] if row["qadr"]] == [18, 20, 22]


@pytest.mark.parametrize("lang", LANGS)
def test_imsakiya_shows_imsak_and_iftar_on_a_phone_s_first_screen(seen, lang):
    """Gallery review of 2026-11-28, ur UR2-32: on a 390-px phone the Urdu imsakiya showed «رمضان | تاریخ | دن |
    امساک | فجر | طلوعِ آفتاب | ظہر» and iftar («مغرب (افطار)»), the figure a fasting family opens it for, was off the
    screen (the old table: 9th of 9 columns, 464 px in Urdu and 617 px in English in a 356-px box).  Measured by
    Chromium's boxes at 390×844 and 360×800: the imsak and maghrib cells of today's row (else the first) and their
    headers lie inside the table's box, the box inside the window, and the page does not scroll sideways (the table
    may, in its own box, for the other columns).  At 1280×800 every column is shown, inside the window, in the page's
    order (left to right in English, right to left in ar/fa/ur), so desktop and print keep the table as it was; and
    the table a screen reader is given (Chromium's accessibility tree, as Playwright's aria snapshot writes it) is the
    same at every width: rows, headers and cells in their order, nothing dropped."""
    page = seen[f"imsakiya-{lang}"]
    layouts = {(layout["width"], layout["height"]): layout for layout in page["layout"]}
    for size in (PHONE, NARROW_PHONE):
        shown = layouts[size]["imsakiya"]
        box = shown["box"]
        assert -0.5 <= box["left"] and box["right"] <= size[0] + 0.5, (lang, size, box)
        assert shown["scrollingWidth"] <= size[0], (lang, size, shown["scrollingWidth"])
        columns = {column["id"]: column for column in shown["columns"]}
        for fast_end in ("imsak", "maghrib"):
            assert columns[fast_end]["cellId"] == fast_end
            for part in ("head", "cell"):
                edge = columns[fast_end][part]
                assert edge["shown"] and box["left"] - 0.5 <= edge["left"] and edge["right"] <= box["right"] + 0.5, \
                    (lang, size, fast_end, part, edge, box)
        if lang != "en":  # the weekday beside its date, before imsak (right to left): ur UR7-01
            order = [column["id"] for column in shown["columns"]]
            weekday = shown["columns"][order.index("imsak") - 1]  # the column before the first time, in the document
            assert weekday["head"]["right"] > columns["imsak"]["head"]["right"] >= columns["maghrib"]["head"]["right"], \
                (lang, size, weekday["head"], columns["imsak"]["head"])
    desktop = layouts[DESKTOP]["imsakiya"]
    ids = [column["id"] for column in desktop["columns"]]
    assert ids[-6:] == ["imsak", "fajr", "sunrise", "dhuhr", "maghrib", "midnight"], ids
    assert [column["cellId"] for column in desktop["columns"]] == ids
    lefts = [column["head"]["left"] for column in desktop["columns"]]
    assert lefts == sorted(lefts, reverse=lang != "en"), (lang, lefts)  # the page's own column order
    for column in desktop["columns"]:
        for part in ("head", "cell"):
            edge = column[part]
            assert edge["shown"] and 0 <= edge["left"] and edge["right"] <= DESKTOP[0], (lang, column["id"], part)
    assert layouts[PHONE]["aria"] == layouts[NARROW_PHONE]["aria"] == layouts[DESKTOP]["aria"]
    assert layouts[DESKTOP]["aria"].count("- columnheader ") == len(ids)


@pytest.mark.parametrize("lang", LANGS)
def test_imsakiya_prints_on_one_a4_page(seen, lang):
    assert _pdf_pages(seen[f"imsakiya-{lang}"]["pdf"]) == 1


@pytest.mark.parametrize("name, city, method", [
    # London's page shows the Imam Ali Foundation's printed London table by default (issue 19)
    ("city-en", "london", "ImamAliFoundation"), ("city-fa", "tehran", "Tehran"), ("city-ar", "najaf", "Tehran"),
    ("city-ur-jafari", "karachi", "Jafari"),
])
def test_timetable_rows_equal_the_api_times(seen, server, name, city, method):
    tables = seen[name]["tables"]
    assert len(tables) == 2  # this month and the next
    first, second = ((int(t["year"]), int(t["month"])) for t in tables)
    assert second == (first[0] + first[1] // 12, first[1] % 12 + 1)
    for table in tables:
        api = _get_json(f"{server}/v1/prayer-times", city=city, method=method, year=table["year"], month=table["month"],
                    **_night(method))
        assert [row["date"] for row in table["rows"]] == [day["date"] for day in api["days"]]
        for row, day in zip(table["rows"], api["days"]):
            shown = {prayer: text.translate(NATIVE_DIGITS) for prayer, text in row["times"].items()}
            assert shown == (day["local"] if name in TWENTY_FOUR_HOUR else
                             {prayer: _twelve_hour(hhmm) for prayer, hhmm in day["local"].items()}), (name, row["date"])
            if name != "city-en":  # the page's own digits, not ASCII
                assert not re.search(r"[0-9]", "".join(row["times"].values())), row


@pytest.mark.parametrize("lang", LANGS)
def test_mosque_page_rows_equal_the_api_times(seen, server, lang):
    """The mosque's month (its own date's month) equals /v1/prayer-times?mosque=…, in the page's digits and clock."""
    page = seen[f"mosque-{lang}"]
    assert page["errors"] == [] and all(v["scrollWidth"] <= v["clientWidth"] for v in page["layout"])
    (table,) = page["tables"]
    api = _get_json(f"{server}/v1/prayer-times", mosque=MOSQUE, year=table["year"], month=table["month"])
    assert [row["date"] for row in table["rows"]] == [day["date"] for day in api["days"]]
    for row, day in zip(table["rows"], api["days"]):
        shown = {name: text.translate(NATIVE_DIGITS) for name, text in row["times"].items()}
        assert set(shown) == {"imsak", "fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha", "midnight"}
        assert shown == {name: day["local"][name] if lang in ("en", "fa") else _twelve_hour(day["local"][name])
                         for name in shown}, (lang, row["date"])


TWENTY_FOUR_HOUR = ("city-en", "city-fa")  # ar and ur pages print 12-hour times (docs/site.md, "Languages")


def _twelve_hour(hhmm: str) -> str:
    """Return "HH:mm" on a 12-hour clock without the AM/PM word, by the C library's strftime: "17:05" -> "5:05"."""
    return datetime.strptime(hhmm, "%H:%M").strftime("%I:%M").lstrip("0")


def _decode_cells(paths: dict[str, str], res: int, rows: int, columns: int) -> list[str]:
    """Return the digit rows the SVG's cell subpaths draw (each cell must be drawn exactly once)."""
    grid = [[None] * columns for _ in range(rows)]
    for css_class, d in paths.items():
        digit = css_class.removeprefix("z")
        cells = CELL.findall(d)
        assert "".join(f"M{x} {y}h{a}v{b}h-{c}z" for x, y, a, b, c in cells) == d, "only square cells"
        for x, y, a, b, c in cells:
            assert int(a) == int(b) == int(c) == res
            r, col = int(y) // res, int(x) // res
            assert grid[r][col] is None, f"cell {r},{col} drawn twice"
            grid[r][col] = digit
    assert all(cell is not None for row in grid for cell in row), "every cell is drawn"
    return ["".join(row) for row in grid]


@pytest.mark.parametrize("name, hy, hm", [("moon-en", 1447, 10), ("moon-ar", 1447, 9)])
def test_map_cells_are_the_api_grid(seen, server, name, hy, hm):
    maps = seen[name]["maps"]
    assert [m["evening"] for m in maps] == [-2, -1, 0, 1, 2]
    for shown in maps:
        api = _get_json(f"{server}/v1/moon-visibility", hy=hy, hm=hm, evening=shown["evening"], res=5)
        rows = _decode_cells(shown["paths"], 5, len(api["rows"]), len(api["rows"][0]))
        assert rows == api["rows"]
        per_zone = {d: sum(row.count(d) for row in rows) for d in "01234"}
        assert per_zone == api["counts"]["digits"]
        assert shown["coastDrawn"] and shown["widthPx"] > 500


def test_svg_endpoint_cells_are_the_api_grid(seen, server):
    (shown,) = seen["moon-svg"]["maps"]
    api = _get_json(f"{server}/v1/moon-visibility", hy=1447, hm=10, evening=0)
    rows = _decode_cells(shown["paths"], api["meta"]["res"], len(api["rows"]), len(api["rows"][0]))
    assert rows == api["rows"]
    assert {d: sum(row.count(d) for row in rows) for d in "01234"} == api["counts"]["digits"]


def _pdf_pages(path: str) -> int:
    pdfinfo = shutil.which("pdfinfo")
    if pdfinfo:
        out = subprocess.run([pdfinfo, path], capture_output=True, text=True, check=True).stdout
        return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", Path(path).read_bytes()))


@pytest.mark.parametrize("name", ["city-en", "city-fa", "city-ur-jafari"])
def test_printed_timetable_is_one_a4_page_per_month(seen, name):
    pdf = Path(seen[name]["pdf"])
    assert _pdf_pages(str(pdf)) == len(seen[name]["tables"]) == 2
    assert re.search(rb"/MediaBox\s*\[\s*0 0 59[45]\.\d+ 84[12]\.\d+", pdf.read_bytes()), "A4 (595 × 842 pt)"


@PRINT_GROUP
def test_every_month_of_a_year_prints_on_one_page_per_month(printed):
    assert len(printed) == 36
    pages = {name: _pdf_pages(page["pdf"]) for name, page in printed.items()}
    assert pages == {name: 2 for name in printed}  # this month and the next, one A4 page each
    assert all(page["errors"] == [] for page in printed.values())


def test_city_search_finds_karbala_from_its_name(seen):
    assert "/city/karbala/" in seen["index"]["search"]
    for lang in ("ar", "fa", "ur"):
        assert f"/city/karbala/{lang}/" in seen[f"home-{lang}"]["search"], lang


def test_screenshots_saved(seen):
    for page in PAGES:
        for width, _ in page["viewports"]:
            assert (ARTIFACTS / f"{page['name']}-{width}.png").stat().st_size > 10_000, page["name"]


# --- the notice board (issue 36) -------------------------------------------------------------------------------------

def _pdf_info(path: str) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def _plain_text(text: str) -> str:
    """Text as compared across a PDF's extraction: NFKC (Arabic presentation forms to letters), no spaces or format
    characters (pdftotext splits joined Nastaliq letters and adds bidi marks)."""
    return "".join(c for c in unicodedata.normalize("NFKC", text) if not c.isspace() and unicodedata.category(c) != "Cf")


NOTICE_PRINTS = ["notice-en", "notice-ur", "notice-en-2026-03", "notice-ur-2026-03"]


@pytest.mark.skipif(not all(shutil.which(tool) for tool in ("pdfinfo", "pdftotext", "pdftoppm", "zbarimg")),
                    reason="poppler-utils and zbar-tools are not installed (`make system-packages`)")
@pytest.mark.parametrize("name", NOTICE_PRINTS + ["notice-imsakiya-en", "notice-imsakiya-ur"])
def test_the_notice_board_prints_one_a4_page_with_the_name_and_a_qr_code_of_the_page(seen, committee, name, tmp_path):
    """One A4 portrait sheet (595 × 842 pt, pdfinfo; the old page printed three: a near-empty "Today" card first,
    the sources last), the mosque's name in the page's language on it (pdftotext), and a QR code (the page rendered
    to PNG by pdftoppm, read by zbarimg) that is the mosque's page in that language on the public origin."""
    from generator.site.urls import PUBLIC_ORIGIN  # the service's configured origin: a setting, not a computed value

    page = seen[name]
    assert page["status"] == 200 and page["errors"] == [], (name, page["errors"])
    info = _pdf_info(page["pdf"])
    assert int(info["Pages"]) == 1, (name, info["Pages"])
    width_pt, height_pt = (float(x) for x in re.match(r"\s*([\d.]+) x ([\d.]+) pts", info["Page size"]).groups())
    assert abs(width_pt - 595.28) < 1 and abs(height_pt - 841.89) < 1, (name, info["Page size"])  # A4 portrait
    lang = page["lang"]
    names = json.loads(COMMITTEE.read_text(encoding="utf-8"))["names"]
    text = subprocess.run(["pdftotext", page["pdf"], "-"], capture_output=True, text=True, check=True).stdout
    assert _plain_text(names[lang]) in _plain_text(text), name
    png = tmp_path / "page"
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", page["pdf"], str(png)], check=True)
    decoded = subprocess.run(["zbarimg", "-q", "--raw", f"{png}.png"], capture_output=True, text=True,
                             check=False).stdout.split()  # exit 4 when it finds no code: the assertion says so
    assert decoded == [f"{PUBLIC_ORIGIN}/mosque/{committee}/" + ("" if lang == "en" else f"{lang}/")], (name, decoded)


def test_the_mosque_page_links_the_months_around_it_and_its_ramadan_timetable(seen, committee):
    """From its page (this month, on the mosque's date) to the month before and after, and back from a month's page;
    the Ramadan timetable is linked from both."""
    today = datetime.now(ZoneInfo("Europe/London")).date()
    before, after = (today.replace(day=1) - timedelta(days=1)), (today.replace(day=28) + timedelta(days=4))
    links = {link["rel"]: link["href"] for link in seen["notice-en"]["links"] if link["rel"]}
    assert links == {"prev": f"/mosque/{committee}/en/{before:%Y-%m}/", "next": f"/mosque/{committee}/en/{after:%Y-%m}/"}
    march = {link["rel"]: link["href"] for link in seen["notice-ur-2026-03"]["links"] if link["rel"]}
    assert march == {"prev": f"/mosque/{committee}/ur/2026-02/", "next": f"/mosque/{committee}/ur/2026-04/"}
    for name, lang in (("notice-en", "en"), ("notice-ur-2026-03", "ur")):
        assert [link["href"] for link in seen[name]["links"] if link["imsakiya"]] == \
            [f"/mosque/{committee}/{lang}/imsakiya/"], name


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_a_month_page_of_the_mosque_equals_the_api(seen, server, lang):
    """March 2026 of the committee (Ramadan's last days, Eid, the clock change): every adhan and jamaat cell equals
    /v1/prayer-times of the committee's rules written out by hand."""
    (table,) = seen[f"notice-{lang}-2026-03"]["tables"]
    assert (table["year"], table["month"]) == ("2026", "03")
    api = _get_json(f"{server}/v1/prayer-times", **COMMITTEE_QUERY, year=2026, month=3)
    assert [row["date"] for row in table["rows"]] == [day["date"] for day in api["days"]]
    for row, day in zip(table["rows"], api["days"]):
        printed = (lambda hhmm: hhmm) if lang == "en" else _twelve_hour
        # the marks (*, †, ‡, –, and ° on asr and isha prayed with dhuhr and maghrib) stay beside the time; the time
        # itself is the API's
        assert {k: re.sub(r"[^0-9:]", "", v.translate(NATIVE_DIGITS)) for k, v in row["times"].items()} == \
            {k: printed(day["local"][k]) for k in row["times"]}, row["date"]
        assert {k: re.sub(r"[^0-9:]", "", v.translate(NATIVE_DIGITS)) for k, v in row["jamaat"].items()} == \
            {k: printed(day["jamaatLocal"][k]) if day["jamaatLocal"].get(k) else "" for k in row["jamaat"]}, row["date"]
        assert set(row["jamaat"]) == {"fajr", "dhuhr", "asr", "maghrib", "isha"}


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_the_mosque_ramadan_timetable_equals_the_api_with_its_jamaat(seen, server, committee, lang):
    """Ramadan 1447 under the committee's reckoning (/v1/hijri), each day's imsak, fajr, sunrise, dhuhr, maghrib
    (iftar), midnight, the jamaat of the five prayers and Friday's Jumu'ah equal /v1/prayer-times of the committee's
    rules written out by hand; the iftar jamaat is the maghrib adhan + 10 minutes on every day (the Ramadan rule,
    counted here); the old service had no such page (its city imsakiya has no jamaat)."""
    shown = seen[f"notice-imsakiya-{lang}"]["imsakiya"]
    assert shown["mosque"] == committee and shown["calendar"] == "moonsighting"
    month = _get_json(f"{server}/v1/hijri", hy=1447, hm=9, calendar="moonsighting")
    assert [row["date"] for row in shown["rows"]] == list(month["days"].values())
    assert [int(row["day"].translate(NATIVE_DIGITS)) for row in shown["rows"]] == [int(d) for d in month["days"]]
    printed = (lambda hhmm: hhmm) if lang == "en" else _twelve_hour
    for row in shown["rows"]:
        day = _get_json(f"{server}/v1/prayer-times", **COMMITTEE_QUERY, date=row["date"])["days"][0]
        assert {k: v.translate(NATIVE_DIGITS) for k, v in row["times"].items()} == \
            {k: printed(day["local"][k]) for k in ("imsak", "fajr", "sunrise", "dhuhr", "maghrib", "midnight")}
        assert {k: v.translate(NATIVE_DIGITS) for k, v in row["jamaat"].items()} == \
            {k: printed(day["jamaatLocal"][k]) for k in ("fajr", "dhuhr", "asr", "maghrib", "isha")}, row["date"]
        maghrib = datetime.strptime(day["local"]["maghrib"], "%H:%M")
        assert day["jamaatLocal"]["maghrib"] == f"{maghrib + timedelta(minutes=IFTAR_JAMAAT_MIN):%H:%M}", row["date"]
        friday = date.fromisoformat(row["date"]).weekday() == 4
        assert bool(row["slots"][0]) == friday and all(
            printed(t) in row["slots"][0].translate(NATIVE_DIGITS) for t in day["jamaatLocal"].get("jumuah") or [])
