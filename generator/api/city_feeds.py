"""The two place feeds (SPEC 4.10): /v1/prayer-times.ics and /v1/night.ics.

A feed is for a catalogue ``city`` (as the SPEC first defined it, keys and UIDs unchanged) or
for ``lat``+``lng`` with a zone (``tz``, or ``tz=auto``: the feed's days are that zone's days),
with a method, ``method=custom`` and its angles, and the options of /v1/prayer-times that move
one of the feed's times (issue 9).  Prayer instants are `generator.prayer.prayer.compute` called
exactly as /v1/prayer-times calls it (`generator.api.prayer_times.times_for`, same options),
so a feed and the JSON can never disagree; the night's last third is
`generator.prayer.prayer.last_third_start_s`.  How the feeds are written
(UIDs, escaping, folding) is `generator.output.feeds`; their words are `generator.words.feed_words`.
Windows, wording and every other choice: docs/decisions.md.
"""
from __future__ import annotations

import re

import numpy as np

from generator.calendars import hijri
from generator.output import feeds
from generator.places import cities, days, timezones
from generator.prayer import jamaat, mosques, prayer
from generator.words import hijri_names
from generator.words import feed_words as words
from generator.api import feed_options as FO
from generator.api import jamaat_params as JP
from generator.api import mosques as MQ
from generator.api import params as P
from generator.api import schemas
from generator.api.calendar_feeds import FEED_LANG, MEDIA_TYPE
from generator.api.endpoint import Canonical, Endpoint, Params, Window
from generator.api import prayer_times as PT
from generator.api.location import CITY, LAT, LNG, TZ, coordinates, place
from generator.errors import QueryError
from generator.words.locale import decimal
from generator.prayer.methods import DEFAULT_METHOD, METHODS

MIN_DAYS, MAX_DAYS, DEFAULT_DAYS = 7, 90, 60  # SPEC 8: feed window
MIN_OFFSET_MIN, MAX_OFFSET_MIN = -60, 180  # SPEC 8: jamaat offsets
MAX_NAME_CHARS = 60  # SPEC 8
MAX_OFFSETS_CHARS = 120  # five pairs with spaces fit easily
PRAYER_EVENT_S = 15 * 60  # nominal length of a prayer event (the time to pray, not the prayer's end)

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def read_offsets(raw: str | None) -> str | None:
    """Return the canonical form of an ``offsets`` value, or None when there are none.

    ``prayer:minutes`` pairs: prayer one of fajr, dhuhr, asr, maghrib, isha (any case), minutes
    -60 to 180 (`params.read_minutes`).  Zeros are kept (an explicit 0 still marks a jamaat
    time), e.g. ``fajr:15,maghrib:0,isha:-5``.
    """
    return P.read_minutes(raw, "offsets", words.PRAYERS, MIN_OFFSET_MIN, MAX_OFFSET_MIN, item="prayer",
                          example="fajr:15,isha:-5", keep_zeros=True)


offsets_min = P.minutes_of  # {prayer: minutes} of a canonical ``offsets`` value


def read_name(raw: str | None) -> str | None:
    """Return the canonical masjid ``name``: whitespace runs (CR, LF, tabs…) as one space, trimmed.

    A calendar title is one line, so line breaks become spaces here; other control
    characters are refused.  An empty name is no name.  The 60-character limit applies
    to the value as given.
    """
    if raw is None:
        return None
    if len(raw) > MAX_NAME_CHARS:
        raise QueryError("name", f"at most {MAX_NAME_CHARS} characters")
    name = " ".join(raw.split())
    if _CONTROL.search(name):
        raise QueryError("name", "must not contain control characters")
    return name or None


FEED_CITY = CITY.but(description="A city id from /v1/cities (e.g. london, tehran, karbala), or lat+lng with tz.")
FEED_TZ = TZ.but(description="With lat+lng (required there): the IANA zone whose days the feed follows and whose "
                             "local times it writes, or auto (the zone at the coordinates). A city sets its own.")
FEED_METHOD = P.choice("method", (*METHODS, PT.CUSTOM), f"A method id, or custom with fajrAngle and ishaAngle or "
                       f"ishaInterval (default {DEFAULT_METHOD}).", default=DEFAULT_METHOD,
                       fold_case=True)
DAYS = P.integer("days", MIN_DAYS, MAX_DAYS, f"Rolling window in days from today (default {DEFAULT_DAYS}).",
                 default=DEFAULT_DAYS)
OFFSETS = P.custom("offsets", {"type": "string", "maxLength": MAX_OFFSETS_CHARS},
                   lambda q, n: read_offsets(q.string(n, max_chars=MAX_OFFSETS_CHARS)),
                   f"Jamaat offsets: prayer:minutes pairs, comma-separated, minutes {MIN_OFFSET_MIN}..{MAX_OFFSET_MIN}.",
                   example="fajr:15,maghrib:5")
