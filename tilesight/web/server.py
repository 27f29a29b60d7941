"""Serves the overlay and referee pages over HTTP (stdlib only), and the broker lines they need.

The pages are static: they connect to the broker themselves, with MQTT over WebSockets. This
server only hands out the files of this folder (a fixed list of extensions, no directory listing)
and ``defaults.json``, which tells a page opened without URL parameters where the broker is.
A venue may serve the same folder from Mosquitto's ``http_dir`` instead (see docs/overlay.md).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

WEB_DIR = Path(__file__).resolve().parent
PAGES = ("overlay.html", "referee.html", "gouji.html")
SERVED_SUFFIXES = {".html", ".js", ".css", ".svg", ".txt", ".md"}
log = logging.getLogger("tilesight.web")


def websockets_listener(port: int, host: str | None = None) -> str:
    """mosquitto.conf lines for the WebSockets listener the pages connect to.

    Needs ``per_listener_settings false`` (or the same auth lines under this listener) so that
    the password file and ACL apply to browsers too.
    """
    bind = f" {host}" if host else ""
    return f"listener {port}{bind}\nprotocol websockets\n"


def page_url(base: str, page: str, params: Mapping[str, Any]) -> str:
    """``base/page?params`` with empty values left out (``page`` one of :data:`PAGES`)."""
    if page not in PAGES:
        raise ValueError(f"no page {page!r}; pages: {', '.join(PAGES)}")
    query = urlencode({k: str(v) for k, v in params.items() if v not in (None, "")})
    return f"{base.rstrip('/')}/{page}" + (f"?{query}" if query else "")


class _Handler(SimpleHTTPRequestHandler):
    defaults: bytes = b"{}"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(WEB_DIR), **kwargs)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path in ("/", ""):
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", "/overlay.html")
            self.end_headers()
            return
        if path == "/defaults.json":
            self._send_bytes(self.defaults, "application/json")
            return
        if not self._allowed(path):
            self.send_error(HTTPStatus.NOT_FOUND, "not a page of this server")
            return
        super().do_GET()

    def _allowed(self, path: str) -> bool:
        target = (WEB_DIR / path.lstrip("/")).resolve()
        inside = target.is_relative_to(WEB_DIR) and target.is_file()
        return inside and target.suffix in SERVED_SUFFIXES

    def _send_bytes(self, body: bytes, content_type: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)


class WebServer:
    """The pages on ``http://host:port/``; ``defaults`` (broker URL, tournament, table...) are
    what a page uses for URL parameters it was not given. Port 0 picks a free port."""

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, defaults: Mapping[str, Any] | None = None
    ) -> None:
        handler = type(
            "Handler", (_Handler,), {"defaults": json.dumps(dict(defaults or {})).encode()}
        )
        self._httpd = ThreadingHTTPServer((host, port), handler)
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        host = str(self._httpd.server_address[0])
        return f"http://{host}:{self.port}"

    def start(self) -> WebServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="web-pages", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
