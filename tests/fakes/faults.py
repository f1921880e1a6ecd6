"""A loopback fault server: an upstream that fails in one chosen way, at the TCP level.

Modes (what a client meets on the wire):

- ``refused``  - nothing listens on the port: connection refused;
- ``hang``     - accepts and reads the request, never answers;
- ``drip``     - answers 200 with headers at once, then one body byte every
  ``drip_interval_s`` (a per-read timeout never fires, the body never ends);
- ``5xx``      - ``503 Service Unavailable`` with a plain-text body;
- ``html``     - ``200`` with an HTML page (an anti-bot or maintenance page);
- ``garbage``  - ``200`` with the expected ``content_type`` but random bytes as the body;
- ``non_http`` - bytes that are not HTTP at all, then the connection is closed.

``connections`` counts accepted connections, so a test can tell that an open circuit
breaker kept a client away. Any service's client can be pointed at ``url``.
"""

from __future__ import annotations

import os
import socket
import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

from tests.fakes.net import free_port

FaultMode = Literal["refused", "hang", "drip", "5xx", "html", "garbage", "non_http"]
FAULT_MODES: tuple[FaultMode, ...] = (
    "refused",
    "hang",
    "drip",
    "5xx",
    "html",
    "garbage",
    "non_http",
)
HTML_PAGE = (
    b"<!DOCTYPE html><html><head><title>Service temporarily unavailable</title></head>"
    b"<body><h1>Please wait while we check your browser</h1></body></html>"
)


class FaultServer:
    """One fault mode on 127.0.0.1 (free port), served from a background thread."""

    def __init__(
        self,
        mode: FaultMode,
        *,
        content_type: str = "text/xml; charset=utf-8",
        drip_interval_s: float = 0.2,
        path: str = "/",
    ) -> None:
        self.mode = mode
        self.content_type = content_type
        self.drip_interval_s = drip_interval_s
        self.path = path
        self.connections = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server: socketserver.ThreadingTCPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = free_port()  # refused: a port nobody listens on

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    def start(self) -> None:
        if self.mode == "refused":
            return
        fault = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                with fault._lock:
                    fault.connections += 1
                fault._serve(self.request)

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        self._server = server
        self.port = int(server.server_address[1])
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()  # releases hanging and dripping handlers
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # --- the faults ----------------------------------------------------------------------
    def _serve(self, sock: socket.socket) -> None:
        sock.settimeout(5)
        try:
            _read_request(sock)
            if self.mode == "hang":
                self._stop.wait()
            elif self.mode == "drip":
                head = (
                    "HTTP/1.1 200 OK\r\n"
                    f"Content-Type: {self.content_type}\r\n"
                    "Content-Length: 1000000\r\nConnection: close\r\n\r\n"
                )
                sock.sendall(head.encode())
                while not self._stop.wait(self.drip_interval_s):
                    sock.sendall(b"<")
            elif self.mode == "5xx":
                _respond(sock, "503 Service Unavailable", "text/plain", b"upstream overloaded")
            elif self.mode == "html":
                _respond(sock, "200 OK", "text/html; charset=utf-8", HTML_PAGE)
            elif self.mode == "garbage":
                _respond(sock, "200 OK", self.content_type, os.urandom(512))
            elif self.mode == "non_http":
                sock.sendall(b"\x00\xff\xfeSSH-2.0-OpenSSH_9.6\r\n\x16\x03\x01garbage\r\n")
        except OSError:
            pass  # the client gave up (its deadline): nothing to do


def _read_request(sock: socket.socket) -> None:
    """Read the request head and a Content-Length body, so the client is not reset."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip() or 0)
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return
        body += chunk


def _respond(sock: socket.socket, status: str, content_type: str, body: bytes) -> None:
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    sock.sendall(head.encode() + body)


@contextmanager
def fault_server(mode: FaultMode, **kwargs: object) -> Iterator[FaultServer]:
    """A running :class:`FaultServer` for the ``with`` block."""
    server = FaultServer(mode, **kwargs)  # type: ignore[arg-type]
    server.start()
    try:
        yield server
    finally:
        server.stop()
