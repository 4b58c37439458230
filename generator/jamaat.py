"""A mosque's jamaat (congregational prayer) times: the rules, and their instants over a span of days.

The rules (issue 20; docs/decisions.md "Jamaat"), each read from one parameter's canonical text
(`from_params`, which a mosque profile or a query fills alike):

* ``jamaat``: per prayer (fajr, dhuhr, asr, maghrib, isha) one rule:
  - ``fajr:20``: minutes 0..180 after that day's adhan (the computed time of the prayer);
  - ``dhuhr:13:30``: a fixed local clock time (needs a zone) on each civil date;
  - ``asr:dhuhr``: one jamaat for both prayers of a pair (dhuhr–asr, maghrib–isha, either way
    round): the prayer takes its partner's jamaat, and the partner needs a rule of its own.
* ``jamaatRound``: ``prayer:minutes`` (1..60), or one number for every minutes-after rule: such a
  jamaat is rounded *up* to the first moment the local clock shows a multiple of that many
  minutes after local midnight (``fajr:5``: 05:31 → 05:35; at most the next midnight).
* ``jamaatWeekly``: a weekday (``mon``..``sun``).  Minutes-after jamaat times then change only
  on that weekday: each week runs from that weekday to the day before the next one, and every
  day of it holds the *latest* local clock time its rule gives on any day of that week
  (nobody arrives after the adhan).  Weeks are anchored on the weekday, never on the requested
  range: the whole week is computed even where it lies outside the range, so a day's answer is
  the same in a day, month or year request.
* ``jumuah``: up to three local times.  On Fridays they are the day's Jumu'ah slots, and
  dhuhr's jamaat that day is the first of them (even with no dhuhr rule).
* ``eid``: up to two local times, the Eid prayer slots on Eid al-Fitr (1 Shawwal) and Eid
  al-Adha (10 Dhu al-Hijja) under the request's Hijri reckoning.
* A jamaat is never before its adhan: a time earlier than that day's adhan is moved to the
  adhan and listed as moved (a fixed time in the morning of a summer day, a Jumu'ah slot before
  dhuhr).  Eid slots are never before sunrise (the Eid prayer's time is from sunrise to noon),
  likewise moved.  A combined prayer takes its partner's final jamaat and is never moved itself.
* "changed": a prayer whose jamaat (local clock time, or having one at all) differs from the
  day before; the day before is computed even when it lies outside the range.

Local clock times use the zone's real offsets (`generator.timezones`): a fixed 13:30 is 13:30
local on both sides of a change of offset.  A local time that does not exist (the hour skipped
when clocks go forward) or occurs twice (clocks go back) is read as RFC 5545 3.3.5 reads a
local DATE-TIME: with the offset before the change (`timezones.wall_to_utc_s`).  Instants are
whole UTC minutes (a zone whose offset had seconds, before about 1940, rounds up to the minute).

Everything is vectorised over days: a year of rules is a few dozen numpy operations.
Without a zone the clock is UTC's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from generator import hijri, timezones
from generator.errors import QueryError

PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")
PAIRS = {"dhuhr": "asr", "asr": "dhuhr", "maghrib": "isha", "isha": "maghrib"}  # prayers that may share a jamaat
EXTRAS = ("jumuah", "eid")  # slot lists beside the five prayers
MAX_AFTER_ADHAN_MIN = 180
MAX_ROUND_MIN = 60
MAX_JUMUAH, MAX_EID = 3, 2
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
FRIDAY = WEEKDAYS.index("fri")
EID_DAYS = ((10, 1), (12, 10))  # (Hijri month, day): Eid al-Fitr, Eid al-Adha
DAY_S = 86400
# The canonical parameter names: the keys of `from_params`, the API's parameters and a profile's fields.
JAMAAT, ROUND, WEEKLY, JUMUAH, EID = "jamaat", "jamaatRound", "jamaatWeekly", "jumuah", "eid"
PARAMETERS = (JAMAAT, ROUND, WEEKLY, JUMUAH, EID)

_ITEM = re.compile(r"\s*([A-Za-z]+)\s*:\s*(\S(?:.*\S)?)\s*", re.ASCII | re.DOTALL)
_MINUTES = re.compile(r"\d{1,4}", re.ASCII)
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})", re.ASCII)
_NEVER = np.iinfo(np.int64).min


@dataclass(frozen=True)
class Rule:
    """One prayer's rule: exactly one of the three fields is set."""

    after_adhan_min: int | None = None  # minutes after that day's adhan
    at_local_min: int | None = None  # a fixed local time, minutes after local midnight
    with_prayer: str | None = None  # the partner whose jamaat it shares
    round_min: int = 1  # minutes-after rules: round up to a multiple of this on the local clock


