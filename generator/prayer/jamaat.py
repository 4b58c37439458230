"""A mosque's jamaat (congregational prayer) times: the rules, and their instants over a span of days.

The rules (issues 20 and 28; docs/decisions.md "Jamaat"), each read from one parameter's canonical
text (`from_params`, which a mosque profile or a query fills alike):

* ``jamaat``: per prayer (fajr, dhuhr, asr, maghrib, isha) one rule:
  - ``fajr:20``: minutes 0..180 after that day's adhan (the computed time of the prayer);
  - ``fajr:sunrise-30``: minutes 1..180 before that day's sunrise (fajr only: the end of its time);
  - ``dhuhr:13:30``: a fixed local clock time (needs a zone) on each civil date;
  - ``asr:dhuhr``: one jamaat for both prayers of a pair (dhuhr–asr, maghrib–isha, either way
    round): the prayer takes its partner's jamaat, and the partner needs a rule of its own.
* ``jamaatDst``: rules of the same grammar for the days on which the zone keeps daylight-saving
  time (at local noon its clock is ahead of its lowest offset that year:
  `timezones.summer_time`), replacing ``jamaat``'s rule for the prayers it
  names (Jumu'ah 12:30 in winter, 13:30 in summer: ``jumuahDst``).
* ``jamaatRamadan``: rules of the same grammar for the days of Ramadan under the request's
  reckoning (``calendar``), replacing both others for the prayers it names.
* ``jamaatRound``: ``prayer:minutes`` (1..60), or one number for every prayer with a flexible rule
  (minutes after the adhan or before sunrise): such a jamaat is rounded on the local clock to a
  multiple of that many minutes after local midnight: *up* after the adhan (05:31 → 05:35), *down*
  before sunrise (never toward the end of the prayer's time).
* ``jamaatRoundDst`` / ``jamaatRoundRamadan`` (issue 36): the same grammar, the rounding of the summer and the
  Ramadan *rule* of the prayers they name (1: not rounded), each rule carrying its own.  A prayer they do not
  name keeps ``jamaatRound``'s on those days too (so every answer without them is unchanged): the committee's
  "fajr 10 after, rounded up to 5; in Ramadan 15 after, not rounded" is ``jamaatRoundRamadan=fajr:1``.
* ``jamaatEarliest`` / ``jamaatLatest``: ``prayer:HH:MM`` bounds on the local clock around a
  flexible rule ("isha 10 minutes after the adhan, not before 19:30 nor after 22:00").
* ``jamaatWeekly``: a weekday (``mon``..``sun``) for every flexible rule, or ``prayer:weekday``
  pairs.  The jamaat then changes only on that weekday: each week runs from that weekday to the
  day before the next one, and holds one local clock time: the *latest* its rule gives on any day
  of the hold for a rule after the adhan (nobody arrives after the adhan), the *earliest* for a
  rule before sunrise.  A hold never reaches across a change of clock offset, of the rule in
  force (daylight-saving, Ramadan) or a table day: those start a new hold.  Weeks are anchored on
  the weekday, never on the requested range (the whole week is computed even where it lies
  outside the range), so a day's answer is the same in a day, month or year request.
* ``jumuah`` (``jumuahDst``): up to three local times.  On Fridays they are the day's Jumu'ah
  slots, and dhuhr's jamaat that day is the first of them (even with no dhuhr rule).
* ``eid``: up to two local times, the Eid prayer slots on Eid al-Fitr (1 Shawwal) and Eid
  al-Adha (10 Dhu al-Hijja) under the request's Hijri reckoning.
* ``jamaatTable``: dated local jamaat times typed in by the mosque (a CSV: `Table`), which win
  over every rule on their days.
* Within the prayer's time, always: a jamaat earlier than the opening of its time is moved to it
  (fajr, dhuhr, maghrib and Jumu'ah: their adhan; asr: 8 minutes after the dhuhr adhan and isha:
  6 after the maghrib adhan, whose time they share in Ja'fari fiqh once the first prayer can have
  been prayed, `OPENS_AFTER_MIN`; Eid slots: sunrise); one too late to be prayed
  before the end of its time is moved to the last start that leaves time for it
  (`latest_start_min`: its rak'as at 2 minutes each, plus the four of asr before sunset for
  dhuhr and of isha before midnight for maghrib (their reserved times), plus a partner prayed in
  the same jamaat).  The ends: fajr sunrise; dhuhr and asr sunset; maghrib and isha midnight by
  the request's midnight rule; Jumu'ah the computed asr (the shadow equal to the object); Eid
  the dhuhr adhan.  Both are listed as moved, the
  second also as moved for the end.  (If the adhan itself is at or after the end, the adhan
  wins.)  A combined prayer takes its partner's final jamaat and is never moved itself.
* ``jamaatNotice``: "changed" lists a prayer whose jamaat (local clock) differs from the day
  before's by at least that many minutes (default 1: every change), or whose having a jamaat
  differs, or whose time on either day is a set one (fixed, a table's, a weekly hold): a change
  a congregation needs to know, not the daily drift of an "after the adhan" rule.  With a notice
  (more than 1) and Jumu'ah, a Friday's dhuhr is compared with the Friday before and the
  Saturday's with Thursday's: Jumu'ah itself is no news.

Local clock times use the zone's real offsets (`generator.places.timezones`): a fixed 13:30 is 13:30
local on both sides of a change of offset.  A local time that does not exist (the hour skipped
when clocks go forward) or occurs twice (clocks go back) is read as RFC 5545 3.3.5 reads a
local DATE-TIME: with the offset before the change (`timezones.wall_to_utc_s`).  Instants are
whole UTC minutes (a zone whose offset had seconds, before about 1940, rounds up to the minute).

Everything is vectorised over days: a year of rules is a few dozen numpy operations.
Without a zone the clock is UTC's (minutes-after rules, rounding and bounds only).
"""
from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Mapping

import numpy as np

from generator.calendars import hijri
from generator.places import timezones
from generator.errors import QueryError

PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")
PAIRS = {"dhuhr": "asr", "asr": "dhuhr", "maghrib": "isha", "isha": "maghrib"}  # prayers that may share a jamaat
EXTRAS = ("jumuah", "eid")  # slot lists beside the five prayers
# Where each one's time opens and ends (docs/decisions.md "Jamaat": never before the one, nor at or after the
# other).  Asr and isha share the time of dhuhr and maghrib (Ja'fari fiqh: their jamaat may follow the first
# prayer at once, `OPENS_AFTER_MIN`; the computed asr and isha open their recommended time only).  Jumu'ah ends when the shadow equals the object (the
# computed asr), the Eid prayer at noon.
OPENS_AT = {"fajr": "fajr", "dhuhr": "dhuhr", "asr": "dhuhr", "maghrib": "maghrib", "isha": "maghrib"}
END_OF = {"fajr": "sunrise", "dhuhr": "sunset", "asr": "sunset", "maghrib": "midnight", "isha": "midnight",
          "jumuah": "sunset", "eid": "dhuhr"}
# Issue 33: an end on which the rulings differ.  Jumu'ah's end is the computed asr in one view (the latest any Shia
# marja gives it) and the start of zawal in risalas that keep it short: a *declared* slot past it is kept as the
# committee set it and listed in ``contested`` (the builder warns); only dhuhr's own end (sunset), past which no view
# keeps the prayer, moves it.  The minutes reserved per rak'a (RAKA_MIN) are likewise an estimate, not a ruling.
CONTESTED_END = {"jumuah": "asr"}
# The second prayer of each pair and the first, whose jamaat it may not precede (tartib: isha after maghrib's jamaat).
FIRST_OF = {"asr": "dhuhr", "isha": "maghrib"}
# A jamaat must start in time to be prayed before that end: its rak'as, those of the prayer whose reserved time
# closes the shared time (asr's four before sunset end dhuhr's time, isha's four before midnight maghrib's), and
# those of a partner prayed in the same jamaat.  A congregational rak'a is taken as 2 minutes (docs/decisions.md).
RAKAAT = {"fajr": 2, "dhuhr": 4, "asr": 4, "maghrib": 3, "isha": 4, "jumuah": 2, "eid": 2}
RESERVED_AFTER = {"dhuhr": "asr", "maghrib": "isha"}
RAKA_MIN = 2
# Asr and isha open after the first prayer of the pair can have been prayed (its reserved time at the start of
# the shared time): the dhuhr adhan + dhuhr's four rak'as, the maghrib adhan + maghrib's three.
OPENS_AFTER_MIN = {p: RAKAAT[first] * RAKA_MIN for first, p in RESERVED_AFTER.items()}


