"""deploy/backup.py: a backup of the hosted profiles' store, SQLite and PostgreSQL, restores into a fresh store
with every profile, version, listing and edit secret (issue 34: backups on a schedule, with a restore test).

References: the profiles written here (bodies, an edit with its secret, a listing) read back from the
restored store; the whole export (`Store.export_rows`) of the source and of the restored store compared;
the edit secret, which only the test knows, still opens the restored profile.  The PostgreSQL cluster is
tests/pg_cluster.py's throw-away one (skipped, with the reason, where no server binaries are installed).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pg_cluster
from runtime import mosque_store

ROOT = Path(__file__).resolve().parent.parent


def _fill(store) -> dict[str, tuple[str, str]]:
    """Three profiles, one edited once and one listed: id -> (secret, the current body)."""
    written = {}
    for n, name in enumerate(("Masjid al-Huda", "مسجد الإمام علي", "Husayniyya Karbala")):
        body = json.dumps({"name": name, "city": ["london", "najaf", "karbala"][n]}, ensure_ascii=False)
        mosque_id, secret, _ = store.create(body)
        written[mosque_id] = (secret, body)
    first = sorted(written)[0]
    edited = json.dumps({"name": "Masjid al-Huda", "city": "leeds"})
    store.save(first, written[first][0], 1, edited)
    written[first] = (written[first][0], edited)
    store.set_listed(sorted(written)[1], True)
    return written


def _run(env: dict, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "deploy/backup.py", *arguments], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env})


def _check_restored(source, restored, written) -> None:
    assert list(restored.export_rows()) == list(source.export_rows())
    for mosque_id, (secret, body) in written.items():
        assert restored.get(mosque_id).body == body
    first = sorted(written)[0]
    assert [v["version"] for v in restored.versions(first, written[first][0])] == [1, 2]  # the secret still opens it
    assert [record.id for record in restored.listed()] == [sorted(written)[1]]


def test_a_sqlite_store_is_backed_up_and_restored_whole(tmp_path):
    source_path = tmp_path / "live" / "mosques.sqlite3"
    source = mosque_store.open_store("", source_path)
    written = _fill(source)
    env = {"MOSQUE_DB_URL": "", "MOSQUE_DB_PATH": str(source_path)}
    made = _run(env, "backup", str(tmp_path / "backups"), "--keep", "2")
    assert made.returncode == 0, made.stderr
    backup = Path(made.stdout.strip())
    assert backup.parent == tmp_path / "backups" and backup.suffix == ".sqlite3"
    assert backup.stat().st_mode & 0o777 == 0o600  # it holds the secrets' salted hashes
    fresh = tmp_path / "restored" / "mosques.sqlite3"
    restored = _run({"MOSQUE_DB_URL": "", "MOSQUE_DB_PATH": str(fresh)}, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    _check_restored(source, mosque_store.open_store("", fresh), written)
    again = _run({"MOSQUE_DB_URL": "", "MOSQUE_DB_PATH": str(fresh)}, "restore", str(backup))
    assert again.returncode != 0 and "MOSQUE_DB_PATH" in again.stderr and "exists" in again.stderr  # never over a store


def test_only_the_newest_backups_are_kept(tmp_path, monkeypatch):
    from deploy import backup

    source_path = tmp_path / "mosques.sqlite3"
    _fill(mosque_store.open_store("", source_path))
    monkeypatch.setenv("MOSQUE_DB_URL", "")
    monkeypatch.setenv("MOSQUE_DB_PATH", str(source_path))
    made = [backup.backup(tmp_path / "backups", keep=3, now_s=1_790_000_000 + 86400 * day) for day in range(5)]
    assert sorted((tmp_path / "backups").iterdir()) == made[2:]


def test_a_postgresql_store_is_backed_up_and_restored_whole(tmp_path):
    if pg_cluster.binaries() is None:
        pytest.skip(pg_cluster.SKIP_REASON)
    with pg_cluster.Cluster() as cluster:
        source_url, fresh_url = cluster.create("live"), cluster.create("restored")
        source = mosque_store.open_store(source_url)
        written = _fill(source)
        made = _run({"MOSQUE_DB_URL": source_url}, "backup", str(tmp_path / "backups"))
        assert made.returncode == 0, made.stderr
        backup = Path(made.stdout.strip())
        assert backup.suffix == ".pgdump" and backup.stat().st_mode & 0o777 == 0o600
        restored = _run({"MOSQUE_DB_URL": fresh_url}, "restore", str(backup))
        assert restored.returncode == 0, restored.stderr
        assert "postgresql://" not in restored.stderr  # the URL (it may hold a password) is never printed
        restored_store = mosque_store.open_store(fresh_url)
        _check_restored(source, restored_store, written)
        again = _run({"MOSQUE_DB_URL": source_url}, "restore", str(backup))  # a database with tables: refused
        assert again.returncode != 0 and "createdb" in again.stderr
        for store in (source, restored_store):
            store.close()
