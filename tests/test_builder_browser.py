"""The mosque builder (/mosque/new/, issue 27) as a new admin uses it, in Chromium (tests/peers/builder_check.js).

The admin of a Birmingham Hussainiya following the Sistani office's printed table, with combined prayers (asr with
dhuhr, isha with maghrib), Jumu'ah and Eid slots and a weekly fajr, composes it in each of the four languages: the
city found by its name in that language and chosen with the keyboard, the rules chosen in the form.  The references:

* the JSON API of the same server, asked here with the query this file writes independently (`EXAMPLE_QUERY`): the
  preview's table equals its ``local`` and ``jamaatLocal`` for every day of March 2026 (the UK clock change), and
  the screen, widget and feed addresses the page gives carry that query and answer 200;
* the method preselected is the authority of Birmingham's printed table, the Sistani office in London
  (ImamAliFoundation: najaf.org/english/prayer/birmingham, docs/decisions.md "Printed timetables");
* the profile the page writes is `EXAMPLE_PROFILE`, written here by hand in the data/mosques format, and the
  format's reader (generator.prayer.mosques) accepts it;
* zbar (Debian's zbar-tools, an independent decoder) reads the page's QR codes as the addresses beside them;
* published (POST /v1/mosques), the profile is served as sent and /v1/prayer-times?mosque=<id> equals the preview;
  its edit link, opened in a phone-sized window, loads it, and a change saved there (dhuhr 13:45, a new
  announcement) is on the TV's screen of the profile within a minute (the screen polls the profile's version).

Also: no page scrolls sideways at 1366 px or on a 390 px phone, no two form controls overlap, no script error,
and every request stays on loopback.  Screenshots in test-artifacts/builder/.  Skipped only without Chromium.
"""
from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo
import shutil
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from conftest import browser_app_server, run_node_peer

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "builder"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
NATIVE_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")
YEAR, MONTH = 2026, 3
pytestmark = pytest.mark.xdist_group("browser-builder_browser")  # one worker: its module fixture runs the browser once
LANGS = ("en", "ar", "fa", "ur")
SEARCH = {"en": "Birmingham", "ar": "برمنغهام", "fa": "بیرمنگام", "ur": "برمنگھم"}  # /v1/cities' names
NAMES = {"en": "Birmingham Hussainiya", "ar": "حسينية برمنغهام", "fa": "حسینیهٔ بیرمنگام", "ur": "برمنگھم حسینیہ"}
RULES = {"fajr": ["after", "20", "5", "fri"], "dhuhr": ["fixed", "13:30"], "asr": ["with"],
         "maghrib": ["after", "5"], "isha": ["with"]}
ANNOUNCEMENT = "Majlis every Thursday after isha"
SOURCE = "The committee's timetable for 2026"
# The query the admin's choices stand for, written here from the API's documented grammar (docs/decisions.md "Jamaat").
EXAMPLE_QUERY = {"city": "birmingham", "method": "ImamAliFoundation",
                 "jamaat": "fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:5",
                 "jamaatWeekly": "fajr:fri", "jumuah": "13:15", "eid": "07:30,09:00", "calendar": "moonsighting"}


# Issue 36: the method's option for Birmingham, which has the Sistani office's own printed table
# (najaf.org/english/prayer/birmingham), written here in each language with the city's name as /v1/cities gives it.
PRINTED_TABLE = {"en": "The Sistani office's printed table for Birmingham",
                 "ar": "الجدول المطبوع لمدينة برمنغهام الصادر عن مكتب السيد السيستاني",
                 "fa": "جدول چاپی دفتر آیت‌الله سیستانی برای بیرمنگام",
                 "ur": "برمنگھم کے لیے آیت اللہ سیستانی کے دفتر کا شائع شدہ جدول"}


def example_profile(lang: str) -> dict:
    """The profile of the example in the data/mosques format (docs/mosques.md), as written by hand."""
    return {"names": {"en": NAMES["en"], **({lang: NAMES[lang]} if lang != "en" else {})},
            "place": {"city": "birmingham"}, "times": {"method": "ImamAliFoundation"},
            "jamaat": {k: EXAMPLE_QUERY[k] for k in ("jamaat", "jamaatRound", "jamaatWeekly", "jumuah", "eid")},
            "reckoning": "moonsighting", "languages": [lang] if lang == "en" else [lang, "en"],
            "announcements": [{"text": {lang: ANNOUNCEMENT}, "weekdays": ["thu"]}], "sources": [{"about": SOURCE}]}


