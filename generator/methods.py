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

METHODS_PATH = Path(__file__).resolve().parent.parent / "data" / "methods.json"
DEFAULT_METHOD = "Tehran"

# Times a method may shift by whole minutes (adhan's methodAdjustments).
ADJUSTABLE = ("fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha")


class Rounding(StrEnum):
    """How an instant becomes a whole minute: nearest (30 s up), or always up (Singapore)."""

    NEAREST = "nearest"
    UP = "up"


class HighLatitudeRule(StrEnum):
    """What bounds fajr and isha where twilight lasts all night (generator.prayer, docs/decisions.md)."""

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
    shafaq: Shafaq = Shafaq.GENERAL  # Moonsighting Committee evening table
    label: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    description: str = ""
    source: str = ""
    default: bool = False

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
        object.__setattr__(self, "shafaq", Shafaq(self.shafaq))


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


METHODS: Mapping[str, Method] = MappingProxyType(_load(METHODS_PATH))
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