@dataclass(frozen=True)
class Rules:
    """A mosque's jamaat rules (`from_params`); ``prayers`` in PRAYERS order."""

    prayers: tuple[tuple[str, Rule], ...] = ()
    weekly_weekday: int | None = None  # 0 = Monday
    jumuah_min: tuple[int, ...] = ()  # local minutes after midnight, ascending
    eid_min: tuple[int, ...] = ()

    @property
    def by_prayer(self) -> dict[str, Rule]:
        return dict(self.prayers)

    @property
    def names(self) -> tuple[str, ...]:
        """The prayers that have a jamaat on some day, in PRAYERS order (dhuhr with Jumu'ah slots)."""
        own = self.by_prayer
        return tuple(p for p in PRAYERS if p in own or (p == "dhuhr" and self.jumuah_min))

    def canonical(self) -> dict[str, str]:
        """Return the canonical parameter texts (only those with a value): `from_params` reads them back."""
        out = {}
        if self.prayers:
            out[JAMAAT] = ",".join(f"{p}:{_rule_text(r)}" for p, r in self.prayers)
        rounded = [(p, r.round_min) for p, r in self.prayers if r.round_min > 1]
        if rounded:
            out[ROUND] = ",".join(f"{p}:{m}" for p, m in rounded)
        if self.weekly_weekday is not None:
            out[WEEKLY] = WEEKDAYS[self.weekly_weekday]
        if self.jumuah_min:
            out[JUMUAH] = ",".join(map(clock_text, self.jumuah_min))
        if self.eid_min:
            out[EID] = ",".join(map(clock_text, self.eid_min))
        return out


