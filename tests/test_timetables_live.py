"""Running app processes follow `timetable.py add` within seconds (issue 29, fault 1: after a table was
refreshed, `/city/leeds/` showed dhuhr 11:55 and `/v1/prayer-times?city=leeds&method=ImamAliFoundation`
11:53 from the same process, until a restart: the pages were re-rendered files, the API answers came
from the tables loaded at start).

Two uvicorn processes on loopback, over real HTTP, each serving a copy of data/timetables
(tests/timetables_sandbox_app.py); this process runs `timetable.py add --data <copy>` with Leeds' table
whose fajr column is 5 minutes later (within the loader's 30-minute bound for a twilight time).  The
reference is the table file itself: the printed cell of the day, read here with the csv module.
"""
from __future__ import annotations

import csv
import json
import shutil
import time
import urllib.request
from pathlib import Path

import pytest

import timetable as command
from deploy import local_stack
from generator.prayer import timetables

pytestmark = pytest.mark.xdist_group("runtime_http")

DAY = "2026-11-26"
FOLLOW_S = 5.0  # each process looks at the files at most once a second


def _printed_fajr(path: Path, month_day: str) -> str:
    with path.open(encoding="utf-8", newline="") as handle:
        return next(row["fajr"] for row in csv.DictReader(handle) if row["day"] == month_day)


def _answer_fajr(base: str) -> str:
    with urllib.request.urlopen(f"{base}/v1/prayer-times?city=leeds&method=ImamAliFoundation&date={DAY}",
                                timeout=30) as answer:
        body = json.loads(answer.read())
    return body["days"][0]["local"]["fajr"]  # the zone's clock, as the table prints it (GMT in November)


def test_running_processes_follow_a_refreshed_table(tmp_path):
    sandbox = tmp_path / "timetables"
    shutil.copytree(timetables.TABLES_DIR, sandbox)
    leeds = sandbox / "ImamAliFoundation" / "leeds.csv"
    rows = list(csv.reader(leeds.read_text(encoding="utf-8").splitlines()))
    fajr = rows[0].index("fajr")
    for row in rows[1:]:
        hours, minutes = divmod(int(row[fajr][:2]) * 60 + int(row[fajr][3:]) + 5, 60)
        row[fajr] = f"{hours:02d}:{minutes:02d}"
    refreshed = tmp_path / "leeds.csv"
    with refreshed.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    month_day = DAY[5:]
    old, new = _printed_fajr(leeds, month_day), _printed_fajr(refreshed, month_day)
    assert old != new

    static = tmp_path / "static_out"
    static.mkdir()
    ports = [local_stack.free_port(), local_stack.free_port()]
    env = {"TIMETABLES_SANDBOX": str(sandbox), "PYTHONPATH": f"{Path(__file__).parent}:{local_stack.ROOT}"}
    apps = [local_stack.start_app(static, port, extra_env=env, app="timetables_sandbox_app:app") for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for base in bases:
            local_stack.wait_until_up(f"{base}/v1/methods", seconds=90)
        assert [_answer_fajr(base) for base in bases] == [old, old]
        assert command.main(["add", str(refreshed), "--authority", "ImamAliFoundation", "--place", "leeds",
                             "--source", "https://najaf.org/english/prayer/leeds", "--read-on", "2026-11-26",
                             "--data", str(sandbox)]) == 0
        written = time.monotonic()
        followed: dict[str, float] = {}
        while len(followed) < len(bases) and time.monotonic() - written < 30:
            for base in bases:
                if base not in followed and _answer_fajr(base) == new:
                    followed[base] = time.monotonic() - written
            time.sleep(0.2)
        print(f"followed after {', '.join(f'{s:.1f} s' for s in followed.values())}")
        assert len(followed) == len(bases), f"still the old table: {[_answer_fajr(b) for b in bases]}"
        assert max(followed.values()) <= FOLLOW_S
        # and the methods list names the same tables in both
        for base in bases:
            with urllib.request.urlopen(f"{base}/v1/methods", timeout=30) as answer:
                listed = {m["id"]: m.get("tables") for m in json.loads(answer.read())["methods"]}
            assert "ImamAliFoundation/leeds" in listed["ImamAliFoundation"]
    finally:
        local_stack.stop(*apps)
