"""An announcement reaches running app processes, and an interrupted one can be finished (issue 22,
finding 5: after announce.py wrote a month start, a running app kept the old Hijri table, so
day-status said 1447/11/29 while hijri said 1447/12/1 for one date; a killed announce could be
finished neither by running it again ("already recorded") nor by `make serve`).

References: the month starts are those of data/announced_month_starts.csv as the rows say them
(1447/11 of the `moonsighting` reckoning is computed to start on 2026-04-19, Sunday; an
announcement of 2026-04-20 makes 2026-04-19 the 30th of 1447/10, since 1447/10 is announced as
2026-03-21); 1448/10 = 2027-03-10 is tests/test_sistani.py's example.  The data files and the
month table are copies in a temporary folder (test_sistani's `sandbox`).
"""
from __future__ import annotations

import csv

import pytest

import announce
import build
from generator.calendars import hijri
from generator.output import static_paths


@pytest.fixture
def sandbox(hijri_sandbox):
    """The Hijri data in a temporary folder (conftest.hijri_sandbox)."""
    return hijri_sandbox


def _hijri_days(client, day: str) -> tuple[tuple, tuple]:
    """(hijri's, day-status's) Hijri date of ``day`` in the moonsighting reckoning."""
    by_hijri = client.get(f"/v1/hijri?date={day}&calendar=moonsighting").json()["hijri"]
    by_status = client.get(f"/v1/day-status?date={day}&calendar=moonsighting").json()["hijri"]
    return (by_hijri["year"], by_hijri["month"], by_hijri["day"]), (by_status["hy"], by_status["hm"], by_status["hd"])


def test_a_running_app_follows_an_announcement_written_by_another_process(sandbox, client, monkeypatch):
    from runtime import app as runtime_app

    monkeypatch.setattr(runtime_app.hijri_watch, "every_s", 0.0)
    runtime_app.hijri_watch.changed(runtime_app._hijri_files())  # the sandbox's files are what it runs on
    runtime_app.cache.clear()
    assert _hijri_days(client, "2026-04-19") == ((1447, 11, 1), (1447, 11, 1))
    # what announce.py's process writes: the row (the app's process has the old table in memory)
    announce.write_row(announce.validate("moonsighting", 1447, 11, "2026-04-20", "https://a.example/x"))
    assert _hijri_days(client, "2026-04-19") == ((1447, 10, 30), (1447, 10, 30))
    assert _hijri_days(client, "2026-04-20") == ((1447, 11, 1), (1447, 11, 1))
    runtime_app.cache.clear()


ARGV = ["moonsighting", "1448", "10", "2027-03-10", "--source", "https://a.example/eid-1448", "--jobs", "1",
        "--today", "2026-11-22"]


def _killed_announce(out, monkeypatch) -> None:
    """Run announce.py and kill it (here: an interrupt) when its re-render starts."""
    def killed(argv):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(build, "main", killed)
        with pytest.raises(KeyboardInterrupt):
            announce.main([*ARGV, "--out", str(out)])
    with hijri.ANNOUNCED_PATH.open(encoding="utf-8", newline="") as handle:
        assert any((r["hy"], r["hm"], r["gregorian_start"]) == ("1448", "10", "2027-03-10") for r in csv.DictReader(handle))
    assert not _month_map(out)  # nothing re-rendered
    assert build.pending_builds(out)


def _month_map(out) -> list:
    return [p for p in out.rglob("*") if p.is_file() and p.suffix == ".json" and "calendar=moonsighting" in p.name
            and "hm=10&hy=1448" in p.name]


def test_a_killed_announce_is_finished_by_running_it_again(sandbox, monkeypatch, capsys):
    out = sandbox / "static"
    _killed_announce(out, monkeypatch)
    assert announce.main([*ARGV, "--out", str(out)]) == 0
    assert "finishing it" in capsys.readouterr().out
    assert b"2027-03-10" in _month_map(out)[0].read_bytes()
    assert build.pending_builds(out) == []
    assert hijri.month_source(1448, 10, "moonsighting") == "table"
    # and once finished, the same command is refused as before: the month is recorded
    assert announce.main([*ARGV, "--out", str(out)]) == 2
    assert "already recorded" in capsys.readouterr().err


def test_make_serve_finishes_an_interrupted_announce(sandbox, monkeypatch):
    """`make serve` runs build.py --tables-only, then build.py --if-missing in the background: on a
    complete static root the latter now runs the pending builds."""
    out = sandbox / "static"
    _killed_announce(out, monkeypatch)
    (out / static_paths.COMPLETE_MARKER).write_text("2026-11-22\n")
    static_paths.write_manifest(out, {})
    build.main(["--tables-only"])
    build.main(["--if-missing", "--out", str(out), "--jobs", "1"])
    assert b"2027-03-10" in _month_map(out)[0].read_bytes()
    assert build.pending_builds(out) == []
    assert "v1/hijri/calendar=moonsighting&hm=10&hy=1448.json" in static_paths.read_manifest(out)
