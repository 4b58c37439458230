"""The words the language review of 26 November found wrong in every language (issue 29, docs/site.md).

Each test states the rule a reader applies, written here from its source, not from our code:

* city lists in each language's alphabetical order (the alphabets below, written from the
  Persian and Urdu alphabets as their dictionaries order them and the Arabic hijāʾī order);
* no two catalogue cities with one displayed name in a language;
* an Urdu time written with the part of the day of its prayer, never the clock hour's;
* no unisolated ASCII minus, signed coordinate or IANA zone id in right-to-left feed text;
* one event per minute in a feed (imsak and suhoor-ends were two at the same instant).
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import icalendar
import orjson
import pytest
from conftest import call

from generator.places import cities
from generator.words import glossary

RTL = ("ar", "fa", "ur")
TODAY = date(2026, 11, 26)
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"

# --- Alphabetical order ----------------------------------------------------------------------
# Each alphabet as its readers learn it, one letter (or Urdu aspirate) after another; the forms
# after "=" are the same letter (hamza seats, Arabic and Persian forms of ک ه ی).
# Arabic: the hijāʾī order (ا ب ت ث ج ح خ د ذ ر ز س ش ص ض ط ظ ع غ ف ق ك ل م ن ه و ي); hamza seats
# and ة ى folded, the article ال not sorted (the Arabic reader: «البصرة» under ب).
# Persian: آ ا ب پ ت ث ج چ ح خ د ذ ر ز ژ س ش ص ض ط ظ ع غ ف ق ک گ ل م ن و ه ی (Persian dictionaries
# open with آ; و before ه).  Urdu: the 39 letters of Urdu primers, ا ب پ ت ٹ ث ج چ ح خ د ڈ ذ ر ڑ ز
# ژ س ش ص ض ط ظ ع غ ف ق ک گ ل م ن ں و ہ ھ ء ی ے, آ first, and the aspirates (بھ, پھ, …) as
# letters after their base letter, as Urdu dictionaries (and Pakistan's collation standard) sort them.
ALPHABETS = {
    "ar": "ء ا=أ=إ=آ=ٱ ب ت ث ج ح خ د ذ ر ز س ش ص ض ط ظ ع غ ف ق ك ل م ن ه=ة و=ؤ ي=ى=ئ",
    "fa": "آ ا ء=أ=إ=ؤ=ئ ب پ ت ث ج چ ح خ د ذ ر ز ژ س ش ص ض ط ظ ع غ ف ق ک گ ل م ن و ه=ة ی",
    "ur": "آ ا=أ ب بھ پ پھ ت تھ ٹ ٹھ ث ج جھ چ چھ ح خ د دھ ڈ ڈھ ذ ر رھ ڑ ڑھ ز ژ س ش ص ض ط ظ ع غ ف ق ک کھ "
          "گ گھ ل لھ م مھ ن نھ ں و=ؤ ہ=ۂ ھ ۃ ء ی=ئ ے=ۓ",
}


def _letters(name: str, lang: str) -> list[int]:
    """The letters of ``name`` as places in its alphabet; a space or ZWNJ is 0, before every letter."""
    place = {}
    for i, letter in enumerate(ALPHABETS[lang].split(), start=1):
        place.update({form: i for form in letter.split("=")})
    text = "".join(ch for ch in unicodedata.normalize("NFC", name) if not unicodedata.combining(ch))
    if lang == "ar":
        text = " ".join(w[2:] if w.startswith("ال") and len(w) > 3 else w for w in text.split(" "))
    out, i = [], 0
    while i < len(text):
        if text[i:i + 2] in place:
            out.append(place[text[i:i + 2]])
            i += 2
            continue
        out.append(0 if text[i] in " \u200c" else place.get(text[i], 1000))
        i += 1
    return out


def _home_cities(lang: str) -> list[str]:
    from generator.site import index

    html = index.render_home(TODAY, lang).decode()
    listed = html.split('<ul class="columns">', 1)[1].split("</ul>", 1)[0]
    return re.findall(r"<bdi>([^<]*)</bdi>", listed)


# What each reader looked for and did not find (language_review_2026-11-26): runs of the list as
# their alphabet orders them.
READERS_RUNS = {
    "ar": [("أبوجا", "أبوظبي", "أتلانتا", "أثينا", "أجمير", "الأحساء", "أحمد آباد", "إدمونتون", "إدنبرة"),
           ("بشكيك", "البصرة", "بعقوبة"), ("الكوت", "الكوفة", "كولكاتا")],
    "fa": [("قم", "قندهار", "کابل"), ("کراچی", "کرایست\u200cچرچ", "کربلا", "کرج"), ("بیروت", "بیشکک", "پاراچنار"),
           ("آگره", "آلماتی", "آمستردام", "آمل", "آنتاناناریوو", "آنتورپ", "آنکارا")],
    "ur": [("آبادان",), ("ابوجا", "ابوظہبی", "اٹلانٹا", "اجمیر"), ("کراچی", "کرائسٹ چرچ", "کربلا"),
           ("پشاور", "پورٹ لوئس", "پیرس", "تاشقند")],
}


@pytest.mark.parametrize("lang", RTL)
def test_the_home_list_follows_the_alphabet_of_its_language(lang):
    listed = _home_cities(lang)
    assert len(listed) == len(cities.load())
    keys = [_letters(name, lang) for name in listed]
    wrong = [(a, b) for a, b, ka, kb in zip(listed, listed[1:], keys, keys[1:]) if ka > kb]
    assert not wrong, f"{lang}: {len(wrong)} pairs out of order, e.g. {wrong[:5]}"
    for run in READERS_RUNS[lang]:
        at = [listed.index(name) for name in run]
        assert at == sorted(at), (lang, run, at)  # in the readers' order (other catalogue towns may fall between)
    if lang == "ur":
        assert listed[0] == "آبادان"


def test_the_alphabet_test_fails_on_code_point_order():
    """The rule above rejects the order the home pages had (Python's code-point sort)."""
    for lang in RTL:
        listed = sorted(c["names"][lang] for c in cities.load())
        keys = [_letters(name, lang) for name in listed]
        assert any(ka > kb for ka, kb in zip(keys, keys[1:])), lang


# --- One name, one city ----------------------------------------------------------------------
@pytest.mark.parametrize("lang", ("en", *RTL))
def test_no_two_catalogue_cities_share_a_displayed_name(lang):
    seen: dict[str, str] = {}
    for city in cities.load():
        name = city["names"][lang]
        assert name not in seen, f"{lang}: {city['id']} and {seen[name]} are both «{name}»"
        seen[name] = city["id"]


# --- Feeds: helpers ----------------------------------------------------------------------------
def _at(year: int, month: int, day: int) -> float:
    return datetime(year, month, day, 12, tzinfo=timezone.utc).timestamp()


def _events(body: bytes) -> list[icalendar.Event]:
    return list(icalendar.Calendar.from_ical(body).walk("VEVENT"))


def _key(event) -> str:
    """The event's kind in its UID ("prayer-london-20261201-maghrib-<identity>@…": maghrib)."""
    return re.match(r"^[a-z]+-.+-\d{8}-([a-z0-9-]+)-[0-9a-f]+@", str(event["UID"])).group(1)


# --- Urdu: the part of the day is the prayer's -----------------------------------------------------
# Written from how Urdu names the prayers' times, not from the feed's table: fajr, imsak and sunrise
# are صبح (the true dawn is صبحِ صادق); dhuhr and Jumu'ah دوپہر; asr سہ پہر (دوپہر before 15:00);
# maghrib, iftar and isha شام, رات from 20:00 (a northern summer); midnight رات.
UR_PARTS = ("صبح", "دوپہر", "سہ پہر", "شام", "رات")


def _ur_part(event: str, hour: int) -> str:
    if event in ("imsak", "suhoor", "fajr", "sunrise") or event.startswith("eid"):
        return "صبح"
    if event == "dhuhr" or event.startswith("jumuah"):
        return "دوپہر"
    if event == "asr":
        return "دوپہر" if hour < 15 else "سہ پہر"
    if event in ("maghrib", "iftar", "isha"):
        return "شام" if 12 <= hour < 20 else "رات"
    return "رات"  # midnight, the last third of the night


URDU_FEEDS = (  # London in winter (maghrib 16:xx) and summer (isha 23:xx, fajr 02:xx), Tromsø in polar night
    ("london", _at(2026, 12, 1)), ("london", _at(2027, 6, 10)), ("tromso", _at(2026, 12, 10)))


@pytest.mark.parametrize("city,now", URDU_FEEDS)
def test_urdu_times_carry_the_part_of_the_day_of_their_prayer(city, now):
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(next(c["tz"] for c in cities.load() if c["id"] == city))
    body = call("prayer-times.ics", now, city=city, lang="ur", days=14, jamaat="maghrib:10,isha:maghrib",
                prayers="imsak,fajr,sunrise,dhuhr,asr,maghrib,isha,midnight")
    parts = "|".join(UR_PARTS)
    seen = set()
    for event in _events(body):
        kind = _key(event)
        local = event["DTSTART"].dt.astimezone(zone)
        first_line = str(event["DESCRIPTION"]).split("\n")[0]
        found = re.search(rf"[۰-۹]+:[۰-۹]+ ({parts})(?!\S)", first_line)
        assert found and found.group(1) == _ur_part(kind, local.hour), (city, kind, local.isoformat(), first_line)
        seen.add((kind, found.group(1)))
        for line in str(event["DESCRIPTION"]).split("\n")[1:]:  # the maghrib and isha lines of the jamaat
            assert "سہ پہر" not in line and "صبح" not in line, (kind, line)
    if city == "london" and now == URDU_FEEDS[0][1]:  # the reader's case: «عشاء … سہ پہر», «ظہر … صبح»
        assert ("maghrib", "شام") in seen and ("dhuhr", "دوپہر") in seen


# --- Right-to-left feed text: no sign or zone id to misread -----------------------------------
RTL_PLACE_FEEDS = (
    ("prayer-times.ics", {"lat": "43.84", "lng": "-79.46", "tz": "America/Toronto", "tune": "fajr:-5"}),
    ("prayer-times.ics", {"lat": "-33.87", "lng": "151.21", "tz": "auto"}),
    ("prayer-times.ics", {"lat": "44.65", "lng": "-63.57", "tz": "America/Halifax"}),  # a zone of no catalogue city
    ("night.ics", {"lat": "-33.87", "lng": "-70.65", "tz": "America/Santiago"}),
    ("prayer-times.ics", {"mosque": "jaffari-toronto"}),
    ("night.ics", {"mosque": "jaffari-toronto"}),
)
_ISOLATED = re.compile("[\u2066\u2067\u2068][^\u2069]*\u2069")


def _unescaped(value) -> str:
    """RFC 5545 TEXT as written (icalendar leaves the X-WR- properties escaped)."""
    return re.sub(r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), str(value))


