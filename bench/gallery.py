"""The gallery of moments (issue 33): every human surface in four languages at the moments people act.

Readers review states, not strings: a string table read alone missed every wrong finding of the language review
of 28 November (a night named on the day after it, a countdown to an adhan a combining mosque never calls).  This
renders the pages, the screen at four TV sizes, the widget, the builder with an error, the 400/404/429 pages and the
feeds' text, in en, ar, fa and ur, each at the moments that matter (`MOMENTS`), and writes for each a screenshot and
the text a reader sees (``<surface>.png`` and ``.txt``) under test-artifacts/gallery/<moment>/<lang>/, with an
index (index.md) naming each moment and place.

How the moments are made: the app (uvicorn on loopback, an empty static root: every answer is rendered at the
moment) runs under libfaketime (Debian's ``faketime``; `make gallery` installs it), whose clock is read from a file
this script rewrites before each moment; Chromium's clock is set to the same instant (playwright's page.clock).  The
Hijri days (19th, 21st, 23rd of Ramadan 1447, Eid, Tasua, Ashura 1448) are asked of the app's own /v1/hijri under
each language's place's reckoning, so each place's moments are its own days.

Run: ``make gallery`` (or ``python -m bench.gallery [--only MOMENT,...] [--langs en,ar]``); about 4–8 min on
this 2-core machine.  Reviewers read test-artifacts/gallery/index.md, then the folders.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from deploy import local_stack

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "tests" / "peers"
ARTIFACTS = ROOT / "test-artifacts" / "gallery"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FAKETIME_LIBRARY = next((str(p) for p in Path("/usr/lib").glob("*/faketime/libfaketime.so.1")), None)


@dataclass(frozen=True)
class Place:
    """A language's place: a catalogue city, its zone and reckoning (what its pages open on)."""
    city: str
    tz: str
    calendar: str


PLACES = {"en": Place("london", "Europe/London", "moonsighting"), "ar": Place("karbala", "Asia/Baghdad", "moonsighting"),
          "fa": Place("tehran", "Asia/Tehran", "iran"), "ur": Place("karachi", "Asia/Karachi", "pakistan")}
# A mosque that prays asr with dhuhr and isha with maghrib, Jumu'ah in two slots and Eid; and one that does not.
COMBINING = "jamaat=fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib&jumuah=13:15,14:00&eid=07:30,09:00"
SEPARATE = "jamaat=fajr:15,dhuhr:10,asr:10,maghrib:5,isha:10&jumuah=13:15"
TV_SIZES = {"tv-1920x1080": (1920, 1080), "tv-1080x1920": (1080, 1920), "tv-1366x768": (1366, 768),
            "tv-1280x800": (1280, 800)}
PHONE = (390, 844)
DESKTOP = (1366, 900)


@dataclass(frozen=True)
class Moment:
    """A moment: its name, what a reader does then, the local day (a Gregorian date, or a Hijri day asked of
    /v1/hijri under the place's reckoning, shifted by ``day_shift``) and the local clock time."""
    name: str
    what: str
    clock: str
    gregorian: str | None = None
    hijri: tuple[int, int, int] | None = None
    day_shift: int = 0
    screens: bool = True
    # a language's place other than its usual one at this moment (Lucknow for Urdu: an Indian city and reckoning),
    # and the languages shown (default: all asked for)
    places: tuple[tuple[str, "Place"], ...] = ()
    langs: tuple[str, ...] = ()
    # what the index says of the moment beyond its name (e.g. that Iran has no clock change)
    note: str = ""

    def place(self, lang: str) -> "Place":
        return dict(self.places).get(lang, PLACES[lang])


MOMENTS = (
    Moment("ordinary", "an ordinary Monday morning", "10:00", gregorian="2026-11-30"),
    Moment("friday-before-jumuah", "a Friday before Jumu'ah", "11:30", gregorian="2026-12-04"),
    Moment("friday-after-jumuah", "a Friday after the first Jumu'ah slot", "14:05", gregorian="2026-12-04"),
    Moment("ramadan-predawn", "a Ramadan night before imsak (suhoor)", "04:00", hijri=(1447, 9, 10)),
    Moment("ramadan-afternoon", "a Ramadan afternoon before iftar", "16:30", hijri=(1447, 9, 10)),
    *(Moment(f"qadr-{n}-{part}", f"{what} the night of the {n}st/rd/th of Ramadan (Qadr)", clock,
             hijri=(1447, 9, n), day_shift=shift)
      for n in (19, 21, 23)
      for part, what, clock, shift in (("day-before", "the morning before", "10:00", -1),
                                      ("eve", "the afternoon before (tonight is)", "16:30", -1),
                                      ("day-after", "the morning after", "10:00", 0))),
    Moment("eid-morning", "the morning of Eid al-Fitr", "07:00", hijri=(1447, 10, 1)),
    Moment("tasua", "Tasua afternoon (9 Muharram 1448)", "16:30", hijri=(1448, 1, 9)),
    Moment("ashura", "Ashura morning (10 Muharram 1448)", "10:00", hijri=(1448, 1, 10)),
    Moment("clock-change", "the morning of a clock change (Europe, 29 March 2026)", "09:00", gregorian="2026-03-29",
           note="London's clocks went forward at 01:00 UTC that night. Tehran has no clock change: Iran abolished "
                "daylight saving time from 1402 (2023), so its page on this day is an ordinary one (Asia/Tehran "
                "UTC+03:30 all year); Karbala (Iraq, since 2008) and Karachi (Pakistan, since 2009) have none either."),
    # London's page in every language: the readers of ar, fa and ur had no clock change to read in their own words
    # (their places keep one time all year)
    Moment("clock-change-autumn", "the morning after the clocks go back (London, 25 October 2026)", "09:00",
           gregorian="2026-10-25", places=tuple((lang, PLACES["en"]) for lang in ("ar", "fa", "ur"))),
    Moment("india", "an ordinary morning in an Indian city (Lucknow, Urdu; the Markazi Shia Chand Committee's "
           "reckoning)", "10:00", gregorian="2026-11-30", langs=("ur",),
           places=(("ur", Place("lucknow", "Asia/Kolkata", "india")),)),
)
ONCE = "no-moment"  # the builder with an error and the 400/404/429 pages: at the ordinary moment only


