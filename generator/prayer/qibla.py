"""The qibla: initial great-circle bearing from a place to the Kaaba."""
from __future__ import annotations

import math

# The Kaaba's centre (WGS84), as used by adhan-js and most qibla tables.
KAABA_LAT_DEG = 21.4225241
KAABA_LNG_DEG = 39.8261818
_TAN_KAABA_LAT = math.tan(math.radians(KAABA_LAT_DEG))


def bearing_deg(lat_deg: float, lng_deg: float) -> float:
    """Return the qibla in degrees clockwise from true north, in [0, 360).

    The initial course of the great circle on a sphere (spherical trigonometry,
    e.g. Meeus, Astronomical Algorithms, ch. 17 applied to bearings).  At the
    Kaaba itself the bearing is undefined and 0 is returned.  One place at a time, in
    ``math`` (numpy's call overhead on scalars was a tenth of a year's prayer-times request).
    """
    phi = math.radians(lat_deg)
    d_lambda = math.radians(KAABA_LNG_DEG - lng_deg)
    x = math.cos(phi) * _TAN_KAABA_LAT - math.sin(phi) * math.cos(d_lambda)
    return math.degrees(math.atan2(math.sin(d_lambda), x)) % 360.0
