"""build.py keeps every file's .gz and .br siblings equal to the file (issue 22, finding 4: a build
killed between writing a file and its siblings left stale siblings that even a full build kept,
so nginx answered another Hijri month start to clients with compression than without).

References: RFC 1952 gzip and RFC 7932 brotli, decoded by Python's gzip module and the brotli
package (independent decoders of what build.py wrote); the file's own bytes are the reference
content.  A small real build: methods and the Hijri month maps of 2026.
"""
from __future__ import annotations

import gzip

import brotli
import pytest

import build

ARGS = ["--years", "2026-2026", "--only", "methods,hijri", "--jobs", "1", "--today", "2026-03-20"]
FILES = ("v1/methods.json", "v1/hijri/calendar=moonsighting&hm=12&hy=1447.json", "v1/hijri/calendar=iran&hm=9&hy=1447.json")


def _build(out) -> None:
    build.main([*ARGS, "--out", str(out)])


def _siblings_hold(path) -> bool:
    body = path.read_bytes()
    return (gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == body
            and brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == body)


@pytest.fixture
def built(tmp_path):
    _build(tmp_path)
    assert all(_siblings_hold(tmp_path / relative) for relative in FILES)
    return tmp_path


def test_a_build_repairs_stale_missing_and_truncated_siblings(built):
    """As a kill after the file was written and before its siblings leaves them: the file new,
    the siblings of other bytes.  The next build (the same one again) must repair them."""
    stale, missing, truncated = (built / relative for relative in FILES)
    other = b'{"an":"older answer"}'
    stale.with_name(stale.name + ".gz").write_bytes(gzip.compress(other))
    stale.with_name(stale.name + ".br").write_bytes(brotli.compress(other))
    missing.with_name(missing.name + ".br").unlink()
    gz = truncated.with_name(truncated.name + ".gz")
    gz.write_bytes(gz.read_bytes()[:-9])
    mtime_ns = stale.stat().st_mtime_ns
    _build(built)
    for path in (stale, missing, truncated):
        assert _siblings_hold(path), path
    assert stale.stat().st_mtime_ns == mtime_ns  # the file itself, unchanged, is not rewritten


def test_siblings_are_written_before_the_file(tmp_path, monkeypatch):
    """So a build killed between the writes leaves the file's old bytes, and the next build sees
    the change (the order recorded from build.py's own atomic writes)."""
    order: list[str] = []
    write = build._write_atomic

    def recording(path, data):
        order.append(path.name)
        write(path, data)

    monkeypatch.setattr(build, "_write_atomic", recording)
    build.render_one(("methods", {}, build._now_s(__import__("datetime").date(2026, 3, 20)), str(tmp_path)))
    assert order == ["methods.json.gz", "methods.json.br", "methods.json"]
