"""uvicorn's httptools protocol with nginx's bounds on a request's header section.

uvicorn bounds the header section only for its h11 protocol (``--h11-max-incomplete-event-size``);
with httptools (what `make serve` runs: it parses about twice as fast) nothing does, and httptools
joins the pieces of a long header value with ``bytes +=``, a copy of everything so far per read.
A 128 MB header then took 25 s of the event loop's time and stalled every other client (issue 22).
An ASGI middleware cannot help: the app sees a request only after its headers are read.

This subclass (`make serve`, deploy/README.md and the tests run it with
``--http runtime.http_protocol:BoundedHttpToolsProtocol``) feeds the parser at most
`PIECE_BYTES` at a time and counts the bytes of every piece that is wholly inside a header
section (request line included).  Once that count passes `MAX_HEAD_BYTES`, or a request has more
than `MAX_HEADERS` header fields, it answers ``431`` with a JSON error naming ``request`` and
closes the connection, as nginx's ``large_client_header_buffers 4 8k`` refuses a header section
over 32 KiB (deploy/nginx.conf).  The count never includes a byte outside the header section, so a
section of at most 32 KiB is always read; the piece where a request begins and the piece where
the count passes the bound are not counted whole, so no more than 32 + 2 × 8 KiB of one header
section is ever read.  Nothing else of uvicorn's behaviour changes.
"""
from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES = 32 * 1024  # nginx: large_client_header_buffers 4 8k
MAX_HEADERS = 100  # header fields of one request (Apache's LimitRequestFields default)
PIECE_BYTES = 8 * 1024  # fed to the parser at once: the slack of the byte count


class _HeadTooLarge(Exception):
    """Raised inside a parser callback: httptools stops and reports a parse error."""


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """`HttpToolsProtocol` refusing a header section over `MAX_HEAD_BYTES` or `MAX_HEADERS` fields (431)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._head_bytes: int | None = None  # bytes of the current header section counted; None outside one
        self._header_count = 0
        self._refusal: str | None = None  # why the request is refused with 431

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes, self._header_count = 0, 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > MAX_HEADERS:
            self._refusal = f"request: more than {MAX_HEADERS} header fields"
            raise _HeadTooLarge(self._refusal)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._head_bytes = None
        super().on_headers_complete()

    def data_received(self, data: bytes) -> None:
        for start in range(0, len(data), PIECE_BYTES):
            if self.transport.is_closing():  # an error answer was sent, or the client went away
                return
            piece = data[start:start + PIECE_BYTES] if len(data) > PIECE_BYTES else data
            inside_head = self._head_bytes is not None
            super().data_received(piece)
            if inside_head and self._head_bytes is not None:  # the whole piece was header bytes
                self._head_bytes += len(piece)
                if self._head_bytes > MAX_HEAD_BYTES:
                    self._refusal = f"request: the header section is larger than {MAX_HEAD_BYTES // 1024} KiB"
                    self.send_400_response(self._refusal)
                    return

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a parse error; 431 with a JSON body when the header section is too large."""
        if self._refusal is None:
            return super().send_400_response(msg)
        body = b'{"error":"' + self._refusal.encode("ascii") + b'"}'
        self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                             b"content-type: application/json; charset=utf-8\r\n"
                             b"content-length: " + str(len(body)).encode("ascii") + b"\r\n"
                             b"cache-control: no-store\r\n"
                             b"access-control-allow-origin: *\r\n"
                             b"connection: close\r\n\r\n" + body)
        self.transport.close()
