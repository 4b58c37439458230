"""The fourth gallery pass of 28 November (issue 33; /work/briefs/review4-{ar,fa,ur}.md, gallery g3): the findings
taken by words33c that a test can tell, each against the reader's own proposed words or an independent source named
in its docstring.  (The clock change is tests/test_clock_change.py; the screen's authority bracket is measured in
tests/test_screen_legibility_browser.py.)"""

from __future__ import annotations

import re
from datetime import date

from generator.prayer import place_defaults
from generator.site import mosque_page


def _card(html: str) -> str:
    start = html.index('class="today-card')
    return html[start:html.index("</section>", start)]


def test_ar4_05_a_centre_placed_by_coordinates_keeps_the_nights_every_community_keeps():
    """Gallery review 4, ar AR4-05: the Toronto centre's card on 9 Muharram 1448 (Thursday 25 June 2026 under the
    Najaf reckoning it keeps) named Tasua but not the night of Ashura, which every Shia community keeps
    (docs/decisions.md "Each community's events": the rows for every community, `*`, in data/events_local.csv).  The
    centre is placed by coordinates; its zone, America/Toronto, is Canada's in the tz database's zone.tab (`CA
    +4339-07923 America/Toronto`), so its page now keeps Canada's community: the catalogue and the nights.
    The reader's words: «ليلة العاشر من المحرم — تبدأ عند غروب الشمس»; on Ashura «ليلة الحادي عشر …»."""
    assert place_defaults.place_community({"lat": 43.8417, "lng": -79.4608, "tz": "America/Toronto"}) == "CA"
    assert place_defaults.place_community({"city": "karbala", "tz": "Asia/Baghdad"}) == "IQ"
    tasua = _card(mosque_page.render(date(2026, 6, 25), "jaffari-toronto", "ar").decode())
    assert "تاسوعاء — يوم أبي الفضل العباس (ع)" in tasua
    assert "ليلة العاشر من المحرم — تبدأ عند غروب الشمس" in tasua
    ashura = _card(mosque_page.render(date(2026, 6, 26), "jaffari-toronto", "ar").decode())
    assert "ليلة الحادي عشر من المحرم — تبدأ عند غروب الشمس" in ashura
    ordinary = _card(mosque_page.render(date(2026, 6, 24), "jaffari-toronto", "ar").decode())
    assert "ليلة" not in " ".join(re.findall(r'<p class="slots">(.*?)</p>', ordinary))
