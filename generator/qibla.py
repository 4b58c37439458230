"""The qibla: initial great-circle bearing from a place to the Kaaba."""
from __future__ import annotations

import numpy as np

# The Kaaba's centre (WGS84), as used by adhan-js and most qibla tables.
KAABA_LAT_DEG = 21.4225241
KAABA_LNG_DEG = 39.8261818


def bearing_deg(lat_deg: float | np.ndarray, lng_deg: float | np.ndarray) -> float | np.ndarray:
    """Return the qibla in degrees clockwise from true north, in [0, 360).

    The initial course of the great circle on a sphere (spherical trigonometry,
    e.g. Meeus, Astronomical Algorithms, ch. 17 applied to bearings).  At the
    Kaaba itself the bearing is undefined and 0 is returned.
    """
    phi = np.radians(lat_deg)
    phi_k = np.radians(KAABA_LAT_DEG)
    d_lambda = np.radians(KAABA_LNG_DEG - np.asarray(lng_deg, dtype=float))
    y = np.sin(d_lambda)
    x = np.cos(phi) * np.tan(phi_k) - np.sin(phi) * np.cos(d_lambda)
    return np.degrees(np.arctan2(y, x)) % 360.0
