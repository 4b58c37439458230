"""What apps get over real HTTP (issue 35): compression from the app itself, per-encoding validators, and
app keys with budgets of their own; uvicorn as `make serve` runs it (deploy/local_stack.py), one process.

Independent references: the stdlib's gzip and the brotli package decompress what the server sent and
it must be the identity body byte for byte; HTTP semantics from RFC 9110 (§12.5.3 Accept-Encoding
with q-values, §13.1.2 If-None-Match by weak comparison, §8.8.3 a strong validator names one byte
sequence, so each encoding has its own) and RFC 9111 §4.1 (Vary); a key file is checked against the
SHA-256 computed here with hashlib; the rate-limit fields follow draft-ietf-httpapi-ratelimit-headers.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import brotli
import pytest

from runtime import keys
from tests.test_runtime_http import get, serving

pytestmark = pytest.mark.xdist_group("serving_for_apps")
YEAR = "/v1/prayer-times?lat=34.64&lng=50.88&tz=Asia/Tehran&year=2026&method=Jafari"
ADDRESS_BUDGET = 300  # a first year of times is expected to cost up to the whole minute of a small budget


@pytest.fixture(scope="module")
def key_file(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("keys") / "app_keys.json"


@pytest.fixture(scope="module")
def issued(key_file) -> dict[str, str]:
    return {"tiny": keys.issue(key_file, "tinyapp", 2), "big": keys.issue(key_file, "bigapp", 500)}


@pytest.fixture(scope="module")
def served(tmp_path_factory, key_file, issued):
    with serving(tmp_path_factory.mktemp("static_out"), rate_limit_per_minute=ADDRESS_BUDGET,
                 APP_KEYS_PATH=key_file) as base:
        yield base


def test_year_of_times_is_compressed_br_or_gzip(served):
    """br when accepted, else gzip, else identity; each decodes to the identity body; Vary: Accept-Encoding."""
    status, plain_headers, plain = get(served, YEAR)
    assert status == 200 and "content-encoding" not in plain_headers and len(plain) > 100_000
    assert "accept-encoding" in plain_headers["vary"].lower()
    status, br_headers, br = get(served, YEAR, {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and br_headers["content-encoding"] == "br" and brotli.decompress(br) == plain
    status, gz_headers, gz = get(served, YEAR, {"Accept-Encoding": "br;q=0, gzip"})
    assert status == 200 and gz_headers["content-encoding"] == "gzip" and gzip.decompress(gz) == plain
    assert int(br_headers["content-length"]) == len(br) and int(gz_headers["content-length"]) == len(gz)
    assert len(gz) < len(plain) / 5 and len(br) < len(gz)  # measured: 169 kB, 23 kB, 14 kB
    for headers in (br_headers, gz_headers):
        assert "accept-encoding" in headers["vary"].lower()
    # one strong validator per representation (RFC 9110 §8.8.3)
    tag = plain_headers["etag"]
    assert tag.startswith('"') and br_headers["etag"] == tag[:-1] + '-br"' and gz_headers["etag"] == tag[:-1] + '-gzip"'
    status, _, _ = get(served, YEAR, {"Accept-Encoding": "identity"})
    assert status == 200


def test_small_answers_are_never_compressed(served):
    status, headers, body = get(served, "/v1/qibla?lat=51.5&lng=-0.13", {"Accept-Encoding": "br, gzip"})
    assert status == 200 and len(body) < 512 and "content-encoding" not in headers
    assert "accept-encoding" in headers["vary"].lower()


def test_if_none_match_is_answered_per_encoding(served):
    """A 304 only for the tag of the encoding this request gets (weak comparison: W/ ignored; * matches)."""
    _, headers, _ = get(served, YEAR, {"Accept-Encoding": "br"})
    br_tag = headers["etag"]
    status, headers, body = get(served, YEAR, {"Accept-Encoding": "br", "If-None-Match": br_tag})
    assert status == 304 and body == b"" and headers["etag"] == br_tag and "accept-encoding" in headers["vary"].lower()
    status, _, body = get(served, YEAR, {"Accept-Encoding": "gzip", "If-None-Match": br_tag})
    assert status == 200 and body, "a gzip answer is another representation than the br one"
    status, _, _ = get(served, YEAR, {"Accept-Encoding": "gzip", "If-None-Match": "W/" + br_tag.replace("-br", "-gzip")})
    assert status == 304
    status, _, _ = get(served, YEAR, {"If-None-Match": br_tag.replace("-br", "")})
    assert status == 304
    status, _, _ = get(served, YEAR, {"Accept-Encoding": "br", "If-None-Match": "*"})
    assert status == 304


def test_head_has_the_fields_of_get(served):
    _, got, body = get(served, YEAR, {"Accept-Encoding": "br"})
    status, head, nothing = get(served, YEAR, {"Accept-Encoding": "br"}, method="HEAD")
    assert status == 200 and nothing == b""
    assert (head["content-encoding"], head["content-length"], head["etag"]) == ("br", str(len(body)), got["etag"])


def test_the_compat_door_over_http(served):
    status, headers, body = get(served, "/compat/aladhan/v1/calendar/2026/3?latitude=32.0&longitude=44.33&method=0",
                                {"Accept-Encoding": "gzip"})
    data = json.loads(gzip.decompress(body))
    assert status == 200 and headers["content-encoding"] == "gzip" and data["code"] == 200 and len(data["data"]) == 31
    status, headers, body = get(served, "/compat/aladhan/v1/timings/01-01-2025?latitude=x&longitude=0")
    assert status == 400 and json.loads(body)["status"] == "BAD_REQUEST" and headers["cache-control"] == "no-store"


def test_a_key_has_its_own_budget(served, issued):
    """tinyapp (2 units a minute) is refused after its budget while the same address, without a key, keeps its
    own 300 and bigapp its 500: three buckets on one address."""
    def first(client_headers, n):
        return get(served, f"/v1/prayer-times?lat=1&lng={n}&date=2026-01-01", client_headers)

    tiny = {"X-API-Key": issued["tiny"]}
    statuses = []
    for n in range(4):
        status, headers, body = first(tiny, n)
        statuses.append(status)
        assert headers["ratelimit-policy"] == '"renders";q=2;w=60'
    assert statuses[:2] == [200, 200] and statuses[-1] == 429
    assert "more than 2 cost units a minute" in json.loads(body)["error"]
    status, headers, _ = first({}, 10)
    assert status == 200 and headers["ratelimit-policy"] == f'"renders";q={ADDRESS_BUDGET};w=60'
    status, headers, _ = first({"X-API-Key": issued["big"]}, 11)
    assert status == 200 and headers["ratelimit-policy"] == '"renders";q=500;w=60'
    assert headers["ratelimit"].startswith('"renders";r=49')  # 500 less the one unit of this day's render


def test_an_unknown_key_is_refused(served):
    status, headers, body = get(served, "/v1/methods", {"X-API-Key": "stk_not-a-key"})
    assert status == 401 and json.loads(body)["error"].startswith("X-API-Key:")
    assert headers["access-control-allow-origin"] == "*"  # a browser app can read why


def test_keys_are_issued_listed_and_revoked_from_the_command_line(served, key_file):
    """The CLI prints the key once; the file holds only its SHA-256; a revoked key is refused by the running
    server once it has read the file again (it looks at most once a second)."""
    run = [sys.executable, "-m", "runtime.keys", "--path", str(key_file)]
    key = subprocess.run([*run, "issue", "--name", "cli", "--budget", "7"], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert key.startswith("stk_") and len(key) > 40
    stored = key_file.read_text(encoding="utf-8")
    assert key not in stored and hashlib.sha256(key.encode()).hexdigest() in stored
    assert key_file.stat().st_mode & 0o777 == 0o600
    listing = subprocess.run([*run, "list"], capture_output=True, text=True, check=True).stdout
    assert "cli\t7\t" in listing and key not in listing
    again = subprocess.run([*run, "issue", "--name", "cli", "--budget", "7"], capture_output=True, text=True)
    assert again.returncode == 2 and "--name" in again.stderr
    deadline = time.monotonic() + 20
    while get(served, "/v1/methods", {"X-API-Key": key})[0] != 200 and time.monotonic() < deadline:
        time.sleep(0.3)
    status, headers, _ = get(served, "/v1/methods", {"X-API-Key": key})
    assert status == 200 and headers["ratelimit-policy"] == '"renders";q=7;w=60'
    subprocess.run([*run, "revoke", "--name", "cli"], check=True)
    while get(served, "/v1/methods", {"X-API-Key": key})[0] != 401 and time.monotonic() < deadline:
        time.sleep(0.3)
    assert get(served, "/v1/methods", {"X-API-Key": key})[0] == 401