# A mosque given by its coordinates and zone (the Jaffari Community Centre's, data/mosques/jaffari-toronto.json), the
# method left at what the builder preselects there (no place row: the SPEC's Tehran), fajr before sunrise.
POINT = {"lat": "43.84", "lng": "-79.46", "tz": "America/Toronto"}
POINT_QUERY = {**POINT, "method": "Tehran", "jamaat": "fajr:sunrise-30,maghrib:10"}
POINT_JOB = {"lang": "fa", "name": "point", "point": POINT, "names": {"en": "Jaffari Community Centre"},
             "rules": {"fajr": ["sunrise", "30"], "maghrib": ["after", "10"]}, "fields": {"f-source-about": SOURCE},
             "publish": False}


# Issue 33: the Leicester committee's second Jumu'ah at 14:00 (kept as set on the winter Fridays past the computed
# asr: a warning naming them and the view behind it) and a fixed fajr 07:30 (after sunrise from spring to autumn: the
# committee must choose what happens on those days before publishing).
WARN_JOB = {"lang": "en", "name": "warnings", "search": "Leicester", "names": {"en": "Leicester Hussainiya"},
            "rules": {"fajr": ["fixed", "07:30"], "dhuhr": ["fixed", "13:15"], "asr": ["with"]},
            "fields": {"f-jumuah": "13:00,14:00", "f-source-about": SOURCE}, "publish": False,
            "warnings": {"choose": "keep"}}


# Gallery review UR2-6 (Urdu reader, 28 November; issue 33): beside the elevation field, with 99999 typed and left, the
# builder said «قبول نہیں کیا گیا: ۰ سے ۹۰۰۰ تک کا کوئی عدد ہونا چاہیے» ("rejected", while nothing was sent, and no
# subject). The field's limits are the SPEC's (elevation: 0 to 9000 metres).
ERROR_JOB = {"lang": "ur", "name": "ur-error", "search": "کراچی", "names": {"en": "Karachi Imambargah"}, "rules": {},
             "fields": {"f-elevation": "99999", "f-source-about": "Karachi"}, "publish": False, "fieldErrors": True}


def job(lang: str) -> dict:
    fields = {"f-jumuah": "13:15", "f-eid": "07:30,09:00", f"f-ann-0-{lang}": ANNOUNCEMENT, "f-ann-0-day-thu": True,
              "f-source-about": SOURCE,
              "f-lang-en": True}
    return {"lang": lang, "search": SEARCH[lang], "names": {"en": NAMES["en"], lang: NAMES[lang]}, "rules": RULES,
            "fields": fields, "publish": lang in ("en", "ur")}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from browser_app_server(tmp_path_factory, CHROMIUM)


# Issue 36: the Leicester committee's rules (mosque trial of 28 November 2026, REPORT.md "Build", the rules it gives
# row by row) entered on a 390×844 phone with the form's controls only, as a secretary does: each box tapped, then
# typed on the phone's keyboard as people write times ("1315", "1pm, 2pm"), the drop-downs chosen. No rule in a
# grammar: no box of the typed jamaat language is touched.
COMMITTEE_PROFILE = ROOT / "tests" / "fixtures" / "builder" / "leicester_committee.json"
COMMITTEE_STEPS = [
    {"type": "#f-name-en", "text": "Leicester Hussainiya"},
    {"keyboard": "ur"}, {"type": "#f-name-ur", "text": "حسینیہ لیسٹر"}, {"keyboard": "en"},
    {"type": "#f-city-q", "text": "Leicester"}, {"tap": "#city-results button", "wait": True},
    {"read": "#f-method", "as": "method"},
    {"select": "#j-kind-fajr", "value": "after"}, {"type": "#j-value-fajr", "text": "10"},
    {"select": "#j-round-fajr", "value": "5"},
    {"select": "#j-kind-dhuhr", "value": "fixed"}, {"type": "#j-value-dhuhr", "text": "1315"},
    {"select": "#j-kind-asr", "value": "with"},
    {"select": "#j-kind-maghrib", "value": "after"}, {"type": "#j-value-maghrib", "text": "5"},
    {"select": "#j-kind-isha", "value": "with"},
    {"type": "#f-jumuah", "text": "1pm, 2pm"}, {"type": "#f-eid", "text": "0830, 1000"},
    {"tap": "#season-add"},  # a new row: summer time, dhuhr, minutes after the adhan
    {"select": "#season-rules li:nth-child(1) .s-kind", "value": "fixed"},
    {"type": "#season-rules li:nth-child(1) .s-value", "text": "1345"},
    {"tap": "#season-add"},
    {"select": "#season-rules li:nth-child(2) .s-when", "value": "jamaatRamadan"},
    {"select": "#season-rules li:nth-child(2) .s-prayer", "value": "fajr"},
    {"type": "#season-rules li:nth-child(2) .s-value", "text": "15"},
    {"select": "#season-rules li:nth-child(2) .s-round", "value": "1"},  # not rounded: 06:11, not 06:15 (REPORT)
    {"type": "#f-jumuahDst", "text": "1:30pm, 2:30pm"},
    # ticked once the times have answered: a change that asks no new times still redraws the frames (28 November CI:
    # the Urdu widget's frame stayed empty when the tick came after the last answer)
    {"check": "#f-lang-ur", "settledBefore": True},
    {"type": "#f-source-about", "text": "The committee's rules, agreed at its meeting of November 2026"},
]
# The keystroke-level model of Card, Moran & Newell (The Psychology of Human-Computer Interaction, 1983; "The
# Keystroke-Level Model for User Performance Time with Interactive Systems", CACM 23(7), 1980): operator times in s.
KLM_K_S = 0.50  # a keystroke: their "typing random letters" (0.50), slower than an average typist's 0.28: a thumb on glass
KLM_P_S = 1.10  # pointing at a target
KLM_B_S = 0.20  # a button pressed and released (BB)
KLM_M_S = 1.35  # mental preparation: one per step (each box, choice or button decided)
PHONE_HEIGHT_PX = 844
TEN_MINUTES_S = 600  # the target for the whole builder on a phone