def _texts(body: bytes) -> list[str]:
    cal = icalendar.Calendar.from_ical(body)
    out = [_unescaped(cal[name]) for name in ("X-WR-CALNAME", "X-WR-CALDESC", "NAME", "DESCRIPTION") if name in cal]
    for event in cal.walk("VEVENT"):
        out += [_unescaped(event["SUMMARY"]), _unescaped(event["DESCRIPTION"])]
    return out


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("endpoint,query", RTL_PLACE_FEEDS)
def test_rtl_feed_text_has_no_bare_minus_sign_or_zone_id(endpoint, query, lang):
    """Outside an isolate (LRI/RLI/FSI … PDI) no ASCII "-", no Latin letters, no "Area/Place" zone id."""
    body = call(endpoint, _at(2026, 12, 1), lang=lang, days=7, **query)
    for text in _texts(body):
        bare = _ISOLATED.sub("", text)
        assert "-" not in bare and not re.search(r"[A-Za-z]", bare), (endpoint, query, lang, text)
        assert not re.search(r"[A-Za-z_]+/[A-Za-z_]+", bare), text


def test_a_mosques_night_feed_is_titled_by_its_name():
    for lang in ("en", *RTL):
        cal = icalendar.Calendar.from_ical(call("night.ics", _at(2026, 12, 1), mosque="jaffari-toronto", lang=lang))
        assert "Jaffari Community Centre" in str(cal["X-WR-CALNAME"]), lang
        assert "°" not in _unescaped(cal["X-WR-CALNAME"]), lang
        assert "°" not in _unescaped(cal["X-WR-CALDESC"]).split("\n")[0], lang  # named by the mosque, not a point


