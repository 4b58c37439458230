"""What the tests of each regional reckoning (test_lebanon, test_azerbaijan, test_cssna) check alike, counted here
independently of bench/hijri.py and generator/calendars/hijri_calibration.py:

* `held_out_recount`: leave one Hijri year out over a reckoning's announced rows (choose the candidate with most
  hits on the other years' rows, first on ties; score that year's rows), and the candidate chosen on every row.
* `assert_rows_served`: every announced row is day 1 of its month on /v1/hijri, from the table, naming the body;
  the day before is the 29th or 30th of the month before; the month map starts there.
* `read_rows` reads a month-starts file, checking its columns; `day` is a date's day number since 1970.
* `announce_and_read`: `announce.py` writes a row to a sandboxed month-starts file, which the table then serves."""
from __future__ import annotations

import csv
from datetime import date, timedelta
from pathlib import Path

import numpy as np

import announce
from generator.calendars import hijri, hijri_regions


def day(iso: str) -> int:
    return (date.fromisoformat(iso) - date(1970, 1, 1)).days


def read_rows(stem: str, columns: list[str]) -> list[dict]:
    """The rows of data/month_starts/<stem>.csv, whose header must be ``columns``."""
    with (hijri_regions.MONTH_STARTS_DIR / f"{stem}.csv").open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == columns
        return list(reader)


def held_out_recount(calendar: str, rows: list[dict]) -> tuple[int, int]:
    """(held-out hits, index of the candidate with most hits on every row) over ``rows`` of ``calendar``."""
    hy = np.array([int(r["hy"]) for r in rows])
    hm = np.array([int(r["hm"]) for r in rows])
    announced = np.array([day(r["gregorian_start"]) for r in rows])
    starts = hijri.candidate_starts(hy, hm, calendar)
    hits = starts == announced[None, :]
    held = 0
    for year in sorted(set(hy.tolist())):
        train, test = hy != year, hy == year
        best = max(range(len(starts)), key=lambda i: (hits[i, train].sum(), -i))
        held += int(hits[best, test].sum())
    return held, int(np.argmax(hits.sum(axis=1)))


def assert_computed_months_follow(calendar: str, best: int, first_year: int, last_year: int) -> None:
    """The computed months of ``first_year``..``last_year`` are the chosen candidate's."""
    months_hy, months_hm = np.array([(y, m) for y in range(first_year, last_year + 1) for m in range(1, 13)]).T
    np.testing.assert_array_equal(hijri.computed_start(months_hy, months_hm, calendar),
                                  hijri.candidate_starts(months_hy, months_hm, calendar)[best])


def announce_and_read(sandbox: Path, calendar: str, body: str, hy: int, hm: int, iso: str, source: str,
                      quote: str) -> None:
    """Publish a row with ``announce.py`` (its body by default), then read it back from the file and the table."""
    assert announce.main([calendar, str(hy), str(hm), iso, "--source", source, "--quote", quote,
                          "--today", "2026-11-28", "--out", str(sandbox / "out")]) == 0
    with (sandbox / f"{calendar}.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {"hy": str(hy), "hm": str(hm), "gregorian_start": iso, "decided_by": body, "shia_followed": "yes",
            "source": source, "quote": quote, "reported": "", "read": "2026-11-28"} in rows
    hijri.reload()
    assert hijri.month_start(hy, hm, calendar) == day(iso)
    assert hijri.month_authority(hy, hm, calendar) == body


def assert_rows_served(client, calendar: str, body_id: str, rows: list[dict]) -> None:
    """Every announced row of ``rows`` as /v1/hijri serves it under ``calendar`` (see the module's docstring)."""
    for row in rows:
        hy, hm = int(row["hy"]), int(row["hm"])
        body = client.get("/v1/hijri", params={"calendar": calendar, "date": row["gregorian_start"]}).json()
        assert body["hijri"] == {"year": hy, "month": hm, "day": 1}, row
        assert body["calendarUsed"] == calendar and body["source"] == "table" and body["authority"] == body_id, row
        eve = (date.fromisoformat(row["gregorian_start"]) - timedelta(days=1)).isoformat()
        before = client.get("/v1/hijri", params={"calendar": calendar, "date": eve}).json()["hijri"]
        assert before["day"] in (29, 30) and before["month"] == (hm - 2) % 12 + 1, row
        month = client.get("/v1/hijri", params={"calendar": calendar, "hy": hy, "hm": hm}).json()
        assert month["start"] == row["gregorian_start"] and month["authority"] == body_id, row
