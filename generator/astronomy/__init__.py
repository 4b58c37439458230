"""Astronomy: the ephemeris and the Sun's table, the Moon, Besselian elements, crescent criteria, eclipses, coastlines."""
