"""The jamaat parameters (issue 20), declared once: read by /v1/prayer-times, its CSV and ICS feed.

The rules themselves are `generator.prayer.jamaat` (a pure function of the canonical texts, so a
mosque profile fills them the same way); this module declares the parameters, turns a query's
values into canonical params (`read`), computes each method's jamaat from the endpoint's own
final times (`compute`), and writes them into JSON rows and CSV cells.

Canonical forms (docs/decisions.md "Jamaat"): ``jamaat`` in prayer order, lower case, times
``HH:MM`` (``Isha:maghrib, fajr:20`` → ``fajr:20,isha:maghrib``); ``jamaatRound`` as pairs in
prayer order (a single number expands to every minutes-after rule); ``jamaatWeekly`` lower
case; ``jumuah`` and ``eid`` ascending ``HH:MM``; ``jamaatRoundDst``/``jamaatRoundRamadan`` as pairs in prayer
order, 1 kept (it overrides ``jamaatRound`` for that rule).  ``calendar`` is kept only with ``eid`` (and in
the feed with ``ramadan``), and only when not the default.  None is part of the key when absent,
so every answer without them keeps its bytes and its static file.
"""
from __future__ import annotations

from collections import OrderedDict
from datetime import date
from typing import Callable, Sequence

import numpy as np

from generator.calendars import hijri
from generator.places import days, timezones
from generator.prayer import jamaat, prayer
from generator.api import day_rows
from generator.api import params as P
from generator.api.common import CALENDAR as HIJRI_CALENDAR
from generator.errors import QueryError

MAX_CHARS = 200  # five prayer:HH:MM rules with spaces fit in 90

