"""The month starts of regional Shia communities (South Asia, Lebanon, Azerbaijan, North America): announced tables
and the rule fitted to each.

Six reckonings, ``pakistan`` and ``india`` (issue 26), ``lebanon`` and ``azerbaijan`` (issue 37: the
office of Sayyid Muhammad Husayn Fadlallah and the Caucasian Muslims' Board, both by calculation) and
``cssna-east``/``cssna-west`` (issue 37: the Council of Shia Muslim Scholars of North America by region),
are built like ``moonsighting``:
the months a community's Shia announced (``data/month_starts/<calendar>.csv``; both North American
reckonings read ``cssna.csv``, each its region's rows; cited in
data/SOURCES-HIJRI.md), then a computed prediction.  The prediction is not fixed in code:
it is the candidate rule, from a small family fixed before scoring, that reproduces the most
announced months of that reckoning, so a row added to the file needs no code change.

* Candidates: a criterion (Yallop zone A, ≥ B, ≥ C, ≥ D; Odeh zone A, ≥ B, ≥ C, with the
  6.4° Danjon limit; for Lebanon and Azerbaijan also Odeh ≥ C without that limit; for Azerbaijan
  also the Moon setting after the Sun, the Board's stated test) at a set of the places
  where the region's sightings are made (the zonal committees' cities for Pakistan, Lucknow
  and the cities whose witnesses it hears for India; for Lebanon, Beirut, then the lands
  westward that share part of Lebanon's night, as the office's statements name them), each
  place at its own best time; the crescent counts as seen when any place of the set meets
  the criterion.  Evenings are tried from the conjunction's date at the region's clock
  (PKT UTC+5, IST UTC+5:30, EET UTC+2, AZT UTC+4), as the other reckonings do.
* Order (ties go to the first): smaller place sets first, then Yallop before Odeh, stricter
  before looser: the least permissive rule that fits the announcements.
* Held-out agreement: leave one Hijri year out (choose on the other years' rows, score
  that year's rows), the figure `make bench` prints and docs/hijri.md states.  A region may
  choose on the rows from a year its body stated a change of practice (``fit_from_year``);
  the earlier rows are served as announced all the same.

Which announced row counts: a row whose ``shia_followed`` is ``no`` is not the day the Shia
kept (its month has a ``shia-ulema`` row instead); a row of the community's own Shia body
overrides the national committee's row of the same month (``NATIONAL_BODY``).
"""
from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np

from generator.astronomy import crescent
from generator.places import cities, days

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
MONTH_STARTS_DIR = DATA_DIR / "month_starts"
COLUMNS = ("hy", "hm", "gregorian_start", "decided_by", "shia_followed", "source", "quote", "reported", "read")
SHIA_FOLLOWED = ("yes", "no", "unknown")
AUTHORITY_ID = re.compile(r"[a-z][a-z0-9-]{1,40}", re.ASCII)


CRITERIA = {  # name -> (quantity, threshold): seen when q or lag > threshold, or V >= threshold (and ARCL ≥ Danjon)
    "Yallop A": ("q", crescent.YALLOP_Q_ABOVE[0]),
    "Yallop >= B": ("q", crescent.YALLOP_Q_ABOVE[1]),
    "Yallop >= C": ("q", crescent.YALLOP_Q_ABOVE[2]),
    "Yallop >= D": ("q", crescent.YALLOP_Q_ABOVE[3]),
    "Odeh A": ("v", crescent.ODEH_V_AT_LEAST[0]),
    "Odeh >= B": ("v", crescent.ODEH_V_AT_LEAST[1]),
    "Odeh >= C": ("v", crescent.ODEH_V_AT_LEAST[2]),
    # Odeh's zone C (visible by optical aid) without his 6.4° Danjon floor: the Fadlallah office
    # names evenings "visible by telescope" whose crescent is below that floor everywhere (Eid
    # 1437, Ramadan 1447; docs/hijri.md), so Lebanon's family tries it last.
    "Odeh >= C, no Danjon limit": ("v_any", crescent.ODEH_V_AT_LEAST[2]),
    # No visibility at all: the conjunction falls before sunset and the Moon sets after the Sun
    # (lag > 0 minutes).  The Caucasian Muslims' Board states this evening test for Ramadan 1443
    # (Baku, 1 April 2022: "the Moon set 14 minutes after the Sun", a 0.2 % crescent; docs/hijri.md),
    # so Azerbaijan's family tries it last.
    "Moon sets after the Sun": ("lag", 0.0),
}
VISIBILITY_CRITERIA = tuple(name for name in CRITERIA if name != "Moon sets after the Sun")
SOUTH_ASIA_CRITERIA = tuple(name for name in VISIBILITY_CRITERIA if name != "Odeh >= C, no Danjon limit")