# --- Jamaat of asr and isha: their computed time is the start of their fadhila time -----------
JAMAAT_WORDS = {  # "jamaat time" (written once per event), and the fadhila time
    "en": ("Jamaat time", "recommended (fadhila) time"), "ar": ("وقت الإقامة", "وقت فضيلة"),
    "fa": ("وقت نماز جماعت", "وقت فضیلت"), "ur": ("جماعت کا وقت", "وقتِ فضیلت"),
}


@pytest.mark.parametrize("lang", ("en", *RTL))
def test_asr_and_isha_in_a_jamaat_are_given_their_fadhila_time_not_their_legal_time(lang):
    body = call("prayer-times.ics", _at(2026, 12, 1), city="tehran", lang=lang, days=7,
                jamaat="fajr:10,dhuhr:13:00,asr:dhuhr,maghrib:10,isha:maghrib")
    jamaat_word, fadhila = JAMAAT_WORDS[lang]
    kinds = set()
    for event in _events(body):
        kind, text = _key(event), str(event["DESCRIPTION"])
        kinds.add(kind)
        assert "وقت شرعی" not in text and "legal" not in text
        assert text.count(jamaat_word) == 1, (kind, text)
        assert (fadhila in text) == (kind in ("dhuhr", "maghrib")), (kind, text)  # the partner asr / isha
    assert kinds == {"fajr", "dhuhr", "maghrib"}


