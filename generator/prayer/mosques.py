"""Mosque profiles (issue 20): one JSON file per mosque under data/mosques/, read and checked once.

A profile says what a mosque keeps, so that ``mosque=<id>`` on /v1/prayer-times (JSON, CSV,
ICS), /v1/night.ics, the screen and the mosque's page stand for the query a person would
otherwise spell out.  The format (docs/mosques.md is its documentation, with an example; every
key is checked here, unknown keys are refused, and a wrong file stops the service at start-up
with the file and the field named):

``names``        {lang: name}: ``en`` required, ``ar``/``fa``/``ur`` optional (the English name
                 is shown where one is missing); each at most 60 characters, one line.
``place``        ``{"city": <catalogue id>}`` or ``{"lat": …, "lng": …, "tz": <IANA zone>}``:
                 the /v1/prayer-times parameters of the same names.
``times``        /v1/prayer-times parameters that make the mosque's adhan: ``method`` (required)
                 and its options (``fajrAngle`` … ``maghribInterval`` with ``method=custom``,
                 ``asr``, ``highLatitudeRule``, ``tune``, ``elevation``, ``midnight``, ``imsak``).
                 A preset bound to printed tables (ImamAliFoundation) brings its tables.
``jamaat``       optional jamaat parameters: ``jamaat``, ``jamaatRound``, ``jamaatWeekly``,
                 ``jumuah``, ``eid``, ``jamaatDst``, ``jumuahDst``, ``jamaatRamadan``,
                 ``jamaatEarliest``, ``jamaatLatest``, ``jamaatTable``, ``jamaatOutside``, ``jamaatRoundDst``,
                 ``jamaatRoundRamadan`` (their query syntax;
                 `generator.prayer.jamaat`).  Absent: the mosque publishes no jamaat times, and none is
                 invented.
``reckoning``    any ``calendar`` value (``moonsighting``, ``iran``, ``pakistan``, ``india``, ``lebanon``,
                 ``azerbaijan``, ``cssna-east``, ``cssna-west``): the Hijri reckoning of its Eid days, Ramadan and
                 Hijri dates (the ``calendar`` parameter).
``languages``    the languages the mosque speaks to its people in (en, ar, fa, ur), first the
                 one its screen shows by default, the next beside it (issue 36: the screen's ``lang2``).
``announcements`` optional list (at most 12) of {``text``: {lang: text}, ``kind``, ``from``, ``until``,
                 ``weekdays``} (issue 36, `generator.prayer.announcements`): a ``line`` (default; at most 120
                 characters per language, one line of the wall screen) or a ``slide`` (a programme: at most 600
                 characters and 10 lines); ``from``/``until`` YYYY-MM-DD, inclusive, the mosque's local date;
                 ``weekdays`` a list of mon…sun.  Shown as text (never markup) on its page, screen and widget.
``announcement`` the older form, {lang: text}: one line per language, read as one line with no dates (still
                 accepted; not beside ``announcements``).
``screen``       optional options of its wall screen (issue 28), each the screen's own parameter of that
                 name and its default when the screen's address does not give it: ``notice``
                 (minutes 1..60 a jamaat must move by for "changes tomorrow"; the screen's default
                 5), ``inPrayer`` (minutes 1..30 of the calm "prayer in progress" view after each
                 jamaat; absent: off), ``lineSeconds`` (seconds 4..60 each announcement line is shown, a slide
                 twice as long; the screen's default 8), ``qr`` (``page`` or ``feed``: a QR code in a corner).
``website``      optional ``https://`` address of the mosque's own site.
``address``      optional postal address (one line, at most 200 characters).
``sources``      a non-empty list of {``about``, ``url`` (optional), ``read`` (YYYY-MM-DD)}: where
                 each fact of the profile comes from; a profile never carries a time its mosque
                 did not publish.

This module checks the shape and the values' types; whether the parameters make a valid query is
checked by the API layer with the endpoints' own readers (`generator.api.mosques.check`).
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from generator.calendars import hijri
from generator.prayer import announcements as A
from generator.prayer.jamaat import WEEKDAYS
from generator.errors import GENERIC_CODE
from generator.words.locale import DEFAULT_LANGUAGE, LANGUAGES

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "mosques"
ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?", re.ASCII)  # the file's stem, and mosque=<id>
MAX_ID_CHARS = 48
RESERVED_IDS = ("new",)  # /mosque/new/ is the builder (generator/site/builder.py): no profile may take its address
MAX_NAME_CHARS = 60  # the feeds' ``name`` limit (SPEC 8)
MAX_ANNOUNCEMENT_CHARS = A.MAX_LINE_CHARS  # one line of the wall screen (generator/site/screen.py MAX_NOTE_CHARS)
MAX_ADDRESS_CHARS = 200
MAX_URL_CHARS = 200
MAX_SOURCE_CHARS = 1000  # what a source says about the profile
RECKONINGS = hijri.CALENDARS  # the `calendar` values
# The site's addresses of a mosque (generator/site/urls.py builds on them; /v1/mosques links them):
PAGE_PATH = "/mosque/{id}/"  # its page in English; another language: PAGE_PATH + "<lang>/"
SCREEN_PATH = "/mosque/{id}/screen/"  # its wall screen in its first language (the next beside it; ?lang= another)
PROFILE_PATH = "/v1/mosques/{id}"  # the profile itself (a hosted one's ETag is its version: runtime/hosted.py)
PLACE_KEYS = (("city",), ("lat", "lng", "tz"))
TIMES_KEYS = ("method", "fajrAngle", "ishaAngle", "ishaInterval", "maghribAngle", "maghribInterval", "asr",
              "highLatitudeRule", "tune", "elevation", "midnight", "imsak")
JAMAAT_KEYS = ("jamaat", "jamaatRound", "jamaatWeekly", "jumuah", "eid", "jamaatDst", "jumuahDst", "jamaatRamadan",
               "jamaatEarliest", "jamaatLatest", "jamaatTable", "jamaatOutside", "jamaatRoundDst", "jamaatRoundRamadan")  # jamaatNotice is the reader's choice, not the mosque's
# The screen's options a profile may set (issue 28): their bounds are declared here and read by the screen's
# parameters (generator/site/screen.py), so a profile and an address are checked alike.
SCREEN_MINUTES = {"notice": (1, 60), "inPrayer": (1, 30)}
SCREEN_SECONDS = {"lineSeconds": (4, 60)}  # issue 36: how long each announcement line (a slide: twice) is shown
QR_TARGETS = ("page", "feed")
SCREEN_KEYS = ("notice", "inPrayer", "lineSeconds", "qr")
KEYS = ("names", "place", "times", "jamaat", "reckoning", "languages", "announcements", "announcement", "screen",
        "website", "address", "sources")
ANNOUNCEMENT_KEYS = ("text", "kind", "from", "until", "weekdays")
LEGACY_ANNOUNCEMENT = "announcement"  # the older one-line form (read as one line without dates)
REQUIRED = ("names", "place", "times", "reckoning", "languages", "sources")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# Issue 34: the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) reorder the text around them
# wherever it is not isolated (a tab's <title>, og:title, a chat's link preview, an ICS summary): refused in every
# text.  The marks LRM, RLM and ALM (U+200E, U+200F, U+061C) reorder nothing beyond themselves and stay allowed.
_BIDI_CONTROL = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
# Characters that draw nothing (a text of only these is blank on the screen and in feeds): spaces and format
# characters by their general category (Zs, Zl, Zp, Cf, Cc; Mn/Me: a mark alone), and the default-ignorable letters
# Unicode draws as nothing: the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, and U+2800 (braille blank).
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cf", "Cc", "Mn", "Me"})
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(text: str) -> bool:
    """Whether ``text`` draws at least one character (not only spaces, format characters, marks or fillers)."""
    return any(c not in _BLANK_LETTERS and unicodedata.category(c) not in _BLANK_CATEGORIES for c in text)
_URL = re.compile(r"https://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~%/+-]*)?", re.ASCII)


class ProfileError(ValueError):
    """A profile that cannot be served: the message names the file and the field."""

    def __init__(self, path: Path | str, field: str, message: str, code: str = GENERIC_CODE,
                 args: Mapping[str, object] | None = None):
        super().__init__(f"{path}: {field}: {message}")
        self.path, self.field = str(path), field
        self.message = message
        # as a QueryError's (generator/errors.py): the glossary row error.<code> says it in the reader's language
        self.code, self.arguments = code, dict(args or {})


@dataclass(frozen=True)
class Mosque:
    """One checked profile; ``parameters`` are the query items it stands for (names → query values)."""

    id: str
    path: str
    names: Mapping[str, str]
    place: Mapping[str, str]
    times: Mapping[str, str]
    jamaat: Mapping[str, str]
    reckoning: str
    languages: tuple[str, ...]
    announcements: tuple[A.Announcement, ...]
    website: str | None
    address: str | None
    sources: tuple[Mapping[str, str], ...]
    screen: Mapping[str, object] = field(default_factory=dict)  # the wall screen's options (SCREEN_KEYS)
    version: int | None = None  # a hosted profile's version (runtime/mosque_store.py); None: a file of data/mosques
    listed: bool = True  # a hosted profile is unlisted (no /v1/mosques, noindex) until a maintainer lists it

    @property
    def hosted(self) -> bool:
        return self.version is not None

    def name(self, lang: str) -> str:
        """The name in ``lang``, else the English one."""
        return self.names.get(lang) or self.names[DEFAULT_LANGUAGE]

    def announcements_on(self, day: date) -> tuple[A.Announcement, ...]:
        """The announcements that apply on the mosque's local date ``day`` (`announcements.active_on`)."""
        return tuple(self.announcements[k] for k in A.active_on(self.announcements, day))

    @property
    def parameters(self) -> dict[str, str]:
        """The /v1/prayer-times parameters the profile sets (place, times, jamaat and ``calendar``), as query text."""
        return {**self.place, **self.times, **self.jamaat, "calendar": self.reckoning}

    @property
    def field_of(self) -> dict[str, str]:
        """Which field of the file each parameter comes from (for errors): ``times.fajrAngle``…"""
        out = {name: f"{group}.{name}" for group, values in (("place", self.place), ("times", self.times),
                                                              ("jamaat", self.jamaat)) for name in values}
        return {**out, "calendar": "reckoning"}


