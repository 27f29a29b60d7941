"""The camera: a live MJPEG stream over HTTP (multipart/x-mixed-replace, what an IP camera
serves) whose table plays on only while a client reads it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class CameraStream:
    """An overhead IP camera serving the table over HTTP as MJPEG, ``fps`` frames a second.

    The table plays on only while a camera client reads it: the position (``cursor``, a frame
    of the hand's timeline) advances with each frame sent; the last state repeats (the camera
    keeps watching). Records when each state's first frame was written to a client.
    """

    def __init__(self, fps: float) -> None:
        self.fps = fps
        self._cond = threading.Condition()
        self.timeline: list[int] = []  # the state each frame shows
        self.jpegs: list[bytes] = []
        self.cursor = 0
        self.first_sent: dict[int, float] = {}
        self.connections: list[float] = []  # when each client connected
        self.client: int | None = None  # the serving connection's number
        self.max_lag = 0.0  # how far the stream fell behind its frame clock (a slow reader)
        self.frames_sent = 0
        stream = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                stream.serve(self.wfile.write)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/camera.mjpg"

    def load(self, jpegs: list[bytes], durations: list[int], *, detach: bool = True) -> None:
        """A new timeline; ``detach``: a client still attached (a process stopping) reads no
        more, else it reads on into the new timeline (the next hand at the same table)."""
        with self._cond:
            if detach:
                self.client = None
            self.jpegs = jpegs
            self.timeline = [s for s, n in enumerate(durations) for _ in range(n)]
            self.cursor = 0
            self.first_sent = {}

    def serve(self, write: Callable[[bytes], Any]) -> None:
        with self._cond:
            self.connections.append(time.monotonic())
            me = len(self.connections)
            self.client = me
        start, sent = time.monotonic(), 0
        try:
            while True:
                due = start + sent / self.fps
                time.sleep(max(0.0, due - time.monotonic()))
                with self._cond:
                    if self.client != me:
                        return
                    state = self.timeline[self.cursor]
                    now = time.monotonic()
                    self.first_sent.setdefault(state, now)
                    self.max_lag = max(self.max_lag, now - due)
                    self.cursor = min(self.cursor + 1, len(self.timeline) - 1)
                    self.frames_sent += 1
                    data = self.jpegs[state]
                    self._cond.notify_all()
                head = f"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {len(data)}"
                write(head.encode() + b"\r\n\r\n" + data + b"\r\n")
                sent += 1
        except OSError:  # the process went away
            return
        finally:
            with self._cond:
                if self.client == me:
                    self.client = None
                self._cond.notify_all()

    def wait(self, predicate: Callable[[], bool], timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    def at_end(self) -> bool:
        return self.cursor >= len(self.timeline) - 1

    def skip_to_next_state(self) -> int:
        """While no one watches, the table moves on to its next state; returns that state."""
        with self._cond:
            state = self.timeline[self.cursor]
            while self.cursor < len(self.timeline) - 1 and self.timeline[self.cursor] == state:
                self.cursor += 1
            return self.timeline[self.cursor]