# --- Ramadan: one event at imsak --------------------------------------------------------------
def test_a_ramadan_day_has_one_event_and_one_alarm_at_imsak():
    """Ramadan 1441 in Tehran with the imsak marker shown and ramadan=1: the JSON's imsak instant
    of each day is the start of exactly one event (before: «الإمساك» and «انتهاء السحور» both)."""
    import json

    now = _at(2020, 4, 20)
    body = call("prayer-times.ics", now, city="tehran", days=40, ramadan=1, alarm=5, lang="ar",
                prayers="imsak,fajr,dhuhr,asr,maghrib,isha")
    starts: dict[int, list[str]] = {}
    for event in _events(body):
        starts.setdefault(int(event["DTSTART"].dt.timestamp()), []).append(_key(event))
    imsaks = []
    for month in (4, 5):
        days = json.loads(call("prayer-times", now, city="tehran", year=2020, month=month))["days"]
        imsaks += [int(datetime.fromisoformat(d["imsak"].replace("Z", "+00:00")).timestamp()) for d in days]
    shown = [starts[s] for s in imsaks if s in starts]
    assert len(shown) == 40 and all(len(kinds) == 1 for kinds in shown), [k for k in shown if len(k) > 1][:3]
    assert sum(kinds == ["suhoor"] for kinds in shown) >= 29  # the Ramadan days: the suhoor event, with its note
    suhoor = next(e for e in _events(body) if _key(e) == "suhoor")
    assert str(suhoor["SUMMARY"]).startswith("الإمساك") and "طلوع الفجر" in str(suhoor["DESCRIPTION"])


# --- The printed-table note ----------------------------------------------------------------------
PRINTED = {  # the note's own words (asr and isha), the marja's honorific, Imam Ali's (ع), and what must not
    # be read as "London … for this city"
    "ar": ("العصر والعشاء", "(دام ظله)", "الإمام علي (ع)", "لندن لهذه"),
    "fa": ("عصر و عشا", "(مدظله‌العالی)", "امام علی (ع)", "لندن برای"),
    "ur": ("عصر اور عشاء", "(دام ظلہ)", "امام علی (ع)", "لندن اس شہر"),
}


@pytest.mark.parametrize("lang", RTL)
def test_the_printed_table_note_names_the_foundation_with_its_honorifics(lang):
    from generator.site import timetable

    html = timetable.render(TODAY, "london", lang).decode()
    marker, honorific, imam, misread = PRINTED[lang]
    note = next(p for p in re.findall(r"<p[^>]*>(.*?)</p>", html, re.S) if marker in p)
    assert honorific in note and imam in note and misread not in note, note


# --- Mosque pages -------------------------------------------------------------------------------
def test_a_mosque_page_names_its_zone_and_promises_only_what_it_shows():
    """AR-N5: the zone as city pages name it («توقيت تورونتو (America/Toronto)»), not a bare id between two ؛;
    AR-N25: a mosque without jamaat, Jumu'ah or Eid times is not titled «… أوقات الصلاة والإقامة»."""
    from generator.site import mosque_page

    html = mosque_page.render(TODAY, "jaffari-toronto", "ar").decode()
    assert f"توقيت تورونتو ({LRI}America/Toronto{PDI})" in html
    title = re.search(r"<title>(.*?)</title>", html).group(1)
    assert "الإقامة" not in title and "أوقات الصلاة" in title


def test_a_mosque_pages_jamaat_column_is_named_after_the_prayer(monkeypatch):
    """fa E-6: the jamaat column is «نماز جماعت ظهر», not «اذان ظهر — جماعت» (the adhan column's name)."""
    from test_mosques import FIXTURE

    from generator.prayer import mosques
    from generator.site import mosque_page, responses

    served = {**mosques.load(), **mosques.load(FIXTURE.parent)}
    monkeypatch.setattr(mosques, "by_id", lambda: served)
    responses._body.cache_clear()
    try:
        html = mosque_page.render(TODAY, "example-mosque", "fa").decode()
    finally:
        responses._body.cache_clear()
    heads = re.findall(r'<th scope="col" class="time jamaat">(.*?)</th>', html)
    assert heads and all(h.startswith("نماز جماعت ") and "اذان" not in h for h in heads), heads