@pytest.fixture(scope="module")
def seen(server):
    """The builder composed in each language, by coordinates and with warnings, then edited from a phone while a TV
    shows the published screen: one Chromium."""
    edit = {"rules": {"dhuhr": ["fixed", "13:45"]}, "fields": {"f-ann-0-en": "Majlis moved to Friday"}, "tvMs": 60000}
    return _run_builder_check(server, {"compose": [job(lang) for lang in LANGS] + [POINT_JOB, WARN_JOB, ERROR_JOB],
                                       "edit": edit})


# The Leicester committee's phone run and the draft and edit-link checks: a Chromium of their own on another worker
# (the two sessions are each about a minute; one after the other they were the suite's longest group).
COMMITTEE_GROUP = pytest.mark.xdist_group("browser-builder_committee")


@pytest.fixture(scope="module")
def kept(server):
    """The committee's run on a phone, then the draft kept and the edit links checked on open."""
    keeping = {"name": "Draft Hussainiya", "search": "Leicester", "typing": ["8:3", "0pm"], "wrong": "25:00",
               "links": {"wrong": "#edit={id}.AAAAAAAAAAAAAAAAAAAAAA", "cut": "#edit={id}", "short": "#edit={id}.AbCd"}}
    # a profile written before issue 36 (typed summer and Ramadan rules: tests/fixtures/mosques), published by the API
    old = json.loads((ROOT / "tests" / "fixtures" / "mosques" / "leicester-committee.json").read_text(encoding="utf-8"))
    request = urllib.request.Request(f"{server}/v1/mosques", data=json.dumps(old).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        created = json.loads(response.read())
    keeping["oldProfile"] = f"#edit={created['id']}.{created['edit']}"
    return _run_builder_check(server, {"compose": [], "committee": {"lang": "en", "steps": COMMITTEE_STEPS, "publish": True},
                                       "keeping": keeping})


def _run_builder_check(server: str, jobs: dict) -> dict:
    try:
        return run_node_peer("builder_check.js", "playwright-core", {
            "base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS), "year": YEAR, "month": MONTH, **jobs})
    except subprocess.CalledProcessError as failure:  # the peer's own message, not only its exit status
        pytest.fail(f"builder_check.js failed: {failure.stderr[-4000:]}")


def get(url: str) -> tuple[int, bytes, dict]:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.status, response.read(), dict(response.headers)


def api(server: str, path: str, query: dict) -> dict:
    return json.loads(get(f"{server}{path}?{urllib.parse.urlencode(query)}")[1])


def plain(text: str) -> str:
    return text.translate(NATIVE_DIGITS)


def printed(hhmm: str, lang: str) -> str:
    """The API's HH:MM as printed timetables write it: 12-hour without the part of the day in Arabic and Urdu
    (Iraqi and Pakistani tables: "1:30" for 13:30, "12:05" for 00:05 and 12:05), 24-hour in English and Persian."""
    if lang not in ("ar", "ur"):
        return hhmm
    hours, minutes = int(hhmm[:2]), hhmm[3:]
    return f"{hours - 12 if hours > 12 else hours or 12}:{minutes}"


def run_of(seen: dict, name: str) -> dict:
    return next(r for r in seen["runs"] if r["name"] == name)


@pytest.mark.parametrize("lang", LANGS)
def test_the_builder_composes_the_birmingham_example(seen, lang):
    """The city found by its name in the page's language and chosen by keyboard; its printed table's authority
    preselected; the rules accepted (no error beside any field); no script error, nothing off loopback."""
    run = run_of(seen, lang)
    assert run["errors"] == [] and run["keyboardReachesResults"]
    assert run["method"] == "ImamAliFoundation" and run["methodOwnShown"] and run["reckoning"] == "moonsighting"
    # issue 36: the table Birmingham has of its own is named as what it is, the city in the page's language
    assert run["methodLabel"] == PRINTED_TABLE[lang], run["methodLabel"]
    assert run["valid"] == "true" and run["errors"] == [] and not [e for e in run["errors"] if e]


@pytest.mark.parametrize("lang", LANGS)
def test_the_preview_equals_the_api(seen, server, lang):
    """Every day of March 2026: the adhan columns equal /v1/prayer-times' ``local``, the jamaat columns its
    ``jamaatLocal`` (asr with dhuhr's, isha with maghrib's), Fridays list the Jumu'ah slot."""
    run = run_of(seen, lang)
    answer = api(server, "/v1/prayer-times", {**EXAMPLE_QUERY, "year": YEAR, "month": MONTH})
    rows = run["table"]["rows"]
    assert [r["date"] for r in rows] == [d["date"] for d in answer["days"]] and len(rows) == 31
    for row, day in zip(rows, answer["days"]):
        # asr and isha prayed with dhuhr and maghrib (the query's asr:dhuhr, isha:maghrib): marked ° as the start of
        # their recommended time, not an adhan (issue 33)
        combined = {"asr", "isha"}
        assert {k: plain(v) for k, v in row["times"].items()} == {k: printed(day["local"][k], lang) + "°" * (k in combined)
                                                                  for k in row["times"]}, day["date"]
        jamaat = {k: plain(v).rstrip("*†") for k, v in row["jamaat"].items()}
        assert jamaat == {k: printed(day["jamaatLocal"][k], lang) for k in ("fajr", "dhuhr", "asr", "maghrib", "isha")}
        slot = printed("13:15", lang)
        assert (slot in plain(row["slots"])) == bool(day["jamaatLocal"].get("jumuah")), day["date"]
    fridays = [d for d in answer["days"] if d["jamaatLocal"].get("jumuah")]
    assert len(fridays) == 4 and all(d["jamaatLocal"]["dhuhr"] == "13:15" for d in fridays)
    if lang == "ar":  # issue 33 (language review 2026-11-28 ar D1 E): «الإقامة الفجر», two definite nouns, is not Arabic
        head = run["table"]["head"]
        assert "جماعة الفجر" in head and not [h for h in head if h.startswith("الإقامة ")], head


@pytest.mark.parametrize("lang", ("ar", "fa", "ur"))
def test_a_city_found_is_named_with_its_country_in_the_pages_language(seen, lang):
    """Issue 33 (language review 2026-11-28 ar J1 E, fa FA-27): «بغداد (Baghdad), IQ» put a Latin comma and an ISO code
    inside Arabic text; the result is the city, its English name, the language's comma and the country's name (the
    names Chromium's CLDR data give the United Kingdom in each language)."""
    country = {"ar": "المملكة المتحدة", "fa": "بریتانیا", "ur": "سلطنت متحدہ"}[lang]
    result = run_of(seen, lang)["cityResult"]
    assert result.endswith("، " + country) and ", GB" not in result, result


@pytest.mark.parametrize("lang", LANGS)
def test_the_outputs_open_the_same_screen_widget_and_feeds(seen, server, lang):
    """The screen and widget frames, the screen address, the widget snippet and both feed links carry the
    example's query (and the screen's language, name and announcement); each answers 200 with its kind."""
    run = run_of(seen, lang)
    first = lang  # the screen shows the page's language first (the admin's language, ticked first)
    # issue 36: a mosque of two languages (ar, fa and ur with English here) shows the other beside it
    second = {} if lang == "en" else {"lang2": "en"}
    for src in (run["frames"]["landscape"], run["frames"]["portrait"], run["outputs"]["o-screen"]):
        parts = urllib.parse.urlsplit(src)
        query = dict(urllib.parse.parse_qsl(parts.query))
        assert parts.path == "/screen/" and query == {**EXAMPLE_QUERY, "lang": first, "name": NAMES[lang],
                                                      "note": ANNOUNCEMENT, **second}, src
        status, body, headers = get(server + parts.path + "?" + parts.query)
        assert status == 200 and (b'class="screen bilingual"' if second else b'class="screen"') in body
    # each language's own screen (the other beside it) and widget
    assert [item["lang"] for item in run["outputs"]["languages"]] == ([] if lang == "en" else [lang, "en"])
    for item in run["outputs"]["languages"]:
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(item["screen"]).query))
        other = "en" if item["lang"] == lang else lang
        assert query["lang"] == item["lang"] and query["lang2"] == other, item
        status, body, _ = get(server + item["screen"])
        assert status == 200 and b'class="screen bilingual"' in body and f'<html lang="{item["lang"]}"'.encode() in body
        assert f'data-lang="{item["lang"]}"' in item["widget"] and item["widget"].startswith(f'<script src="{server}/widget.js"')
    widget = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(run["frames"]["widget"]).query))
    assert widget == {**EXAMPLE_QUERY, "lang": first, "name": NAMES[lang]}
    snippet = run["outputs"]["o-widget"]
    assert snippet.startswith(f'<script src="{server}/widget.js" data-city="birmingham" data-method="ImamAliFoundation"')
    assert 'data-jamaat-round="fajr:5"' in snippet and 'data-jamaat-weekly="fajr:fri"' in snippet
    webcal, https = run["outputs"]["o-webcal"], run["outputs"]["o-https"]
    assert webcal.removeprefix("webcal://") == https.removeprefix("http://")
    parts = urllib.parse.urlsplit(https)
    assert parts.path == "/v1/prayer-times.ics"
    assert dict(urllib.parse.parse_qsl(parts.query)) == {**EXAMPLE_QUERY, "lang": first}
    status, body, headers = get(https)
    assert status == 200 and headers["content-type"].startswith("text/calendar") and body.count(b"BEGIN:VEVENT") > 100
    assert b"T131500Z" in body  # the rules reach the feed: Jumu'ah at 13:15 (GMT from late October to March)
    assert run["clipboard"] == run["outputs"]["o-screen"]  # the copy button copies the address shown