def _text(value: Any, path: Path, field: str, max_chars: int, max_lines: int = 1) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ProfileError(path, field, "must be a non-empty string")
    if len(value) > max_chars:  # refused, never cut: a cut sentence can say the wrong day or time
        raise ProfileError(path, field, f"at most {max_chars} characters", "at_most_chars", {"most": max_chars})
    if max_lines > 1 and value.count("\n") >= max_lines:
        raise ProfileError(path, field, f"at most {max_lines} lines", "at_most_lines", {"most": max_lines})
    if _CONTROL.search(value.replace("\n", "") if max_lines > 1 else value):
        raise ProfileError(path, field, "one line of text: no line breaks or control characters" if max_lines == 1
                           else "text and line breaks only: no other control characters")
    if _BIDI_CONTROL.search(value):
        raise ProfileError(path, field, "no bidirectional embedding, override or isolate (U+202A-U+202E, "
                                        "U+2066-U+2069): they reverse the text around the name in titles and links")
    if not _visible(value):
        raise ProfileError(path, field, "must have a visible character (not only spaces or invisible characters)")
    return value


def _object(value: Any, path: Path, field: str) -> dict:
    if not isinstance(value, dict):
        raise ProfileError(path, field, "must be an object")
    return value


def _by_language(value: Any, path: Path, field: str, max_chars: int, required: tuple[str, ...] = (),
                 max_lines: int = 1) -> dict:
    value = _object(value, path, field)
    for lang in value:
        if lang not in LANGUAGES:
            raise ProfileError(path, f"{field}.{lang}", f"unknown language; one of {', '.join(LANGUAGES)}")
    for lang in required:
        if lang not in value:
            raise ProfileError(path, f"{field}.{lang}", "required")
    return {lang: _text(value[lang], path, f"{field}.{lang}", max_chars, max_lines) for lang in LANGUAGES
            if lang in value}