NAME = P.custom("name", {"type": "string", "maxLength": MAX_NAME_CHARS}, lambda q, n: read_name(q.raw(n)),
                "Masjid name for the calendar title and summaries (the night feed: its title).")
# The options of /v1/prayer-times each feed takes: those that move a time it shows.  The others
# are refused with the reason, as a misspelt parameter is, rather than silently doing nothing.
CLOCK = P.choice("clock", words.CLOCKS, "Times in descriptions on a 12- or 24-hour clock (default: 12 for ar and ur, "
                                        "24 for en and fa).", keep_default=False)
# midnight and imsak move an event only when `prayers` shows it (imsak also with ramadan=1): checked in canonical.
PRAYER_OPTIONS = (PT.ASR, PT.HIGH_LATITUDE_RULE, PT.TUNE, PT.ELEVATION, PT.MIDNIGHT, PT.IMSAK)
NIGHT_OPTIONS = (PT.HIGH_LATITUDE_RULE, PT.TUNE, PT.ELEVATION)
NIGHT_TUNABLE = ("fajr", "maghrib")  # the last third runs from maghrib + ⅔ of the night to the next fajr
_NO_EVENT = "this feed has no {} event; the option applies to /v1/prayer-times"
NIGHT_REFUSED = {"midnight": _NO_EVENT.format("midnight"), "imsak": _NO_EVENT.format("imsak"),
                 "asr": "the night feed has no asr; the option applies to /v1/prayer-times"}
PLACE_PARAMETERS = (MQ.MOSQUE, FEED_CITY, LAT, LNG, FEED_TZ)
NIGHT_PARAMETERS = (*PLACE_PARAMETERS, FEED_METHOD, FEED_LANG, DAYS, CLOCK, NAME, *PT.CUSTOM_PARAMETERS, *NIGHT_OPTIONS,
                    *FO.NIGHT_FEED_OPTIONS)
# Jamaat (issue 20): the rules of /v1/prayer-times; the reckoning also dates Ramadan here.
FEED_CALENDAR = JP.CALENDAR.but(description="Hijri reckoning of the Eid days (eid) and of Ramadan (ramadan=1): "
                                            "moonsighting (global sighting), iran (official), pakistan, india, "
                                            "lebanon, azerbaijan, cssna-east or cssna-west.")
FEED_JAMAAT_PARAMETERS = (*JP.PARAMETERS[:-1], FEED_CALENDAR)
PRAYER_PARAMETERS = (*PLACE_PARAMETERS, FEED_METHOD, FEED_LANG, DAYS, CLOCK, OFFSETS, NAME, *PT.CUSTOM_PARAMETERS,
                     *PRAYER_OPTIONS, *FEED_JAMAAT_PARAMETERS, *FO.PRAYER_FEED_OPTIONS)
# What makes a subscription what it is (its UIDs' identity hash); absent keys are skipped, so a
# city feed without options keeps the identity, and the UIDs, it always had.
_OPTION_KEYS = ("tz", *(p.name for p in PT.CUSTOM_PARAMETERS), *(p.name for p in PT.OPTION_PARAMETERS))
PRAYER_IDENTITY = ("city", "lat", "lng", "method", "lang", "offsets", "name", *_OPTION_KEYS,
                   *(p.name for p in FEED_JAMAAT_PARAMETERS), *(p.name for p in FO.PRAYER_FEED_OPTIONS))
NIGHT_IDENTITY = ("city", "lat", "lng", "method", "lang", "name", *_OPTION_KEYS,
                  *(p.name for p in FO.NIGHT_FEED_OPTIONS))


def _canonical(values, now_unix_s: float, options: tuple[P.Param, ...], tunable: tuple[str, ...],
               extra: tuple[P.Param, ...] = ()) -> Canonical:
    """A feed's window starts today in its zone: the city's, or ``tz`` with lat+lng."""
    if values["city"] is None and values["lat"] is None and values["lng"] is None:
        raise QueryError("city", "required: a city id of /v1/cities, or lat+lng with tz")
    params = place(values, with_tz=True)
    if "city" in params:
        if values["tz"] is not None:
            raise QueryError("tz", "a city's feed follows the city's zone; tz goes with lat+lng")
        zone = params.pop("tz")  # implied by the city: kept out of the key, as before
    elif "tz" not in params:
        raise QueryError("tz", "required with lat+lng: an IANA zone such as Europe/London, or auto; "
                               "a feed's days are the days of its zone")
    else:
        zone = params["tz"]
    params.update({name: values[name] for name in ("method", "lang", "days", "clock", "offsets", "name",
                                                   *(p.name for p in extra)) if values.get(name) is not None})
    params.update(PT.custom_angles(values, params["method"]))
    params.update(PT.read_options(values, options))
    tunable = tunable(params) if callable(tunable) else tunable
    tune = PT.tune_min(params.get("tune"))
    for name in tune:
        if name not in tunable and "tune" not in values.supplied:
            raise QueryError("tune", f"this feed shows no {name}; tune one of {', '.join(tunable)}")
    if "tune" in values.supplied:  # a mosque's tune: only what moves a time this feed shows
        params["tune"] = ",".join(f"{name}:{minutes}" for name, minutes in tune.items() if name in tunable)
        if not params["tune"]:
            del params["tune"]
    params["date"] = days.today(now_unix_s, zone).isoformat()
    return Canonical(params, today_dependent=True)


