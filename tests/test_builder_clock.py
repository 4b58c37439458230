"""The builder's time boxes (issue 36): what a secretary types on a phone is read as the time meant.

`generator/site/assets/builder_clock.js` is run in node (one process for every case) and compared with

* the times written here by hand, from how a person reads each string ("2000" at a fixed time is 20:00, "8pm" is
  20:00, "۸:۰۰" in Persian digits is 08:00): the expected column below, not computed by any code of ours;
* the server's reader of jamaat times (generator.prayer.jamaat, the grammar of ``jamaat=dhuhr:HH:MM``): every time the
  script writes is read by the server as the same minutes, and every string already in the server's grammar
  (``H:MM``, ``HH:MM``) gets the same answer from both: the same time, or refused by both.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.errors import QueryError
from generator.prayer import jamaat

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "generator" / "site" / "assets" / "builder_clock.js"

# typed -> the time meant (None: not a time; the box keeps it and the API's error names it on blur)
CASES = {
    "20:00": "20:00", "2000": "20:00", "20.00": "20:00", "20 00": "20:00", "8pm": "20:00", "8 PM": "20:00",
    "8:30 pm": "20:30", "8.30 p.m.": "20:30", "8:30am": "08:30", "12am": "00:00", "12pm": "12:00", "12:15 am": "00:15",
    "۸:۰۰": "08:00", "٨:٠٠": "08:00", "۲۰:۰۰": "20:00", "٢٠٫٠٠": "20:00", "١٣:٣٠": "13:30", "20：00": "20:00",
    "830": "08:30", "0530": "05:30", "1315": "13:15", "20": "20:00", "8": "08:00", "7:05": "07:05", " 13:30 ": "13:30",
    "24:00": None, "12:60": None, "7:5": None, "2400": None, "13pm": None, "0am": None, "123456": None, "": None,
    "pm": None, "fajr": None, "20:00:00": None, "-1:00": None, "1:3O": None,
}


def _script_reads(strings: list[str]) -> list[str | None]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node missing (make peers)")
    program = (f"const readClock = require({json.dumps(str(SCRIPT))});"
               "let input = ''; process.stdin.on('data', (c) => { input += c; });"
               "process.stdin.on('end', () => console.log(JSON.stringify(JSON.parse(input).map(readClock))));")
    result = subprocess.run([node, "-e", program], input=json.dumps(strings), capture_output=True, text=True,
                            check=True, timeout=60)
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def read():
    strings = list(CASES)
    return dict(zip(strings, _script_reads(strings)))


def _server_minutes(text: str) -> int | None:
    """The server's reading of ``jamaat=dhuhr:<text>`` in a place with a zone: minutes after midnight, or None."""
    try:
        rules = jamaat.from_params({"jamaat": f"dhuhr:{text}"}, has_zone=True)
    except QueryError:
        return None
    return rules.by_prayer["dhuhr"].at_local_min


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


@pytest.mark.parametrize("typed", list(CASES))
def test_a_typed_time_is_read_as_meant(read, typed):
    """The script's reading equals the time written by hand beside each string."""
    assert read[typed] == CASES[typed]


def test_the_server_reads_every_time_the_script_writes_as_the_same_minutes(read):
    """Each HH:MM the script writes goes to the API as it is: the server's jamaat reader takes it, same minutes."""
    written = {typed: hhmm for typed, hhmm in read.items() if hhmm is not None}
    assert len(written) >= 20
    for typed, hhmm in written.items():
        assert _server_minutes(hhmm) == _minutes(CASES[typed]), typed


def test_the_script_and_the_server_agree_on_the_servers_own_grammar(read):
    """Strings in the server's grammar (H:MM, HH:MM): read the same by both, or refused by both."""
    own = [typed for typed in CASES if typed.strip() and all(c in "0123456789:" for c in typed.strip())
           and ":" in typed]
    assert {"20:00", "7:05", "24:00", "12:60", "7:5", "20:00:00"} <= set(own)
    for typed in own:
        server = _server_minutes(typed.strip())
        script = read[typed]
        assert (server is None) == (script is None), typed
        if server is not None:
            assert server == _minutes(script), typed