def _date(value: Any, path: Path | str, field: str) -> date:
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        raise ProfileError(path, field, "must be a date YYYY-MM-DD", "date_format") from None


def _announcements(data: dict, path: Path | str) -> tuple[A.Announcement, ...]:
    """The profile's announcements (issue 36); the older ``announcement`` is one line without dates."""
    if LEGACY_ANNOUNCEMENT in data:
        if "announcements" in data:
            raise ProfileError(path, LEGACY_ANNOUNCEMENT, "give announcements only (announcement is its older "
                               "one-line form)", "announcement_both")
        text = _by_language(data[LEGACY_ANNOUNCEMENT], path, LEGACY_ANNOUNCEMENT, A.MAX_LINE_CHARS)
        return (A.Announcement(text),) if text else ()
    value = data.get("announcements", [])
    if not isinstance(value, list):
        raise ProfileError(path, "announcements", "must be a list")
    if len(value) > A.MAX_ITEMS:
        raise ProfileError(path, "announcements", f"at most {A.MAX_ITEMS} announcements", "at_most_announcements",
                           {"most": A.MAX_ITEMS})
    out = []
    for k, item in enumerate(value):
        field = f"announcements[{k}]"
        item = _object(item, path, field)
        for key in item:
            if key not in ANNOUNCEMENT_KEYS:
                raise ProfileError(path, f"{field}.{key}", f"unknown field; one of {', '.join(ANNOUNCEMENT_KEYS)}")
        kind = item.get("kind", A.LINE)
        if kind not in A.KINDS:
            raise ProfileError(path, f"{field}.kind", f"must be one of {', '.join(A.KINDS)}", "one_of",
                               {"allowed": list(A.KINDS)})
        if "text" not in item:
            raise ProfileError(path, f"{field}.text", "required", "required")
        slide = kind == A.SLIDE
        text = _by_language(item["text"], path, f"{field}.text", A.MAX_SLIDE_CHARS if slide else A.MAX_LINE_CHARS,
                            max_lines=A.MAX_SLIDE_LINES if slide else 1)
        if not text:
            raise ProfileError(path, f"{field}.text", "give the text in at least one language", "announcement_text")
        start = _date(item["from"], path, f"{field}.from") if "from" in item else None
        end = _date(item["until"], path, f"{field}.until") if "until" in item else None
        if start is not None and end is not None and end < start:
            raise ProfileError(path, f"{field}.until", f"must be on or after from ({start.isoformat()})",
                               "until_before_from", {"from": start.isoformat()})
        weekdays = item.get("weekdays", [])
        if (not isinstance(weekdays, list) or ("weekdays" in item and not weekdays)
                or not all(isinstance(d, str) and d in WEEKDAYS for d in weekdays)
                or len(set(weekdays)) != len(weekdays)):
            raise ProfileError(path, f"{field}.weekdays", f"a non-empty list of distinct weekdays of "
                               f"{', '.join(WEEKDAYS)}", "weekday_list", {"allowed": list(WEEKDAYS)})
        out.append(A.Announcement(text, kind, start, end, tuple(sorted(WEEKDAYS.index(d) for d in weekdays))))
    return tuple(out)


