"""Calendars: the Hijri reckonings and their calibration, the tabular and Umm al-Qura calendars, events, day status."""