def latest_start_min(name: str, carries_partner: bool = False) -> int:
    """Minutes before the end of ``name``'s time (END_OF) by which its jamaat must start."""
    rakaat = RAKAAT[name] + (RAKAAT[RESERVED_AFTER[name]] if name in RESERVED_AFTER else 0)
    if carries_partner and name in PAIRS and name not in RESERVED_AFTER:  # asr carrying dhuhr, isha maghrib
        rakaat += RAKAAT[PAIRS[name]]
    return rakaat * RAKA_MIN


MAX_AFTER_ADHAN_MIN = 180
MAX_BEFORE_SUNRISE_MIN = 180
MAX_ROUND_MIN = 60
MAX_NOTICE_MIN = 60
MAX_JUMUAH, MAX_EID = 3, 2
MAX_TABLE_ROWS = 800
MAX_TABLE_CHARS = 32_000  # a year of SalahAPI's twelve columns is about 26,000
TABLE_YEARS = (1900, 2100)
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
FRIDAY = WEEKDAYS.index("fri")
EID_DAYS = ((10, 1), (12, 10))  # (Hijri month, day): Eid al-Fitr, Eid al-Adha
RAMADAN = 9
DAY_S = 86400
# The canonical parameter names: the keys of `from_params`, the API's parameters and a profile's fields.
JAMAAT, DST, RAMADAN_RULES = "jamaat", "jamaatDst", "jamaatRamadan"
ROUND, WEEKLY, EARLIEST, LATEST = "jamaatRound", "jamaatWeekly", "jamaatEarliest", "jamaatLatest"
ROUND_DST, ROUND_RAMADAN = "jamaatRoundDst", "jamaatRoundRamadan"  # the summer and Ramadan rules' own rounding
JUMUAH, JUMUAH_DST, EID, TABLE, NOTICE = "jumuah", "jumuahDst", "eid", "jamaatTable", "jamaatNotice"
OUTSIDE = "jamaatOutside"
# What a declared time (fixed, a table's cell, a slot) outside its prayer's time on an uncontested bound becomes that day
# (issue 33: the committee's choice): moved to the bound (the default of profiles stored before the choice existed),
# no jamaat that day, or kept as set and marked.
MOVE, SKIP, KEEP = "move", "skip", "keep"
OUTSIDE_CHOICES = (MOVE, SKIP, KEEP)
PARAMETERS = (JAMAAT, ROUND, WEEKLY, JUMUAH, EID, DST, JUMUAH_DST, RAMADAN_RULES, EARLIEST, LATEST, TABLE, NOTICE,
              OUTSIDE, ROUND_DST, ROUND_RAMADAN)

_ITEM = re.compile(r"\s*([A-Za-z]+)\s*:\s*(\S(?:.*\S)?)\s*", re.ASCII | re.DOTALL)
_MINUTES = re.compile(r"\d{1,4}", re.ASCII)
_BEFORE_SUNRISE = re.compile(r"sunrise\s*-\s*(\d{1,4})", re.ASCII | re.IGNORECASE)
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})", re.ASCII)
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})", re.ASCII)
_NEVER = np.iinfo(np.int64).min


@dataclass(frozen=True)
class Rule:
    """One prayer's rule: exactly one of the four fields is set."""

    after_adhan_min: int | None = None  # minutes after that day's adhan
    before_sunrise_min: int | None = None  # minutes before that day's sunrise (fajr)
    at_local_min: int | None = None  # a fixed local time, minutes after local midnight
    with_prayer: str | None = None  # the partner whose jamaat it shares

    @property
    def flexible(self) -> bool:
        """Moves with the Sun from day to day (so it may be rounded, bounded and held weekly)."""
        return self.after_adhan_min is not None or self.before_sunrise_min is not None

    def text(self) -> str:
        if self.after_adhan_min is not None:
            return str(self.after_adhan_min)
        if self.before_sunrise_min is not None:
            return f"sunrise-{self.before_sunrise_min}"
        if self.at_local_min is not None:
            return clock_text(self.at_local_min)
        return str(self.with_prayer)


RuleSet = tuple[tuple[str, Rule], ...]  # (prayer, rule) in PRAYERS order


@dataclass(frozen=True)
class Table:
    """Dated local jamaat times (``jamaatTable``): rows of (first unix day, last unix day, minutes after
    local midnight per column or -1 for an empty cell), ascending and never overlapping.

    The CSV a mosque types in or exports: a header naming a ``day`` (or ``date``) column and any of
    the prayers (``fajr``… or SalahAPI's ``fajr_iqama``…; SalahAPI's ``*_athan`` and ``sunrise``
    columns are read and checked but not used: the service computes the adhan), then one row per
    day (``2026-03-01``) or per range of days (``2026-03-01..2026-03-07``), cells ``HH:MM`` or empty
    (that day the rule applies).  Rows are separated by line breaks or ``;``.
    """

    prayers: tuple[str, ...]
    first_day: np.ndarray  # (rows,) int64
    last_day: np.ndarray
    minutes: np.ndarray  # (rows, len(prayers)) int64, -1: empty

    def canonical(self) -> str:
        rows = ["day," + ",".join(self.prayers)]
        for first, last, cells in zip(self.first_day.tolist(), self.last_day.tolist(), self.minutes.tolist()):
            day = _iso(first) if first == last else f"{_iso(first)}..{_iso(last)}"
            rows.append(",".join([day, *(clock_text(m) if m >= 0 else "" for m in cells)]))
        return ";".join(rows)

    def on(self, days: np.ndarray) -> np.ndarray:
        """Return (prayers, days) local minutes after midnight, or -1 where no row (or an empty cell) gives one."""
        row = np.searchsorted(self.first_day, days, side="right") - 1
        covered = (row >= 0) & (days <= self.last_day[np.maximum(row, 0)])
        return np.where(covered, self.minutes[np.maximum(row, 0)].T, -1)