def _parameters(value: Any, path: Path, field: str, allowed: tuple[str, ...]) -> dict[str, str]:
    """A group of query parameters: names of ``allowed``, values strings or numbers (as query text)."""
    out = {}
    for name, item in _object(value, path, field).items():
        if name not in allowed:
            raise ProfileError(path, f"{field}.{name}", f"unknown parameter; one of {', '.join(allowed)}")
        if isinstance(item, bool) or not isinstance(item, (str, int, float)):
            raise ProfileError(path, f"{field}.{name}", "must be a string or a number (the query's value)")
        out[name] = item if isinstance(item, str) else repr(item)
    return out


def _place(value: Any, path: Path) -> dict[str, str]:
    place = _parameters(value, path, "place", ("city", "lat", "lng", "tz"))
    if tuple(k for keys in PLACE_KEYS for k in keys if k in place) not in PLACE_KEYS:
        raise ProfileError(path, "place", 'give {"city": id} or {"lat": …, "lng": …, "tz": zone}')
    return place


def _sources(value: Any, path: Path) -> tuple[dict, ...]:
    if not isinstance(value, list) or not value:
        raise ProfileError(path, "sources", "a non-empty list: where each fact of the profile comes from")
    out = []
    for k, source in enumerate(value):
        field = f"sources[{k}]"
        source = _object(source, path, field)
        unknown = set(source) - {"about", "url", "read"}
        if unknown:
            raise ProfileError(path, f"{field}.{sorted(unknown)[0]}", "unknown key; about, url, read")
        item = {"about": _text(source.get("about"), path, f"{field}.about", MAX_SOURCE_CHARS)}
        if "url" in source:
            item["url"] = _url(source["url"], path, f"{field}.url")
        try:
            item["read"] = date.fromisoformat(_text(source.get("read"), path, f"{field}.read", 10)).isoformat()
        except ValueError:
            raise ProfileError(path, f"{field}.read", "the date it was read, YYYY-MM-DD") from None
        out.append(item)
    return tuple(out)


