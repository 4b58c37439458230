"""Declarations shared by several endpoints: the reckoning, Hijri year and month, language, years."""
from __future__ import annotations

from generator.calendars import hijri
from generator.prayer import place_defaults
from generator.api import params as P
from generator.words.locale import DEFAULT_LANGUAGE, LANGUAGES

CALENDAR = P.choice("calendar", hijri.CALENDARS,
                    "Hijri reckoning: moonsighting (global sighting), iran (official), pakistan (Pakistan's Shia), "
                    "india (India's Shia, Lucknow), lebanon (the Fadlallah office, Beirut, by calculation), "
                    "azerbaijan (the Caucasian Muslims' Board, Baku), "
                    "cssna-east or cssna-west (the Council of Shia Muslim Scholars of North America, for the "
                    "continent's east and north or its south and west).",
                    default=hijri.DEFAULT_CALENDAR)
MAX_OFFSET_DAYS = 2  # a community a day or two from its reckoning (/v1/hijri's offset has the same bounds)
OFFSET = P.integer("offset", -MAX_OFFSET_DAYS, MAX_OFFSET_DAYS,
                   "Days a community keeps from the reckoning (+1: its month began a day earlier; -1: a day later).",
                   default=0, keep_default=False)
# A community is a country whose Shia the service knows: a country row of data/place_defaults.csv, or one the
# events' overlay or holidays name (docs/decisions.md, "Each community's events").  Opt-in: without it every
# answer is the catalogue's (SPEC 2.7).
COMMUNITY = P.choice("community", place_defaults.communities(),
                     "A country (ISO 3166-1 code) whose Shia community's events to give: its own days "
                     "(local: Bibi Sakina on 13 Safar in PK and IN, ...), without the catalogue rows they "
                     "replace there, and its public holidays (holiday). Default: the catalogue of 73.",
                     example="PK")
HY = P.integer("hy", hijri.API_FIRST_YEAR, hijri.API_LAST_YEAR, "Hijri year.", example=1447)
HM = P.integer("hm", 1, 12, "Hijri month, 1 = Muharram.", example=9)
LANG = P.choice("lang", LANGUAGES, "Language of names and summaries (default en).", default=DEFAULT_LANGUAGE)
YEAR = P.integer("year", 1900, 2100, "A Gregorian year.")
MONTH = P.integer("month", 1, 12, "A month of year.")