@dataclass(frozen=True)
class Rules:
    """A mosque's jamaat rules (`from_params`); rule sets in PRAYERS order."""

    prayers: RuleSet = ()
    weekly: tuple[tuple[str, int], ...] = ()  # (prayer, weekday 0 = Monday)
    jumuah_min: tuple[int, ...] = ()  # local minutes after midnight, ascending
    eid_min: tuple[int, ...] = ()
    dst: RuleSet = ()
    jumuah_dst_min: tuple[int, ...] = ()
    ramadan: RuleSet = ()
    round_min: tuple[tuple[str, int], ...] = ()
    earliest_min: tuple[tuple[str, int], ...] = ()
    latest_min: tuple[tuple[str, int], ...] = ()
    table: Table | None = field(default=None, compare=False)
    table_text: str = ""  # the table's canonical text (what compares and hashes)
    notice_min: int = 1
    outside: str = MOVE  # OUTSIDE_CHOICES: a declared time outside its prayer's time on an uncontested bound
    # The summer and Ramadan rules' own rounding (prayer, minutes; 1: not rounded), over round_min for those rules.
    round_dst_min: tuple[tuple[str, int], ...] = ()
    round_ramadan_min: tuple[tuple[str, int], ...] = ()

    def rounding_of(self, rule_set: int) -> dict[str, int]:
        """{prayer: minutes > 1} rounding the rules of set ``rule_set`` (1 jamaat, 2 jamaatDst, 3 jamaatRamadan)."""
        own = {2: self.round_dst_min, 3: self.round_ramadan_min}.get(rule_set, ())
        merged = {**dict(self.round_min), **dict(own)}
        return {p: m for p, m in merged.items() if m > 1}

    @property
    def declares(self) -> bool:
        """Whether any time is declared by the mosque (a fixed rule, a table, Jumu'ah or Eid slots): the times
        `outside` is about."""
        return (self.table is not None or bool(self.jumuah_min or self.eid_min)
                or any(r.at_local_min is not None for s in self.sets for _, r in s))

    @property
    def by_prayer(self) -> dict[str, Rule]:
        return dict(self.prayers)

    @property
    def sets(self) -> tuple[RuleSet, ...]:
        return self.prayers, self.dst, self.ramadan

    @property
    def flexible(self) -> tuple[str, ...]:
        """The prayers with a flexible rule in some set, in PRAYERS order."""
        found = {p for rule_set in self.sets for p, r in rule_set if r.flexible}
        return tuple(p for p in PRAYERS if p in found)

    @property
    def names(self) -> tuple[str, ...]:
        """The prayers that have a jamaat on some day, in PRAYERS order (dhuhr with Jumu'ah slots)."""
        own = {p for rule_set in self.sets for p, _ in rule_set}
        own |= set(self.table.prayers) if self.table is not None else set()
        own |= {"dhuhr"} if self.jumuah_min or self.jumuah_dst_min else set()
        return tuple(p for p in PRAYERS if p in own)

    @property
    def with_partners(self) -> dict[str, str]:
        """{prayer: partner} of every combined rule in any set."""
        return {p: r.with_prayer for rule_set in self.sets for p, r in rule_set if r.with_prayer is not None}

    def canonical(self) -> dict[str, str]:
        """Return the canonical parameter texts (only those with a value): `from_params` reads them back."""
        out = {}
        for name, rule_set in ((JAMAAT, self.prayers), (DST, self.dst), (RAMADAN_RULES, self.ramadan)):
            if rule_set:
                out[name] = ",".join(f"{p}:{r.text()}" for p, r in rule_set)
        if self.round_min:
            out[ROUND] = ",".join(f"{p}:{m}" for p, m in self.round_min)
        for name, own in ((ROUND_DST, self.round_dst_min), (ROUND_RAMADAN, self.round_ramadan_min)):
            if own:
                out[name] = ",".join(f"{p}:{m}" for p, m in own)
        if self.weekly:
            weekdays = {d for _, d in self.weekly}
            if len(weekdays) == 1 and tuple(p for p, _ in self.weekly) == self.flexible:
                out[WEEKLY] = WEEKDAYS[weekdays.pop()]  # one weekday for every flexible rule: its short form
            else:
                out[WEEKLY] = ",".join(f"{p}:{WEEKDAYS[d]}" for p, d in self.weekly)
        for name, slots in ((JUMUAH, self.jumuah_min), (EID, self.eid_min), (JUMUAH_DST, self.jumuah_dst_min)):
            if slots:
                out[name] = ",".join(map(clock_text, slots))
        for name, bounds in ((EARLIEST, self.earliest_min), (LATEST, self.latest_min)):
            if bounds:
                out[name] = ",".join(f"{p}:{clock_text(m)}" for p, m in bounds)
        if self.table_text:
            out[TABLE] = self.table_text
        if self.notice_min != 1:
            out[NOTICE] = str(self.notice_min)
        if self.outside != MOVE:
            out[OUTSIDE] = self.outside
        return out


def clock_text(minutes: int) -> str:
    """Return minutes after midnight as ``HH:MM``."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _iso(unix_day: int) -> str:
    return date.fromordinal(unix_day + _EPOCH_ORDINAL).isoformat()


_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()


# --- reading the rules -------------------------------------------------------------------------


def from_params(params: Mapping[str, str | None], *, has_zone: bool) -> Rules | None:
    """Return the rules of ``params`` (keys `PARAMETERS`, values as a query or a profile writes them),
    or None when there are none.  Every error is a QueryError naming the parameter at fault.

    ``has_zone``: whether local clock times have a zone (without one, fixed times, slots, bounds,
    daylight-saving rules and tables are refused).  Empty or blank values count as absent.
    """
    if not any(params.get(name) for name in PARAMETERS):  # no rules, the common case: nothing to read
        return None
    return _from_texts(tuple((params.get(name) or "").strip() for name in PARAMETERS), has_zone)


@functools.lru_cache(maxsize=256)  # a profile's (or a screen's) rules are read on every request
def _from_texts(texts: tuple[str, ...], has_zone: bool) -> Rules | None:
    text = dict(zip(PARAMETERS, texts))
    base = _read_rules(text[JAMAAT], JAMAAT, has_zone)
    dst = _read_rules(text[DST], DST, has_zone)
    if dst and not has_zone:
        raise QueryError(DST, "daylight-saving rules need a zone: give tz (or a city)", "dst_needs_zone")
    ramadan = _read_rules(text[RAMADAN_RULES], RAMADAN_RULES, has_zone)
    _check_partners(base, dst, ramadan)
    sets = (base, dst, ramadan)
    flexible = [p for p in PRAYERS if any(p in s and s[p].flexible for s in sets)]
    rounding = _read_round(text[ROUND], flexible)
    round_dst = _read_round(text[ROUND_DST], [p for p in PRAYERS if p in dst and dst[p].flexible], ROUND_DST, DST)
    round_ramadan = _read_round(text[ROUND_RAMADAN], [p for p in PRAYERS if p in ramadan and ramadan[p].flexible],
                                ROUND_RAMADAN, RAMADAN_RULES)
    weekly = _read_weekly(text[WEEKLY], flexible)
    earliest = _read_bounds(text[EARLIEST], EARLIEST, flexible, has_zone)
    latest = _read_bounds(text[LATEST], LATEST, flexible, has_zone)
    for prayer, low in earliest.items():
        if prayer in latest and latest[prayer] <= low:
            raise QueryError(LATEST, f"{prayer}: the latest time must be after the earliest ({clock_text(low)})")
    jumuah = _read_slots(text[JUMUAH], JUMUAH, MAX_JUMUAH, has_zone)
    jumuah_dst = _read_slots(text[JUMUAH_DST], JUMUAH_DST, MAX_JUMUAH, has_zone)
    if jumuah_dst and len(jumuah_dst) != len(jumuah):
        raise QueryError(JUMUAH_DST, f"gives the daylight-saving times of the {len(jumuah)} Jumu'ah slots of jumuah: "
                                     "as many times as jumuah has")
    eid = _read_slots(text[EID], EID, MAX_EID, has_zone)
    table = read_table(text[TABLE], has_zone) if text[TABLE] else None
    notice = _read_notice(text[NOTICE])
    outside = _read_outside(text[OUTSIDE])
    if not (base or dst or ramadan or jumuah or eid or table):
        return None  # a notice threshold alone says nothing: a screen asks it of every mosque, with rules or none

    def ordered(rules: dict) -> tuple:
        return tuple((p, rules[p]) for p in PRAYERS if p in rules)

    rules = Rules(ordered(base), ordered(weekly), jumuah, eid, ordered(dst), jumuah_dst, ordered(ramadan),
                 ordered(rounding), ordered(earliest), ordered(latest), table,
                 table.canonical() if table is not None else "", notice, MOVE, ordered(round_dst),
                 ordered(round_ramadan))
    if rules.declares:  # the choice is about declared times; without one it would do nothing (dropped, as notice)
        rules = dataclasses.replace(rules, outside=outside)
    return rules


def _items(raw: str, parameter: str, shape: str) -> list[str]:
    parts = raw.split(",")
    if any(not part.strip() for part in parts):
        raise QueryError(parameter, f"an empty item; give {shape} separated by commas")
    return [part.strip() for part in parts]


def _pairs(raw: str, parameter: str, shape: str, example: str) -> dict[str, str]:
    """Read ``prayer:value`` pairs: {prayer: value text}, each prayer once."""
    out: dict[str, str] = {}
    for part in _items(raw, parameter, shape):
        match = _ITEM.fullmatch(part)
        if match is None:
            raise QueryError(parameter, f"must be {shape} separated by commas, e.g. {example}")
        name = match.group(1).lower()
        if name not in PRAYERS:
            raise QueryError(parameter, f"unknown prayer '{name[:20]}'; one of {', '.join(PRAYERS)}", "unknown_prayer",
                             {"name": name[:20], "allowed": list(PRAYERS)})
        if name in out:
            raise QueryError(parameter, f"{name} given more than once", "name_repeated", {"name": name})
        out[name] = match.group(2)
    return out


def _read_rules(raw: str, parameter: str, has_zone: bool) -> dict[str, Rule]:
    if not raw:
        return {}
    shape = "prayer:rule pairs (fajr:20, fajr:sunrise-30, dhuhr:13:30 or asr:dhuhr)"
    pairs = _pairs(raw, parameter, shape, "fajr:20,dhuhr:13:30")
    return {name: _read_rule(name, value, has_zone, parameter) for name, value in pairs.items()}


def _read_rule(name: str, value: str, has_zone: bool, parameter: str) -> Rule:
    if _MINUTES.fullmatch(value):
        minutes = int(value)
        if minutes > MAX_AFTER_ADHAN_MIN:
            raise QueryError(parameter, f"minutes after the adhan for {name} must be 0 to {MAX_AFTER_ADHAN_MIN}",
                             "after_adhan_range", {"name": name, "most": MAX_AFTER_ADHAN_MIN})
        return Rule(after_adhan_min=minutes)
    before = _BEFORE_SUNRISE.fullmatch(value)
    if before is not None:
        minutes = int(before.group(1))
        if name != "fajr":
            raise QueryError(parameter, f"{name}: only fajr's time ends at sunrise (fajr:sunrise-30)", "sunrise_only_fajr",
                             {"name": name})
        if not 1 <= minutes <= MAX_BEFORE_SUNRISE_MIN:
            raise QueryError(parameter, f"minutes before sunrise for fajr must be 1 to {MAX_BEFORE_SUNRISE_MIN}",
                             "before_sunrise_range", {"most": MAX_BEFORE_SUNRISE_MIN})
        return Rule(before_sunrise_min=minutes)
    if ":" in value or value[:1].isdigit():
        clock = _clock(value, parameter, f"the time for {name}", "clock_for", {"name": name})
        if not has_zone:
            raise QueryError(parameter, f"a fixed time ({name}:{value[:5]}) is a local clock time and needs a zone: "
                                        "give tz (or a city)", "fixed_needs_zone", {"name": name, "value": value[:5]})
        return Rule(at_local_min=clock)
    partner = value.lower()
    if partner == name:
        raise QueryError(parameter, f"{name} cannot be combined with itself", "combined_itself", {"name": name})
    if partner not in PRAYERS:
        raise QueryError(parameter, f"{name}: '{value[:20]}' is not minutes (0 to {MAX_AFTER_ADHAN_MIN}), "
                                    f"sunrise-minutes, a time HH:MM or a prayer", "not_a_rule",
                         {"name": name, "value": value[:20], "most": MAX_AFTER_ADHAN_MIN})
    if PAIRS.get(name) != partner:
        if name in PAIRS:
            raise QueryError(parameter, f"{name} can be combined only with {PAIRS[name]}", "combine_only_with",
                             {"name": name, "partner": PAIRS[name]})
        raise QueryError(parameter, f"{name} cannot be combined with another prayer", "not_combinable", {"name": name})
    return Rule(with_prayer=partner)


def _check_partners(base: dict[str, Rule], dst: dict[str, Rule], ramadan: dict[str, Rule]) -> None:
    """Every combination of sets in force on some day: a combined prayer's partner has a rule of its own there."""
    for parameter, rules in ((JAMAAT, base), (DST, {**base, **dst}), (RAMADAN_RULES, {**base, **ramadan}),
                             (RAMADAN_RULES, {**base, **dst, **ramadan})):
        for name, rule in rules.items():
            partner = rule.with_prayer
            if partner is not None and (partner not in rules or rules[partner].with_prayer is not None):
                where = "" if parameter == JAMAAT else " on the days these rules apply"
                raise QueryError(parameter, f"{name} is combined with {partner}, which needs a rule of its own "
                                            f"(minutes or a time){where}")


