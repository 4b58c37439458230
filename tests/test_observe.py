"""runtime/observe.py: request ids, log lines with time, level and request id, and Prometheus metrics (issue 34).

References: the Prometheus text exposition format, read back with prometheus_client's own parser (the
format's reference implementation, not our code); RFC 3339 / ISO 8601 times read with
``datetime.fromisoformat``; the statuses the app answers on the wire.
"""
from __future__ import annotations

import io
import json
import logging
import re
import sys
from datetime import datetime, timedelta, timezone

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from runtime import observe

LOOPBACK = ("127.0.0.1", 50000)


@pytest.fixture(autouse=True)
def _profile_store_back():
    """An app started here (a TestClient's lifespan) closes the hosted profiles' store when it stops; the session's
    client shares that module state, so a store open before the test is opened again after it (tests of later
    modules in this worker publish profiles)."""
    from runtime import hosted

    was_open = hosted._store is not None
    yield
    if was_open and hosted._store is None:
        hosted.open_store()


def _samples(text: str) -> dict[tuple, float]:
    """(sample name, sorted labels) -> value, from the exposition text."""
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


@pytest.fixture(scope="module")
def loopback_client():
    from runtime.app import app

    with TestClient(app, client=LOOPBACK) as client:
        yield client


def test_request_id_is_echoed_when_plain_and_made_otherwise(loopback_client):
    given = loopback_client.get("/v1/methods", headers={"X-Request-ID": "nginx-0af3:7.b_c"})
    assert given.status_code == 200 and given.headers["x-request-id"] == "nginx-0af3:7.b_c"
    for bad in ("a" * 129, "two words", "é", ""):  # too long, a space, not ASCII, empty: a fresh one instead
        answer = loopback_client.get("/v1/methods", headers={"X-Request-ID": bad.encode("utf-8")})
        assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["x-request-id"]), (bad, answer.headers["x-request-id"])
    ids = {loopback_client.get("/nothing/here").headers["x-request-id"] for _ in range(3)}
    assert len(ids) == 3  # errors carry one too, a new one each time


def test_metrics_count_answers_by_route_template_status_cache_and_429(loopback_client, monkeypatch):
    from runtime import app as runtime_app
    from runtime.ratelimit import RateLimiter

    before = _samples(loopback_client.get("/metrics").text)
    for lat in ("1.25", "1.25", "2.5"):  # two renders and one cache hit
        assert loopback_client.get(f"/v1/qibla?lat={lat}&lng=3").status_code == 200
    assert loopback_client.get("/v1/qibla/lat=7.5&lng=3.json").status_code == 200  # a path URL: its template
    for path in ("/x/1", "/x/2", "/wp-login.php"):  # unknown paths: one series, whatever the URL
        assert loopback_client.get(path).status_code == 404
    monkeypatch.setattr(runtime_app, "limiter", RateLimiter(1))
    statuses = [loopback_client.get(f"/v1/qibla?lat={10 + i}&lng=3").status_code for i in range(3)]
    assert statuses.count(429) >= 1
    answer = loopback_client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    after = _samples(answer.text)

    def delta(name: str, **labels) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert delta("http_requests_total", route="/v1/qibla", method="GET", status="200") == 3 + statuses.count(200)
    assert delta("http_requests_total", route="/v1/qibla", method="GET", status="429") == statuses.count(429)
    assert delta("http_requests_total", route="/v1/{base}/{file}", method="GET", status="200") == 1
    assert delta("http_requests_total", route="(none)", method="GET", status="404") == 3
    assert delta("http_rate_limited_total", route="/v1/qibla") == statuses.count(429)
    assert delta("http_request_duration_seconds_count", route="/v1/qibla") == 3 + len(statuses)
    assert delta("response_cache_lookups_total", result="hit") >= 1
    assert delta("response_cache_lookups_total", result="miss") >= 3
    assert ("render_queue_depth", ()) in after and after[("render_queue_depth", ())] == 0  # nothing rendering now
    assert not any("wp-login" in str(key) for key in after)


