"""The app alone bounds a request's header section as nginx does (issue 22, finding 1).

Reference: nginx's ``large_client_header_buffers 4 8k`` (deploy/nginx.conf's front, and
https://nginx.org/en/docs/http/ngx_http_core_module.html#large_client_header_buffers): a header
section over 4 × 8 KiB is refused at once; RFC 6585 §5 gives the status, 431 Request Header
Fields Too Large.  uvicorn runs as `make serve` runs it (uvloop, runtime.http_protocol's
httptools protocol, proxy headers off) on a free loopback port; the clients are raw sockets.
The timings are measured here, on the wire.  Bounded: a hostile client sends at most 64 MB and
each test waits at most ~30 s.
"""
from __future__ import annotations

import http.client
import socket
import threading
import time

import pytest

from deploy import local_stack

pytestmark = pytest.mark.xdist_group("runtime_http")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    port = local_stack.free_port()
    app = local_stack.start_app(tmp_path_factory.mktemp("static_out"), port, rate_limit_per_minute=0,
                                trusted_proxies="")
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{port}/v1/methods", seconds=60)
        yield port
    finally:
        local_stack.stop(app)


def _read_answer(sock: socket.socket, deadline: float) -> bytes:
    answer = b""
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        answer += chunk
    return answer


def _huge_header(port: int, megabytes: int, result: dict) -> None:
    """Send one request whose single header value is ``megabytes`` MB; record what came back and when."""
    started = time.monotonic()
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        sock.sendall(b"GET /v1/methods HTTP/1.1\r\nHost: a\r\nX-Big: ")
        chunk = b"a" * (1 << 20)
        result["sent_mb"] = 0
        for _ in range(megabytes):
            if time.monotonic() - started > 25:
                break
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError, TimeoutError):
                break  # the server closed the connection: the refusal is already on its way
            result["sent_mb"] += 1
        result["answer"] = _read_answer(sock, time.monotonic() + 5)
    finally:
        sock.close()
        result["seconds"] = time.monotonic() - started


def _methods_latency(port: int) -> float:
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/v1/methods")
        assert connection.getresponse().status == 200
    finally:
        connection.close()
    return time.monotonic() - started


def test_a_64_mb_header_is_refused_fast_and_others_are_not_stalled(base):
    """Before the bound, a 64 MB header stalled the event loop for ~5 s (issue 22 measured 4.8 s p50 for
    /v1/methods during a 128 MB one).  Now: 431 (or the connection closed) within 2 s, and a cached
    /v1/methods asked meanwhile on another connection never takes more than 300 ms.  Issue 34: verdicts
    that do not depend on this machine's speed: the server stops reading after the bound, so the client
    can hand it no more than the two loopback socket buffers hold (a few MB, far below 64: without the
    bound all 64 MB were read), and every /v1/methods asked meanwhile is answered 200 (latencies printed)."""
    _methods_latency(base)  # cached from here on
    result: dict = {}
    hostile = threading.Thread(target=_huge_header, args=(base, 64, result))
    hostile.start()
    latencies = []
    while hostile.is_alive() and len(latencies) < 400:
        latencies.append(_methods_latency(base))
        time.sleep(0.01)
    hostile.join(40)
    latencies.append(_methods_latency(base))
    answer = result.get("answer", b"")
    print(f"huge header answered in {result['seconds']:.2f} s after {result['sent_mb']} MB: {answer[:60]!r}; "
          f"others: n={len(latencies)} max {max(latencies) * 1000:.0f} ms")
    assert answer == b"" or answer.startswith(b"HTTP/1.1 431 ")
    if answer:
        assert answer.endswith(b'{"error":"request: the header section is larger than 32 KiB"}')
    assert result["sent_mb"] < 24, result  # Linux's largest loopback buffers: tcp_wmem 4 MB + tcp_rmem 6 MB, twice
    assert len(latencies) >= 2  # each answered 200 (`_methods_latency`)


def _raw(port: int, head: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        return _read_answer(sock, time.monotonic() + 10)


def test_header_section_bounds_match_nginx(base):
    """Within 32 KiB (nginx reads it): answered; over 48 KiB: 431 JSON; over 100 fields: 431."""
    fields = b"".join(b"X-F%d: %s\r\n" % (i, b"v" * 7000) for i in range(4))  # 28 KiB, each line under 8 KiB
    answer = _raw(base, b"GET /v1/methods HTTP/1.1\r\nHost: a\r\n" + fields + b"Connection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]
    fields = b"".join(b"X-F%d: %s\r\n" % (i, b"v" * 7000) for i in range(8))  # 55 KiB
    answer = _raw(base, b"GET /v1/methods HTTP/1.1\r\nHost: a\r\n" + fields + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 431 ") and b"connection: close" in answer.lower()
    assert answer.endswith(b'{"error":"request: the header section is larger than 32 KiB"}')
    many = b"".join(b"X-F%d: 1\r\n" % i for i in range(101))
    answer = _raw(base, b"GET /v1/methods HTTP/1.1\r\nHost: a\r\n" + many + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 431 ") and answer.endswith(b'{"error":"request: more than 100 header fields"}')
    few = b"".join(b"X-F%d: 1\r\n" % i for i in range(90))
    answer = _raw(base, b"GET /v1/methods HTTP/1.1\r\nHost: a\r\n" + few + b"Connection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 ")


def test_pipelined_requests_on_one_connection_are_all_answered(base):
    """Splitting reads into pieces keeps HTTP/1.1 pipelining whole: 200 small requests sent at once
    (~8 KiB, crossing piece boundaries) are 200 answers, in order."""
    requests = b"".join(b"GET /v1/methods HTTP/1.1\r\nHost: a\r\nX-N: %d\r\n\r\n" % i for i in range(199))
    requests += b"GET /v1/methods HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
    answer = _raw(base, requests * 1)
    assert answer.count(b"HTTP/1.1 200 ") == 200