def _clock(value: str, parameter: str, what: str, code: str = "clock", args: dict | None = None) -> int:
    """Return minutes after midnight of ``H:MM`` or ``HH:MM`` (00:00..23:59); ``what`` names the value in the
    error, ``code`` and ``args`` say it in other languages (glossary error.<code>, with the value)."""
    match = _CLOCK.fullmatch(value)
    if match is None or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise QueryError(parameter, f"{what} must be a local time HH:MM from 00:00 to 23:59, not '{value[:8]}'", code,
                         {**(args or {}), "value": value[:8]})
    return int(match.group(1)) * 60 + int(match.group(2))


def _read_round(raw: str, flexible: list[str], parameter: str = ROUND, rules: str = JAMAAT) -> dict[str, int]:
    """Read a rounding of the flexible rules of ``rules`` (``jamaat``: of any set).  ``jamaatRound`` leaves out 1
    (no rounding, as absent); the summer and Ramadan roundings keep it: it overrides ``jamaatRound`` for that rule."""
    if not raw:
        return {}
    bound = f"whole minutes from 1 to {MAX_ROUND_MIN}"
    if _MINUTES.fullmatch(raw):  # one number: every flexible rule
        if not flexible:
            raise QueryError(parameter, f"rounds minutes-after (or before-sunrise) rules of {rules}; there are none")
        pairs = {p: raw for p in flexible}
    else:
        pairs = _pairs(raw, parameter, "minutes, or prayer:minutes pairs", "fajr:5")
        for name in pairs:
            if name not in flexible:
                raise QueryError(parameter, f"{name} has no minutes-after (or before-sunrise) rule in {rules} to round")
    out = {}
    for name, value in pairs.items():
        if not _MINUTES.fullmatch(value) or not 1 <= int(value) <= MAX_ROUND_MIN:
            raise QueryError(parameter, f"the rounding for {name} must be {bound}")
        if int(value) > 1 or parameter != ROUND:
            out[name] = int(value)
    return out


def _read_weekly(raw: str, flexible: list[str]) -> dict[str, int]:
    if not raw:
        return {}
    if ":" not in raw:
        day = raw.lower()
        if day not in WEEKDAYS:
            raise QueryError(WEEKLY, f"must be a weekday ({', '.join(WEEKDAYS)}) or prayer:weekday pairs")
        if not flexible:
            raise QueryError(WEEKLY, "applies to minutes-after (or before-sunrise) rules of jamaat; there are none")
        return {p: WEEKDAYS.index(day) for p in flexible}
    out = {}
    for name, value in _pairs(raw, WEEKLY, "a weekday, or prayer:weekday pairs", "fajr:fri,isha:sat").items():
        if value.lower() not in WEEKDAYS:
            raise QueryError(WEEKLY, f"{name}: {value[:10]!r} is not a weekday ({', '.join(WEEKDAYS)})")
        if name not in flexible:
            raise QueryError(WEEKLY, f"{name} has no minutes-after (or before-sunrise) rule in jamaat to hold")
        out[name] = WEEKDAYS.index(value.lower())
    return out


def _read_bounds(raw: str, parameter: str, flexible: list[str], has_zone: bool) -> dict[str, int]:
    if not raw:
        return {}
    out = {}
    for name, value in _pairs(raw, parameter, "prayer:HH:MM pairs", "isha:19:30").items():
        if name not in flexible:
            raise QueryError(parameter, f"{name} has no minutes-after (or before-sunrise) rule in jamaat to bound")
        out[name] = _clock(value, parameter, f"the bound for {name}", "clock_bound", {"name": name})
    if not has_zone:
        raise QueryError(parameter, "local clock times need a zone: give tz (or a city)", "needs_zone")
    return out


def _read_slots(raw: str, parameter: str, most: int, has_zone: bool) -> tuple[int, ...]:
    if not raw:
        return ()
    items = _items(raw, parameter, "local times HH:MM")
    if len(items) > most:
        raise QueryError(parameter, f"at most {most} times", "at_most_times", {"most": most})
    slots = [_clock(item, parameter, "each time", "clock_each") for item in items]
    if len(set(slots)) != len(slots):
        raise QueryError(parameter, "a time given more than once", "time_repeated")
    if not has_zone:
        raise QueryError(parameter, "local clock times need a zone: give tz (or a city)", "needs_zone")
    return tuple(sorted(slots))


def _read_notice(raw: str) -> int:
    if not raw:
        return 1
    if not _MINUTES.fullmatch(raw) or not 1 <= int(raw) <= MAX_NOTICE_MIN:
        raise QueryError(NOTICE, f"must be whole minutes from 1 to {MAX_NOTICE_MIN}", "whole_minutes", {"most": MAX_NOTICE_MIN})
    return int(raw)


def _read_outside(raw: str) -> str:
    if not raw:
        return MOVE
    choice = raw.lower()
    if choice not in OUTSIDE_CHOICES:
        raise QueryError(OUTSIDE, f"must be one of {', '.join(OUTSIDE_CHOICES)} (what a set time outside its "
                                  "prayer's time becomes on those days)")
    return choice