def _prayer_tunable(params: Params) -> tuple[str, ...]:
    """The times a prayer feed shows (`prayers`; imsak and maghrib with ramadan=1), which tune may move."""
    shown = set(FO.shown(params)) | ({"imsak", "maghrib"} if params.get("ramadan", 0) == 1 else set())
    return tuple(n for n in prayer.OUTPUT_TIMES if n in shown)


def canonical_prayer_times(values, now_unix_s: float) -> Canonical:
    values = MQ.fill(values, PRAYER_PARAMETERS)  # mosque=<id>: its profile's parameters, as if given
    found = _canonical(values, now_unix_s, PRAYER_OPTIONS, _prayer_tunable, FO.PRAYER_FEED_OPTIONS)
    params = found.params
    # Issue 20: jamaat rules (a city's zone or tz: always a zone here), and options that need an event to move.
    if params.get("offsets") is not None and values.get("jamaat"):
        raise QueryError("jamaat", "give either offsets (minutes after the adhan) or jamaat rules, not both")
    params.update(JP.read(values, has_zone=True, calendar_with=(*JP.DATED, "ramadan")))
    shows = {"midnight": ("midnight" in FO.shown(params), "add it to prayers"),
             "imsak": (FO.shows_imsak(params), "add it to prayers, or ramadan=1")}
    for name, (shown, how) in shows.items():
        if name in values.given and not shown:
            if name not in values.supplied:
                raise QueryError(name, f"this feed shows no {name} event ({how}); the option applies to "
                                       f"/v1/prayer-times")
            params.pop(name, None)  # a mosque's option that moves no event here
    JP.refuse_never_within(params, days.unix_day(params["date"]), _times_of(params), _place(params)[2])
    return found


def canonical_night(values, now_unix_s: float) -> Canonical:
    values = MQ.fill(values, NIGHT_PARAMETERS)
    return _canonical(values, now_unix_s, NIGHT_OPTIONS, NIGHT_TUNABLE, FO.NIGHT_FEED_OPTIONS)


def _plan(window: Window):
    """Every catalogue city's feed, and each mosque's in its languages."""
    return ([{"city": city} for city in window.city_ids]
            + [{"mosque": m.id, **({"lang": lang} if lang != "en" else {})} for m in mosques.by_id().values()
               for lang in m.languages])


def _times(params: Params, n_days: int) -> prayer.PrayerTimes:
    """Return the prayer times of ``n_days`` from ``date`` exactly as /v1/prayer-times computes them."""
    lat, lng = coordinates(params)
    return PT.times_for(lat, lng, days.unix_day(params["date"]), n_days, PT.methods_of(params), PT.options_of(params))


def _place(params: Params) -> tuple[str, str, str, str]:
    """Return (place name, name of its local time, IANA zone, method label), in the feed's language.

    A city: its name twice and its zone.  Coordinates: the masjid's ``name`` when given (a mosque's
    feed), else the coordinates with hemisphere words ("43.84° N, 79.46° W": no minus sign to be
    drawn on the wrong side in right-to-left text); "… time" names the catalogue city the zone is
    named after ("Toronto time"), else the zone id, isolated in right-to-left text (language
    review of 26 November, issue 29).
    """
    lang = params["lang"]
    if params["method"] == PT.CUSTOM:
        method_label = words.CUSTOM_METHOD[lang].format(rules=words.custom_rules(params, lang))
    else:
        method_label = METHODS[params["method"]].label[lang]
    if "city" in params:
        city = cities.by_id()[params["city"]]
        zone_word = words.ZONE_COUNTRY_NAMES[lang].get(str(city["tz"]), city["names"][lang])
        return city["names"][lang], zone_word, str(city["tz"]), method_label
    zone = params["tz"]
    place_name = words.coordinates(params["lat"], params["lng"], lang)
    if params.get("name") is not None:
        place_name = words.FSI + params["name"] + words.PDI if lang in words.RTL else params["name"]
    return place_name, words.zone_name(zone, lang), zone, method_label


