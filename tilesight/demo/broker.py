"""A private Mosquitto on a free port, with a generated configuration.

Used by ``tilesight demo`` when no broker is given (``choose_broker`` falls back to the
embedded broker in ``tilesight.demo.minibroker`` when Mosquitto is missing), and by the tests, which
must never touch a broker on 1883. The broker can be killed (SIGKILL, as a crash would) and
restarted on the same port, which is how the delivery guarantees are tested.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tilesight.config import redact_url

log = logging.getLogger("tilesight.broker")

MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto")


class BrokerError(RuntimeError):
    """The broker could not be found or started."""


def find_mosquitto() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    return next((p for p in MOSQUITTO_PATHS if Path(p).is_file()), None)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.02)
    return False


def _load_prctl() -> Any:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _load_prctl()  # resolved in the parent: the child only makes one plain call


def _die_with_parent() -> None:
    """In the child before exec: a private broker must not outlive a killed demo (Linux)."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class MosquittoBroker:
    """One Mosquitto process; ``extra_config`` lines are appended to the generated file.

    ``password_file`` and ``acl_file`` switch anonymous access off. ``ws_port`` adds a
    WebSockets listener (for the browser overlay).
    """

    def __init__(
        self,
        *,
        port: int | None = None,
        ws_port: int | None = None,
        password_file: Path | None = None,
        acl_file: Path | None = None,
        extra_config: str = "",
        workdir: Path | None = None,
    ) -> None:
        exe = find_mosquitto()
        if exe is None:
            raise BrokerError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.executable = exe
        self.port = port or free_port()
        self.ws_port = ws_port
        self._owned_dir = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="tilesight-broker-"))
        self.config_path = self.workdir / "mosquitto.conf"
        self.log_path = self.workdir / "mosquitto.log"
        self.config_path.write_text(
            self._config(password_file, acl_file, extra_config), encoding="utf-8"
        )
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def _config(self, password_file: Path | None, acl_file: Path | None, extra: str) -> str:
        lines = ["user root"] if os.geteuid() == 0 else []  # else it drops to 'mosquitto'
        lines += [
            "per_listener_settings false",
            f"listener {self.port} 127.0.0.1",
            "protocol mqtt",
        ]
        if self.ws_port:
            lines += [f"listener {self.ws_port} 127.0.0.1", "protocol websockets"]
        if password_file:
            lines += ["allow_anonymous false", f"password_file {password_file}"]
        else:
            lines.append("allow_anonymous true")
        if acl_file:
            lines.append(f"acl_file {acl_file}")
        lines += [
            "set_tcp_nodelay true",  # small messages leave at once (latency to overlays)
            "persistence false",
            "max_queued_messages 100000",
            "max_inflight_messages 0",
            "log_type error",
            "log_type warning",
            "log_type notice",
            f"log_dest file {self.log_path}",
        ]
        return "\n".join(lines) + "\n" + extra + "\n"

    def start(self, timeout: float = 10.0) -> MosquittoBroker:
        if self.running:
            return self
        self._proc = subprocess.Popen(
            [self.executable, "-c", str(self.config_path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 - one prctl call, no locks taken
        )
        if not wait_for_port("127.0.0.1", self.port, timeout):
            self.stop()
            raise BrokerError(f"mosquitto did not listen on port {self.port}: {self.log_tail()}")
        return self

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def kill(self) -> None:
        """SIGKILL, as a crash or a pulled plug would: no clean disconnects, nothing saved."""
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.send_signal(signal.SIGKILL)
            self._proc.wait()
            if self._proc.stderr:
                self._proc.stderr.close()
            self._proc = None

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        self.kill()

    def restart(self, timeout: float = 10.0) -> None:
        """Start again on the same port (waiting out a socket still in TIME_WAIT)."""
        self.kill()
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.start(timeout=2.0)
                return
            except BrokerError:
                if time.monotonic() > deadline:
                    raise

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def close(self) -> None:
        self.stop()
        if self._owned_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> MosquittoBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


# Which broker the demo uses ------------------------------------------------------------------

BROKER_CHOICES = ("auto", "mosquitto", "embedded")


class ChosenBroker:
    """The broker the demo publishes to; ``close`` stops it when this process started it."""

    def __init__(self, kind: str, url: str, running: Any = None) -> None:
        self.kind = kind  # "configured", "mosquitto" or "embedded"
        self.url = url
        self._running = running

    @property
    def description(self) -> str:
        if self.kind == "mosquitto":
            return f"started a private Mosquitto at {self.url}"
        if self.kind == "embedded":
            return (
                f"started the embedded MQTT 5 broker at {self.url} "
                "(mosquitto not used; demo only, no authentication)"
            )
        return f"using the configured broker {redact_url(self.url)}"

    def close(self) -> None:
        if self._running is not None:
            self._running.close()
            self._running = None

    def __enter__(self) -> ChosenBroker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def choose_broker(configured_url: str | None = None, choice: str = "auto") -> ChosenBroker:
    """Configured URL > a private Mosquitto when installed > the embedded broker.

    ``choice`` forces one of the two brokers this process can start ("mosquitto" fails with
    ``BrokerError`` when it is not installed). The choice is logged.
    """
    if choice not in BROKER_CHOICES:
        raise BrokerError(f"unknown broker {choice!r}: expected one of {', '.join(BROKER_CHOICES)}")
    if configured_url is not None:
        if choice != "auto":
            url = redact_url(configured_url)
            raise BrokerError(f"a broker URL ({url}) and --broker {choice} conflict")
        chosen = ChosenBroker("configured", configured_url)
    elif choice == "mosquitto" or (choice == "auto" and find_mosquitto() is not None):
        mosquitto = MosquittoBroker().start()
        chosen = ChosenBroker("mosquitto", mosquitto.url, mosquitto)
    else:
        from tilesight.demo.minibroker import EmbeddedBroker  # noqa: PLC0415 - only when needed

        embedded = EmbeddedBroker().start()
        chosen = ChosenBroker("embedded", embedded.url, embedded)
    log.info("broker for the demo: %s", chosen.description)
    return chosen