@pytest.mark.parametrize("city,lang,named,not_named", [
    ("lucknow", "ur", "ہندوستانی معیاری وقت", "کولکاتا کا وقت"), ("hyderabad-in", "fa", "وقت هند", "وقت کلکته"),
    ("lahore", "ur", "پاکستانی معیاری وقت", "کراچی کا وقت")])
def test_a_countrys_one_zone_is_named_after_the_country(city, lang, named, not_named):
    """fa S-23, ur S-1: Indian Standard Time is not «Kolkata time» on a Lucknow page."""
    from generator.site import timetable

    html = timetable.render(TODAY, city, lang).decode()
    place = re.search(r'<p class="place">(.*?)</p>', html, re.S).group(1)
    assert named in place and not_named not in place, place


def test_an_imsakiya_says_which_table_its_month_start_comes_from():
    """fa S-8: «(اعلام‌شده یا رسمی)» told the reader nothing; Iran's reckoning names Iran's official calendar.
    Issue 33 (fa FA-29 W): a Ramadan of the official calendar not begun yet (1448: 8 February 2027, seen on 26
    November 2026) is its forecast, settled by the announcement of the crescent's sighting; once begun, the table."""
    from generator.site import imsakiya

    html = imsakiya.render(TODAY, "tehran", "fa", "iran").decode()
    # the source before the date, not two brackets side by side (gallery review 4, fa LANG4-06)
    start = re.search(r"آغاز ماه \([^<]*", html).group(0)
    assert "(پیش‌بینی تقویم رسمی ایران؛ با اعلام رؤیت هلال قطعی می‌شود)" in start and " یا " not in start, start
    during = imsakiya.render(date(2027, 2, 20), "tehran", "fa", "iran", now_s=1803124800).decode()  # 20 Feb 2027
    assert "آغاز ماه (طبق تقویم رسمی ایران): " in re.search(r"آغاز ماه \([^<]*", during).group(0)


IRAN = {"ar": "الإيراني", "fa": "ایران", "ur": "ایران"}  # each language's word for Iran / Iranian


@pytest.mark.parametrize("lang", RTL)
def test_irans_official_calendar_is_named_as_irans(lang):
    """ur E-1, fa S-5 (second pass): «سرکاری کیلنڈر» alone reads, in Karachi, as Pakistan's official calendar."""
    from generator.site import imsakiya

    html = imsakiya.render(TODAY, "tehran", lang, "iran").decode()
    source = glossary.term("source.forecast_iran")[lang]  # Ramadan 1448 not begun on TODAY: the forecast (issue 33)
    assert f"({source})" in html and IRAN[lang] in source, source


def test_a_persian_day_label_leads_with_the_shamsi_date():
    """fa S-1, F-8: «پنج‌شنبه ۵ آذر ۱۴۰۵ — ۱۶ جمادی‌الثانی ۱۴۴۸ — ۲۶ نوامبر ۲۰۲۶», as Iranian calendars print it
    (26 November 2026 is 5 Azar 1405: the Solar Hijri year begins at Nowruz, 21 March 2026 = 1 Farvardin 1405).
    Gallery review fa LANG3-12 (third pass): on a phone «۳۰ نوامبر ۲۰۲۶» broke after its day; each date is now a
    span the site's style keeps on one line, so a line breaks only at «—»."""
    from generator.site import timetable

    html = timetable.render(TODAY, "tehran", "fa").decode()
    label = re.search(r'<span class="card-date"[^>]*>(.*?)</span></h2>', html).group(1)
    parts = re.findall(r'<span class="date-part">([^<]*)</span>', label)
    assert len(parts) == 3 and re.sub(r"<[^>]+>", "", label) == " — ".join(parts), label
    assert parts[0] == "پنج‌شنبه ۵ آذر ۱۴۰۵" and parts[-1] == "۲۶ نوامبر ۲۰۲۶", label
    css = (Path(__file__).resolve().parent.parent / "generator/site/assets/site.css").read_text(encoding="utf-8")
    assert ".today-card .date-part { white-space: nowrap; }" in css



# --- Second pass of 26 November (docs/site.md) ------------------------------------------------------
SUHOOR = {"en": "suhoor", "ar": "سحور", "fa": "سحری", "ur": "سحری"}  # "the end of suhoor" is the word to avoid
IMSAK = {"en": "Imsak", "ar": "الإمساك", "fa": "امساک", "ur": "امساک"}