def _url(value: Any, path: Path, field: str) -> str:
    text = _text(value, path, field, MAX_URL_CHARS)
    if not _URL.fullmatch(text):
        raise ProfileError(path, field, "an https:// address (letters, digits and -._~%/+ only)")
    return text


def read(path: Path) -> Mosque:
    """Read and check one profile file (`ProfileError` names the file and the field)."""
    path = Path(path)
    if not ID.fullmatch(path.stem):
        raise ProfileError(path, "id", f"the file name is the id: lower-case letters, digits and '-', at most "
                                       f"{MAX_ID_CHARS} characters")
    if path.stem in RESERVED_IDS:
        raise ProfileError(path, "id", f"{path.stem!r} is the address of a page of the site; choose another file name")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProfileError(path, "file", f"not readable UTF-8 JSON ({error})") from None
    return parse(data, path.stem, str(path))


def parse(data: Any, mosque_id: str, path: Path | str, version: int | None = None) -> Mosque:
    """Check one profile's parsed JSON (a file's, or a hosted profile's body); ``path`` names it in errors."""
    data = _object(data, path, "file")
    for key in data:
        if key not in KEYS:
            raise ProfileError(path, key, f"unknown field; one of {', '.join(KEYS)}")
    for key in REQUIRED:
        if key not in data:
            raise ProfileError(path, key, "required")
    times = _parameters(data["times"], path, "times", TIMES_KEYS)
    if "method" not in times:
        raise ProfileError(path, "times.method", "required")
    languages = data["languages"]
    if (not isinstance(languages, list) or not languages   # the strings first: a list inside has no set
            or not all(isinstance(lang, str) and lang in LANGUAGES for lang in languages)
            or len(set(languages)) != len(languages)):
        raise ProfileError(path, "languages", f"a non-empty list of distinct languages of {', '.join(LANGUAGES)}")
    if not isinstance(data["reckoning"], str) or data["reckoning"] not in RECKONINGS:
        raise ProfileError(path, "reckoning", f"one of {', '.join(RECKONINGS)}")
    return Mosque(
        id=mosque_id, path=str(path),
        names=_by_language(data["names"], path, "names", MAX_NAME_CHARS, required=(DEFAULT_LANGUAGE,)),
        place=_place(data["place"], path), times=times,
        jamaat=_parameters(data.get("jamaat", {}), path, "jamaat", JAMAAT_KEYS),
        reckoning=data["reckoning"], languages=tuple(languages),
        announcements=_announcements(data, path),
        website=_url(data["website"], path, "website") if "website" in data else None,
        address=_text(data["address"], path, "address", MAX_ADDRESS_CHARS) if "address" in data else None,
        screen=_screen(data.get("screen", {}), path), sources=_sources(data["sources"], path), version=version)