@pytest.mark.parametrize("lang", LANGS)
def test_the_profile_file_is_the_data_mosques_format(seen, lang):
    """The profile the page offers is the example written by hand (sources read today), and the data/mosques
    reader accepts it."""
    from generator.prayer import mosques

    profile = json.loads(run_of(seen, lang)["outputs"]["o-profile"])
    read = profile["sources"][0].pop("read")
    assert len(read) == 10 and read[4] == "-" and profile == example_profile(lang)
    profile["sources"][0]["read"] = read
    assert mosques.parse(profile, "birmingham-hussainiya", "builder").names["en"] == NAMES["en"]


def test_the_qr_codes_read_as_their_addresses(seen):
    """zbar reads the screen's QR code as the screen address and the feed's as the webcal link."""
    zbar = shutil.which("zbarimg")
    if zbar is None:
        pytest.skip("zbarimg is not installed (Debian package zbar-tools: make system-packages)")
    run = run_of(seen, "en")
    for image, address in (("o-screen-qr", run["outputs"]["o-screen"]), ("o-feed-qr", run["outputs"]["o-webcal"])):
        out = subprocess.run([zbar, "--quiet", "--raw", str(ARTIFACTS / f"builder-en-{image}.png")],
                             capture_output=True, text=True, timeout=60)
        assert out.stdout.strip() == address