def clock_text(minutes: int) -> str:
    """Return minutes after midnight as ``HH:MM``."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _rule_text(rule: Rule) -> str:
    if rule.after_adhan_min is not None:
        return str(rule.after_adhan_min)
    if rule.at_local_min is not None:
        return clock_text(rule.at_local_min)
    return str(rule.with_prayer)


# --- reading the rules -------------------------------------------------------------------------


def from_params(params: Mapping[str, str | None], *, has_zone: bool) -> Rules | None:
    """Return the rules of ``params`` (keys `PARAMETERS`, values as a query or a profile writes them),
    or None when there are none.  Every error is a QueryError naming the parameter at fault.

    ``has_zone``: whether local clock times have a zone (without one, fixed times, Jumu'ah and
    Eid slots are refused).  Empty or blank values count as absent.
    """
    if not any(params.get(name) for name in PARAMETERS):  # no rules, the common case: nothing to read
        return None
    text = {name: (params.get(name) or "").strip() for name in PARAMETERS}
    prayers = _read_jamaat(text[JAMAAT], has_zone)
    prayers = _read_round(text[ROUND], prayers)
    weekly = _read_weekly(text[WEEKLY], prayers)
    jumuah = _read_slots(text[JUMUAH], JUMUAH, MAX_JUMUAH, has_zone)
    eid = _read_slots(text[EID], EID, MAX_EID, has_zone)
    if not (prayers or jumuah or eid):
        return None
    ordered = tuple((p, prayers[p]) for p in PRAYERS if p in prayers)
    return Rules(ordered, weekly, jumuah, eid)


def _items(raw: str, parameter: str, shape: str) -> list[str]:
    parts = raw.split(",")
    if any(not part.strip() for part in parts):
        raise QueryError(parameter, f"an empty item; give {shape} separated by commas")
    return [part.strip() for part in parts]


def _read_jamaat(raw: str, has_zone: bool) -> dict[str, Rule]:
    if not raw:
        return {}
    shape = "prayer:rule pairs (fajr:20, dhuhr:13:30 or asr:dhuhr)"
    rules: dict[str, Rule] = {}
    for part in _items(raw, JAMAAT, shape):
        match = _ITEM.fullmatch(part)
        if match is None:
            raise QueryError(JAMAAT, f"must be {shape} separated by commas")
        name, value = match.group(1).lower(), match.group(2)
        if name not in PRAYERS:
            raise QueryError(JAMAAT, f"unknown prayer {name[:20]!r}; one of {', '.join(PRAYERS)}")
        if name in rules:
            raise QueryError(JAMAAT, f"{name} given more than once")
        rules[name] = _read_rule(name, value, has_zone)
    for name, rule in rules.items():
        partner = rule.with_prayer
        if partner is not None and (partner not in rules or rules[partner].with_prayer is not None):
            raise QueryError(JAMAAT, f"{name} is combined with {partner}, which needs a rule of its own "
                                     f"(minutes or a time)")
    return rules


def _read_rule(name: str, value: str, has_zone: bool) -> Rule:
    if _MINUTES.fullmatch(value):
        minutes = int(value)
        if minutes > MAX_AFTER_ADHAN_MIN:
            raise QueryError(JAMAAT, f"minutes after the adhan for {name} must be 0 to {MAX_AFTER_ADHAN_MIN}")
        return Rule(after_adhan_min=minutes)
    if ":" in value or value[:1].isdigit():
        clock = _clock(value, JAMAAT, f"the time for {name}")
        if not has_zone:
            raise QueryError(JAMAAT, f"a fixed time ({name}:{value[:5]}) is a local clock time and needs a zone: "
                                     "give tz (or a city)")
        return Rule(at_local_min=clock)
    partner = value.lower()
    if partner == name:
        raise QueryError(JAMAAT, f"{name} cannot be combined with itself")
    if partner not in PRAYERS:
        raise QueryError(JAMAAT, f"{name}: {value[:20]!r} is not minutes (0 to {MAX_AFTER_ADHAN_MIN}), a time "
                                 f"HH:MM or a prayer")
    if PAIRS.get(name) != partner:
        raise QueryError(JAMAAT, f"{name} can be combined only with {PAIRS[name]}" if name in PAIRS
                         else f"{name} cannot be combined with another prayer")
    return Rule(with_prayer=partner)


def _clock(value: str, parameter: str, what: str) -> int:
    """Return minutes after midnight of ``H:MM`` or ``HH:MM`` (00:00..23:59)."""
    match = _CLOCK.fullmatch(value)
    if match is None or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise QueryError(parameter, f"{what} must be a local time HH:MM from 00:00 to 23:59, not {value[:8]!r}")
    return int(match.group(1)) * 60 + int(match.group(2))


def _read_round(raw: str, rules: dict[str, Rule]) -> dict[str, Rule]:
    if not raw:
        return rules
    after = [p for p in PRAYERS if p in rules and rules[p].after_adhan_min is not None]
    bound = f"whole minutes from 1 to {MAX_ROUND_MIN}"
    if _MINUTES.fullmatch(raw):  # one number: every minutes-after rule
        if not after:
            raise QueryError(ROUND, "rounds minutes-after rules of jamaat; there are none")
        pairs = {p: raw for p in after}
    else:
        pairs = {}
        for part in _items(raw, ROUND, "prayer:minutes pairs"):
            match = _ITEM.fullmatch(part)
            if match is None:
                raise QueryError(ROUND, "must be minutes, or prayer:minutes pairs separated by commas, e.g. fajr:5")
            name = match.group(1).lower()
            if name not in PRAYERS:
                raise QueryError(ROUND, f"unknown prayer {name[:20]!r}; one of {', '.join(PRAYERS)}")
            if name in pairs:
                raise QueryError(ROUND, f"{name} given more than once")
            if name not in after:
                raise QueryError(ROUND, f"{name} has no minutes-after rule in jamaat to round")
            pairs[name] = match.group(2)
    out = dict(rules)
    for name, value in pairs.items():
        if not _MINUTES.fullmatch(value) or not 1 <= int(value) <= MAX_ROUND_MIN:
            raise QueryError(ROUND, f"the rounding for {name} must be {bound}")
        out[name] = Rule(after_adhan_min=rules[name].after_adhan_min, round_min=int(value))
    return out


def _read_weekly(raw: str, rules: dict[str, Rule]) -> int | None:
    if not raw:
        return None
    day = raw.lower()
    if day not in WEEKDAYS:
        raise QueryError(WEEKLY, f"must be a weekday: {', '.join(WEEKDAYS)}")
    if not any(r.after_adhan_min is not None for r in rules.values()):
        raise QueryError(WEEKLY, "applies to minutes-after rules of jamaat; there are none")
    return WEEKDAYS.index(day)


def _read_slots(raw: str, parameter: str, most: int, has_zone: bool) -> tuple[int, ...]:
    if not raw:
        return ()
    items = _items(raw, parameter, "local times HH:MM")
    if len(items) > most:
        raise QueryError(parameter, f"at most {most} times")
    slots = [_clock(item, parameter, "each time") for item in items]
    if len(set(slots)) != len(slots):
        raise QueryError(parameter, "a time given more than once")
    if not has_zone:
        raise QueryError(parameter, "local clock times need a zone: give tz (or a city)")
    return tuple(sorted(slots))


# --- the days the computation needs --------------------------------------------------------------


def weekday(unix_days):
    """Return the weekday of unix days, 0 = Monday (1970-01-01 was a Thursday)."""
    return (np.asarray(unix_days) + 3) % 7


def span(rules: Rules, first_day: int, n_days: int) -> tuple[int, int]:
    """Return (first unix day, number of days) whose adhan times `compute` needs for these days.

    The day before (for "changed") and, with a weekly rule, every day of the weeks they touch.
    """
    start, end = first_day - 1, first_day + n_days  # end exclusive
    if rules.weekly_weekday is not None:
        start -= int(weekday(start) - rules.weekly_weekday) % 7
        end += int(rules.weekly_weekday - weekday(end)) % 7
    return start, end - start


# --- the computation ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Jamaat:
    """Jamaat instants of ``n`` days from ``first_day`` (arrays over days; Unix seconds, whole minutes).

    ``names``: the prayers with a jamaat on some day; ``instants_s``, ``ruled`` and ``present`` are
    (len(names), n).  ``ruled``: a rule applies that day (False only for dhuhr on days other than
    Friday when Jumu'ah alone gives it a jamaat); ``present``: ruled and the time exists (False
    where the adhan it follows is never reached, highLatitudeRule=none).
    ``jumuah_s`` (n, slots) is meaningful where ``fridays``; ``eid_s`` where ``eid_days``.
    ``moved`` (len(names) + 2, n): names, then jumuah and eid; ``changed`` (len(names), n).
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