def _place_key(params: Params) -> str:
    """The place part of a UID: the city id, or the rounded coordinates in ISO 6709 form ("+35.69+051.39")."""
    return params["city"] if "city" in params else f"{params['lat']:+06.2f}{params['lng']:+07.2f}"


def _method_lines(params: Params, method_label: str) -> str:
    """The calendar description's method line, then the feed's rules and options said in words (issue 36: never the
    query itself, "Options: jamaat=fajr:10,…", which a member cannot read)."""
    lang = params["lang"]
    return "\n".join([words.METHOD_LINE[lang].format(method=method_label), *_rules_lines(params)])


def _rules_lines(params: Params) -> list[str]:
    """The jamaat rules, the adhan's settings, the events chosen and the Ramadan events, each a line in words."""
    lang = params["lang"]
    said, names = words.RULES_WORDS[lang], words.PRAYER_NAMES[lang]
    clock = params.get("clock", words.DEFAULT_CLOCK[lang])

    def number(value) -> str:
        return words.native(str(value), lang)

    def at(minutes: int, event: str | None = None) -> str:
        return words.clock_text(jamaat.clock_text(minutes), lang, clock, event=event)

    lines = []
    rules = JP.rules_of(params) if any(name in params for name in JP.NAMES) else None
    if rules is not None:
        weekly, earliest, latest = dict(rules.weekly), dict(rules.earliest_min), dict(rules.latest_min)

        def phrases(rule_set: jamaat.RuleSet, set_number: int, base: bool) -> list[str]:
            rounding = rules.rounding_of(set_number)
            own = {2: dict(rules.round_dst_min), 3: dict(rules.round_ramadan_min)}.get(set_number, {})
            out = []
            for p, rule in rule_set:
                if rule.after_adhan_min is not None:
                    text = said["after"].format(prayer=names[p], minutes=number(rule.after_adhan_min))
                elif rule.before_sunrise_min is not None:
                    text = said["before_sunrise"].format(prayer=names[p], minutes=number(rule.before_sunrise_min))
                elif rule.at_local_min is not None:
                    text = said["at"].format(prayer=names[p], time=at(rule.at_local_min, p))
                else:
                    text = said["with"].format(prayer=names[p], partner=names[rule.with_prayer])
                extra = []
                if rule.flexible and p in rounding:
                    extra.append(said["rounded"].format(minutes=number(rounding[p])))
                elif rule.flexible and own.get(p) == 1:
                    extra.append(said["not_rounded"])
                if base and rule.flexible:
                    extra += [said["earliest"].format(time=at(earliest[p], p))] if p in earliest else []
                    extra += [said["latest"].format(time=at(latest[p], p))] if p in latest else []
                    extra += ([said["weekly"].format(weekday=hijri_names.WEEKDAYS[lang][weekly[p]])]
                              if p in weekly else [])
                out.append("، ".join([text, *extra]) if lang in ("ar", "fa", "ur") else ", ".join([text, *extra]))
            return out

        def slots(key: str, minutes: tuple[int, ...], event: str) -> list[str]:
            return [said[key].format(times=words.join_list([at(m, event) for m in minutes], lang))] if minutes else []

        base = phrases(rules.prayers, 1, True) + slots("jumuah", rules.jumuah_min, "dhuhr") + slots(
            "eid", rules.eid_min, "fajr") + ([said["table"]] if rules.table_text else [])
        if rules.outside != jamaat.MOVE:
            base.append(f"{words.OPTION_LABELS['jamaatOutside'][lang]}: "
                        f"{words.CHOICE_WORDS[lang]['jamaatOutside.' + rules.outside]}")
        summer = phrases(rules.dst, 2, False) + slots("jumuah", rules.jumuah_dst_min, "dhuhr")
        ramadan = phrases(rules.ramadan, 3, False)
        for key, items in (("jamaat", base), ("summer", summer), ("ramadan", ramadan)):
            if items:
                lines.append(said[key].format(rules=_LIST_SEPARATOR[lang].join(items)))
    settings = [f"{words.OPTION_LABELS[name][lang]}: {words.CHOICE_WORDS[lang][f'{name}.{params[name]}']}"
                for name in ("asr", "highLatitudeRule", "midnight") if name in params
                and f"{name}.{params[name]}" in words.CHOICE_WORDS[lang]]
    if "tune" in params:  # minutes added to the computed times: "Fajr +2, Isha −3"
        tuned = [item.split(":") for item in str(params["tune"]).split(",") if ":" in item]
        settings.append(words.join_list([f"{names.get(p, words.TIME_NAMES[lang].get(p, p))} "
                                         f"{words.LRI}{'+' if int(m) > 0 else '−'}{number(abs(int(m)))}′{words.PDI}"
                                         for p, m in tuned if m.lstrip("-").isdigit()], lang))
    if "elevation" in params:
        settings.append(f"{words.OPTION_LABELS['elevation'][lang]}: {number(params['elevation'])}")
    if "imsak" in params:
        settings.append(said["imsak"].format(minutes=number(params["imsak"])))
    if settings:
        lines.append(said["settings"].format(settings=_LIST_SEPARATOR[lang].join(settings)))
    if "prayers" in params:
        shown = [words.PRAYER_NAMES[lang].get(name) or words.TIME_NAMES[lang].get(name, name)
                 for name in FO.shown(params)]
        lines.append(said["events"].format(events=words.join_list(shown, lang)))
    if params.get("ramadan") == 1:
        lines.append(said["ramadan_events"])
    return lines