@pytest.mark.parametrize("lang", ("en", *RTL))
def test_the_imsak_event_is_titled_as_a_precaution_not_as_the_end_of_suhoor(lang):
    """fa W-1, ur W-1: the fast begins at dawn (the Shia maraji); imsak, minutes earlier, is a precaution, so the
    Ramadan event at imsak is not «پایان سحری» / «سحری کا اختتام» beside a note that allows eating until dawn."""
    body = call("prayer-times.ics", _at(2020, 4, 25), city="tehran", days=7, ramadan=1, lang=lang)
    suhoor = [e for e in _events(body) if _key(e) == "suhoor"]
    assert len(suhoor) == 7
    for event in suhoor:
        title, note = str(event["SUMMARY"]), str(event["DESCRIPTION"]).split("\n")
        assert IMSAK[lang] in title and SUHOOR[lang] not in title.lower(), title
        assert not any("این وقت" in line for line in note), note  # fa E-1: «امساک از این وقت» read as "from dawn"


ADHAN_OF = {  # "before dhuhr / maghrib can have been prayed" in each language (names read independently)
    "en": ("before Dhuhr can have been prayed", "before Maghrib can have been prayed"),
    "ar": ("قبل أن تُصلّى الظهر", "قبل أن تُصلّى المغرب"),
    "fa": ("نماز ظهر", "نماز مغرب"), "ur": ("ظہر کی نماز", "مغرب کی نماز"),
}


@pytest.mark.parametrize("lang", ("en", *RTL))
def test_an_asr_or_isha_jamaat_before_dhuhr_or_maghrib_is_held_at_that_adhan_and_says_so(lang):
    """ar W-1, fa W-2, ur W-2: in Ja'fari fiqh the time of asr begins with dhuhr's and isha's with maghrib's, so a
    mosque's asr (isha) set before the dhuhr (maghrib) adhan is held right after that prayer (third pass, fa W-1:
    its four (three) rak'as at 2 minutes each after the adhan), and the line names it; the computed asr and isha
    open only their fadhila time, so the line does not say "before today's adhan"."""
    import json

    now = _at(2026, 12, 1)
    body = call("prayer-times.ics", now, city="london", lang=lang, days=7, jamaat="asr:11:00,isha:15:00")
    day = json.loads(call("prayer-times", now, city="london", year=2026, month=12))["days"]
    opens = {"asr": "dhuhr", "isha": "maghrib"}
    seen = set()
    for event in _events(body):
        kind = _key(event)
        if kind not in opens:
            continue
        date_ = event["DTSTART"].dt.astimezone(timezone.utc).date()
        row = next(d for d in day if d["date"] == date_.isoformat())
        adhan = datetime.fromisoformat(row[opens[kind]].replace("Z", "+00:00"))
        after = timedelta(minutes={"asr": 8, "isha": 6}[kind])  # dhuhr's 4 rak'as, maghrib's 3, 2 minutes each
        assert event["DTSTART"].dt == adhan + after, (kind, event["DTSTART"].dt, adhan)
        text = str(event["DESCRIPTION"])
        assert ADHAN_OF[lang][kind == "isha"] in text, (kind, text)
        seen.add(kind)
    assert seen == {"asr", "isha"}


@pytest.mark.parametrize("lang", ("en", *RTL))
def test_a_jumuah_slot_past_asr_is_kept_and_one_past_sunset_says_why_it_was_moved(lang):
    """Issue 33: a Jumu'ah slot at 15:30 in a London December is after the computed asr (~13:36), an end only one
    view gives Jumu'ah: it is kept as the mosque declared it, with no "moved" line.  A slot at 16:15 is after
    sunset (~15:52), dhuhr's own end, past which no view keeps the prayer: it is held at the last start that
    leaves its two rak'as (2 minutes each) before sunset, and its line names sunset as the end."""
    import json

    now = _at(2026, 12, 1)
    days = {d["date"]: d for d in json.loads(call("prayer-times", now, city="london", year=2026, month=12))["days"]}
    sunset_name = glossary.term("column.sunset")[lang]
    moved_end = glossary.term("feed.jamaat_moved_end_line")[lang].format(end=sunset_name)
    body = call("prayer-times.ics", now, city="london", lang=lang, days=7, jumuah="12:30,15:30")
    late = [e for e in _events(body) if _key(e).startswith("jumuah") and e["DTSTART"].dt.astimezone(timezone.utc).hour >= 13]
    assert len(late) == 1, late  # one Friday in the week: 4 December 2026
    assert late[0]["DTSTART"].dt.astimezone(timezone.utc).strftime("%H:%M") == "15:30"  # GMT: as declared
    assert glossary.term("feed.jamaat_moved_end_line")[lang].split("{")[0] not in str(late[0]["DESCRIPTION"])
    body = call("prayer-times.ics", now, city="london", lang=lang, days=7, jumuah="12:30,16:15")
    late = [e for e in _events(body) if _key(e).startswith("jumuah") and e["DTSTART"].dt.astimezone(timezone.utc).hour >= 13]
    assert len(late) == 1, late
    event = late[0]
    sunset = datetime.fromisoformat(days[event["DTSTART"].dt.date().isoformat()]["sunset"].replace("Z", "+00:00"))
    assert (sunset - event["DTSTART"].dt).total_seconds() == 2 * 2 * 60, (event["DTSTART"].dt, sunset)
    assert moved_end in str(event["DESCRIPTION"]), str(event["DESCRIPTION"])


