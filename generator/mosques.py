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
                 ``jumuah``, ``eid`` (their query syntax; `generator.jamaat`).  Absent: the
                 mosque publishes no jamaat times, and none is invented.
``reckoning``    ``moonsighting``, ``iran``, ``pakistan`` or ``india``: the Hijri reckoning of its Eid days, Ramadan and
                 Hijri dates (the ``calendar`` parameter).
``languages``    the languages the mosque speaks to its people in (en, ar, fa, ur), first the
                 one its screen shows by default.
``announcement`` optional {lang: text}: one line of at most 120 characters per language (a line of the wall screen), shown
                 as text (never markup) on its page and screen.
``website``      optional ``https://`` address of the mosque's own site.
``address``      optional postal address (one line, at most 200 characters).
``sources``      a non-empty list of {``about``, ``url`` (optional), ``read`` (YYYY-MM-DD)}: where
                 each fact of the profile comes from; a profile never carries a time its mosque
                 did not publish.

This module checks the shape and the values' types; whether the parameters make a valid query is
checked by the API layer with the endpoints' own readers (`generator.api.mosques.check`).
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Mapping

from generator import hijri
from generator.locale import DEFAULT_LANGUAGE, LANGUAGES

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "mosques"
ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?", re.ASCII)  # the file's stem, and mosque=<id>
MAX_ID_CHARS = 48
MAX_NAME_CHARS = 60  # the feeds' ``name`` limit (SPEC 8)
MAX_ANNOUNCEMENT_CHARS = 120  # one line of the wall screen (generator/site/screen.py MAX_NOTE_CHARS)
MAX_ADDRESS_CHARS = 200
MAX_URL_CHARS = 200
MAX_SOURCE_CHARS = 1000  # what a source says about the profile
RECKONINGS = hijri.CALENDARS  # the `calendar` values
# The site's addresses of a mosque (generator/site/urls.py builds on them; /v1/mosques links them):
PAGE_PATH = "/mosque/{id}/"  # its page in English; another language: PAGE_PATH + "<lang>/"
SCREEN_PATH = "/mosque/{id}/screen/"  # its wall screen in its first language
PLACE_KEYS = (("city",), ("lat", "lng", "tz"))
TIMES_KEYS = ("method", "fajrAngle", "ishaAngle", "ishaInterval", "maghribAngle", "maghribInterval", "asr",
              "highLatitudeRule", "tune", "elevation", "midnight", "imsak")
JAMAAT_KEYS = ("jamaat", "jamaatRound", "jamaatWeekly", "jumuah", "eid")
KEYS = ("names", "place", "times", "jamaat", "reckoning", "languages", "announcement", "website", "address",
        "sources")
REQUIRED = ("names", "place", "times", "reckoning", "languages", "sources")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_URL = re.compile(r"https://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~%/+-]*)?", re.ASCII)


class ProfileError(ValueError):
    """A profile that cannot be served: the message names the file and the field."""

    def __init__(self, path: Path | str, field: str, message: str):
        super().__init__(f"{path}: {field}: {message}")
        self.path, self.field = str(path), field


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
    announcement: Mapping[str, str]
    website: str | None
    address: str | None
    sources: tuple[Mapping[str, str], ...]

    def name(self, lang: str) -> str:
        """The name in ``lang``, else the English one."""
        return self.names.get(lang) or self.names[DEFAULT_LANGUAGE]

    def announcement_in(self, lang: str) -> str | None:
        """The announcement in ``lang``, else in the mosque's first language that has one, else None."""
        for candidate in (lang, *self.languages, *self.announcement):
            if candidate in self.announcement:
                return self.announcement[candidate]
        return None

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


def _text(value: Any, path: Path, field: str, max_chars: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ProfileError(path, field, "must be a non-empty string")
    if len(value) > max_chars:
        raise ProfileError(path, field, f"at most {max_chars} characters")
    if _CONTROL.search(value):
        raise ProfileError(path, field, "one line of text: no line breaks or control characters")
    return value


def _object(value: Any, path: Path, field: str) -> dict:
    if not isinstance(value, dict):
        raise ProfileError(path, field, "must be an object")
    return value


def _by_language(value: Any, path: Path, field: str, max_chars: int, required: tuple[str, ...] = ()) -> dict:
    value = _object(value, path, field)
    for lang in value:
        if lang not in LANGUAGES:
            raise ProfileError(path, f"{field}.{lang}", f"unknown language; one of {', '.join(LANGUAGES)}")
    for lang in required:
        if lang not in value:
            raise ProfileError(path, f"{field}.{lang}", "required")
    return {lang: _text(value[lang], path, f"{field}.{lang}", max_chars) for lang in LANGUAGES if lang in value}


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
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProfileError(path, "file", f"not readable UTF-8 JSON ({error})") from None
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
    if (not isinstance(languages, list) or not languages or len(set(languages)) != len(languages)
            or not all(lang in LANGUAGES for lang in languages)):
        raise ProfileError(path, "languages", f"a non-empty list of distinct languages of {', '.join(LANGUAGES)}")
    if data["reckoning"] not in RECKONINGS:
        raise ProfileError(path, "reckoning", f"one of {', '.join(RECKONINGS)}")
    return Mosque(
        id=path.stem, path=str(path),
        names=_by_language(data["names"], path, "names", MAX_NAME_CHARS, required=(DEFAULT_LANGUAGE,)),
        place=_place(data["place"], path), times=times,
        jamaat=_parameters(data.get("jamaat", {}), path, "jamaat", JAMAAT_KEYS),
        reckoning=data["reckoning"], languages=tuple(languages),
        announcement=_by_language(data.get("announcement", {}), path, "announcement", MAX_ANNOUNCEMENT_CHARS),
        website=_url(data["website"], path, "website") if "website" in data else None,
        address=_text(data["address"], path, "address", MAX_ADDRESS_CHARS) if "address" in data else None,
        sources=_sources(data["sources"], path))


def load(directory: Path | None = None) -> dict[str, Mosque]:
    """Read every ``*.json`` profile of ``directory`` (default `DATA_DIR`), by id, sorted (none when the directory
    is absent)."""
    directory = Path(DATA_DIR if directory is None else directory)
    files = sorted(directory.glob("*.json")) if directory.is_dir() else []
    return {mosque.id: mosque for mosque in map(read, files)}


@functools.cache
def by_id() -> dict[str, Mosque]:
    """The served profiles (data/mosques/), read once."""
    return load()
