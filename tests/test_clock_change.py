"""The day a place's clock changes is named on that day's row and card (issue 33, gallery review 4 of 28 November:
ar AR4-03, fa LANG4-01, ur UR4-05: London's fajr "jumps" an hour between the rows of 24 and 25 October 2026 and
nothing on the page said why).

The reference is the law each zone follows, written out here, independent of the page code: the United Kingdom's
summer time (Summer Time Act 1972 with the EU rule of 2000: from 01:00 UTC on the last Sunday of March to 01:00 UTC on
the last Sunday of October), Ontario's (Time Act: from 02:00 local standard time on the second Sunday of March to
02:00 local daylight time on the first Sunday of November), Lebanon's (the last Sunday of March at 00:00), and Lord
Howe Island's half hour (the first Sunday of October at 02:00).  zoneinfo is checked against each before the page is.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from generator.site import mosque_page, timetable

UTC = timezone.utc


def offset_h(tz: str, instant: datetime) -> float:
    """Return the zone's UTC offset in hours at a UTC instant."""
    return instant.astimezone(ZoneInfo(tz)).utcoffset() / timedelta(hours=1)


def test_zoneinfo_agrees_with_the_laws_written_here():
    """The reference the page tests below rely on: London BST (+1) until 01:00 UTC on Sunday 25 October 2026, GMT
    after; BST from 01:00 UTC on Sunday 29 March 2026; Toronto EDT (−4) until 06:00 UTC on Sunday 1 November 2026."""
    assert offset_h("Europe/London", datetime(2026, 10, 25, 0, 59, tzinfo=UTC)) == 1
    assert offset_h("Europe/London", datetime(2026, 10, 25, 1, 0, tzinfo=UTC)) == 0
    assert offset_h("Europe/London", datetime(2026, 3, 29, 0, 59, tzinfo=UTC)) == 0
    assert offset_h("Europe/London", datetime(2026, 3, 29, 1, 0, tzinfo=UTC)) == 1
    assert offset_h("America/Toronto", datetime(2026, 11, 1, 5, 59, tzinfo=UTC)) == -4
    assert offset_h("America/Toronto", datetime(2026, 11, 1, 6, 0, tzinfo=UTC)) == -5


@pytest.mark.parametrize(("tz", "iso", "expected"), [
    ("Europe/London", "2026-10-25", (-60, "02:00")),  # 01:00 UTC = 02:00 BST, the old clock's reading
    ("Europe/London", "2026-03-29", (60, "01:00")),  # 01:00 UTC = 01:00 GMT
    ("America/Toronto", "2026-11-01", (-60, "02:00")),  # 02:00 EDT
    ("Asia/Beirut", "2026-03-29", (60, "00:00")),  # at local midnight: the day's start-to-end misses it
    ("Australia/Lord_Howe", "2026-10-04", (30, "02:00")),  # half an hour
    ("Europe/London", "2026-10-24", None), ("Europe/London", "2026-10-26", None),
    ("Asia/Tehran", "2026-03-22", None),  # Iran has kept no summer time since 2022
])
def test_the_change_is_found_on_its_day_with_the_old_clocks_reading(tz, iso, expected):
    """Each change falls on the day whose night held it, with its size and the clock reading a notice gives."""
    assert timetable.clock_change(tz, iso) == expected


def _events_cell(html: str, iso: str) -> str:
    row = re.search(rf'<tr data-date="{iso}".*?</tr>', html, re.S)
    assert row, iso
    return re.search(r'<td class="events">(.*?)</td>', row.group(0), re.S).group(1)


def test_londons_city_page_names_the_change_on_its_row_and_card_in_each_language():
    """London, morning of Sunday 25 October 2026 (the gallery's clock-change-autumn moment): the row of the 25th and
    the today card say the clocks went back an hour at 02:00; the rows of the 24th and 26th say nothing of it.  The
    words are the glossary's (ar, fa, ur: the readers' own verbs «أُخِّرت الساعة», «به عقب کشیده شد», «پیچھے»).
    Fails on the code before: no row said it (UR4-05)."""
    said = {"en": "The clocks went back an hour at 02:00 last night",
            "ar": "أُخِّرت الساعة ساعةً واحدة في الليلة الماضية (عند ٢:٠٠)",
            "fa": "بامدادِ این روز در ساعت ۰۲:۰۰، ساعت رسمی یک ساعت به عقب کشیده شد",  # not «دیشب»: a printed row (LANG5-01)
            "ur": "رات ۲:۰۰ بجے گھڑیاں ایک گھنٹہ پیچھے کر دی گئیں"}
    for lang, text in said.items():
        html = timetable.render(date(2026, 10, 25), "london", lang).decode()
        assert text in _events_cell(html, "2026-10-25"), lang
        for other in ("2026-10-24", "2026-10-26"):
            assert text not in _events_cell(html, other), (lang, other)
        card = html[html.index('class="today-card'):html.index("</section>", html.index('class="today-card'))]
        assert 'data-date="2026-10-25"' in card and text in card, lang
    spring = timetable.render(date(2026, 3, 29), "london", "en").decode()
    assert "The clocks went forward an hour at 01:00 last night" in _events_cell(spring, "2026-03-29")


def test_a_mosque_pages_card_names_the_change_on_its_day():
    """The Jaffari centre, Toronto, Sunday 1 November 2026 (EDT ends at 02:00 local): the day's card says so; the
    card of 31 October does not."""
    html = mosque_page.render(date(2026, 11, 1), "jaffari-toronto", "en").decode()
    card = html[html.index('class="today-card'):html.index("</section>", html.index('class="today-card'))]
    assert "The clocks went back an hour at 02:00 last night" in card
    before = mosque_page.render(date(2026, 10, 31), "jaffari-toronto", "en").decode()
    card = before[before.index('class="today-card'):before.index("</section>", before.index('class="today-card'))]
    assert "The clocks went back" not in card


def test_day_status_for_a_place_gives_the_change_on_its_day_only(client):
    """/v1/day-status with a place says the clock changed in the night before the day: London 25 October 2026 at
    01:00 UTC (the UK law above), back 60 minutes, at 02:00 on the old clock; 29 March forward at 01:00 GMT.  Not on
    the 24th nor the 26th, and never without a place (the SPEC's answer is unchanged)."""
    body = client.get("/v1/day-status?date=2026-10-25&city=london").json()
    assert body["clockChange"] == {"at": "2026-10-25T01:00:00Z", "minutes": -60, "before": "02:00"}
    spring = client.get("/v1/day-status?date=2026-03-29&city=london").json()
    assert spring["clockChange"] == {"at": "2026-03-29T01:00:00Z", "minutes": 60, "before": "01:00"}
    for day in ("2026-10-24", "2026-10-26"):
        assert "clockChange" not in client.get(f"/v1/day-status?date={day}&city=london").json(), day
    assert "clockChange" not in client.get("/v1/day-status?date=2026-10-25").json()
    assert "clockChange" not in client.get("/v1/day-status?date=2026-10-25&tz=Europe/London").json()