def test_metrics_only_for_the_allowed_addresses(loopback_client):
    from runtime.app import app

    with TestClient(app, client=("203.0.113.9", 40000)) as outside:
        answer = outside.get("/metrics")
        assert answer.status_code == 404 and answer.json() == {"error": "no such path: /metrics"}
    assert loopback_client.get("/metrics").status_code == 200
    assert observe.Observe(None, metrics_allow="10.0.0.0/8")._may_read_metrics({"client": ("10.1.2.3", 1)})
    assert not observe.Observe(None, metrics_allow="10.0.0.0/8")._may_read_metrics({"client": ("127.0.0.1", 1)})
    with pytest.raises(ValueError):
        observe.parse_allowed("10.0.0.0/8,not-a-network")


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_log_lines_carry_time_level_and_the_request_id(log_format):
    """A line written while a request is answered names its id; `LOG_FORMAT=json` makes it a JSON object."""
    stream = io.StringIO()
    observe.setup_logging({"LOG_FORMAT": log_format, "LOG_LEVEL": "INFO"}, stream)

    async def app(scope, receive, send):
        logging.getLogger("runtime.test").warning("a profile read failed: %s", "timeout")
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    try:
        client = TestClient(observe.Observe(app, metrics_allow=""))  # no lifespan: this app has none
        answer = client.get("/v1/mosques/x", headers={"X-Request-ID": "req-42"})
        assert answer.headers["x-request-id"] == "req-42"
        # This request's line: the profile store's threads (opened by earlier tests) may log into the same stream at
        # any moment (issue 34: beside a CPU hog its "answers" line came last and failed this test).
        line = [line for line in stream.getvalue().splitlines() if "runtime.test" in line][-1]
        if log_format == "json":
            fields = json.loads(line)
        else:
            match = re.fullmatch(r"(\S+) (\w+) (\S+) \[(\S+)\] (.*)", line)
            assert match, line
            fields = dict(zip(("time", "level", "logger", "request_id", "message"), match.groups()))
        written = datetime.fromisoformat(fields["time"])
        assert written.utcoffset() == timedelta(0) and abs(datetime.now(timezone.utc) - written) < timedelta(minutes=5)
        assert (fields["level"], fields["logger"], fields["request_id"], fields["message"]) == (
            "WARNING", "runtime.test", "req-42", "a profile read failed: timeout")
    finally:
        observe.setup_logging({}, io.StringIO())


def test_bad_log_settings_stop_the_start_naming_the_variable():
    with pytest.raises(SystemExit, match="LOG_FORMAT"):
        observe.setup_logging({"LOG_FORMAT": "xml"}, io.StringIO())
    with pytest.raises(SystemExit, match="LOG_LEVEL"):
        observe.setup_logging({"LOG_LEVEL": "LOUD"}, io.StringIO())


def test_the_store_opened_is_named_at_start(capsys):
    """The start's log names the hosted profiles' store (issue 34: it was never logged)."""
    from runtime.app import app

    with TestClient(app, client=LOOPBACK):
        pass
    err = capsys.readouterr().err
    assert re.search(r"^\S+ INFO runtime\S* \[-\] hosted mosque profiles: \S", err, re.MULTILINE), err


def test_the_log_follows_the_stderr_of_the_moment(monkeypatch):
    """The handler writes to the sys.stderr of the moment: a record logged after the stream it started with was
    swapped and closed (a test runner does so per test) lands in the new one, never "I/O operation on closed file"
    (issue 34: a store thread's late line ended a run beside a CPU hog)."""
    first, second = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    observe.setup_logging({})
    logging.getLogger("runtime.test").warning("before the swap")
    first_text = first.getvalue()
    first.close()
    monkeypatch.setattr(sys, "stderr", second)
    logging.getLogger("runtime.test").warning("after the swap")
    assert "before the swap" in first_text and "after the swap" in second.getvalue()
    assert " WARNING runtime.test [-] after the swap" in second.getvalue()