def _after_local_midnight(zone: str, unix_s: np.ndarray, days: np.ndarray) -> np.ndarray:
    """Seconds from the local midnight that starts each civil day of ``days`` to ``unix_s`` on the local clock."""
    return unix_s + timezones.utc_offsets_s(zone, unix_s) - days * DAY_S


def _hold_weekly(zone: str, unix_s: np.ndarray, reached: np.ndarray, days: np.ndarray) -> np.ndarray:
    """Every day of each week (rows of 7 days, `span`) at the week's latest local clock time."""
    clock = np.where(reached, _after_local_midnight(zone, unix_s, days), _NEVER).reshape(-1, 7)
    latest = np.repeat(clock.max(axis=1), 7)
    held = local_instants(zone, days * DAY_S + np.where(latest == _NEVER, 0, latest))
    return np.where(latest == _NEVER, unix_s, held)


def compute(rules: Rules, first_day: int, n_days: int, adhan_s: Mapping[str, np.ndarray], *, zone: str = "UTC",
            calendar: str = hijri.DEFAULT_CALENDAR, reached: Mapping[str, np.ndarray] | None = None) -> Jamaat:
    """Return the jamaat of ``n_days`` from ``first_day``.

    ``adhan_s``: {time name: (days,) int64 Unix seconds} over ``span(rules, first_day, n_days)``, the
    day's final times (after any tune or printed table): the prayers with a rule, dhuhr with
    Jumu'ah slots, sunrise with Eid slots.  ``reached``: {name: (days,) bool} where a time is
    reached (absent: every day).  ``zone``: the IANA zone of local clock times; ``calendar``: the
    Hijri reckoning of the Eid days.
    """
    ext_first, ext_n = span(rules, first_day, n_days)
    days = ext_first + np.arange(ext_n, dtype=np.int64)
    midnight = days * DAY_S
    reached = reached or {}
    ones = np.ones(ext_n, dtype=bool)
    none = np.zeros(ext_n, dtype=bool)
    values, present, moved, ruled = {}, {}, {}, {}

    def adhan(name: str) -> np.ndarray:
        times = np.asarray(adhan_s[name], dtype=np.int64)
        assert times.shape == (ext_n,), (name, times.shape, ext_n)
        return times

    for name, rule in rules.prayers:  # own rules first: a combined prayer copies its partner's final time
        if rule.with_prayer is not None:
            continue
        at, ok = adhan(name), reached.get(name, ones)
        if rule.after_adhan_min is not None:
            times = at + rule.after_adhan_min * 60
            if rule.round_min > 1:
                times = round_up(zone, times, rule.round_min)
            if rules.weekly_weekday is not None:
                times = _hold_weekly(zone, times, ok, days)
        else:
            times = local_instants(zone, midnight + rule.at_local_min * 60)
        moved[name] = ok & (times < at)
        values[name], present[name], ruled[name] = np.maximum(times, at), ok, ones

    fridays = weekday(days) == FRIDAY if rules.jumuah_min else none
    jumuah, moved_jumuah = _slots(zone, rules.jumuah_min, midnight, adhan("dhuhr") if rules.jumuah_min else None)
    if rules.jumuah_min:
        moved_jumuah &= fridays
        if "dhuhr" in values:
            values["dhuhr"] = np.where(fridays, jumuah[:, 0], values["dhuhr"])
            moved["dhuhr"] = moved["dhuhr"] & ~fridays
            present["dhuhr"] = present["dhuhr"] | fridays
        else:
            values["dhuhr"], present["dhuhr"], moved["dhuhr"], ruled["dhuhr"] = jumuah[:, 0], fridays, none, fridays

    for name, rule in rules.prayers:
        if rule.with_prayer is not None:
            partner = rule.with_prayer
            values[name], present[name], moved[name], ruled[name] = values[partner], present[partner], none, ruled[partner]

    eid_days = _eid_days(days, calendar) if rules.eid_min else none
    eid, moved_eid = _slots(zone, rules.eid_min, midnight, adhan("sunrise") if rules.eid_min else None)
    moved_eid &= eid_days

    names = rules.names
    out = slice(first_day - ext_first, first_day - ext_first + n_days)
    instants = np.array([values[n] for n in names], dtype=np.int64).reshape(len(names), ext_n)
    has = np.array([present[n] for n in names], dtype=bool).reshape(len(names), ext_n)
    applies = np.array([ruled[n] for n in names], dtype=bool).reshape(len(names), ext_n)
    clock = np.where(has, _after_local_midnight(zone, instants, days), _NEVER)
    changed = np.zeros_like(has)
    changed[:, 1:] = clock[:, 1:] != clock[:, :-1]
    moved_all = np.array([moved[n] for n in names] + [moved_jumuah, moved_eid], dtype=bool).reshape(-1, ext_n)
    return Jamaat(first_day, names, instants[:, out], applies[:, out], has[:, out], jumuah[out], fridays[out], eid[out],
                  eid_days[out], moved_all[:, out], changed[:, out])


def _slots(zone: str, slots_min: tuple[int, ...], midnight: np.ndarray,
           earliest: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Return ((days, slots) instants of local times on each day, not before ``earliest``; (days,) moved)."""
    if not slots_min:
        return np.zeros((len(midnight), 0), dtype=np.int64), np.zeros(len(midnight), dtype=bool)
    times = local_instants(zone, midnight[:, None] + np.array(slots_min, dtype=np.int64) * 60)
    early = times < earliest[:, None]
    return np.maximum(times, earliest[:, None]), early.any(axis=1)


def _eid_days(days: np.ndarray, calendar: str) -> np.ndarray:
    """True on the civil days that are Eid al-Fitr or Eid al-Adha under ``calendar``."""
    dates = hijri.to_hijri(days, calendar)
    return np.logical_or.reduce([(dates.month == m) & (dates.day == d) for m, d in EID_DAYS])


def is_ramadan(days: np.ndarray, calendar: str) -> np.ndarray:
    """True on the civil days of Ramadan under ``calendar`` (the fast of that day)."""
    return hijri.to_hijri(np.asarray(days, dtype=np.int64), calendar).month == 9