_LIST_SEPARATOR = {"en": "; ", "ar": "؛ ", "fa": "؛ ", "ur": "؛ "}  # between a line's rules (each may hold commas)


def _clock(zone: str, unix_s: np.ndarray, params: Params, event: str) -> list[str]:
    """Return local times of ``unix_s``, times of ``event`` (a prayer, "jumuah", "eid", "suhoor", "iftar",
    "night"), as the feed's language writes them (`feed_words.clock_text`: Urdu's part of the day is the event's)."""
    lang = params["lang"]
    clock = params.get("clock", words.DEFAULT_CLOCK[lang])
    return [words.clock_text(hhmm, lang, clock, event=event) for hhmm in timezones.local_hhmm(zone, unix_s).tolist()]


def _times_of(params: Params):
    """(first unix day, days) -> the prayer times of that span, exactly as `_times` computes the window's."""
    lat, lng = coordinates(params)
    return lambda first, n_days: PT.times_for(lat, lng, first, n_days, PT.methods_of(params), PT.options_of(params))


def build_prayer_times(params: Params) -> bytes:
    """Return the prayer feed: the times `prayers` names (default the five prayers) of each day, each
    prayer at its jamaat when it has one (``offsets`` or the jamaat rules), Jumu'ah and Eid slots,
    and with ramadan=1 suhoor-ends and iftar events.  Options: module `generator.api.feed_options`.

    A time never reached that day (``highLatitudeRule=none``) has no event: there is no time to show.
    """
    lang, n_days, name = params["lang"], params["days"], params.get("name")
    if name is not None and lang in words.RTL:  # a masjid name in either direction keeps its own inside RTL text
        name = words.FSI + name + words.PDI
    place_name, clock_name, zone, method_label = _place(params)
    result = _times(params, n_days)
    offsets = offsets_min(params.get("offsets"))
    identity = feeds.feed_identity("prayer-times", params, PRAYER_IDENTITY)
    first = days.unix_day(params["date"])
    requested_lat, _ = coordinates(params)
    method_line = words.METHOD_LINE[lang].format(method=method_label)
    place_key = _place_key(params)
    shown = FO.shown(params)
    lasting_s = FO.durations_s(params.get("duration"))
    busy, alarm = params.get("busy", FO.BUSY.default) == 1, params.get("alarm")
    found = JP.compute(params, first, n_days, _times_of(params), zone)
    rules = JP.rules_of(params) or jamaat.Rules()
    jam = found[0] if found else None
    # A prayer prayed with a partner the feed also shows is folded into the partner's event, on the days its
    # rule combines them (a summer or Ramadan rule, or a table cell, may give it its own jamaat on others).
    folded = {p: jam.combined[jam.names.index(p)] for p in rules.with_partners
              if p in shown and jamaat.PAIRS[p] in shown and p in jam.names}
    names = words.PRAYER_NAMES[lang]
    clocks: dict[str, list[str]] = {}
    by_city = "city" in params or words.zone_city_name(zone, lang) is not None

    def local_time(text: str) -> str:
        """"05:43 Toronto time"; for a zone no catalogue city names, "05:43 local time (America/Halifax)": an id
        where a place name belongs is machine text (ur E-4, second pass of the language review of 2026-11-26)."""
        if by_city:
            return words.LOCAL_TIME[lang].format(time=text, city=clock_name)
        return words.LOCAL_TIME_ZONE[lang].format(time=text, zone=clock_name)

    def clock(key: str, unix_s: np.ndarray, event: str) -> list[str]:
        if key not in clocks:
            clocks[key] = _clock(zone, unix_s, params, event)
        return clocks[key]

    def summarised(summary: str) -> str:
        return summary if name is None else words.titled(summary, name, lang)

    def polar_lines(i: int) -> list[str]:
        used_lat = float(result.latitude_used_deg[i])
        lines = [method_line]
        if used_lat != requested_lat:
            lines.append(words.POLAR_LINE[lang].format(lat=decimal(used_lat, 1, lang)))
        return lines

    out = []

    def add(i: int, key: str, order: int, start_s: int, lasting: str, summary: str, lines: list[str], busy_event: bool):
        day_key = days.to_date(first + i).strftime("%Y%m%d")
        vevent = feeds.timed_event(
            event_uid=feeds.uid("prayer", f"{place_key}-{day_key}-{key}", identity),
            start_unix_s=start_s,
            end_unix_s=start_s + lasting_s[lasting],
            summary=summary,
            description="\n".join(lines),
            lang=lang,
            busy=busy_event,
            alarm_before_min=alarm,
        )
        out.append(((start_s, first + i, order), vevent))

    calendar = params.get("calendar", hijri.DEFAULT_CALENDAR)
    window = first + np.arange(n_days)
    ramadan_days = jamaat.is_ramadan(window, calendar) if params.get("ramadan", 0) == 1 else np.zeros(n_days, bool)
    for time_id in shown:
        order = EVENT_ORDER.index(time_id)
        calculated = result.times[time_id][0]
        reached = ~result.unreached[time_id][0] if time_id in result.unreached else np.ones(n_days, dtype=bool)
        if time_id in FO.MARKERS:
            summary = summarised(words.TIME_NAMES[lang][time_id])
            if time_id == "imsak":  # a Ramadan day's imsak is its suhoor event (below): one event, one alarm
                reached = reached & ~ramadan_days
            for i in np.flatnonzero(reached).tolist():
                local = local_time(clock(time_id, calculated, time_id)[i])
                add(i, time_id, order, int(calculated[i]), time_id, summary, [local, *polar_lines(i)], False)
            continue
        k = jam.names.index(time_id) if jam is not None and time_id in jam.names else None
        ruled = jam.ruled[k] if k is not None else np.zeros(n_days, dtype=bool)
        has_event = np.where(ruled, jam.present[k], reached) if k is not None else reached
        if time_id in folded:
            has_event = has_event & ~folded[time_id]  # those days its jamaat is its partner's event
        if time_id == "dhuhr" and rules.jumuah_min:
            has_event = has_event & ~jam.fridays  # Jumu'ah events instead, below
        starts = np.where(ruled, jam.instants_s[k], calculated) if k is not None else calculated
        starts = starts + offsets.get(time_id, 0) * 60
        moved = jam.moved[k] if k is not None else np.zeros(n_days, dtype=bool)
        moved_end = jam.moved_end[k] if k is not None else np.zeros(n_days, dtype=bool)
        kept = jam.kept[k] if k is not None and jam.kept is not None else np.zeros(n_days, dtype=bool)
        skipped = jam.skipped[k] if k is not None and jam.skipped is not None else np.zeros(n_days, dtype=bool)
        partner = jamaat.PAIRS.get(time_id) if jamaat.PAIRS.get(time_id) in folded else None
        partner_calculated = result.times[partner][0] if partner else None
        for i in np.flatnonzero(has_event).tolist():
            with_jamaat = bool(ruled[i]) or time_id in offsets
            if with_jamaat and partner and folded[partner][i]:
                first_id, second_id = sorted((time_id, partner), key=words.PRAYERS.index)
                summary = words.COMBINED_JAMAAT_SUMMARY[lang].format(first=names[first_id], second=names[second_id])
            else:
                summary = (words.JAMAAT_SUMMARY if with_jamaat else words.PRAYER_SUMMARY)[lang].format(
                    prayer=names[time_id])
            lines = [local_time(clock(f"start-{time_id}", starts, time_id)[i])]
            if with_jamaat:
                lines.append(words.jamaat_line(time_id, lang).format(prayer=names[time_id],
                                                                     time=clock(time_id, calculated, time_id)[i]))
                if partner and folded[partner][i]:
                    lines.append(words.FADHILA_LINE[lang].format(prayer=names[partner],
                                                                 time=clock(partner, partner_calculated, partner)[i]))
                if moved_end[i]:
                    lines.append(words.JAMAAT_MOVED_END_LINE[lang].format(end=words.TIME_NAMES[lang][
                        jamaat.END_OF[time_id]]))
                elif moved[i] and jamaat.OPENS_AT[time_id] != time_id:  # asr, isha: at the dhuhr, maghrib adhan
                    lines.append(words.JAMAAT_MOVED_SHARED_LINE[lang].format(prayer=names[jamaat.OPENS_AT[time_id]]))
                elif moved[i]:
                    lines.append(words.JAMAAT_MOVED_LINE[lang])
                if kept[i]:  # issue 33: a declared time outside its prayer's time, kept as the mosque chose
                    lines.append(words.JAMAAT_KEPT_LINE[lang])
            if skipped[i]:  # the adhan's event, and why there is no jamaat
                lines.append(words.JAMAAT_SKIPPED_LINE[lang])
            add(i, time_id, order, int(starts[i]), time_id, summarised(summary), lines + polar_lines(i), busy)

    if jam is not None and rules.jumuah_min:  # Fridays: each slot, the first with any prayer folded into dhuhr
        dhuhr = result.times["dhuhr"][0]
        jumuah = words.JUMUAH_NAME[lang]
        partner = "asr" if "asr" in folded else None
        # the last start that leaves time to pray before Jumu'ah's end (generator/prayer/jamaat.py, the rule's own bound)
        last_start = result.times[jamaat.END_OF["jumuah"]][0] - jamaat.latest_start_min("jumuah") * 60
        for i in np.flatnonzero(jam.fridays).tolist():
            first_slot = int(np.argmax(jam.jumuah_on[i])) if jam.jumuah_on is not None else 0
            for slot, start_s in enumerate(jam.jumuah_s[i].tolist()):
                if jam.jumuah_on is not None and not jam.jumuah_on[i][slot]:
                    continue  # skipped: outside its prayer's time (jamaatOutside=skip)
                if slot == first_slot and partner and folded[partner][i]:
                    summary = words.JUMUAH_COMBINED_SUMMARY[lang].format(first=jumuah, second=names[partner])
                else:
                    summary = words.PRAYER_SUMMARY[lang].format(prayer=jumuah)
                lines = [local_time(_clock(zone, np.array([start_s]), params, "jumuah")[0]),
                         words.JAMAAT_LINE[lang].format(prayer=names["dhuhr"], time=clock("dhuhr", dhuhr, "dhuhr")[i])]
                if slot == first_slot and partner and folded[partner][i]:
                    lines.append(words.FADHILA_LINE[lang].format(
                        prayer=names[partner], time=clock(partner, result.times[partner][0], partner)[i]))
                if jam.moved_end[len(jam.names)][i] and start_s == int(last_start[i]):
                    lines.append(words.JAMAAT_MOVED_END_LINE[lang].format(
                        end=words.TIME_NAMES[lang][jamaat.END_OF["jumuah"]]))
                elif jam.moved[len(jam.names)][i] and start_s == int(dhuhr[i]):
                    lines.append(words.JAMAAT_MOVED_LINE[lang])
                elif jam.kept is not None and jam.kept[len(jam.names)][i] and not (
                        int(dhuhr[i]) <= start_s < int(result.times[jamaat.END_OF["jumuah"]][0][i])):
                    lines.append(words.JAMAAT_KEPT_LINE[lang])  # outside its time, kept as set (issue 33)
                add(i, f"jumuah-{slot + 1}", EVENT_ORDER.index("jumuah") + slot, start_s, "jumuah", summarised(summary),
                    lines + polar_lines(i), busy)

    if jam is not None and rules.eid_min:
        sunrise, eid_end = result.times["sunrise"][0], result.times[jamaat.END_OF["eid"]][0]
        eid_days = np.flatnonzero(jam.eid_days)
        months = hijri.to_hijri(window[eid_days], calendar).month.tolist()
        for i, month in zip(eid_days.tolist(), months):
            for slot, start_s in enumerate(jam.eid_s[i].tolist()):
                if jam.eid_on is not None and not jam.eid_on[i][slot]:
                    continue  # skipped: outside its prayer's time (jamaatOutside=skip)
                lines = [local_time(_clock(zone, np.array([start_s]), params, "eid")[0])]
                if jam.kept is not None and jam.kept[len(jam.names) + 1][i] and not (
                        int(sunrise[i]) <= start_s < int(eid_end[i])):
                    lines.append(words.JAMAAT_KEPT_LINE[lang])  # outside its time, kept as set (issue 33)
                if jam.moved_end[len(jam.names) + 1][i] and start_s == int(eid_end[i]) - jamaat.latest_start_min("eid") * 60:
                    lines.append(words.JAMAAT_MOVED_END_LINE[lang].format(end=words.TIME_NAMES[lang][jamaat.END_OF["eid"]]))
                elif jam.moved[len(jam.names) + 1][i] and start_s == int(sunrise[i]):
                    lines.append(words.EID_MOVED_LINE[lang])
                add(i, f"eid-{slot + 1}", EVENT_ORDER.index("eid") + slot, start_s, "eid",
                    summarised(words.EID_PRAYER[month][lang]), lines + polar_lines(i), busy)

    if params.get("ramadan", 0) == 1:  # imsak (suhoor) and iftar at maghrib (the computed times)
        ramadan = np.flatnonzero(ramadan_days)
        dates = hijri.to_hijri(window[ramadan], calendar)
        notes = {"suhoor": [words.IMSAK_NOTE[lang]], "iftar": []}  # the fast begins at dawn; imsak is a precaution
        for key, time_id, title in (("suhoor", "imsak", words.SUHOOR_ENDS), ("iftar", "maghrib", words.IFTAR)):
            times = result.times[time_id][0]
            reached = ~result.unreached[time_id][0] if time_id in result.unreached else np.ones(n_days, dtype=bool)
            for i, hy, hm, hd in zip(ramadan.tolist(), dates.year.tolist(), dates.month.tolist(), dates.day.tolist()):
                if reached[i]:
                    lines = [local_time(clock(time_id, times, key)[i]),
                             hijri_names.formatted(hy, hm, hd)[lang], *notes[key]]
                    add(i, key, EVENT_ORDER.index(key), int(times[i]), key, summarised(title[lang]),
                        lines + polar_lines(i), False)

    title = (
        words.titled(name, words.PRAYER_CALENDAR[lang], lang)
        if name is not None
        else words.titled(words.PRAYER_CALENDAR[lang], place_name, lang)
    )
    description = words.PRAYER_CALENDAR_DESCRIPTION[lang].format(city=place_name) + "\n" + _method_lines(
        params, method_label)
    cal = feeds.calendar(lang=lang, name=title, description=description, zone=zone)
    return feeds.serialize(cal, out)