@pytest.mark.parametrize("lang", ("en", *RTL))
def test_the_nights_of_qadr_begin_at_sunset_on_the_imsakiya(lang):
    """ar E-1, fa S-8: one term per concept; a night begins at sunset (feed.night_begins), not at «المغرب»,
    which for a Shia reader is the prayer after the eastern redness has gone."""
    from generator.site import imsakiya

    sunset = {"en": "sunset", "ar": "غروب", "fa": "غروب", "ur": "غروب"}[lang]
    maghrib = {"en": "maghrib", "ar": "مغرب", "fa": "مغرب", "ur": "مغرب"}[lang]
    html = imsakiya.render(TODAY, "karbala", lang).decode()
    qadr = glossary.term("page.qadr_eve")  # the note's sentence follows the month start
    note = next(p for p in re.findall(r"<p[^>]*>(.*?)</p>", html, re.S) if "(" in p and
                ("Qadr" in p or "القدر" in p or "قدر" in p))
    sentence = note.split(". ")[-1] if lang == "en" else re.split(r"[.۔]\s", note)[-1]
    assert sunset in sentence.lower() and maghrib not in sentence.lower(), (note, qadr[lang])


def test_a_month_that_has_begun_is_not_said_to_be_unannounced():
    """ar W-3: «لم يُعلَن بعد» on the crescent page of a month that began on 13 October 2026 (no announcement is
    recorded for it, so it is computed; but it has begun, and its announcement was made where it was made)."""
    from generator.site import moon_page

    html = moon_page.render(TODAY, 1448, 5, "ar").decode()
    intro = next(p for p in re.findall(r"<p>(.*?)</p>", html, re.S) if "بدأ الشهر" in p)
    assert "محسوب" in intro and "لم يُعلَن" not in intro and "لم يعلن" not in intro, intro
    # issue 33 (ur UR-29 E): a month that has begun is said in the past tense, under the office it follows
    # the date beside the verb (gallery review ar AR2-08: two «في» in a row read as "began in Najaf on …")
    assert "بدأ الشهر في ١٣ تشرين الأول ٢٠٢٦ حسب إعلان مكتب السيد السيستاني" in intro and "يُتوقَّع" not in intro, intro
    urdu = moon_page.render(TODAY, 1448, 5, "ur").decode()
    assert "کے حساب سے مہینہ" in urdu and "کو شروع ہوا (حساب کے مطابق، اعلان دستیاب نہیں)" in urdu


def test_a_month_not_begun_is_a_forecast_of_the_office_it_follows():
    """issue 33 (ar B4: «حسب الرؤية (محسوب فلكياً)» read as a contradiction by a muqallid of Sayyid al-Sistani;
    ur UR-1: whose sighting): the crescent page of Rajab 1448, not begun on 26 November 2026, says it is expected
    by the announcements of the Sistani office, an astronomical forecast that the announcement decides."""
    from generator.site import moon_page

    html = moon_page.render(TODAY, 1448, 7, "ar").decode()
    # the first day "at the office", not "by its announcement", which read as done (gallery review 4, ar AR4-06)
    assert re.search(r"يُتوقَّع أن يكون أولُ الشهر عند مكتب السيد السيستاني \(دام ظله\) في النجف الأشرف يومَ [^()]+ \(", html)
    assert "(تقدير فلكي لإمكان الرؤية، والعبرة بإعلان ثبوت الهلال)" in html
    urdu = moon_page.render(TODAY, 1448, 7, "ur").decode()
    assert "نجف اشرف (دفترِ آیت اللہ سیستانی) کے حساب سے مہینہ" in urdu and "شروع ہونے کی توقع ہے" in urdu
    assert "رویت کے مطابق" not in urdu