class Region(NamedTuple):
    """Where a reckoning's crescent is looked for: its clock and its candidate places."""

    utc_offset_days: float  # the date of the conjunction on the region's clock starts the evenings
    places: tuple[str, ...]  # catalogue city ids (data/cities.csv gives their coordinates)
    place_sets: tuple[tuple[str, ...], ...]  # the candidate sets, smaller first
    criteria: tuple[str, ...] = SOUTH_ASIA_CRITERIA  # names in `CRITERIA`, in tie-break order
    # A body that announces by region writes one file with a ``region`` column (``all`` or a
    # region's name): the reckoning reads ``file`` and keeps the rows of ``all`` and ``region``.
    file: str | None = None  # data/month_starts/<file>.csv; None: the reckoning's own name
    region: str | None = None
    # Rows of earlier Hijri years are served as announced but do not choose the rule: the body
    # stated a change of practice that year (Azerbaijan, 1443; docs/hijri.md).  0: every row chooses.
    fit_from_year: int = 0


# The cities of Pakistan's zonal Ruet-e-Hilal committees (the central committee meets in one of
# them and hears the others); for India, Lucknow, where the Shia committee sits, then the cities
# of the north it hears witnesses from and the larger Shia centres.
# Candidate places of the North American reckonings, east to west (data/cities.csv ids).
NORTH_AMERICA = ("toronto", "new-york", "detroit", "chicago", "washington", "atlanta", "houston", "dallas",
                 "los-angeles")