def test_a_published_profile_is_served_as_composed(seen, server):
    """Published (in Urdu; the English one is edited below): /v1/mosques/<id> is the profile the page showed; the
    short screen address leads to the screen in the mosque's first language; /v1/prayer-times?mosque=<id> equals
    the preview's query; the edit link is a fragment (never sent to a server) with a secret of at least 128 bits."""
    lang = "ur"
    published = run_of(seen, lang)["published"]
    profile_url = urllib.parse.urlsplit(published["outputs"]["o-screen"]).path.split("/")
    mosque_id = profile_url[2]
    served = api(server, f"/v1/mosques/{mosque_id}", {})
    assert served == json.loads(published["outputs"]["o-profile"])
    edit = urllib.parse.urlsplit(published["outputs"]["o-edit"])
    assert edit.path == "/mosque/new/" + ("" if lang == "en" else f"{lang}/") and not edit.query
    edit_id, secret = edit.fragment.removeprefix("edit=").split(".")
    assert edit_id == mosque_id and len(secret) >= 22  # base64url: 22 characters are 132 bits
    # Issue 34: the link is in its field, never in the address bar (history and synced tabs keep what it shows)
    assert secret not in published["address"] and "#" not in published["address"]
    request = urllib.request.Request(f"{server}/mosque/{mosque_id}/screen/", method="GET")
    opener = urllib.request.build_opener(type("NoRedirect", (urllib.request.HTTPRedirectHandler,),
                                              {"redirect_request": lambda *a, **k: None}))
    with pytest.raises(urllib.error.HTTPError) as redirect:
        opener.open(request, timeout=30)
    redirect.value.close()
    assert redirect.value.code == 302
    assert redirect.value.headers["Location"] == f"/screen/?mosque={mosque_id}&lang={lang}"
    by_id = api(server, "/v1/prayer-times", {"mosque": mosque_id, "year": YEAR, "month": MONTH})
    by_query = api(server, "/v1/prayer-times", {**EXAMPLE_QUERY, "year": YEAR, "month": MONTH})
    assert [(d["local"], d["jamaatLocal"]) for d in by_id["days"]] == [(d["local"], d["jamaatLocal"])
                                                                         for d in by_query["days"]]