def _get(base: str, path: str) -> bytes:
    with urllib.request.urlopen(base + path, timeout=60) as response:
        return response.read()


def local_day(base: str, moment: Moment, place: Place) -> date:
    if moment.gregorian:
        return date.fromisoformat(moment.gregorian)
    hy, hm, hd = moment.hijri
    answer = json.loads(_get(base, f"/v1/hijri?hy={hy}&hm={hm}&hd={hd}&calendar={place.calendar}"))
    return date.fromisoformat(answer["gregorian"]) + timedelta(days=moment.day_shift)


def _page(lang: str, path: str) -> str:
    return path if lang == "en" else path + f"{lang}/"


def runs_for(base: str, moment: Moment, lang: str, at_ms: int, out: Path) -> list[dict]:
    """The addresses shown at one moment in one language: (surface name, url, viewport, full page)."""
    place = moment.place(lang)
    lang_q = f"&lang={lang}"
    shots: list[tuple[str, str, tuple[int, int], bool, dict]] = [
        ("city-phone", _page(lang, f"/city/{place.city}/"), PHONE, True, {}),
        ("mosque-page-phone", "/mosque/jaffari-toronto/" + ("" if lang == "en" else f"{lang}/"), PHONE, True, {}),
        ("widget", f"/widget/?city={place.city}{lang_q}&{COMBINING}", (400, 700), True, {}),
    ]
    if moment.name in ("ordinary", "ramadan-afternoon", "india"):
        shots.append(("city-desktop", _page(lang, f"/city/{place.city}/"), DESKTOP, True, {}))
    if moment.name == "ordinary":  # the moon page of the coming Ramadan (1448), its maps and their captions
        shots.append(("moon-phone", _page(lang, "/moon/1448-9/"), PHONE, True, {}))
    if moment.name.startswith(("ramadan", "qadr", "eid", "india")):
        shots.append(("imsakiya-phone", f"/city/{place.city}/{lang}/imsakiya/", PHONE, True, {}))
    if moment.screens:
        for size, viewport in TV_SIZES.items():
            shots.append((f"screen-combining-{size}", f"/screen/?city={place.city}{lang_q}&{COMBINING}", viewport,
                          False, {}))
        shots.append(("screen-separate-tv-1920x1080", f"/screen/?city={place.city}{lang_q}&{SEPARATE}",
                      TV_SIZES["tv-1920x1080"], False, {}))
    if moment.screens and moment.name in ("tasua", "ashura", "eid-morning"):
        # the band's lines take turns every 8 s (screen.js): its second turn (Ashura's abstaining) read 9 s later
        shots.append(("screen-combining-tv-1920x1080-band-turn-2", f"/screen/?city={place.city}{lang_q}&{COMBINING}",
                      TV_SIZES["tv-1920x1080"], False, {"wait_ms": 9000}))
    if moment.name == "ordinary":
        shots += [
            ("builder-error-phone", "/mosque/new/" + ("" if lang == "en" else f"{lang}/"), PHONE, True,
             {"steps": [{"click": "#f-place-point"}, {"fill": "#f-lat", "value": "32.62"},
                        {"fill": "#f-lng", "value": "44.02"}, {"fill": "#f-tz", "value": "Asia/Baghdad"},
                        {"click": "details:has(#f-elevation) > summary"},
                        {"fill": "#f-elevation", "value": "99999"}, {"press": "Tab"}], "wait_ms": 3000}),
            ("page-400", f"/screen/?city={place.city}&date=2026-03-11{lang_q}", DESKTOP, True, {}),
            ("page-404", f"/{lang}/no-such-page/" if lang != "en" else "/city/no-such-city/", DESKTOP, True, {}),
            ("page-429", _page(lang, "/"), DESKTOP, True, {"html": _error_page(lang, 429)}),
        ]
    runs = []
    for surface, path, (width, height), full, extra in shots:
        runs.append({"name": f"{moment.name}/{lang}/{surface}", "url": base + path, "at": at_ms, "width": width,
                     "height": height, "full": full, "png": str(out / f"{surface}.png"),
                     "txt": str(out / f"{surface}.txt"), **extra})
    return runs


