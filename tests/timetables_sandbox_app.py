"""runtime.app serving the printed timetables of the folder TIMETABLES_SANDBOX (a copy of data/timetables),
for tests that change a table with `timetable.py add --data` while app processes run."""
import os
from pathlib import Path

from generator.prayer import timetables

timetables.TABLES_DIR = Path(os.environ["TIMETABLES_SANDBOX"])
timetables.reload()

from runtime.app import app  # noqa: E402  (after the tables' folder is set)

__all__ = ["app"]