def test_edit_links_are_added_and_rotated_from_the_builder(seen, server):
    """Issue 34: the builder opened by an edit link adds a named link for a second member (shown once in its field,
    listed beside "(this link)") and gives its own link a new secret; asked of the API directly: the added link
    and the rotated one open the versions, the link the phone opened with is refused (403), and no secret is in
    the address bar."""
    links = seen["edit"]["links"]
    assert seen["edit"]["errors"] == []
    assert "treasurer" in links["label"] and sorted(links["listed"]) == ["first (this link)", "treasurer Revoke"]
    published = run_of(seen, "en")["published"]
    mosque_id, old = urllib.parse.urlsplit(published["outputs"]["o-edit"]).fragment.removeprefix("edit=").split(".")

    def versions_status(secret: str) -> int:
        request = urllib.request.Request(f"{server}/v1/mosques/{mosque_id}/versions",
                                         headers={"Authorization": f"Bearer {secret}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as error:
            error.close()
            return error.code

    added = urllib.parse.urlsplit(links["added"]).fragment.removeprefix("edit=").split(".")
    rotated = urllib.parse.urlsplit(links["rotated"]).fragment.removeprefix("edit=").split(".")
    assert added[0] == rotated[0] == mosque_id and len({old, added[1], rotated[1]}) == 3
    assert versions_status(added[1]) == 200 and versions_status(rotated[1]) == 200
    assert versions_status(old) == 403
    assert "#" not in links["address"]


def test_an_edit_from_a_phone_reaches_the_screen_within_a_minute(seen, server):
    """The edit link opened in a 390-px window loads the profile (the form shows it), the change is saved, and
    the TV showing /mosque/<id>/screen/ shows the new dhuhr jamaat and announcement once its clock has run 60 s
    (Playwright's clock: the TV's minute is the test's, not the machine's)."""
    edit = seen["edit"]
    assert edit is not None and edit["errors"] == []
    assert edit["loaded"]["method"] == "ImamAliFoundation" and edit["loaded"]["valid"] == "true"
    assert "#" not in edit["loaded"]["address"]  # issue 34: the fragment read, then out of the address bar
    assert edit["phoneScrollWidth"] <= 390
    assert edit["before"]["notes"] == [ANNOUNCEMENT] and edit["after"]["notes"] == ["Majlis moved to Friday"]
    assert edit["reloaded"], edit  # the poll's answer, within the TV's minute, reloaded the screen
    published = run_of(seen, "en")["published"]
    mosque_id = urllib.parse.urlsplit(published["outputs"]["o-screen"]).path.split("/")[2]
    edited = json.loads(published["outputs"]["o-profile"])
    edited["jamaat"]["jamaat"] = edited["jamaat"]["jamaat"].replace("dhuhr:13:30", "dhuhr:13:45")
    edited["announcements"] = [{"text": {"en": "Majlis moved to Friday"}, "weekdays": ["thu"]}]
    assert api(server, f"/v1/mosques/{mosque_id}", {}) == edited  # the edit, and nothing else, saved
    friday = datetime.now(ZoneInfo("Europe/London")).weekday() == 4  # a Friday's dhuhr is the Jumu'ah slot
    assert plain(edit["after"]["dhuhr"] or "") == ("13:15" if friday else "13:45")


def test_coordinates_and_a_zone_preview_the_api(seen, server):
    """A place given by coordinates and zone (Persian page: 24-hour clock): the preview equals /v1/prayer-times of
    those coordinates, the method preselected is the SPEC's default, fajr's jamaat 30 minutes before sunrise."""
    run = run_of(seen, "point")
    assert run["errors"] == [] and run["valid"] == "true" and run["method"] == "Tehran"
    answer = api(server, "/v1/prayer-times", {**POINT_QUERY, "year": YEAR, "month": MONTH})
    for row, day in zip(run["table"]["rows"], answer["days"], strict=True):
        assert {k: plain(v) for k, v in row["times"].items()} == {k: day["local"][k] for k in row["times"]}
        assert {k: plain(v).rstrip("*†") for k, v in row["jamaat"].items()} == {
            k: day["jamaatLocal"][k] for k in ("fajr", "maghrib")}, day["date"]
    screen = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(run["frames"]["landscape"]).query))
    assert {k: screen[k] for k in POINT_QUERY} == POINT_QUERY
    assert json.loads(run["outputs"]["o-profile"])["place"] == {"lat": 43.84, "lng": -79.46, "tz": "America/Toronto"}


@pytest.mark.parametrize("name", [*LANGS, "point"])
def test_no_sideways_scroll_and_no_overlapping_controls(seen, name):
    for layout in run_of(seen, name)["layout"]:
        assert layout["scrollWidth"] <= layout["width"], layout
        assert layout["overlaps"] == [], layout


