"""deploy/publish.py: nginx's root holds only files whose bytes are those the build's manifest names (issue 34).

The trees here are written by hand: their manifest is computed in the test with the `xxhash` library
directly (XXH3-128 and the size, the format docs/decisions.md "Known-good files" states), and the
siblings with the standard gzip module and the brotli library, never with the code under test.
"""
from __future__ import annotations

import gzip
import json
import os

import brotli
import xxhash

from deploy import publish


def _tree(root, files: dict[str, bytes], manifest: dict[str, bytes] | None = None):
    """Write ``files`` under ``root`` with .gz/.br siblings and a manifest naming ``manifest`` (default: the files)."""
    for relative, body in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        path.with_name(path.name + ".gz").write_bytes(gzip.compress(body))
        path.with_name(path.name + ".br").write_bytes(brotli.compress(body))
    named = files if manifest is None else manifest
    (root / ".manifest.json").write_text(json.dumps(
        {"files": {relative: [xxhash.xxh3_128_hexdigest(body), len(body)] for relative, body in named.items()}}))


def test_only_files_holding_the_manifest_bytes_are_published_and_current_swaps(tmp_path):
    static, site = tmp_path / "static_out", tmp_path / "site"
    good = {"v1/methods.json": b'{"methods":[]}', "v1/qibla/lat=1&lng=2.json": b'{"qibla":1}' * 50,
            "_today/2026-11-28/index.html": b"<!doctype html>" + b"x" * 900}
    _tree(static, good)
    (static / "v1/qibla/lat=1&lng=2.json").write_bytes(b'{"qibla":1}' * 25)  # truncated after the manifest
    (static / "v1/methods.json.gz").write_bytes(gzip.compress(b'{"old":1}'))  # an old sibling
    (static / "v1/planted.json").write_bytes(b"{}")  # no build wrote it: not in the manifest
    first = publish.publish(static, site)
    current = site / publish.CURRENT
    assert os.readlink(current) == first.generation.name  # relative: the site root may move
    assert first.refused == ["v1/qibla/lat=1&lng=2.json"] and first.refused_siblings == ["v1/methods.json.gz"]
    assert (current / "v1/methods.json").read_bytes() == good["v1/methods.json"]
    assert brotli.decompress((current / "v1/methods.json.br").read_bytes()) == good["v1/methods.json"]
    assert not (current / "v1/methods.json.gz").exists() and not (current / "v1/qibla/lat=1&lng=2.json").exists()
    assert not (current / "v1/planted.json").exists()
    assert (current / "_today/2026-11-28/index.html").stat().st_mode & 0o777 == 0o444  # read-only copies
    assert publish.verify(site) == []

    # the next build repairs the file: a new generation, the unchanged files linked from the checked copies
    (static / "v1/qibla/lat=1&lng=2.json").write_bytes(good["v1/qibla/lat=1&lng=2.json"])
    second = publish.publish(static, site)
    assert os.readlink(current) == second.generation.name and second.refused == []
    assert (current / "v1/qibla/lat=1&lng=2.json").read_bytes() == good["v1/qibla/lat=1&lng=2.json"]
    assert (second.generation / "v1/methods.json").stat().st_ino == (first.generation / "v1/methods.json").stat().st_ino
    assert (static / "v1/methods.json").stat().st_ino != (second.generation / "v1/methods.json").stat().st_ino

    # a third keeps two generations (the current and the one before): the first is removed
    third = publish.publish(static, site, fresh=True)
    assert sorted(p.name for p in site.iterdir() if p.name.startswith("gen-")) == sorted(
        [second.generation.name, third.generation.name])
    assert third.linked == 0 and third.copied == 8  # afresh: 3 files and their siblings but the old .gz


def test_verify_names_a_published_copy_damaged_from_outside(tmp_path):
    static, site = tmp_path / "static_out", tmp_path / "site"
    _tree(static, {"v1/methods.json": b'{"methods":[1,2,3]}', "robots.txt": b"User-agent: *\n"})
    publish.publish(static, site)
    copy = site / publish.CURRENT / "robots.txt"
    copy.chmod(0o644)
    copy.write_bytes(b"User-agent: evil\n")
    (site / publish.CURRENT / "v1/methods.json.br").unlink()
    (site / publish.CURRENT / "v1/methods.json.br").write_bytes(brotli.compress(b"{}"))
    assert publish.verify(site) == ["robots.txt", "v1/methods.json.br"]
    # the next publication checks the copies it would link: the damaged ones are copied afresh from the build
    again = publish.publish(static, site)
    assert (site / publish.CURRENT / "robots.txt").read_bytes() == b"User-agent: *\n"
    assert brotli.decompress((site / publish.CURRENT / "v1/methods.json.br").read_bytes()) == b'{"methods":[1,2,3]}'
    assert again.linked == 0 and again.copied == 6 and publish.verify(site) == []  # both files and their siblings afresh


def test_a_manifest_naming_a_path_outside_the_tree_publishes_nothing_there(tmp_path):
    static, site = tmp_path / "static_out", tmp_path / "site"
    (tmp_path / "secret.json").write_bytes(b"{}")
    _tree(static, {"v1/methods.json": b"{}"}, {"v1/methods.json": b"{}", "../secret.json": b"{}", "v1/.hidden.json": b"{}"})
    result = publish.publish(static, site)
    assert sorted(result.refused) == ["../secret.json", "v1/.hidden.json"]
    assert sorted(p.name for p in result.generation.rglob("*") if p.is_file()) == [
        ".manifest.json", "methods.json", "methods.json.br", "methods.json.gz"]