def _screen(value: Any, path: Path | str) -> dict[str, object]:
    """The screen's options: whole minutes within `SCREEN_MINUTES`, ``qr`` one of `QR_TARGETS`."""
    out: dict[str, object] = {}
    for name, item in _object(value, path, "screen").items():
        if name not in SCREEN_KEYS:
            raise ProfileError(path, f"screen.{name}", f"unknown option; one of {', '.join(SCREEN_KEYS)}")
        if name in SCREEN_MINUTES or name in SCREEN_SECONDS:
            low, high = SCREEN_MINUTES.get(name) or SCREEN_SECONDS[name]
            unit = "minutes" if name in SCREEN_MINUTES else "seconds"
            if isinstance(item, bool) or not isinstance(item, int) or not low <= item <= high:
                raise ProfileError(path, f"screen.{name}", f"whole {unit} from {low} to {high}")
        elif item not in QR_TARGETS:
            raise ProfileError(path, f"screen.{name}", f"one of {', '.join(QR_TARGETS)}")
        out[name] = item
    return out


def load(directory: Path | None = None) -> dict[str, Mosque]:
    """Read every ``*.json`` profile of ``directory`` (default `DATA_DIR`), by id, sorted (none when the directory
    is absent)."""
    directory = Path(DATA_DIR if directory is None else directory)
    files = sorted(directory.glob("*.json")) if directory.is_dir() else []
    return {mosque.id: mosque for mosque in map(read, files)}


@functools.cache
def by_id() -> dict[str, Mosque]:
    """The profiles of data/mosques/, read once (curated, listed, pre-rendered)."""
    return load()


# Hosted profiles (issue 27): the runtime's store answers `find` for ids no file has.  The store lives
# above this layer (runtime/mosque_store.py); it registers its reader here (`set_hosted`), so that every
# reader of ``mosque=<id>`` (the endpoints, the screen, the pages) asks one function.
_hosted: Callable[[str], Mosque | None] | None = None
_hosted_listed: Callable[[], list[Mosque]] | None = None
_checking: contextvars.ContextVar[Mosque | None] = contextvars.ContextVar("mosque_checking", default=None)


def set_hosted(reader: Callable[[str], Mosque | None] | None,
               listed: Callable[[], list[Mosque]] | None = None) -> None:
    """Register the reader of hosted profiles and of those a maintainer listed (None: files only, as in
    build.py and most tests)."""
    global _hosted, _hosted_listed
    _hosted, _hosted_listed = reader, listed


def listed() -> list[Mosque]:
    """The profiles /v1/mosques lists: every file, then the hosted profiles a maintainer listed (by id)."""
    hosted = [] if _hosted_listed is None else _hosted_listed()
    return [*by_id().values(), *sorted((m for m in hosted if m.id not in by_id()), key=lambda m: m.id)]


def find(mosque_id: str) -> Mosque | None:
    """The profile of ``mosque_id``: the profile being checked in this thread (`checking`), else a file of
    data/mosques (their ids are reserved), else a hosted one; None when there is none."""
    candidate = _checking.get()  # first: the profile being checked is the one asked about, whatever its id
    if candidate is not None and candidate.id == mosque_id:
        return candidate
    found = by_id().get(mosque_id)
    if found is not None:
        return found
    return None if _hosted is None else _hosted(mosque_id)


@contextlib.contextmanager
def checking(mosque: Mosque) -> Iterator[None]:
    """While the block runs (in this thread), ``find(mosque.id)`` is ``mosque``: a profile about to be saved is
    read by the endpoints' own parse before anything is stored."""
    token = _checking.set(mosque)
    try:
        yield
    finally:
        _checking.reset(token)