def test_the_builder_warns_naming_the_days_and_publishing_needs_the_committees_choice(seen, server):
    """Issue 33.  The days are worked out here from the API's own adhan times (not from the page): the Fridays of the
    preview's year on which 14:00 (zoneinfo, Europe/London) is within Jumu'ah's two rak'as (4 minutes) of the computed
    asr or after it, and the days on which 07:30 is at or after sunrise.  The Jumu'ah warning names each such Friday
    (as the page writes a date: weekday, day, month) and the view behind it (glossary builder.view_jumuah); the fajr
    warning names the first such day; publishing is refused beside the choice's field until one is chosen; the
    published profile carries the choice."""
    from generator.words import glossary

    run = run_of(seen, "warnings")
    # the one 400 is the refused publish itself (Chromium logs every 4xx answer to the console)
    assert [e for e in run["errors"] if "status of 400" not in e] == [] and len(run["errors"]) <= 1, run["errors"]
    tz = ZoneInfo("Europe/London")
    days = api(server, "/v1/prayer-times", {"city": "leicester", "method": "ImamAliFoundation", "year": YEAR})["days"]

    def at(iso: str, hhmm: str) -> datetime:
        return datetime.combine(date.fromisoformat(iso), time.fromisoformat(hhmm), tz)

    def utc(instant: str) -> datetime:
        return datetime.fromisoformat(instant.replace("Z", "+00:00"))

    def written(iso: str) -> str:
        d = date.fromisoformat(iso)
        return f"{d.strftime('%A')} {d.day} {d.strftime('%B')}"  # English names (the C locale's)

    contested = [d["date"] for d in days if date.fromisoformat(d["date"]).weekday() == 4
                 and at(d["date"], "14:00") > utc(d["asr"]) - timedelta(minutes=4)]
    outside = [d["date"] for d in days if at(d["date"], "07:30") >= utc(d["sunrise"])]
    assert len(contested) == 11 and outside
    (jumuah,) = [w for w in run["warnings"] if w.startswith("Jumu'ah") and glossary.term("builder.view_jumuah")["en"] in w]
    for iso in contested:
        assert written(iso) in jumuah, (iso, jumuah)
    (fajr,) = [w for w in run["warnings"] if w.startswith("Fajr") and "outside" in w]
    assert written(outside[0]) in fajr and "more days" in fajr
    assert "jamaat.jamaatOutside:" in run["refusal"]
    assert json.loads(run["publishedProfile"])["jamaat"]["jamaatOutside"] == "keep"


def klm_seconds(counts: dict) -> float:
    """The committee's time by the keystroke-level model: each tap a point and a press (P + BB), each keystroke K, each
    step one M, each screen's height scrolled a swipe (P + BB)."""
    swipes = -(-counts["scrolledPx"] // PHONE_HEIGHT_PX)
    return ((counts["taps"] + swipes) * (KLM_P_S + KLM_B_S) + counts["keys"] * KLM_K_S + counts["steps"] * KLM_M_S)


@COMMITTEE_GROUP
def test_the_leicester_committee_finishes_on_a_phone_in_under_ten_minutes_without_typing_a_rule(kept, server):
    """Issue 36.  The Leicester committee's rules entered on a 390-px phone with form controls only; the profile the
    service then holds (GET /v1/mosques/<id>) equals tests/fixtures/builder/leicester_committee.json, written by hand
    from the trial's REPORT; the method is named as the printed table it is; by the keystroke-level model (Card, Moran &
    Newell) the run takes under ten minutes; no box of the typed jamaat grammar was touched; every /v1/prayer-times
    request of the page and its frames is counted (printed; the test server runs without a rate limit)."""
    run = kept["committee"]
    counts = run["counts"]
    # a box half typed ("1p" of "1pm") is asked and refused (400, held unseen until the box is left): nothing else
    assert [e for e in run["errors"] if "status of 400" not in e] == [], run["errors"]
    assert run["beforePublish"]["errors"] == [] and run["beforePublish"]["valid"] == "true"
    assert counts["read"]["method"] == "The Sistani office's printed table for Leicester"
    grammar = {"f-jamaatEarliest", "f-jamaatLatest", "f-jamaatTable"}
    assert not grammar & set(counts["typedInto"]), counts["typedInto"]
    assert run["published"]["outputs"]["o-edit"], (run["published"]["status"], run["published"]["errors"])
    mosque_id = urllib.parse.urlsplit(run["published"]["outputs"]["o-screen"]).path.split("/")[2]
    served = api(server, f"/v1/mosques/{mosque_id}", {})
    read = served["sources"][0].pop("read")
    assert date.fromisoformat(read) and served == json.loads(COMMITTEE_PROFILE.read_text(encoding="utf-8"))
    assert run["draftAfterPublish"] is None  # the draft is forgotten once the server keeps the profile
    # the members' calendar with Ramadan's suhoor and iftar (feed_options.RAMADAN), a calendar the feed answers
    feed = urllib.parse.urlsplit(run["ramadanFeed"])
    assert dict(urllib.parse.parse_qsl(feed.query)) == {"mosque": mosque_id, "lang": "en", "ramadan": "1"}
    status, body, headers = get(run["ramadanFeed"])
    assert status == 200 and headers["content-type"].startswith("text/calendar") and b"BEGIN:VEVENT" in body
    # the second language's widget beside the first's in the preview
    assert dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(run["beforePublish"]["frames"]["widget2"]).query))["lang"] == "ur"
    assert all(a["status"] in (200, 400) for a in run["asked"]), run["asked"]
    seconds = klm_seconds(counts)
    print(f"committee run: {counts['steps']} steps, {counts['taps']} taps, {counts['keys']} keystrokes, "
          f"{counts['scrolledPx']} px scrolled, {len(counts['fieldsets'])} sections {counts['fieldsets']}, "
          f"{seconds:.0f} s by KLM; /v1/prayer-times asked {len(run['asked'])} times, "
          f"{sum(1 for a in run['asked'] if a['month'])} of them a month, "
          f"{sum(1 for a in run['asked'] if a['year'] and not a['month'])} a year")
    assert seconds < TEN_MINUTES_S
    # the preview on the phone: one day a card, no sideways scroll
    assert run["layout"][0]["scrollWidth"] <= 390 and run["layout"][0]["overlaps"] == [], run["layout"]