_TABLE_COLUMNS = {**{p: p for p in PRAYERS}, **{f"{p}_iqama": p for p in PRAYERS}}
_TABLE_IGNORED = {"sunrise", *(f"{p}_athan" for p in PRAYERS)}


def read_table(raw: str, has_zone: bool) -> Table:
    """Read ``jamaatTable`` (`Table`'s format); every error names the line and column."""
    if len(raw) > MAX_TABLE_CHARS:
        raise QueryError(TABLE, f"at most {MAX_TABLE_CHARS} characters")
    if not has_zone:
        raise QueryError(TABLE, "local clock times need a zone: give tz (or a city)", "needs_zone")
    lines = [(k + 1, line.strip()) for k, line in enumerate(re.split(r"\r\n|[\n\r;]", raw.removeprefix("\ufeff")))]
    lines = [(k, line) for k, line in lines if line]
    if len(lines) < 2:
        raise QueryError(TABLE, "needs a header line (day,fajr,dhuhr,…) and at least one row")
    if len(lines) - 1 > MAX_TABLE_ROWS:
        raise QueryError(TABLE, f"at most {MAX_TABLE_ROWS} rows (a row may give a range of days)")
    (_, head), rows = lines[0], lines[1:]
    header = [cell.strip().lower() for cell in head.split(",")]
    day_names = [k for k, name in enumerate(header) if name in ("day", "date")]
    if len(day_names) != 1:
        raise QueryError(TABLE, "line 1: the header needs one day (or date) column")
    for name in header:
        if name not in _TABLE_COLUMNS and name not in _TABLE_IGNORED and name not in ("day", "date"):
            raise QueryError(TABLE, f"line 1: unknown column {name[:20]!r}; day, then any of "
                                    f"{', '.join(PRAYERS)} (or SalahAPI's fajr_iqama, …)")
    used = [_TABLE_COLUMNS.get(name) for name in header]
    if len([p for p in used if p]) != len({p for p in used if p}) or len(set(header)) != len(header):
        raise QueryError(TABLE, "line 1: a column given more than once")
    prayers = tuple(p for p in PRAYERS if p in used)
    if not prayers:
        raise QueryError(TABLE, "line 1: no jamaat column (fajr, dhuhr, asr, maghrib, isha)")
    firsts, lasts, cells_out = [], [], []
    for number, line in rows:
        cells = [cell.strip() for cell in line.split(",")]
        if len(cells) != len(header):
            raise QueryError(TABLE, f"line {number}: {len(cells)} cells where the header has {len(header)}")
        first, last = _table_days(cells[day_names[0]], number)
        values = {}
        for name, target, cell in zip(header, used, cells):
            if name in ("day", "date") or not cell:
                continue
            minutes = _clock(cell, TABLE, f"line {number}, column {name}:", "clock_cell", {"line": number, "name": name})
            if target is not None:
                values[target] = minutes
        firsts.append(first)
        lasts.append(last)
        cells_out.append([values.get(p, -1) for p in prayers])
    order = np.argsort(np.array(firsts), kind="stable")
    first_day = np.array(firsts, dtype=np.int64)[order]
    last_day = np.array(lasts, dtype=np.int64)[order]
    numbers = np.array([n for n, _ in rows])[order]
    overlap = np.flatnonzero(first_day[1:] <= last_day[:-1])
    if overlap.size:
        k = int(overlap[0])
        raise QueryError(TABLE, f"line {numbers[k + 1]}: {_iso(int(first_day[k + 1]))} is also on line {numbers[k]}")
    return Table(prayers, first_day, last_day, np.array(cells_out, dtype=np.int64).reshape(-1, len(prayers))[order])


