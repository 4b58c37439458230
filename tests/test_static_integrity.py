"""The app serves a pre-rendered file only when its bytes are the ones the build wrote, and follows a
rebuilt file (issue 22, finding 3: a truncated file was served with 200, a strong ETag and a week's
max-age, and after a rebuild repaired it the app kept serving the broken bytes from memory).

The reference for a good answer is `Endpoint.render` (what build.py writes); the reference for
"what the build wrote" is build.py's own manifest of a small real build (methods and Hijri months
of 2026).  In process: the app's test client on that build (its manifest looked at on every
request here, instead of once a second).
"""
from __future__ import annotations

import time

import pytest

import build
from generator.output import static_paths
from generator.api import BY_NAME

RELATIVE = "v1/methods.json"


@pytest.fixture
def built(tmp_path):
    build.main(["--years", "2026-2026", "--only", "methods,hijri", "--jobs", "1", "--out", str(tmp_path),
                "--today", "2026-03-20"])
    return tmp_path


@pytest.fixture
def app_on(client, built, monkeypatch):
    from runtime import app as runtime_app

    monkeypatch.setattr(runtime_app, "static_root", built)
    monkeypatch.setattr(runtime_app.manifest.watch, "every_s", 0.0)
    runtime_app.cache.clear()
    yield client
    runtime_app.cache.clear()


def _rebuilt(root, relative: str, body: bytes) -> None:
    """Write ``body`` as a build would: the file, then its manifest entry."""
    (root / relative).write_bytes(body)
    entries = static_paths.read_manifest(root)
    entries[relative] = (static_paths.content_hash(body), len(body))
    static_paths.write_manifest(root, entries)


def test_the_manifest_names_every_file_the_build_wrote(built):
    manifest = static_paths.read_manifest(built)
    # methods + the 37 Hijri month and year maps of 2026's Hijri years under each reckoning (eight since issue 37:
    # Lebanon's, Azerbaijan's, North America's east and west), and the site's 429 page in each of the four languages
    # (nginx answers with them: issue 34)
    from generator.calendars import hijri

    assert len(hijri.CALENDARS) == 8 and len(manifest) == 1 + 37 * len(hijri.CALENDARS) + 4
    assert {relative for relative in manifest if relative.startswith("_errors/")} == {
        f"_errors/429-{lang}.html" for lang in ("en", "ar", "fa", "ur")}
    for relative, (digest, size) in manifest.items():
        body = (built / relative).read_bytes()
        assert (static_paths.content_hash(body), len(body)) == (digest, size), relative


@pytest.mark.parametrize("damage", ["truncated", "garbled", "unknown to the manifest"])
def test_a_damaged_file_is_rendered_instead_of_served(built, app_on, damage):
    rendered = BY_NAME["methods"].render({})
    path = built / RELATIVE
    assert path.read_bytes() == rendered
    if damage == "truncated":
        path.write_bytes(rendered[: len(rendered) // 2])
    elif damage == "garbled":
        path.write_bytes(rendered.replace(b"Jafari", b"Jafarj"))  # the same size, other bytes
    else:
        entries = static_paths.read_manifest(built)
        del entries[RELATIVE]
        static_paths.write_manifest(built, entries)
    response = app_on.get("/v1/methods", headers={"Accept-Encoding": "identity"})  # its ETag: the body's hash
    assert response.status_code == 200 and response.content == rendered
    assert response.headers["etag"] == f'"{static_paths.content_hash(rendered)}"'


def test_a_good_file_is_served_and_a_rebuilt_one_followed(built, app_on):
    """A file the manifest vouches for is what the app answers (a marker only the file holds proves
    it), and after a rebuild writes new bytes and their manifest entry the app answers the new
    ones, though the old ones were in its memory."""
    first = b'{"methods":[],"marker":1}'
    _rebuilt(built, RELATIVE, first)
    assert app_on.get("/v1/methods").content == first
    assert app_on.get("/v1/methods").content == first  # now from memory
    second = b'{"methods":[],"marker":2}'
    time.sleep(0.01)  # a later mtime, as a real rebuild has
    _rebuilt(built, RELATIVE, second)
    response = app_on.get("/v1/methods", headers={"Accept-Encoding": "identity"})
    assert response.content == second and response.headers["etag"] == f'"{static_paths.content_hash(second)}"'


def test_a_file_damaged_after_it_was_cached_is_not_reread_until_a_build(built, app_on):
    """Memory keeps the bytes the manifest vouched for; a file damaged later is never served."""
    good = app_on.get("/v1/methods").content
    (built / RELATIVE).write_bytes(good[:100])
    assert app_on.get("/v1/methods").content == good
    from runtime import app as runtime_app

    runtime_app.cache.clear()
    assert app_on.get("/v1/methods").content == good  # rendered: the same bytes the build wrote