@COMMITTEE_GROUP
def test_no_error_while_a_time_is_typed_and_times_read_as_written(kept):
    """Issue 36: "8:3" half typed shows no error (the preview is held invalid); "8:30pm" left is written 20:30; a time
    box opens the text keyboard (its digits layer has ':'), a minutes box the digits keypad; "25:00" shows its error
    only once the box is left."""
    keeping = kept["keeping"]
    # the refused times (400) and the wrong link (403) are answers Chromium logs: nothing else
    assert [e for e in keeping["errors"] if not ("status of 400" in e or "status of 403" in e)] == [], keeping["errors"]
    assert keeping["whileTyping"] == {"errors": [], "valid": "false"}
    assert keeping["afterLeaving"] == {"value": "20:30", "inputMode": "text", "minutesInputMode": "numeric",
                                       "errors": []}
    assert keeping["wrongWhileTyping"] == []
    assert len(keeping["wrongAfterLeaving"]) == 1 and "25:00" in keeping["wrongAfterLeaving"][0]
    # while that error is shown, the preview and the addresses say what they wait for (gallery review 4, fa
    # LANG4-11: empty frames 5,000 px below the error, no word why); the reader's sense, in English here
    held = "The preview and your addresses are made once the error above is corrected."
    assert keeping["heldNotes"] == [held, held], keeping["heldNotes"]


@COMMITTEE_GROUP
def test_a_draft_is_kept_until_published_and_edit_links_are_checked_when_opened(kept):
    """Issue 36: the form closed before publishing opens again as it was (name, city, isha's time) and says so; an
    edit link with a wrong secret, an id alone, or a secret cut short says so at once, before any form is filled."""
    keeping = kept["keeping"]
    assert keeping["restored"]["name"] == "Draft Hussainiya" and keeping["restored"]["city"] == "leicester"
    assert keeping["restored"]["isha"] == "20:30" and keeping["restored"]["cleared"]
    assert keeping["restored"]["status"].startswith("The form you had not published yet")
    # a profile's summer and Ramadan rules typed before issue 36 ("dhuhr:13:45"; "fajr:15,maghrib:10"), read into rows
    assert keeping["oldRows"] == [["jamaatDst", "dhuhr", "fixed", "13:45"], ["jamaatRamadan", "fajr", "after", "15"],
                                  ["jamaatRamadan", "maghrib", "after", "10"], "13:30,14:30"]
    links = keeping["links"]
    assert links["wrong"]["status"].startswith("This edit link is not valid") and links["wrong"]["bad"]
    for name in ("cut", "short"):
        assert links[name]["status"].startswith("This edit link is cut off") and links[name]["bad"], links[name]
    assert not any(link["saveShown"] or link["name"] for link in links.values()), links


def test_an_urdu_error_beside_its_field_is_a_sentence_not_a_rejection(seen):
    """UR2-6: the Urdu sentence of the API's number_range error beside the elevation field, with the SPEC's limits in
    Urdu digits, opened by «یہاں» and closed by «۔», with no «قبول نہیں کیا گیا» (the reader's objection)."""
    run = run_of(seen, "ur-error")
    assert [e for e in run["errors"] if "status of 400" not in e] == [], run["errors"]
    shown = [text for _, text in run["fieldErrors"]]
    assert "یہاں ۰ سے ۹۰۰۰ تک کا کوئی عدد ہونا چاہیے۔" in shown, run["fieldErrors"]
    assert not [text for text in shown if "قبول نہیں" in text], shown