JAMAAT = P.custom(
    jamaat.JAMAAT, {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: q.string(n, max_chars=MAX_CHARS),
    "Jamaat (congregation) times: prayer:rule pairs, comma-separated; prayers fajr, dhuhr, asr, maghrib, isha. A rule "
    f"is minutes after that day's adhan (fajr:20; 0..{jamaat.MAX_AFTER_ADHAN_MIN}), minutes before sunrise (fajr only: "
    "fajr:sunrise-30), a fixed local time (dhuhr:13:30; needs a zone), or the prayer it is prayed with (asr:dhuhr, "
    "isha:maghrib; one jamaat for both, the partner needs its own rule). A jamaat is always within its prayer's "
    "time: one before the time opens (its adhan; asr 8 minutes after the dhuhr adhan, isha 6 after the maghrib adhan: "
    "a shared time, once the first prayer can have been prayed) "
    "moves to it, one too late to be prayed before the end (fajr: sunrise; dhuhr: asr's four rak'as before sunset; "
    "asr: sunset; maghrib: isha's four rak'as before midnight; isha: midnight; 2 minutes a rak'a) to the last start "
    "that leaves time (jamaatMoved; jamaatMovedEnd).",
    keep_default=False, example="fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib")
JAMAAT_ROUND = P.custom(
    jamaat.ROUND, {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: q.string(n, max_chars=MAX_CHARS),
    f"Round minutes-after jamaat times up to a multiple of 1..{jamaat.MAX_ROUND_MIN} minutes on the local clock: "
    "prayer:minutes pairs (fajr:5,isha:15), or one number for every minutes-after rule.",
    keep_default=False, example="fajr:5,maghrib:5")
JAMAAT_ROUND_DST = P.custom(
    jamaat.ROUND_DST, {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: q.string(n, max_chars=MAX_CHARS),
    "The summer rules' own rounding (the grammar of jamaatRound, for minutes-after rules of jamaatDst; 1: not "
    "rounded). A prayer it does not name keeps jamaatRound's.", keep_default=False, example="fajr:1")
JAMAAT_ROUND_RAMADAN = P.custom(
    jamaat.ROUND_RAMADAN, {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: q.string(n, max_chars=MAX_CHARS),
    "The Ramadan rules' own rounding (the grammar of jamaatRound, for minutes-after rules of jamaatRamadan; 1: not "
    "rounded). A prayer it does not name keeps jamaatRound's.", keep_default=False, example="fajr:1")
JAMAAT_WEEKLY = P.custom(
    jamaat.WEEKLY, {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: q.string(n, max_chars=MAX_CHARS),
    "A weekday (every minutes-after or before-sunrise rule) or prayer:weekday pairs: that jamaat changes only on "
    "that weekday; each week (from that weekday on) holds the latest local time its rule gives on any of its days "
    "(the earliest for a rule before sunrise), computed over the whole week whatever the requested range. A change "
    "of clock offset, of the rule in force (summer, Ramadan) or a table day starts a new hold.",
    keep_default=False, example="fajr:fri,isha:sat")
JUMUAH = P.custom(
    jamaat.JUMUAH, {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: q.string(n, max_chars=MAX_CHARS),
    f"Up to {jamaat.MAX_JUMUAH} local times HH:MM of Jumu'ah (needs a zone): on Fridays the day's jamaat.jumuah "
    "lists them and dhuhr's jamaat is the first.", keep_default=False, example="13:15,14:00")
EID = P.custom(
    jamaat.EID, {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: q.string(n, max_chars=MAX_CHARS),
    f"Up to {jamaat.MAX_EID} local times HH:MM of the Eid prayer (needs a zone): on Eid al-Fitr and Eid al-Adha under "
    "`calendar` the day's jamaat.eid lists them (never before sunrise).", keep_default=False, example="07:30,09:00")
def _rules_param(name: str, description: str, example: str) -> P.Param:
    return P.custom(name, {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: q.string(n, max_chars=MAX_CHARS),
                    description, keep_default=False, example=example)


JAMAAT_DST = _rules_param(
    jamaat.DST, "Jamaat rules (the grammar of jamaat) for the days the zone keeps daylight-saving (summer) time, "
    "replacing jamaat's rule for the prayers they name, e.g. dhuhr 13:30 in winter and 13:45 in summer.",
    "dhuhr:13:45,fajr:25")
JUMUAH_DST = _rules_param(
    jamaat.JUMUAH_DST, "The Jumu'ah slots (as many as jumuah gives) on Fridays of daylight-saving (summer) time.",
    "13:30")
JAMAAT_RAMADAN = _rules_param(
    jamaat.RAMADAN_RULES, "Jamaat rules (the grammar of jamaat) for the days of Ramadan under `calendar`, replacing "
    "the others for the prayers they name, e.g. a shorter maghrib wait and a fixed isha.", "maghrib:5,isha:20:30")
JAMAAT_EARLIEST = _rules_param(
    jamaat.EARLIEST, "prayer:HH:MM: a minutes-after (or before-sunrise) jamaat is never earlier than this local "
    "time (isha 10 minutes after the adhan, but not before 19:30).", "isha:19:30")
JAMAAT_LATEST = _rules_param(
    jamaat.LATEST, "prayer:HH:MM: a minutes-after (or before-sunrise) jamaat is never later than this local time.",
    "isha:22:00")
JAMAAT_TABLE = P.custom(
    jamaat.TABLE, {"type": "string", "maxLength": jamaat.MAX_TABLE_CHARS},
    lambda q, n: q.string(n, max_chars=jamaat.MAX_TABLE_CHARS),
    "Jamaat times typed in by the mosque, winning over the rules on their days: CSV rows separated by line breaks "
    "or ';', a header 'day' and any of fajr, dhuhr, asr, maghrib, isha (or SalahAPI's fajr_iqama, …; its _athan "
    "and sunrise columns are checked and not used), then a day YYYY-MM-DD (or a range YYYY-MM-DD..YYYY-MM-DD) and "
    f"local times HH:MM (empty: the rule applies); at most {jamaat.MAX_TABLE_ROWS} rows.",
    keep_default=False, example="day,fajr,isha;2026-03-01..2026-03-07,05:30,20:00;2026-03-08,05:15,")
JAMAAT_NOTICE = P.custom(
    jamaat.NOTICE, {"type": "integer", "minimum": 1, "maximum": jamaat.MAX_NOTICE_MIN},
    lambda q, n: q.string(n, max_chars=8),
    "jamaatChanged lists a prayer only when its jamaat moves by at least these minutes on the local clock from the "
    "day before (or it gains or loses one, or either day's time is a set one: fixed, typed in, held weekly). "
    "Default 1: every change.", keep_default=False, example="5")
JAMAAT_OUTSIDE = P.choice(
    jamaat.OUTSIDE, jamaat.OUTSIDE_CHOICES,
    "What a time the mosque set (a fixed rule, a table's cell, a Jumu'ah or Eid slot) becomes on the days it falls "
    "outside its prayer's time on a bound no ruling disputes (before its adhan, at or after its end: sunrise, sunset, "
    "midnight, noon for Eid; isha before maghrib's jamaat): move (to the bound, listed in jamaatMoved), skip (no "
    "jamaat that day, a slot left out of the day's list: jamaatSkipped) or "
    "keep (as set: jamaatKept). Default move. A set time inside its prayer's time is never rewritten: where only a "
    "disputed bound is passed (Jumu'ah after the computed asr, the minutes reserved for the rak'as) it is kept and "
    "listed in jamaatContested.", default=None)
CALENDAR = HIJRI_CALENDAR.but(
    description="Hijri reckoning of the Eid days (with eid) and of Ramadan (with jamaatRamadan): moonsighting "
    "(global sighting), iran (official), pakistan, india, lebanon, azerbaijan, cssna-east or cssna-west (their "
    "Shia's announced month starts).",
    keep_default=False)
PARAMETERS = (JAMAAT, JAMAAT_ROUND, JAMAAT_WEEKLY, JUMUAH, EID, JAMAAT_DST, JUMUAH_DST, JAMAAT_RAMADAN,
              JAMAAT_EARLIEST, JAMAAT_LATEST, JAMAAT_TABLE, JAMAAT_NOTICE, JAMAAT_OUTSIDE, JAMAAT_ROUND_DST,
              JAMAAT_ROUND_RAMADAN, CALENDAR)
NAMES = jamaat.PARAMETERS
DATED = (jamaat.EID, jamaat.RAMADAN_RULES)  # the parameters whose days the Hijri reckoning dates


def read(values, *, has_zone: bool, calendar_with: Sequence[str] = DATED) -> dict:
    """Return the canonical jamaat params of checked query ``values`` (empty without rules).

    ``calendar`` is refused unless one of ``calendar_with`` is given (it would do nothing); a mosque
    profile's reckoning (``values.supplied``) is then left out instead, and so is the declared default
    sent as such (issue 35: a generated client sends every default; the answer is the one without it).
    """
    rules = jamaat.from_params({name: values.get(name) for name in NAMES}, has_zone=has_zone)
    out = rules.canonical() if rules is not None else {}
    calendar = values.get("calendar")
    if calendar is not None:
        if not any(out.get(n) or values.get(n) for n in calendar_with):
            if "calendar" in getattr(values, "supplied", ()) or calendar == CALENDAR.default:
                return out  # a mosque's reckoning, or the default, with nothing it dates: as if absent
            if "calendar" in getattr(values, "given", ()):
                raise QueryError("calendar", f"the Hijri reckoning applies only with {' or '.join(calendar_with)}")
        out["calendar"] = calendar
    return out


def rules_of(params, *, has_zone: bool = True) -> jamaat.Rules | None:
    """Return the rules of canonical params (None without any); canonical params were checked with their zone."""
    return jamaat.from_params({name: params.get(name) for name in NAMES}, has_zone=has_zone)


needed_times = jamaat.needed_times


TimesOf = Callable[[int, int], prayer.PrayerTimes]  # (first unix day, days) -> the endpoint's final times


def compute(params, first: int, n_days: int, times_of: TimesOf, zone: str | None) -> list[jamaat.Jamaat] | None:
    """Return each method's jamaat over ``n_days`` from ``first``, or None when the params have no rules.

    The hook every output calls: ``times_of`` gives the endpoint's *final* times of any span (the
    same function that gives the answer's own times, so jamaat follows any tune or printed
    table), called once for the span the rules need (`jamaat.span`: the day before, whole weeks).
    ``zone``: the IANA zone of local clock times (None: the UTC clock).
    """
    rules = rules_of(params, has_zone=zone is not None)
    if rules is None:
        return None
    ext_first, ext_n = jamaat.span(rules, first, n_days)
    result = times_of(ext_first, ext_n)
    names = needed_times(rules)
    zone = zone or "UTC"
    calendar = params.get("calendar", hijri.DEFAULT_CALENDAR)
    out = []
    for k in range(result.times[prayer.OUTPUT_TIMES[0]].shape[0]):
        adhan = {name: result.times[name][k] for name in names}
        reached = {name: ~result.unreached[name][k] for name in names if name in result.unreached}
        out.append(jamaat.compute(rules, first, n_days, adhan, zone=zone, calendar=calendar, reached=reached))
    return out


_NEVER_WITHIN_CACHE: OrderedDict = OrderedDict()  # (canonical params less the dates, year) -> refusal or None
_NEVER_WITHIN_CACHED = 512


def refuse_never_within(params, first: int, times_of: TimesOf, zone: str | None) -> None:
    """Refuse (QueryError naming the parameter) a fixed jamaat time or slot that is too late to be prayed before the
    end of its prayer's time on every day of the calendar year of ``first`` at this place and method: it could never be
    prayed in time, so no answer would show it (docs/decisions.md "Jamaat").  A time that is outside on some
    days only is moved on those days and listed instead.  Checked once per place, method, rules and year."""
    rules = rules_of(params, has_zone=zone is not None)
    if rules is None or not (rules.jumuah_min or rules.eid_min or any(
            r.at_local_min is not None for rule_set in rules.sets for _, r in rule_set)):
        return
    year = days.to_date(first).year
    key = (tuple(sorted((k, str(v)) for k, v in params.items() if k not in ("date", "year", "month"))), year)
    if key not in _NEVER_WITHIN_CACHE:
        start = days.unix_day(date(year, 1, 1))
        n_days = days.unix_day(date(year + 1, 1, 1)) - start
        result = times_of(start, n_days)
        names = needed_times(rules)
        calendar = params.get("calendar", hijri.DEFAULT_CALENDAR)
        refusal = None
        for k in range(result.times[prayer.OUTPUT_TIMES[0]].shape[0]):
            found = jamaat.never_within(rules, start, n_days, {n: result.times[n][k] for n in names}, zone=zone or "UTC",
                                        calendar=calendar, reached={n: ~result.unreached[n][k] for n in names
                                                                    if n in result.unreached})
            if found:
                refusal = found[0]
                break
        _NEVER_WITHIN_CACHE[key] = refusal
        if len(_NEVER_WITHIN_CACHE) > _NEVER_WITHIN_CACHED:
            _NEVER_WITHIN_CACHE.popitem(last=False)
    refusal = _NEVER_WITHIN_CACHE[key]
    if refusal is not None:
        parameter, text, end = refusal
        raise QueryError(parameter, f"{text} leaves no time to pray before {end} on any day of {year} here, so it is "
                                    f"never within its prayer's time; give an earlier time")


# --- writing -------------------------------------------------------------------------------------
# Every day's fields are built as numpy string columns (one operation per prayer for all days),
# not as a dict per day: a year's jamaat costs about a millisecond to write.


SECONDS = ("asr", "isha")  # the rows of `jamaat.Jamaat.second_combined`
_instants = day_rows.instant_texts  # UTC instants as the day rows write them (bytes)


def _clocks(zone: str, unix_s: np.ndarray) -> np.ndarray:
    """Local ``HH:MM`` of instants (same shape, bytes), as the day rows' ``local`` writes them."""
    return day_rows.clock_texts(unix_s, timezones.utc_offsets_s(zone, unix_s))


def _cat(*parts) -> np.ndarray:
    out = parts[0]
    for part in parts[1:]:
        out = np.strings.add(out, part)
    return out


def _rows(pieces: np.ndarray, separator: bytes) -> np.ndarray:
    """Join each column of ``pieces`` (items, days), each non-empty piece ending in ``separator``; strip the last."""
    out = np.full(np.shape(pieces)[-1], b"", dtype="S1")
    for piece in pieces:
        out = np.strings.add(out, piece)
    return np.strings.rstrip(out, separator)


def _slots(text: np.ndarray, on: np.ndarray, separator: bytes, quote: bytes, held: np.ndarray | None = None) -> np.ndarray:
    """Each day's slots (text: (days, slots)) quoted and joined, empty where ``on`` is False; ``held`` (days, slots):
    the slots listed (a skipped one is left out: jamaatOutside=skip)."""
    if text.shape[1] == 0:
        return np.full(len(on), b"", dtype="S1")
    pieces = _cat(quote, text.T, quote + separator)
    if held is not None:
        pieces = np.where(held.T, pieces, b"")
    return np.where(on, _rows(pieces, separator), b"")


def _names(flags: np.ndarray, names: Sequence[str], separator: bytes, quote: bytes) -> np.ndarray:
    """Each day's names whose flag is set (flags: (len(names), days)), joined."""
    listed = np.array([quote + name.encode() + quote + separator for name in names], dtype=bytes).reshape(-1, 1)
    return _rows(np.where(flags, listed, b""), separator)


def _object(j: jamaat.Jamaat, prayers: np.ndarray, jumuah: np.ndarray, eid: np.ndarray) -> np.ndarray:
    """Each day's ``{"fajr":"…"|null,…,"jumuah":[…],"eid":[…]}``: the prayers its rules give that day."""
    keys = np.array([b'"%s":' % name.encode() for name in j.names], dtype=bytes).reshape(-1, 1)
    values = np.where(j.present, _cat(b'"', prayers, b'",'), b"null,")
    pieces = list(np.where(j.ruled, np.strings.add(keys, values), b""))
    for key, text, on, held in ((b"jumuah", jumuah, j.fridays, j.jumuah_on), (b"eid", eid, j.eid_days, j.eid_on)):
        if text.shape[1]:
            pieces.append(np.where(on, _cat(b'"%s":[' % key, _slots(text, on, b",", b'"', held), b"],"), b""))
    return _cat(b"{", _rows(pieces, b","), b"}") if pieces else np.full(len(j.fridays), b"{}")


def json_suffixes(j: jamaat.Jamaat, zone: str | None) -> list[bytes]:
    """Return per day the bytes to insert before a JSON day row's closing brace, in this order:

    ``,"jamaat":{prayer: UTC instant or null (its adhan never reached), …, "jumuah": […], "eid": […]}``
    (a prayer only on the days its rule applies; jumuah on Fridays, eid on Eid days), with a zone
    ``,"jamaatLocal":{…}`` (the same as HH:mm), then ``,"jamaatMoved":[…]``, ``,"jamaatMovedEnd":[…]`` (those
    moved back inside their prayer's time) and ``,"jamaatChanged":[…]`` when not empty; then (issue 33), when not
    empty, ``,"jamaatCombined":[…]`` (asr, isha: prayed in one jamaat with dhuhr, maghrib: no adhan of their own,
    their computed time the start of their recommended time), ``,"jamaatContested":[…]`` (a declared time kept past a
    bound on which the rulings differ), ``,"jamaatKept":[…]`` and ``,"jamaatSkipped":[…]`` (a declared time outside
    its prayer's time kept, or no jamaat that day, as ``jamaatOutside`` chose).
    """
    out = _cat(b',"jamaat":', _object(j, _instants(j.instants_s), _instants(j.jumuah_s), _instants(j.eid_s)))
    if zone is not None:
        out = _cat(out, b',"jamaatLocal":', _object(j, _clocks(zone, j.instants_s), _clocks(zone, j.jumuah_s),
                                                     _clocks(zone, j.eid_s)))
    marks = ((b"jamaatMoved", j.moved, j.moved_names), (b"jamaatMovedEnd", j.moved_end, j.moved_names),
             (b"jamaatChanged", j.changed, j.names), (b"jamaatCombined", j.second_combined, SECONDS),
             (b"jamaatContested", j.contested, j.moved_names), (b"jamaatKept", j.kept, j.moved_names),
             (b"jamaatSkipped", j.skipped, j.moved_names))
    for key, flags, names in marks:
        listed = _names(flags, names, b",", b'"')
        out = _cat(out, np.where(listed == b"", b"", _cat(b',"%s":[' % key, listed, b"]")))
    return out.tolist()


def csv_header(rules: jamaat.Rules, with_local: bool) -> list[str]:
    """The jamaat columns: ``jamaat_<prayer>`` (local HH:MM, with a zone) and ``jamaat_<prayer>_utc``,
    ``jumuah``/``jumuah_utc`` and ``eid``/``eid_utc`` (space-separated lists) when given, then
    ``jamaat_moved`` (space-separated names; ``fajr:end`` where it was moved back inside its prayer's
    time, JSON's jamaatMovedEnd) and ``jamaat_changed`` (space-separated names)."""
    local = [f"jamaat_{name}" for name in rules.names] if with_local else []
    utc = [f"jamaat_{name}_utc" for name in rules.names]
    extras = []
    for name, slots in (("jumuah", rules.jumuah_min), ("eid", rules.eid_min)):
        if slots:
            extras += ([name] if with_local else []) + [f"{name}_utc"]
    return [*local, *utc, *extras, "jamaat_moved", "jamaat_changed"]


def csv_cells(j: jamaat.Jamaat, rules: jamaat.Rules, zone: str | None) -> list[bytes]:
    """Return per day the cells of `csv_header`, comma-joined (an empty cell: no jamaat that day)."""
    writers = ([lambda a: _clocks(zone, a)] if zone is not None else []) + [_instants]
    shown = j.ruled & j.present
    columns = [np.where(shown[k], written[k], b"") for write in writers for written in [write(j.instants_s)]
               for k in range(len(j.names))]
    for slots, text, on, held in ((rules.jumuah_min, j.jumuah_s, j.fridays, j.jumuah_on),
                                  (rules.eid_min, j.eid_s, j.eid_days, j.eid_on)):
        if slots:
            columns += [_slots(write(text), on, b" ", b"", held) for write in writers]
    moved = np.array([name.encode() + b" " for name in j.moved_names], dtype=bytes).reshape(-1, 1)
    moved = np.where(j.moved_end, np.strings.add(np.strings.rstrip(moved, b" "), b":end "), moved)
    moved = np.where(j.moved, moved, b"")
    # issue 33's marks in the same cell (the CSV's columns stay issue 20's): fajr:kept, fajr:skipped, jumuah:contested
    for flags, names, mark in ((j.kept, j.moved_names, b":kept "), (j.skipped, j.moved_names, b":skipped "),
                               (j.contested, j.moved_names, b":contested ")):
        listed = np.array([name.encode() + mark for name in names], dtype=bytes).reshape(-1, 1)
        moved = np.concatenate([moved, np.where(flags, listed, b"")])
    columns += [_rows(moved, b" "), _names(j.changed, j.names, b" ", b"")]
    return _rows([np.strings.add(column, b",") for column in columns[:-1]] + columns[-1:], b"\0").tolist()
