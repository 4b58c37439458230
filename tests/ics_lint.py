"""Our own small ICS lint: the RFC 5545 / RFC 7986 rules the feeds promise, read from the bytes.

Independent of icalendar (which wrote the feeds): it works on physical and unfolded
lines with plain string handling, so it can catch what the writer got wrong.

* RFC 5545 3.1: every line ends in CRLF (no bare CR or LF), physical lines are at most
  75 octets, and folding never splits a UTF-8 sequence (each physical line decodes alone).
* RFC 5545 3.6 / 3.8: one VCALENDAR with VERSION:2.0 and PRODID; every VEVENT has one
  UID, one DTSTAMP in UTC, one DTSTART; UIDs are unique; no TZID without its VTIMEZONE.
* Our promises (SPEC 4.10, docs/decisions.md): CALSCALE:GREGORIAN, METHOD:PUBLISH,
  NAME and X-WR-CALNAME, ``REFRESH-INTERVAL;VALUE=DURATION:P1D``, ``X-PUBLISHED-TTL:P1D``,
  one SUMMARY, a DTEND after DTSTART, and TRANSP on every event.
"""
from __future__ import annotations

import re
from collections import Counter

MAX_OCTETS = 75
CALENDAR_EXACT = {
    "VERSION": "VERSION:2.0",
    "CALSCALE": "CALSCALE:GREGORIAN",
    "METHOD": "METHOD:PUBLISH",
    "REFRESH-INTERVAL": "REFRESH-INTERVAL;VALUE=DURATION:P1D",
    "X-PUBLISHED-TTL": "X-PUBLISHED-TTL:P1D",
}
CALENDAR_ONCE = ("PRODID", "NAME", "X-WR-CALNAME", *CALENDAR_EXACT)
EVENT_ONCE = ("UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY", "TRANSP")
_NAME = re.compile(r"[A-Za-z0-9-]+")
_UTC_STAMP = re.compile(r"DTSTAMP:\d{8}T\d{6}Z")


def physical_lines(body: bytes) -> tuple[list[bytes], list[str]]:
    """Return (lines without their CRLF, problems with line ends, lengths and UTF-8)."""
    problems = []
    if not body.endswith(b"\r\n"):
        problems.append("the last line does not end with CRLF")
    lines = body.split(b"\r\n")[:-1] if body.endswith(b"\r\n") else body.split(b"\r\n")
    for number, line in enumerate(lines, 1):
        if b"\r" in line or b"\n" in line:
            problems.append(f"line {number}: bare CR or LF")
        if len(line) > MAX_OCTETS:
            problems.append(f"line {number}: {len(line)} octets (more than {MAX_OCTETS})")
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            problems.append(f"line {number}: not UTF-8 on its own (a fold split a character)")
    return lines, problems


def content_lines(lines: list[bytes]) -> list[str]:
    """Return the unfolded content lines (RFC 5545 3.1: a line starting with space or tab continues)."""
    unfolded: list[bytes] = []
    for line in lines:
        if line[:1] in (b" ", b"\t") and unfolded:
            unfolded[-1] += line[1:]
        else:
            unfolded.append(line)
    return [line.decode("utf-8", errors="replace") for line in unfolded]


def property_name(line: str) -> str:
    match = _NAME.match(line)
    return match.group(0).upper() if match else ""


def components(lines: list[str]) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """Return ([(component name, its own content lines)], problems with BEGIN/END nesting)."""
    problems, stack, found = [], [], []
    for line in lines:
        if line.startswith("BEGIN:"):
            stack.append((line[6:], []))
        elif line.startswith("END:"):
            if not stack or stack[-1][0] != line[4:]:
                problems.append(f"unbalanced {line}")
                continue
            found.append(stack.pop())
        elif stack:
            stack[-1][1].append(line)
        else:
            problems.append(f"content outside any component: {line[:40]}")
    if stack:
        problems.append(f"unclosed {[name for name, _ in stack]}")
    return found, problems


def lint(body: bytes) -> list[str]:
    """Return every problem found in an ICS feed (an empty list when it is clean)."""
    lines, problems = physical_lines(body)
    unfolded = content_lines(lines)
    if not unfolded or unfolded[0] != "BEGIN:VCALENDAR" or unfolded[-1] != "END:VCALENDAR":
        problems.append("the feed is not one VCALENDAR")
    found, nesting = components(unfolded)
    problems += nesting
    calendars = [props for name, props in found if name == "VCALENDAR"]
    events = [props for name, props in found if name == "VEVENT"]
    zones = {line.split(":", 1)[1] for name, props in found if name == "VTIMEZONE" for line in props
             if property_name(line) == "TZID"}
    if len(calendars) != 1:
        return problems + [f"{len(calendars)} VCALENDAR components"]
    problems += _calendar_problems(calendars[0])
    uids = Counter()
    for index, props in enumerate(events):
        problems += [f"VEVENT {index}: {p}" for p in _event_problems(props, zones)]
        uids.update(line.split(":", 1)[1] for line in props if property_name(line) == "UID")
    problems += [f"UID {uid} used {n} times" for uid, n in uids.items() if n > 1]
    return problems


def _calendar_problems(props: list[str]) -> list[str]:
    names = Counter(property_name(line) for line in props)
    problems = [f"VCALENDAR: {name} appears {names[name]} times" for name in CALENDAR_ONCE if names[name] != 1]
    for name, exact in CALENDAR_EXACT.items():
        if names[name] == 1 and next(line for line in props if property_name(line) == name) != exact:
            problems.append(f"VCALENDAR: {name} is not {exact}")
    return problems


def _event_problems(props: list[str], zones: set[str]) -> list[str]:
    names = Counter(property_name(line) for line in props)
    problems = [f"{name} appears {names[name]} times" for name in EVENT_ONCE if names[name] != 1]
    for line in props:
        if property_name(line) == "DTSTAMP" and not _UTC_STAMP.fullmatch(line):
            problems.append(f"DTSTAMP not in UTC: {line}")
        tzid = re.search(r";TZID=([^;:]+)", line.split(":", 1)[0])
        if tzid and tzid.group(1) not in zones:
            problems.append(f"TZID {tzid.group(1)} without a VTIMEZONE")
    start = _value(props, "DTSTART")
    end = _value(props, "DTEND")
    if start and end and not (len(start) == len(end) and end > start):
        problems.append(f"DTEND {end} not after DTSTART {start}")
    return problems


def _value(props: list[str], name: str) -> str | None:
    for line in props:
        if property_name(line) == name:
            return line.split(":", 1)[1]
    return None