# Event order on equal starts (the sort key after the start and the day): the times in the day's order,
# Jumu'ah and Eid slots beside dhuhr and sunrise, suhoor with imsak, iftar with maghrib.
EVENT_ORDER = ("imsak", "suhoor", "fajr", "sunrise", "eid", "eid2", "dhuhr", "jumuah", "jumuah2", "jumuah3", "asr",
               "maghrib", "iftar", "isha", "midnight")


def build_night(params: Params) -> bytes:
    """Return the night feed: from the start of the last third of each night to the next fajr.

    A night whose maghrib or next fajr is never reached (``highLatitudeRule=none``) has no event.
    """
    lang, n_days = params["lang"], params["days"]
    place_name, clock_name, zone, method_label = _place(params)
    result = _times(params, n_days + 1)  # + the next day, whose fajr ends the last night
    maghrib, next_fajr = result.times["maghrib"][0, :n_days], result.times["fajr"][0, 1:]
    reached = np.ones(n_days, dtype=bool)
    if "maghrib" in result.unreached:
        reached &= ~result.unreached["maghrib"][0, :n_days]
    if "fajr" in result.unreached:
        reached &= ~result.unreached["fajr"][0, 1:]
    nights = np.flatnonzero(reached)
    starts = np.zeros(n_days, dtype=np.int64)
    starts[nights] = prayer.last_third_start_s(maghrib[nights], next_fajr[nights])
    start_clock, fajr_clock = _clock(zone, starts, params, "night"), _clock(zone, next_fajr, params, "fajr")
    identity = feeds.feed_identity("night", params, NIGHT_IDENTITY)
    first = days.unix_day(params["date"])
    place_key = _place_key(params)
    by_city = "city" in params or words.zone_city_name(zone, lang) is not None  # else "local time (its id)"
    out = []
    for i in nights.tolist():
        evening = days.to_date(first + i).strftime("%Y%m%d")  # the civil date the night begins on
        vevent = feeds.timed_event(
            event_uid=feeds.uid("night", f"{place_key}-{evening}", identity),
            start_unix_s=int(starts[i]),
            end_unix_s=int(next_fajr[i]),
            summary=words.NIGHT_SUMMARY[lang],
            description=(words.NIGHT_DESCRIPTION[lang].format(start=start_clock[i], fajr=fajr_clock[i], city=clock_name)
                         if by_city else words.NIGHT_DESCRIPTION_ZONE[lang].format(start=start_clock[i],
                                                                                   fajr=fajr_clock[i], zone=clock_name)),
            lang=lang,
            busy=params.get("busy", FO.NIGHT_BUSY.default) == 1,
            alarm_before_min=params.get("alarm"),
        )
        out.append(((int(starts[i]),), vevent))
    name = params.get("name")
    if name is not None and lang in words.RTL:
        name = words.FSI + name + words.PDI
    cal = feeds.calendar(
        lang=lang,
        name=(words.titled(name, words.NIGHT_CALENDAR[lang], lang) if name is not None  # as the prayer feed's title
              else words.titled(words.NIGHT_CALENDAR[lang], place_name, lang)),
        description=words.NIGHT_CALENDAR_DESCRIPTION[lang].format(city=place_name) + "\n" + _method_lines(
            params, method_label),
        zone=zone,
    )
    return feeds.serialize(cal, out)


PRAYER_TIMES = Endpoint("prayer-times.ics", "The five daily prayers for a city or any place as timed events (UTC)",
                        PRAYER_PARAMETERS, canonical_prayer_times, build_prayer_times, schemas.calendar_feed(),
                        MEDIA_TYPE, plan=_plan)
NIGHT = Endpoint("night.ics", "The start of the last third of each night for a city or any place", NIGHT_PARAMETERS,
                 canonical_night, build_night, schemas.calendar_feed(), MEDIA_TYPE, plan=_plan, refused=NIGHT_REFUSED)