@pytest.mark.parametrize("lang", ("ar", "fa", "ur"))
def test_a_feed_for_a_zone_no_city_names_says_local_time_and_brackets_the_id(lang):
    """ur E-4: «⁦America/Halifax⁩ کے وقت کے مطابق» put a zone id where a place name belongs; now «مقامی وقت کے
    مطابق … (⁦America/Halifax⁩)»: the id only inside brackets, after the local-time words."""
    local = {"ar": "بالتوقيت المحلي", "fa": "به وقت محلی", "ur": "مقامی وقت"}[lang]
    for feed in ("prayer-times.ics", "night.ics"):
        body = call(feed, _at(2026, 12, 1), lang=lang, days=7, lat="44.65", lng="-63.57", tz="America/Halifax")
        for event in _events(body):
            first = str(event["DESCRIPTION"]).split("\n")[0]
            assert local in first and f"({LRI}America/Halifax{PDI})" in first, (feed, first)


def test_urdu_cells_say_the_reckoning_was_made_not_that_the_times_were_reckoned():
    """ur E-2, S-5: «حساب» is a noun: «ان کا حساب … لگایا گیا», not «انہیں … حساب کیا گیا» (a calque of "they were
    calculated"), in every Urdu cell of the glossary."""
    bad = [(key, text) for key, text in ((k, v["ur"]) for k, v in glossary.terms().items()) if re.search(r"حساب (کیا|کیے|کی) گئ", text)]
    assert not bad, bad


def test_persian_midnight_is_the_shari_midnight():
    """fa E-2: a bare «نیمه‌شب» is 00:00 to an Iranian reader; the site's term is «نیمه‌شب شرعی»."""
    bad = [(key, text) for key, text in ((k, v["fa"]) for k, v in glossary.terms().items())
           if re.search("نیمه\u200cشب(?! شرعی)", text)]
    assert not bad, bad


@pytest.mark.parametrize("lang,noun", [("ar", "طريقة الحساب"), ("fa", "روش محاسب"), ("ur", "طریقۂ حساب")])
def test_the_place_defaults_line_says_what_is_the_default(lang, noun):
    """ar S-7, fa S-4, ur E-5: «اس مقام کے لیے طے شدہ:» left the adjective without its noun."""
    from generator.site import timetable

    html = timetable.render(TODAY, "karachi", lang).decode()
    note = re.search(r'<p class="defaults-note">(.*?)</p>', html)[1]
    assert note.split(":")[0].find(noun) >= 0, note


def test_the_arabic_search_label_repeats_or():
    """ar S-1: «English أو العربية أو فارسی أو اردو», as lists of and repeat و (not "A, B, C or D")."""
    from generator.site import index

    html = index.render_home(TODAY, "ar").decode()
    label = re.search(r'<label for="city-q">(.*?)</label>', html, re.S)[1]
    assert label.count(" أو ") == 3 and "</bdi>، <bdi" not in label, label


def test_every_reckoning_has_its_feed_title_and_basis_rows():
    """The words read the reckonings from their glossary rows (generator.words stands below generator.calendars):
    exactly the reckonings generator.calendars.hijri serves, each in the four languages."""
    from generator.calendars import hijri
    from generator.words import feed_words

    for rows in (feed_words.RECKONING_TITLE, feed_words.RECKONING_BASIS):
        assert set(rows) == set(hijri.CALENDARS)
        assert all(set(texts) == {"en", "ar", "fa", "ur"} and all(texts.values()) for texts in rows.values())


@pytest.mark.parametrize("lang", ["ar", "fa", "ur"])
def test_the_today_card_writes_the_hijri_date_as_the_api_does(lang):
    """Gallery review UR2-4 (Urdu reader, 28 November): the today line «آج پیر ۳۰ نومبر ۲۰۲۶ — ۱۹ جمادی الثانی ۱۴۴۸»
    had no «ھ», which the API's own written-out date has (/v1/hijri `formatted`); the mosque page's line lacked it
    after the city page's had it (review 7). Both cards against the API's answer for their reckoning and day."""
    import html as html_module

    from generator.prayer import mosques
    from generator.site import mosque_page, timetable

    for page, reckoning in ((timetable.render(TODAY, "karachi", lang).decode(), "pakistan"),
                            (mosque_page.render(TODAY, "jaffari-toronto", lang).decode(),
                             mosques.load()["jaffari-toronto"].reckoning)):
        card = re.search(r'<section class="today-card[^"]*"[^>]*data-date="([0-9-]+)"', page)
        label = re.search(r'<span class="card-date"[^>]*>(.*?)</span></h2>', page).group(1)
        shown = html_module.unescape(re.sub(r"<[^>]+>", "", label))
        answer = orjson.loads(call("hijri", 0.0, date=card.group(1), calendar=reckoning))
        assert answer["formatted"][lang] in shown, (shown, answer["formatted"][lang])