REGIONS = {
    "pakistan": Region(
        utc_offset_days=5.0 / 24.0,
        places=("karachi", "quetta", "lahore", "peshawar", "islamabad"),
        place_sets=(("karachi",), ("quetta",), ("lahore",), ("peshawar",),
                    ("karachi", "quetta", "lahore"),
                    ("karachi", "quetta", "lahore", "peshawar", "islamabad")),
    ),
    "india": Region(
        utc_offset_days=5.5 / 24.0,
        places=("lucknow", "delhi", "mumbai", "hyderabad-in", "kolkata"),
        place_sets=(("lucknow",), ("delhi",), ("mumbai",), ("lucknow", "delhi"),
                    ("lucknow", "delhi", "mumbai", "hyderabad-in", "kolkata")),
    ),
    # Lebanon (issue 37): the office of Sayyid Muhammad Husayn Fadlallah begins the month the day
    # after the evening on which the crescent can be seen, by eye or by telescope, anywhere on
    # Earth sharing part of the night with Lebanon.  Evenings start from the conjunction's date in
    # Beirut (EET, UTC+2); the places widen westward, as the office's statements do (Beirut;
    # Arabia and East and South Africa; North and West Africa; South America; North America), each
    # place at its own best time.
    "lebanon": Region(
        utc_offset_days=2.0 / 24.0,
        places=("beirut", "mecca", "cairo", "nairobi", "johannesburg", "cape-town", "rabat", "dakar", "lagos",
                "caracas", "sao-paulo", "buenos-aires", "new-york", "houston", "los-angeles"),
        place_sets=(("beirut",),
                    ("beirut", "mecca", "cairo", "nairobi", "johannesburg", "cape-town"),
                    ("beirut", "mecca", "cairo", "nairobi", "johannesburg", "cape-town", "rabat", "dakar", "lagos"),
                    ("beirut", "mecca", "cairo", "nairobi", "johannesburg", "cape-town", "rabat", "dakar", "lagos",
                     "caracas", "sao-paulo", "buenos-aires"),
                    ("beirut", "mecca", "cairo", "nairobi", "johannesburg", "cape-town", "rabat", "dakar", "lagos",
                     "caracas", "sao-paulo", "buenos-aires", "new-york", "houston"),
                    ("beirut", "mecca", "cairo", "nairobi", "johannesburg", "cape-town", "rabat", "dakar", "lagos",
                     "caracas", "sao-paulo", "buenos-aires", "new-york", "houston", "los-angeles")),
        criteria=VISIBILITY_CRITERIA,
    ),
    # Azerbaijan (issue 37): the Caucasian Muslims' Board (Qafqaz Müsəlmanları İdarəsi, Baku) sets
    # each month by the calculation of the Shamakhi Astrophysical Observatory "for Azerbaijan's
    # horizon" (Azərbaycan üfüqündə); evenings start from the conjunction's date in Baku (UTC+4).
    # The places are the country's own: Baku, then its four corners (Ganja, Lankaran, Nakhchivan).
    "azerbaijan": Region(
        utc_offset_days=4.0 / 24.0,
        places=("baku", "ganja", "lankaran", "nakhchivan"),
        place_sets=(("baku",), ("baku", "ganja", "lankaran", "nakhchivan")),
        criteria=tuple(CRITERIA),
        # Ramadan 1443 (April 2022): the Board answered that the month began after the evening the
        # Moon set 14 minutes after the Sun over Azerbaijan (a 0.2 % crescent "seen by telescope");
        # its months before 1443 fit a crescent-visibility rule instead (docs/hijri.md's table).
        fit_from_year=1443,
    ),
    # North America (issue 37): the Moon-Sighting Committee of the Council of Shia Muslim Scholars
    # of North America announces by naked-eye sighting in North America and, following Sayyid
    # Sistani's multiplicity of horizons, sometimes by region: the south and west (where a
    # crescent is first seen: San Diego, Phoenix, Houston, Miami) a day before the east and
    # north.  Two reckonings read its one file, each its region's rows (``all`` and its own).
    # Evenings start from the conjunction's date on the region's clock (EST UTC-5, PST UTC-8);
    # the places widen from the region's own cities towards the whole continent.
    "cssna-east": Region(
        utc_offset_days=-5.0 / 24.0,
        places=NORTH_AMERICA,
        place_sets=(("toronto",), ("toronto", "new-york", "detroit"),
                    ("toronto", "new-york", "detroit", "chicago", "washington"),
                    ("toronto", "new-york", "detroit", "chicago", "washington", "atlanta", "houston"),
                    NORTH_AMERICA),
        file="cssna", region="east",
    ),
    "cssna-west": Region(
        utc_offset_days=-8.0 / 24.0,
        places=NORTH_AMERICA,
        place_sets=(("los-angeles",), ("los-angeles", "houston"),
                    ("los-angeles", "houston", "atlanta", "dallas"),
                    NORTH_AMERICA),
        file="cssna", region="west",
    ),
}
CALENDARS = tuple(REGIONS)
NATIONAL_BODY = {"pakistan": "ruet-e-hilal"}  # overridden, month by month, by the Shia's own announcement


class Row(NamedTuple):
    hy: int
    hm: int
    start: int  # unix day of day 1
    decided_by: str


def path_of(calendar: str) -> Path:
    return MONTH_STARTS_DIR / f"{REGIONS[calendar].file or calendar}.csv"


def columns_of(calendar: str) -> tuple[str, ...]:
    """Return a reckoning's file header: `COLUMNS`, then ``region`` for a body announcing by region."""
    return COLUMNS + ("region",) if REGIONS[calendar].region else COLUMNS


