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
  Nights of Qadr marked on their eves (18, 20, 22 Ramadan), and prints on one A4 page.

Screenshots and PDFs are saved in test-artifacts/site/.  Skipped only when Chromium is not
installed (`make system-packages` installs it).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from datetime import date, datetime, timezone
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
       "city": city} for lang, city in (("en", "london"), ("ar", "karbala"), ("fa", "mashhad"), ("ur", "lahore"))),
    {"name": "imsakiya-en-iran-jafari", "path": "/city/london/en/imsakiya/iran/Jafari/", "kind": "imsakiya",
     "city": "london"},
    *({"name": f"month-{lang}", "path": "MONTH", "kind": "month", "lang": lang, "city": "beirut"} for lang in LANGS),
    # a mosque's page (issue 20): data/mosques/jaffari-toronto.json
    *({"name": f"mosque-{lang}", "path": f"/mosque/{MOSQUE}/" + ("" if lang == "en" else f"{lang}/"), "kind": "mosque"}
      for lang in LANGS),
]
for _page in PAGES:
    _page.setdefault("viewports", VIEWPORTS)
pytestmark = pytest.mark.xdist_group("browser")


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


@pytest.fixture(scope="module")
def seen(server, tmp_path_factory):
    """What the browser saw on every page (one Chromium session for all of them)."""
    started = time.perf_counter()
    sweep = _print_sweep(tmp_path_factory.mktemp("print"))
    next_month = _next_month(date.today())
    pages = [{**page, "path": f"/city/{page['city']}/{page['lang']}/Tehran/{next_month}/"} if page["path"] == "MONTH"
             else page for page in PAGES]
    config = {"base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS), "pages": pages + sweep}
    pages = {page["name"]: page for page in run_node_peer("site_check.js", "playwright-core", config)["pages"]}
    print(f"browser session: {len(pages)} pages in {time.perf_counter() - started:.1f} s")
    return pages


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
            assert [(v["width"], v["height"]) for v in page["layout"]] == [PHONE, DESKTOP], name


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
    assert len(layout["webcal"]) == 2 and all(h.startswith(f"webcal://{host}/v1/") for h in layout["webcal"])
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


def test_every_month_of_a_year_prints_on_one_page_per_month(seen):
    printed = {name: page for name, page in seen.items() if name.startswith("print-")}
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