def _error_page(lang: str, status: int) -> str:
    from generator import site

    return site.error_page(f"/{lang}/" if lang != "en" else "/", status, lang).decode()


def feeds_text(base: str, lang: str, out: Path, place: Place) -> None:
    """The feeds' text a calendar shows: the city's prayer times (jamaat of the combining mosque) and the events feed
    the city page links (its community's days and nights: the third pass read the catalogue's feed instead, which
    has neither, ur UR3 note and ar AR3-05)."""
    from generator.places import cities
    from generator.site import timetable

    events = timetable.events_feed(place.calendar, timetable.city_community(cities.by_id()[place.city]), lang)
    for name, path in (("feed-prayer-times.ics", f"/v1/prayer-times.ics?city={place.city}&lang={lang}&{COMBINING}"),
                       ("feed-events.ics", events["href"])):
        try:
            (out / name).write_bytes(_get(base, path))
        except urllib.error.HTTPError as error:
            (out / name).write_text(f"HTTP {error.code}: {error.read()[:300]!r}\n")


class ServerClock:
    """The app's clock: libfaketime reads the instant from a file at every call (FAKETIME_NO_CACHE)."""

    def __init__(self, folder: Path):
        self.file = folder / "faketime"
        self.set(datetime.now(ZoneInfo("UTC")))

    def set(self, instant: datetime) -> None:
        self.file.write_text("@" + instant.astimezone(ZoneInfo("UTC")).strftime("%Y-%m-%d %H:%M:%S") + "\n")

    def env(self) -> dict:
        return {"LD_PRELOAD": FAKETIME_LIBRARY, "FAKETIME_TIMESTAMP_FILE": str(self.file), "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1", "TZ": "UTC"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="moments to render, comma-separated (default: all)")
    parser.add_argument("--langs", default="en,ar,fa,ur")
    args = parser.parse_args(argv)
    if FAKETIME_LIBRARY is None or not Path(CHROMIUM).exists():
        print("gallery: needs Debian's faketime and chromium (make gallery installs them)", file=sys.stderr)
        return 2
    moments = [m for m in MOMENTS if not args.only or m.name in args.only.split(",")]
    langs = args.langs.split(",")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    index = ["# The gallery of moments", "",
             "Each folder is a moment; in it one folder per language with a screenshot (.png) and the visible text "
             "(.txt) of each surface. Made by `make gallery` (bench/gallery.py).", ""]
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        static_root = folder / "static"
        static_root.mkdir()
        clock = ServerClock(folder)
        port = local_stack.free_port()
        base = f"http://127.0.0.1:{port}"
        app = local_stack.start_app(static_root, port, extra_env=clock.env())
        failures = 0
        try:
            local_stack.wait_until_up(base + "/v1/qibla?lat=0&lng=0", 120)
            for moment in moments:
                index.append(f"## {moment.name}: {moment.what}, {moment.clock} local")
                if moment.note:
                    index.append(moment.note)
                for lang in langs:
                    if moment.langs and lang not in moment.langs:
                        continue
                    place = moment.place(lang)
                    day = local_day(base, moment, place)
                    instant = datetime.combine(day, datetime.strptime(moment.clock, "%H:%M").time(),
                                               ZoneInfo(place.tz))
                    clock.set(instant)
                    out = ARTIFACTS / moment.name / lang
                    out.mkdir(parents=True, exist_ok=True)
                    runs = runs_for(base, moment, lang, int(instant.timestamp() * 1000), out)
                    if moment.name in ("ordinary", "india"):
                        feeds_text(base, lang, out, place)
                    result = subprocess.run(["node", str(PEERS / "gallery_shots.js")], cwd=PEERS, capture_output=True,
                                            input=json.dumps({"chromium": CHROMIUM, "runs": runs}), text=True,
                                            timeout=900)
                    if result.returncode != 0:
                        print(result.stderr[-2000:], file=sys.stderr)
                        failures += 1
                        continue
                    for run in json.loads(result.stdout)["runs"]:
                        note = f" (HTTP {run['status']})" if run["status"] not in (200, None) else ""
                        note += f" — script errors: {run['errors']}" if run["errors"] else ""
                        index.append(f"- {lang}, {place.city}, {instant.isoformat()}: `{run['name']}`{note}")
                    print(f"gallery: {moment.name} {lang} ({len(runs)} surfaces)", flush=True)
                index.append("")
        finally:
            local_stack.stop(app)
    (ARTIFACTS / "index.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    print(f"gallery: written to {ARTIFACTS.relative_to(ROOT)}/ (index.md)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
