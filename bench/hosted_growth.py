"""The worst growth one client, and one IPv6 /64, can cause the hosted profiles' database (issue 34).

`.venv-test/bin/python -m bench.hosted_growth` (from the repository).  The app in process on a fresh SQLite store in a
temporary folder, with the limits as configured (HOSTED_CREATES_PER_HOUR, HOSTED_EDITS_PER_HOUR, HOSTED_MAX_*):
profiles of just under the 64 KiB bound are created, then edited, as fast as they go, each request from another
address of one /64 (the peer address uvicorn would give), until the per-client buckets refuse.  A bucket starts
full, so this is one hour's allowance; it refills evenly over the hour, so the first hour can bring twice as much.
Prints what was accepted and refused and how much the database's pages in use grew (docs/mosques.md "Limits").
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from starlette.testclient import TestClient

from runtime import hosted, mosque_store
from runtime.app import app

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "mosques" / "example-mosque.json"
ATTEMPTS = 200  # more than any bucket holds


def big_profile() -> bytes:
    """The example profile with sources of 1,000 characters up to just under `hosted.MAX_BODY_BYTES`."""
    profile = json.loads(FIXTURE.read_text(encoding="utf-8"))
    profile["sources"] = []
    while True:
        source = {"about": f"{len(profile['sources']):02d}" + "x" * 998, "read": "2026-11-24"}
        if len(json.dumps({**profile, "sources": profile["sources"] + [source]}).encode()) > hosted.MAX_BODY_BYTES:
            break
        profile["sources"].append(source)
    room = hosted.MAX_BODY_BYTES - len(json.dumps(profile).encode()) - 40
    if room > 0:
        profile["sources"].append({"about": "y" * min(room, 1000), "read": "2026-11-24"})
    return json.dumps(profile).encode()


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="hosted-growth-"))
    store = mosque_store.open_store("", folder / "mosques.sqlite3")
    hosted.open_store(store)
    hosted.creations = hosted.HourlyBucket(hosted.CREATE_PER_HOUR)
    hosted.edits = hosted.HourlyBucket(hosted.EDITS_PER_HOUR)
    body = big_profile()
    headers = {"Content-Type": "application/json"}
    before = store.size()["bytes"]
    created, refused = [], {"create": 0, "edit": 0}
    for k in range(1, ATTEMPTS):
        answer = TestClient(app, client=(f"2001:db8:aa:bb::{k:x}", 50000)).post("/v1/mosques", content=body,
                                                                              headers=headers)
        if answer.status_code == 201:
            created.append(answer.json())
        else:
            refused["create"] += 1
    edited = 0
    for k in range(1, 2 * ATTEMPTS):
        target = created[k % len(created)]
        version = store.get(target["id"]).version
        answer = TestClient(app, client=(f"2001:db8:aa:bb:{k:x}::1", 50000)).put(
            f"/v1/mosques/{target['id']}", content=body,
            headers={**headers, "Authorization": f"Bearer {target['edit']}", "If-Match": f'"{version}"'})
        if answer.status_code == 200:
            edited += 1
        else:
            refused["edit"] += 1
    after = store.size()
    grown = after["bytes"] - before
    print(f"profile body {len(body)} bytes; one /64: {len(created)} creations and {edited} edits accepted, "
          f"{refused['create']} and {refused['edit']} refused (429)")
    print(f"database pages in use grew {grown} bytes = {grown / 2**20:.2f} MiB ({after['versions']} versions); "
          f"an hour at most twice that: {2 * grown / 2**20:.2f} MiB "
          f"(the budgets are kept in the store: the same with any number of app processes)")
    hosted.close_store()
    store.close()


if __name__ == "__main__":
    main()
