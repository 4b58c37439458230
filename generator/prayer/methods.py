"""The calculation methods: one frozen parameter object per method, from data/methods.json.

Special rules are fields (an isha interval, a maghrib angle, a rounding mode, a
seasonal high-latitude rule), never checks on a method's name.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

METHODS_PATH = Path(__file__).resolve().parents[2] / "data" / "methods.json"
DEFAULT_METHOD = "Tehran"

# Times a method may shift by whole minutes (adhan's methodAdjustments).
ADJUSTABLE = ("fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha")


class Rounding(StrEnum):
    """How an instant becomes a whole minute: nearest (30 s up), always up (Singapore), or down
    (truncated to the minute: the Imam Ali Foundation's city tables outside London)."""

    NEAREST = "nearest"
    UP = "up"
    DOWN = "down"


class Midnight(StrEnum):
    """Which night midnight halves: SPEC's maghrib→fajr, or sunset→fajr, or sunset→sunrise; or sunset→the
    same day's fajr + 24 h (the Imam Ali Foundation's tables: the dawn printed on the same row)."""

    MAGHRIB_TO_FAJR = "maghribToFajr"
    SUNSET_TO_FAJR = "sunsetToFajr"
    SUNSET_TO_SUNRISE = "sunsetToSunrise"
    SUNSET_TO_SAME_DAY_FAJR = "sunsetToSameDayFajr"


DEFAULT_MIDNIGHT = Midnight.MAGHRIB_TO_FAJR  # SPEC
DEFAULT_IMSAK_BEFORE_FAJR_MIN = 10  # SPEC


@dataclass(frozen=True)
class Summer:
    """Other intervals on the days ``first``..``last`` (``MM-DD``, inclusive) at latitudes from
    ``from_lat_deg`` northwards (signed: a northern-hemisphere summer), as the Imam Ali Foundation
    prints them (maghrib 25 and imsak 20 minutes in June and early July from Birmingham northwards)."""

    from_lat_deg: float
    first: str
    last: str
    maghrib_interval_min: float
    imsak_before_fajr_min: float


class HighLatitudeRule(StrEnum):
    """What bounds fajr and isha where twilight lasts all night (generator.prayer.prayer, docs/decisions.md)."""

    TWILIGHT_ANGLE = "twilightAngle"  # angle/60 of the night (SPEC)
    MIDDLE_OF_NIGHT = "middleOfNight"  # half of the night
    SEVENTH_OF_NIGHT = "seventhOfNight"  # a seventh of the night
    NONE = "none"  # no bound: a time never reached is null
    MOONSIGHTING_SEASONAL = "moonsightingSeasonal"  # Khalid Shaukat's seasonal limits


class Shafaq(StrEnum):
    """The Moonsighting Committee's evening twilight table."""

    GENERAL = "general"
    AHMER = "ahmer"
    ABYAD = "abyad"


@dataclass(frozen=True)
class Method:
    """Parameters of one calculation method (degrees of depression, minutes)."""

    id: str
    fajr_angle_deg: float
    isha_angle_deg: float | None = None  # None when isha is an interval
    isha_interval_min: float | None = None  # minutes after maghrib
    isha_interval_ramadan_min: float | None = None  # replaces the interval in Ramadan
    maghrib_angle_deg: float | None = None  # None: maghrib follows sunset
    maghrib_interval_min: float | None = None  # minutes after sunset
    adjustments_min: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    rounding: Rounding = Rounding.NEAREST
    high_latitude_rule: HighLatitudeRule = HighLatitudeRule.TWILIGHT_ANGLE
    # isha's own bound where it differs from fajr's (None: the same): the presets whose fitted dawn uses
    # half the night keep isha within angle/60 of it, so that isha never falls after their midnight.
    isha_high_latitude_rule: HighLatitudeRule | None = None
    shafaq: Shafaq = Shafaq.GENERAL  # Moonsighting Committee evening table
    # fajr's angle + Σ terms[k]·δ^(k+1), δ the Sun's declination at the day's transit towards the place's
    # pole (degrees): a dawn fitted from a printed table (IslamicCentreOfEngland); () is a fixed angle.
    fajr_angle_declination_terms: tuple[float, ...] = ()
    midnight: Midnight = DEFAULT_MIDNIGHT  # the method's own night, when the request names none
    # The midnight the authority the preset is named after prints, where it is not ``midnight`` (which stays the
    # SPEC's for the SPEC's presets, so that every default answer keeps its bytes): what a page naming the authority
    # prints (generator.prayer.place_defaults.page_midnight). None: ``midnight`` is the authority's, or no source.
    authority_midnight: Midnight | None = None
    imsak_before_fajr_min: float = DEFAULT_IMSAK_BEFORE_FAJR_MIN  # the method's own, when the request names none
    summer: tuple[Summer, ...] = ()  # other maghrib and imsak intervals in the northern summer
    extension: bool = False  # beyond the SPEC's sixteen: asked for by name, not part of method=all
    # the authorities (preset ids) whose printed tables this preset reprints and so may be bound to
    # (generator.prayer.timetables): a table binds its authority's own preset and these only
    prints_tables_of: tuple[str, ...] = ()
    # The reckoning (a calendar id) of the body the preset is named after, where that body keeps a calendar of its own
    # beside its community's default (the Fadlallah office: ``lebanon``): a city page offering that body's calendar
    # links its times with it, so that a reader following the body gets both (generator.site.timetable).
    reckoning: str | None = None
    label: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    description: str = ""
    source: str = ""
    default: bool = False

    @property
    def own_midnight(self) -> Midnight:
        """The night of the preset's authority: what a human surface naming the preset prints."""
        return self.authority_midnight or self.midnight

    def __post_init__(self) -> None:
        if (self.isha_angle_deg is None) == (self.isha_interval_min is None):
            raise ValueError(f"{self.id}: exactly one of isha_angle_deg and isha_interval_min")
        if self.maghrib_angle_deg is not None and self.maghrib_interval_min is not None:
            raise ValueError(f"{self.id}: at most one of maghrib_angle_deg and maghrib_interval_min")
        if not set(self.adjustments_min) <= set(ADJUSTABLE):
            raise ValueError(f"{self.id}: adjustments only for {', '.join(ADJUSTABLE)}")
        # Strings from data/methods.json become the rule types (ValueError for an unknown one).
        object.__setattr__(self, "rounding", Rounding(self.rounding))
        object.__setattr__(self, "high_latitude_rule", HighLatitudeRule(self.high_latitude_rule))
        if self.isha_high_latitude_rule is not None:
            object.__setattr__(self, "isha_high_latitude_rule", HighLatitudeRule(self.isha_high_latitude_rule))
        object.__setattr__(self, "shafaq", Shafaq(self.shafaq))
        object.__setattr__(self, "midnight", Midnight(self.midnight))
        if self.authority_midnight is not None:
            object.__setattr__(self, "authority_midnight", Midnight(self.authority_midnight))
        object.__setattr__(self, "fajr_angle_declination_terms", tuple(self.fajr_angle_declination_terms))
        object.__setattr__(self, "prints_tables_of", tuple(self.prints_tables_of))
        object.__setattr__(self, "summer", tuple(s if isinstance(s, Summer) else Summer(**s) for s in self.summer))
        if self.summer and self.maghrib_interval_min is None:
            raise ValueError(f"{self.id}: summer intervals need a maghrib interval")


def _load(path: Path) -> dict[str, Method]:
    raw = json.loads(path.read_text(encoding="utf-8"))["methods"]
    names = {f.name for f in dataclasses.fields(Method)}
    registry = {}
    for item in raw:
        unknown = set(item) - names
        if unknown:
            raise ValueError(f"{path.name}: {item['id']}: unknown fields {sorted(unknown)}")
        item = dict(item)
        item["adjustments_min"] = MappingProxyType(dict(item.get("adjustments_min", {})))
        item["label"] = MappingProxyType(dict(item["label"]))
        registry[item["id"]] = Method(**item)
    return registry


METHODS: Mapping[str, Method] = MappingProxyType(_load(METHODS_PATH))  # every preset, by id
# The SPEC's sixteen (method=all, the methods list's first entries); the others are extensions.
SPEC_METHODS: tuple[str, ...] = tuple(m.id for m in METHODS.values() if not m.extension)
if [m.extension for m in METHODS.values()] != sorted(m.extension for m in METHODS.values()):
    raise ValueError(f"{METHODS_PATH.name}: extensions are listed after the SPEC's methods")
if [m.id for m in METHODS.values() if m.default] != [DEFAULT_METHOD]:
    raise ValueError(f"{METHODS_PATH.name}: exactly {DEFAULT_METHOD} must be the default")


_BY_FOLDED_ID = {method_id.casefold(): method_id for method_id in METHODS}
assert len(_BY_FOLDED_ID) == len(METHODS), "two method ids differ only in case"


def resolve(method_id: str) -> str | None:
    """Return the method id ``method_id`` names, case-insensitively (``tehran`` → ``Tehran``), or None."""
    return _BY_FOLDED_ID.get(method_id.casefold())


def custom_method(
    *,
    fajr_angle_deg: float,
    isha_angle_deg: float | None = None,
    isha_interval_min: float | None = None,
    maghrib_angle_deg: float | None = None,
    maghrib_interval_min: float | None = None,
) -> Method:
    """Return the parameter object for ``method=custom`` (no adjustments, nearest rounding)."""
    return Method(
        id="custom",
        fajr_angle_deg=fajr_angle_deg,
        isha_angle_deg=isha_angle_deg,
        isha_interval_min=isha_interval_min,
        maghrib_angle_deg=maghrib_angle_deg,
        maghrib_interval_min=maghrib_interval_min,
        description="Custom angles given in the request.",
    )