def _table_days(cell: str, number: int) -> tuple[int, int]:
    parts = cell.split("..")
    if len(parts) > 2:
        raise QueryError(TABLE, f"line {number}, column day: a day YYYY-MM-DD or a range YYYY-MM-DD..YYYY-MM-DD")
    found = []
    for part in parts:
        match = _DATE.fullmatch(part.strip())
        try:
            day = date(int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None
        except ValueError:
            day = None
        if day is None or not TABLE_YEARS[0] <= day.year <= TABLE_YEARS[1]:
            raise QueryError(TABLE, f"line {number}, column day: {part[:12]!r} is not a date YYYY-MM-DD "
                                    f"from {TABLE_YEARS[0]} to {TABLE_YEARS[1]}")
        found.append(day.toordinal() - _EPOCH_ORDINAL)
    first, last = found[0], found[-1]
    if last < first:
        raise QueryError(TABLE, f"line {number}, column day: the range ends before it starts")
    return first, last


# --- the days the computation needs --------------------------------------------------------------


def weekday(unix_days):
    """Return the weekday of unix days, 0 = Monday (1970-01-01 was a Thursday)."""
    return (np.asarray(unix_days) + 3) % 7


def span(rules: Rules, first_day: int, n_days: int) -> tuple[int, int]:
    """Return (first unix day, number of days) whose adhan times `compute` needs for these days.

    The day before (for "changed"; with a notice and Jumu'ah, the week before) and, with a weekly rule, every
    day of the weeks they touch.
    """
    start, end = first_day - 1, first_day + n_days  # end exclusive
    if rules.jumuah_min and rules.notice_min > 1:
        start = first_day - 7  # a Friday's Jumu'ah is compared with the Friday before (`compute`, "changed")
    if rules.weekly:
        start -= max(int(weekday(start) - d) % 7 for _, d in rules.weekly)
        end += max(int(d - weekday(end)) % 7 for _, d in rules.weekly)
    return start, end - start


def needed_times(rules: Rules) -> tuple[str, ...]:
    """The time names whose instants `compute` reads: each prayer with a jamaat and the end of its time,
    sunrise for a rule before it, dhuhr and sunset with Jumu'ah, sunrise and dhuhr with Eid."""
    names = set(rules.names)
    names |= {END_OF[p] for p in rules.names} | {OPENS_AT[p] for p in rules.names}
    names |= {"dhuhr", END_OF["jumuah"], CONTESTED_END["jumuah"]} if rules.jumuah_min else set()
    names |= {"sunrise", "dhuhr"} if rules.eid_min else set()
    return tuple(sorted(names))


# --- the computation ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Jamaat:
    """Jamaat instants of ``n`` days from ``first_day`` (arrays over days; Unix seconds, whole minutes).

    ``names``: the prayers with a jamaat on some day; ``instants_s``, ``ruled``, ``present`` and
    ``combined`` are (len(names), n).  ``ruled``: a rule (or a table cell, or Jumu'ah for dhuhr)
    applies that day; ``present``: ruled and the time exists (False where the adhan it follows is
    never reached, highLatitudeRule=none); ``combined``: the prayer takes its partner's jamaat that
    day.  ``jumuah_s`` (n, slots) is meaningful where ``fridays`` (the Fridays with a Jumu'ah held: every slot
    skipped, none), for the slots ``jumuah_on`` holds; ``eid_s`` where ``eid_days``, for those of ``eid_on``.
    ``moved`` and ``moved_end`` (len(names) + 2, n): names, then jumuah and eid; ``changed``
    (len(names), n).  ``contested``, ``kept`` and ``skipped``: issue 33's marks of declared times.
    """

    first_day: int
    names: tuple[str, ...]
    instants_s: np.ndarray
    ruled: np.ndarray
    present: np.ndarray
    jumuah_s: np.ndarray
    fridays: np.ndarray
    eid_s: np.ndarray
    eid_days: np.ndarray
    moved: np.ndarray
    changed: np.ndarray
    moved_end: np.ndarray
    combined: np.ndarray
    contested: np.ndarray | None = None  # (len(names) + 2, n): a declared time kept past a contested bound
    kept: np.ndarray | None = None  # (len(names) + 2, n): a declared time kept outside its prayer's time (``keep``)
    skipped: np.ndarray | None = None  # (len(names) + 2, n): no jamaat: its declared time is outside (``skip``)
    jumuah_on: np.ndarray | None = None  # (n, slots): the slots held (``skip`` leaves out those outside)
    eid_on: np.ndarray | None = None

    @property
    def second_combined(self) -> np.ndarray:
        """(2, n): whether asr (row 0) and isha (row 1) share one jamaat with dhuhr and maghrib that day, either way
        round: then only the first of the pair has an adhan, and the computed asr or isha is the start of its
        recommended (fadhila) time, not a call to prayer (issue 33)."""
        out = np.zeros((2, len(self.fridays)), dtype=bool)
        for row, pair in enumerate((("dhuhr", "asr"), ("maghrib", "isha"))):
            for name in pair:
                if name in self.names:
                    out[row] |= self.combined[self.names.index(name)] & self.present[self.names.index(name)]
        return out

    @property
    def moved_names(self) -> tuple[str, ...]:
        return (*self.names, *EXTRAS)


def _ceil_minute(unix_s: np.ndarray) -> np.ndarray:
    return -(-unix_s // 60) * 60


def local_instants(zone: str, wall_s: np.ndarray) -> np.ndarray:
    """Return the whole-minute instants at which ``zone``'s clock reads ``wall_s`` (RFC 5545 rule)."""
    return _ceil_minute(timezones.wall_to_utc_s(zone, wall_s))


def _ceil_clock(unix_s: np.ndarray, offset_s: np.ndarray, step_s: int) -> np.ndarray:
    """The instant the clock (at ``offset_s`` throughout) first shows a multiple of ``step_s`` after its midnight."""
    wall = unix_s + offset_s
    midnight = wall // DAY_S * DAY_S
    after = np.minimum(-(-(wall - midnight) // step_s) * step_s, DAY_S)
    return midnight + after - offset_s


def round_up(zone: str, unix_s: np.ndarray, step_min: int) -> np.ndarray:
    """Return the first instant at or after each of ``unix_s`` at which the local clock shows a whole
    multiple of ``step_min`` minutes after local midnight (or midnight itself).

    When the clock changes before reaching that reading, the count goes on from the change with
    the new offset (the clock jumps; it never shows the skipped readings, and shows the repeated
    hour again).
    """
    offset = timezones.utc_offsets_s(zone, unix_s)
    rounded = _ceil_clock(unix_s, offset, step_min * 60)
    change = timezones.next_change_s(zone, unix_s)
    late = rounded >= change
    if late.any():
        rounded[late] = _ceil_clock(change[late], timezones.utc_offsets_s(zone, change[late]), step_min * 60)
    return _ceil_minute(rounded)


def round_down(zone: str, unix_s: np.ndarray, step_min: int) -> np.ndarray:
    """Return the last instant at or before each of ``unix_s`` at which the local clock (at the offset of
    that instant) shows a whole multiple of ``step_min`` minutes after local midnight."""
    offset = timezones.utc_offsets_s(zone, unix_s)
    wall = unix_s + offset
    step_s = step_min * 60
    return (wall // step_s * step_s - offset) // 60 * 60


def _after_local_midnight(zone: str, unix_s: np.ndarray, days: np.ndarray) -> np.ndarray:
    """Seconds from the local midnight that starts each civil day of ``days`` to ``unix_s`` on the local clock."""
    return unix_s + timezones.utc_offsets_s(zone, unix_s) - days * DAY_S


def _local_noon_clock(zone: str, days: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the zone's UTC offset (seconds) at each day's local noon, and whether that is summer time."""
    noon = timezones.wall_to_utc_s(zone, days * DAY_S + DAY_S // 2)
    return timezones.utc_offsets_s(zone, noon), timezones.summer_time(zone, noon)


def _hold_weekly(zone: str, unix_s: np.ndarray, held: np.ndarray, earliest: np.ndarray, days: np.ndarray,
                 weekday_start: int, regime: np.ndarray) -> np.ndarray:
    """Hold ``unix_s`` on the days of ``held``: every day of a hold at one local clock time, the latest
    of the hold's days (the earliest where ``earliest``).  A hold is the days of one week (from
    ``weekday_start``) that share one ``regime`` (the clock's offset and the rule in force)."""
    sign = np.where(earliest, -1, 1)
    signed = np.where(held, sign * _after_local_midnight(zone, unix_s, days), _NEVER)
    week = (days + 3 - weekday_start) // 7
    starts = np.ones(len(days), dtype=bool)
    starts[1:] = (week[1:] != week[:-1]) | (regime[1:] != regime[:-1])
    group = np.cumsum(starts) - 1
    best = np.maximum.reduceat(signed, np.flatnonzero(starts))[group]
    at = local_instants(zone, days * DAY_S + np.where(best == _NEVER, 0, sign * best))
    return np.where(held & (best != _NEVER), at, unix_s)


def _bound(zone: str, unix_s: np.ndarray, on: np.ndarray, days: np.ndarray, low_min: int | None,
           high_min: int | None) -> np.ndarray:
    """Keep the local clock of ``unix_s`` within [low, high] minutes after the day's midnight, on ``on`` days."""
    clock = _after_local_midnight(zone, unix_s, days)
    bounded = clock
    if low_min is not None:
        bounded = np.maximum(bounded, low_min * 60)
    if high_min is not None:
        bounded = np.minimum(bounded, high_min * 60)
    outside = on & (bounded != clock)
    return np.where(outside, local_instants(zone, days * DAY_S + bounded), unix_s)


def _within(wanted: np.ndarray, opens: np.ndarray, latest: np.ndarray,
            end_known: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Keep ``wanted`` inside [opens, latest]: (final, moved, moved for the end).  After ``latest`` (the last
    start that leaves time to pray before the end), ``latest``; before ``opens``, ``opens`` (which wins where it
    is itself later than ``latest``: then the move is not one for the end)."""
    too_late = end_known & (wanted > latest)
    final = np.maximum(np.where(too_late, latest, wanted), opens)
    return final, final != wanted, too_late & (opens <= latest)


def compute(rules: Rules, first_day: int, n_days: int, adhan_s: Mapping[str, np.ndarray], *, zone: str = "UTC",
            calendar: str = hijri.DEFAULT_CALENDAR, reached: Mapping[str, np.ndarray] | None = None) -> Jamaat:
    """Return the jamaat of ``n_days`` from ``first_day``.

    ``adhan_s``: {time name: (days,) int64 Unix seconds} over ``span(rules, first_day, n_days)``, the
    day's final times (after any tune or printed table) of `needed_times`.  ``reached``: {name:
    (days,) bool} where a time is reached (absent: every day).  ``zone``: the IANA zone of local
    clock times; ``calendar``: the Hijri reckoning of Ramadan and the Eid days.
    """
    ext_first, ext_n = span(rules, first_day, n_days)
    days = ext_first + np.arange(ext_n, dtype=np.int64)
    midnight = days * DAY_S
    reached = reached or {}
    ones = np.ones(ext_n, dtype=bool)
    none = np.zeros(ext_n, dtype=bool)

    def time_of(name: str) -> np.ndarray:
        times = np.asarray(adhan_s[name], dtype=np.int64)
        assert times.shape == (ext_n,), (name, times.shape, ext_n)
        return times

    def reached_of(name: str) -> np.ndarray:
        return reached.get(name, ones)

    needs_clock = rules.weekly or rules.dst or rules.jumuah_dst_min
    offset, dst_day = _local_noon_clock(zone, days) if needs_clock else (np.zeros(ext_n, dtype=np.int64), none)
    ramadan_day = is_ramadan(days, calendar) if rules.ramadan else none
    table_minutes = rules.table.on(days) if rules.table is not None else None
    sets = (dict(rules.prayers), dict(rules.dst), dict(rules.ramadan))
    rounding, weekly = (rules.rounding_of(1), rules.rounding_of(2), rules.rounding_of(3)), dict(rules.weekly)
    earliest, latest = dict(rules.earliest_min), dict(rules.latest_min)
    names = rules.names

    values, present, moved, moved_end, ruled, combined, stepped, tabled = {}, {}, {}, {}, {}, {}, {}, {}
    contested, kept, skipped = {}, {}, {}
    variant = _in_force(rules, names, dst_day, ramadan_day)

    for p in names:  # own rules and table cells: a combined prayer copies its partner's final time below
        at = time_of(p)
        times = np.zeros(ext_n, dtype=np.int64)
        own, flexible, before_end = none.copy(), none.copy(), none.copy()
        for k, rule_set in enumerate(sets, start=1):
            rule = rule_set.get(p)
            on = variant[p] == k
            if rule is None or rule.with_prayer is not None or not on.any():
                continue
            if rule.after_adhan_min is not None:
                t = at + rule.after_adhan_min * 60
                t = round_up(zone, t, rounding[k - 1][p]) if p in rounding[k - 1] else t
            elif rule.before_sunrise_min is not None:
                t = time_of("sunrise") - rule.before_sunrise_min * 60
                t = round_down(zone, t, rounding[k - 1][p]) if p in rounding[k - 1] else t
                before_end |= on
            else:
                t = local_instants(zone, midnight + rule.at_local_min * 60)
            times = np.where(on, t, times)
            own |= on
            flexible |= on & rule.flexible
        if p in earliest or p in latest:
            times = _bound(zone, times, flexible, days, earliest.get(p), latest.get(p))
        ok = reached_of(p)
        cell = table_minutes[rules.table.prayers.index(p)] if rules.table and p in rules.table.prayers else None
        table = cell >= 0 if cell is not None else none
        if p in weekly:
            regime = offset * 16 + variant[p].astype(np.int64) * 2 + table
            times = _hold_weekly(zone, times, flexible & ok & ~table, before_end, days, weekly[p], regime)
        if table.any():
            times = np.where(table, local_instants(zone, midnight + np.maximum(cell, 0) * 60), times)
            own |= table
        carries = none  # days on which its partner is prayed in its jamaat (a longer jamaat to fit)
        for k, rule_set in enumerate(sets, start=1):
            partner_rule = rule_set.get(PAIRS.get(p, ""))
            if partner_rule is not None and partner_rule.with_prayer == p:
                carries = carries | (variant[PAIRS[p]] == k)
        last_start = time_of(END_OF[p]) - np.where(carries, latest_start_min(p, True), latest_start_min(p)) * 60
        opens = time_of(OPENS_AT[p]) + OPENS_AFTER_MIN.get(p, 0) * 60
        final, was_moved, for_end = _within(times, opens, last_start, reached_of(END_OF[p]))
        # Issue 33: a declared time (a fixed rule, a table's cell) is moved, skipped or kept (rules.outside) only
        # where it is outside its prayer's time on a bound no ruling disputes: before its adhan (asr and isha: before
        # the first prayer's own jamaat), at or after its end.  Within those, the minutes reserved per rak'a are an
        # estimate: a declared time inside them is kept as declared and listed as contested.
        declared = own & ok & (~flexible | table)
        low = time_of(OPENS_AT[p])
        after_first = none
        if p in FIRST_OF and FIRST_OF[p] in values:
            q = FIRST_OF[p]
            after_first = ruled[q] & present[q]
            low = np.where(after_first, np.maximum(low, values[q]), low)
        outside = declared & ((times < low) | (reached_of(END_OF[p]) & (times >= time_of(END_OF[p]))))
        if rules.outside == MOVE and p in FIRST_OF and after_first.any():  # after the first prayer has been prayed
            q = FIRST_OF[p]
            follows = values[q] + RAKAAT[q] * RAKA_MIN * 60
            final = np.where(outside & after_first & (times < low), np.maximum(final, follows), final)
            was_moved = was_moved | (outside & (final != times))
        keep = (declared & ~outside) | (outside & (rules.outside == KEEP))
        contested[p] = declared & ~outside & was_moved
        kept[p] = outside & (rules.outside == KEEP)
        skipped[p] = outside & (rules.outside == SKIP)
        final = np.where(keep, times, final)
        was_moved, for_end = was_moved & ~keep, for_end & ~keep
        own = own & ~skipped[p]
        values[p], present[p], ruled[p] = final, ok & own, own
        moved[p], moved_end[p] = own & ok & was_moved, own & ok & for_end
        combined[p], tabled[p] = none, table
        stepped[p] = own & (~flexible | table | (p in weekly))  # a set time: fixed, typed in, or held for a week

    fridays = weekday(days) == FRIDAY if rules.jumuah_min else none
    jumuah = np.zeros((ext_n, 0), dtype=np.int64)
    moved_jumuah, end_jumuah, contested_jumuah = none, none, none
    jumuah_on, kept_jumuah, skipped_jumuah = np.zeros((ext_n, 0), dtype=bool), none, none
    if rules.jumuah_min:
        slots = _slot_instants(zone, rules.jumuah_min, midnight)
        if rules.jumuah_dst_min:
            slots = np.where(dst_day[:, None], _slot_instants(zone, rules.jumuah_dst_min, midnight), slots)
        dhuhr = time_of("dhuhr")[:, None]
        last_start = time_of(END_OF[JUMUAH])[:, None] - latest_start_min(JUMUAH) * 60
        jumuah, was_moved, for_end = _within(slots, dhuhr, last_start, reached_of(END_OF[JUMUAH])[:, None])
        outside = fridays[:, None] & ((slots < dhuhr) | (reached_of(END_OF[JUMUAH])[:, None]
                                                         & (slots >= time_of(END_OF[JUMUAH])[:, None])))
        jumuah, was_moved, for_end, jumuah_on, kept_jumuah, skipped_jumuah = _slot_choice(
            rules.outside, slots, jumuah, was_moved, for_end, outside)
        moved_jumuah, end_jumuah = fridays & was_moved.any(axis=1), fridays & for_end.any(axis=1)
        # Past the computed asr (less its rak'as): one view's end only; the slot stays as declared (issue 33).
        disputed = time_of(CONTESTED_END[JUMUAH])[:, None] - latest_start_min(JUMUAH) * 60
        contested_jumuah = fridays & (~was_moved & ~outside & reached_of(CONTESTED_END[JUMUAH])[:, None]
                                      & (slots > disputed)).any(axis=1)
        # dhuhr's jamaat on Fridays is the first slot held (every slot skipped: dhuhr's own rule, if any)
        held = fridays & jumuah_on.any(axis=1)
        first_held = np.take_along_axis(jumuah, np.argmax(jumuah_on, axis=1)[:, None], axis=1)[:, 0]
        values["dhuhr"] = np.where(held, first_held, values["dhuhr"])  # dhuhr is in names with Jumu'ah
        for flags in (moved, moved_end, contested, kept, skipped):
            flags["dhuhr"] = flags["dhuhr"] & ~held
        present["dhuhr"] = np.where(held, reached_of("dhuhr"), present["dhuhr"])
        ruled["dhuhr"] = ruled["dhuhr"] | held
        stepped["dhuhr"] = stepped["dhuhr"] | held

    for p in names:  # combined prayers: the partner's final jamaat on the days their rule says so
        for k, rule_set in enumerate(sets, start=1):
            rule = rule_set.get(p)
            if rule is None or rule.with_prayer is None:
                continue
            on = (variant[p] == k) & ~tabled[p]  # a table's cell wins over the rule
            if p == "dhuhr":
                on = on & ~fridays  # Jumu'ah is dhuhr's jamaat on Fridays
            q = rule.with_prayer
            values[p] = np.where(on, values[q], values[p])
            present[p] = np.where(on, present[q], present[p])
            ruled[p] = ruled[p] | on
            stepped[p] = np.where(on, stepped[q], stepped[p])
            skipped[p] = skipped[p] | (on & skipped[q])  # no jamaat for the first: none for the pair
            ruled[p] = ruled[p] & ~(on & skipped[q])
            combined[p] = combined[p] | (on & ~skipped[q])
            moved[p], moved_end[p] = moved[p] & ~on, moved_end[p] & ~on

    eid_days = _eid_days(days, calendar) if rules.eid_min else none
    eid = np.zeros((ext_n, 0), dtype=np.int64)
    moved_eid, end_eid, contested_eid = none, none, none
    eid_on, kept_eid, skipped_eid = np.zeros((ext_n, 0), dtype=bool), none, none
    if rules.eid_min:
        slots = _slot_instants(zone, rules.eid_min, midnight)
        eid, was_moved, for_end = _within(slots, time_of("sunrise")[:, None],
                                          time_of(END_OF[EID])[:, None] - latest_start_min(EID) * 60,
                                          reached_of("dhuhr")[:, None])
        # A slot within the rak'as' minutes before noon (not at or after it) is kept as declared (issue 33).
        reserved = for_end & (slots < time_of(END_OF[EID])[:, None])
        eid = np.where(reserved, slots, eid)
        was_moved, for_end = was_moved & ~reserved, for_end & ~reserved
        contested_eid = eid_days & reserved.any(axis=1)
        outside = eid_days[:, None] & ((slots < time_of("sunrise")[:, None])
                                       | (reached_of("dhuhr")[:, None] & (slots >= time_of(END_OF[EID])[:, None])))
        eid, was_moved, for_end, eid_on, kept_eid, skipped_eid = _slot_choice(rules.outside, slots, eid, was_moved,
                                                                              for_end, outside)
        moved_eid, end_eid = eid_days & was_moved.any(axis=1), eid_days & for_end.any(axis=1)

    out = slice(first_day - ext_first, first_day - ext_first + n_days)

    def rows(found: dict, dtype) -> np.ndarray:
        return np.array([found[n] for n in names], dtype=dtype).reshape(len(names), ext_n)

    instants, has, applies = rows(values, np.int64), rows(present, bool), rows(ruled, bool)
    clock = np.where(has, _after_local_midnight(zone, instants, days), 0)
    step = rows(stepped, bool)
    # The day each day is compared with: the day before; with a notice and Jumu'ah, a Friday's dhuhr (and an asr
    # prayed with it) with the Friday before and the Saturday's with Thursday's (nobody needs telling that
    # Friday is Jumu'ah).
    index = np.arange(ext_n)
    before = np.broadcast_to(index - 1, instants.shape).copy()
    if rules.jumuah_min and rules.notice_min > 1:
        weekly = np.where(fridays, index - 7, np.where(np.roll(fridays, 1), index - 2, index - 1))
        for k, name in enumerate(names):
            if name == "dhuhr":
                before[k] = weekly
            elif name == "asr":
                before[k] = np.where(combined["asr"] | np.roll(combined["asr"], 1), weekly, before[k])
    before = np.maximum(before, 0)  # the days before ``out`` only compare with themselves (never read)
    rows_k = np.arange(len(names))[:, None]
    then_has, then_clock, then_step = has[rows_k, before], clock[rows_k, before], step[rows_k, before]
    drift = np.abs(clock - then_clock)
    changed = (has != then_has) | (has & (drift != 0) & ((drift >= rules.notice_min * 60) | step | then_step))
    moved_all = np.array([moved[n] for n in names] + [moved_jumuah, moved_eid], dtype=bool).reshape(-1, ext_n)
    end_all = np.array([moved_end[n] for n in names] + [end_jumuah, end_eid], dtype=bool).reshape(-1, ext_n)
    contested_all = np.array([contested[n] for n in names] + [contested_jumuah, contested_eid],
                             dtype=bool).reshape(-1, ext_n)
    kept_all = np.array([kept[n] for n in names] + [kept_jumuah, kept_eid], dtype=bool).reshape(-1, ext_n)
    skipped_all = np.array([skipped[n] for n in names] + [skipped_jumuah, skipped_eid], dtype=bool).reshape(-1, ext_n)
    # a day whose slots are all skipped lists none
    fridays_held = fridays & (jumuah_on.any(axis=1) if jumuah_on.shape[1] else fridays)
    eid_held = eid_days & (eid_on.any(axis=1) if eid_on.shape[1] else eid_days)
    return Jamaat(first_day, names, instants[:, out], applies[:, out], has[:, out], jumuah[out], fridays_held[out],
                  eid[out], eid_held[out], moved_all[:, out], changed[:, out], end_all[:, out],
                  rows(combined, bool)[:, out], contested_all[:, out], kept_all[:, out], skipped_all[:, out],
                  jumuah_on[out], eid_on[out])


def _slot_choice(choice: str, slots: np.ndarray, final: np.ndarray, was_moved: np.ndarray, for_end: np.ndarray,
                 outside: np.ndarray) -> tuple:
    """Apply the committee's choice (`OUTSIDE_CHOICES`) to Jumu'ah or Eid slots (days, slots) outside their prayer's
    time on an uncontested bound: (final, moved, moved for the end, held, kept any, skipped any).  A skipped slot is
    not held: it is left out of the day's list."""
    if choice == KEEP:
        final = np.where(outside, slots, final)
        was_moved, for_end = was_moved & ~outside, for_end & ~outside
    held = ~outside if choice == SKIP else np.ones(slots.shape, dtype=bool)
    if choice == SKIP:
        was_moved, for_end = was_moved & held, for_end & held
    return (final, was_moved, for_end, held, (outside & (choice == KEEP)).any(axis=1),
            (outside & (choice == SKIP)).any(axis=1))


def _in_force(rules: Rules, names: tuple[str, ...], dst_day: np.ndarray,
              ramadan_day: np.ndarray) -> dict[str, np.ndarray]:
    """Per prayer, the rule set in force each day: 0 none, 1 ``jamaat``, 2 ``jamaatDst`` (summer days), 3
    ``jamaatRamadan`` (Ramadan's days); a later set wins where it names the prayer."""
    out = {}
    for p in names:
        v = np.zeros(len(dst_day), dtype=np.int8)
        for k, (rule_set, on) in enumerate(((rules.prayers, True), (rules.dst, dst_day), (rules.ramadan, ramadan_day)),
                                           start=1):
            if p in dict(rule_set):
                v = np.where(on, k, v).astype(np.int8)
        out[p] = v
    return out


def _slot_instants(zone: str, slots_min: tuple[int, ...], midnight: np.ndarray) -> np.ndarray:
    """Return (days, slots) instants of local times on each day."""
    return local_instants(zone, midnight[:, None] + np.array(slots_min, dtype=np.int64) * 60)


def _eid_days(days: np.ndarray, calendar: str) -> np.ndarray:
    """True on the civil days that are Eid al-Fitr or Eid al-Adha under ``calendar``."""
    dates = hijri.to_hijri(days, calendar)
    return np.logical_or.reduce([(dates.month == m) & (dates.day == d) for m, d in EID_DAYS])


def is_ramadan(days: np.ndarray, calendar: str) -> np.ndarray:
    """True on the civil days of Ramadan under ``calendar`` (the fast of that day)."""
    return hijri.to_hijri(np.asarray(days, dtype=np.int64), calendar).month == RAMADAN


def never_within(rules: Rules, first_day: int, n_days: int, adhan_s: Mapping[str, np.ndarray], *, zone: str = "UTC",
                 calendar: str = hijri.DEFAULT_CALENDAR,
                 reached: Mapping[str, np.ndarray] | None = None) -> list[tuple[str, str, str]]:
    """Return (parameter, rule text, the end) of each fixed time or slot that is too late to be prayed before the
    end of its prayer's time (`latest_start_min`) on every day of these days on which it applies.

    ``adhan_s`` and ``reached`` cover exactly these days (no span): the times of `needed_times`.
    """
    days = first_day + np.arange(n_days, dtype=np.int64)
    midnight = days * DAY_S
    ones = np.ones(n_days, dtype=bool)
    reached = reached or {}
    dst_day = _local_noon_clock(zone, days)[1] if rules.dst or rules.jumuah_dst_min else ~ones
    ramadan_day = is_ramadan(days, calendar) if rules.ramadan else ~ones
    variant = _in_force(rules, tuple(PRAYERS), dst_day, ramadan_day)
    found = []

    def check(parameter: str, text: str, name: str, slot_min: int, on: np.ndarray) -> None:
        on = on & reached.get(END_OF[name], ones)
        if on.any():
            at = local_instants(zone, midnight[on] + slot_min * 60)
            latest = np.asarray(adhan_s[END_OF[name]], dtype=np.int64)[on] - latest_start_min(name) * 60
            if bool(np.all(at > latest)):
                found.append((parameter, text, END_OF[name]))

    for k, (parameter, rule_set) in enumerate(((JAMAAT, rules.prayers), (DST, rules.dst),
                                                (RAMADAN_RULES, rules.ramadan)), start=1):
        for p, rule in rule_set:
            if rule.at_local_min is not None:
                check(parameter, f"{p}:{clock_text(rule.at_local_min)}", p, rule.at_local_min, variant[p] == k)
    fridays = weekday(days) == FRIDAY
    for parameter, slots, on in ((JUMUAH, rules.jumuah_min, fridays & ~(dst_day if rules.jumuah_dst_min else ~ones)),
                                 (JUMUAH_DST, rules.jumuah_dst_min, fridays & dst_day),
                                 (EID, rules.eid_min, _eid_days(days, calendar) if rules.eid_min else ~ones)):
        for slot in slots:
            check(parameter, clock_text(slot), JUMUAH if parameter != EID else EID, slot, on)
    return found