def candidates(calendar: str) -> list[tuple[tuple[str, ...], str]]:
    """Return the candidate rules of a region as (place set, criterion), in tie-break order."""
    region = REGIONS[calendar]
    return [(places, criterion) for places in region.place_sets for criterion in region.criteria]


def candidate_name(candidate: tuple[tuple[str, ...], str]) -> str:
    places, criterion = candidate
    return f"{criterion} at {'/'.join(str(cities.by_id()[p]['names']['en']) for p in places)}"


def coordinates(calendar: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the latitudes and longitudes (degrees, east positive) of a region's places, in `Region.places` order."""
    catalogue = cities.by_id()
    places = REGIONS[calendar].places
    return (np.array([float(catalogue[p]["lat"]) for p in places]),
            np.array([float(catalogue[p]["lng"]) for p in places]))


def rules_key() -> str:
    """Return what the candidates' starts depend on (for the month table's stamp)."""
    return repr([(c, r.utc_offset_days, r.places, [a.tolist() for a in coordinates(c)], r.place_sets, r.criteria,
                  r.fit_from_year) for c, r in REGIONS.items()] + sorted(CRITERIA.items()))


# --- the data files -----------------------------------------------------------------------


def read_rows(calendar: str, path: Path | None = None) -> list[dict[str, str]]:
    """Return the rows of a reckoning's file, checked (ValueError naming the row otherwise)."""
    path = path or path_of(calendar)
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        columns = columns_of(calendar)
        if tuple(reader.fieldnames or ()) != columns:
            raise ValueError(f"{path.name}: the header must be {','.join(columns)}")
        rows = list(reader)
    for line, r in enumerate(rows, start=2):
        where = f"{path.name} line {line}"
        if not (r["hy"].isdigit() and r["hm"].isdigit() and 1 <= int(r["hm"]) <= 12):
            raise ValueError(f"{where}: hy/hm must be a Hijri year and a month 1..12")
        days.unix_day(r["gregorian_start"])  # a real date, or ValueError
        if not AUTHORITY_ID.fullmatch(r["decided_by"]):
            raise ValueError(f"{where}: decided_by must be an id such as ruet-e-hilal")
        if r["shia_followed"] not in SHIA_FOLLOWED:
            raise ValueError(f"{where}: shia_followed must be one of {', '.join(SHIA_FOLLOWED)}")
        if not r["source"].startswith(("http://", "https://")):
            raise ValueError(f"{where}: source must be an http(s) address")
        if "region" in r and r["region"] not in regions_of(calendar):
            raise ValueError(f"{where}: region must be one of {', '.join(regions_of(calendar))}")
    return rows


def regions_of(calendar: str) -> tuple[str, ...]:
    """Return the region values a reckoning's file may hold: ``all`` and every region reading the file."""
    file = REGIONS[calendar].file or calendar
    return ("all", *(r.region for r in REGIONS.values() if (r.file or "") == file and r.region))


def announced(calendar: str, path: Path | None = None) -> dict[tuple[int, int], Row]:
    """Return {(hy, hm): Row} of the day 1 each month's Shia kept, by the file's rows.

    Rows the Shia did not follow are skipped, and so are another region's rows of a body
    announcing by region (`Region.region`); the Shia's own body overrides the national
    committee; two different days of the same standing for one month are a ValueError.
    """
    national = NATIONAL_BODY.get(calendar)
    region = REGIONS[calendar].region
    found: dict[tuple[int, int], Row] = {}
    for r in read_rows(calendar, path):
        if r["shia_followed"] == "no" or (region and r["region"] not in ("all", region)):
            continue
        row = Row(int(r["hy"]), int(r["hm"]), days.unix_day(r["gregorian_start"]), r["decided_by"])
        key = (row.hy, row.hm)
        old = found.get(key)
        if old is None or (old.decided_by == national and row.decided_by != national):
            found[key] = row
        elif (row.decided_by == national) == (old.decided_by == national) and old.start != row.start:
            raise ValueError(f"{calendar}.csv: two different starts for {key[0]}/{key[1]} "
                             f"({days.iso(old.start)}, {days.iso(row.start)})")
    return dict(sorted(found.items()))


# --- the candidates -----------------------------------------------------------------------


def candidate_starts(calendar: str, conjunction: np.ndarray, evenings_tried: int) -> np.ndarray:
    """Return (candidates, months) month starts (unix day) of every candidate after each conjunction.

    One `crescent.evening` evaluation per evening offset over months × the region's places;
    a month whose crescent no candidate sees within ``evenings_tried`` evenings starts the day
    after the last one tried (the seams of the month table then complete the month).  NaN
    conjunctions (outside the new-moon table) give -2**31.
    """
    region = REGIONS[calendar]
    conjunction = np.asarray(conjunction, dtype=float)
    known = np.isfinite(conjunction)
    conj = np.where(known, conjunction, 0.0)
    first = np.floor(conj + region.utc_offset_days).astype(np.int64)
    names = list(region.places)
    lat, lng = coordinates(calendar)
    q = np.full((len(conj), evenings_tried, len(names)), -np.inf)
    v = np.full_like(q, -np.inf)
    v_any = np.full_like(q, -np.inf)  # Odeh's V without the Danjon floor
    lag = np.full_like(q, -np.inf)  # moonset − sunset, minutes, where the conjunction precedes sunset
    for offset in range(evenings_tried):
        todo = np.flatnonzero(known)
        e = crescent.evening(lat[None, :], lng[None, :], (first[todo] + offset)[:, None], conj[todo][:, None])
        ok = e.status == crescent.OK
        q[todo, offset] = np.where(ok, e.q, -np.inf)
        v[todo, offset] = np.where(ok & (e.arcl_topo_deg >= crescent.ODEH_DANJON_ARCL_DEG), e.v, -np.inf)
        v_any[todo, offset] = np.where(ok, e.v, -np.inf)
        lag[todo, offset] = np.where(ok, e.lag_min, -np.inf)
    out = []
    for places, criterion in candidates(calendar):
        columns = [names.index(p) for p in places]
        quantity, threshold = CRITERIA[criterion]
        value = {"q": q, "v": v, "v_any": v_any, "lag": lag}[quantity][:, :, columns]
        seen = (value > threshold) if quantity in ("q", "lag") else (value >= threshold)
        seen = seen.any(axis=2)
        evening = np.where(seen.any(axis=1), seen.argmax(axis=1), evenings_tried)
        out.append(np.where(known, first + evening + 1, np.iinfo(np.int32).min))
    return np.array(out, dtype=np.int64)


def choose(hits: np.ndarray, use: np.ndarray | None = None) -> int:
    """Return the index of the candidate reproducing most months of ``use`` (first on ties).

    ``hits`` is (candidates, months) bool; with no month to choose on, the first (strictest) candidate.
    """
    if use is None:
        use = np.ones(hits.shape[1], dtype=bool)
    return int(np.argmax(hits[:, use].sum(axis=1)))


class HeldOut(NamedTuple):
    hy: np.ndarray  # (months,) the announced months scored
    hm: np.ndarray
    announced: np.ndarray  # unix day
    predicted: np.ndarray  # unix day, by the rule chosen without the month's year
    chosen: list[int]  # per month, the candidate chosen without its year

    @property
    def hits(self) -> np.ndarray:
        return self.predicted == self.announced


def leave_one_year_out(hy: np.ndarray, hm: np.ndarray, announced_start: np.ndarray, starts: np.ndarray) -> HeldOut:
    """Score each announced month with the rule chosen on the other Hijri years' months.

    ``starts`` is (candidates, months): each candidate's start of the announced months.
    """
    hits = starts == announced_start[None, :]
    chosen = np.empty(len(hy), dtype=np.int64)
    for year in np.unique(hy):
        held = hy == year
        chosen[held] = choose(hits, ~held)
    predicted = starts[chosen, np.arange(len(hy))]
    return HeldOut(hy=hy, hm=hm, announced=announced_start, predicted=predicted, chosen=chosen.tolist())
