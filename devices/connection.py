"""The driver's link keeper: (re)connection, the heartbeat poll thread and serialised commands.

A background thread polls GET_STATUS (the heartbeat), fetches new events when the event counter
moves, detects device resets (counter went back, or a new boot id) and lost events, reconnects
after the port fails, and hands every event and link notice to one callback. Commands from any
thread are serialised; each keeps its sequence number across retries and reconnects, so it
runs on the table at most once. ``TableDriver`` (devices/driver.py) adds the typed commands.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from devices import device_events as ev
from devices.event_log import EventLog
from devices.link import Link, NakError, ReplyTimeoutError, TableError
from devices.messages import (
    Ack,
    EventsReply,
    GetEvents,
    GetInfo,
    GetStatus,
    InfoReply,
    Message,
    Nak,
    OpenSession,
    StatusReply,
)  # fmt: skip
from devices.notices import (
    DeviceResetDetected,
    EventsMissed,
    LinkLost,
    LinkRestored,
    Notice,
    TableTimeoutError,
)  # fmt: skip
from devices.transport import LinkDownError, SerialTransport, Transport

log = logging.getLogger("devices.driver")  # the name operators already filter on
M = TypeVar("M", bound=Message)


def expect_reply(message: Message, reply: Message, expected: type[M]) -> M:
    """``reply`` as the type ``message`` calls for, or a TableError naming both."""
    if not isinstance(reply, expected):
        raise TableError(f"unexpected reply {reply!r} to {message.op.name}")
    return reply


class TableConnection:
    """Keeps one table connected and in sync; subclass it for commands (see ``TableDriver``)."""

    def __init__(
        self,
        url: str = "",
        *,
        transport: Transport | None = None,
        on_event: Callable[[Notice], None] | None = None,
        reply_timeout: float = 0.2,
        attempts: int = 5,
        poll_interval: float = 0.25,
        active_poll_interval: float = 0.02,
        reconnect_interval: float = 0.25,
    ) -> None:
        self.url = url
        self.transport = transport or SerialTransport(url)
        self.on_event = on_event
        self.attempts = attempts
        self.poll_interval = poll_interval
        self.active_poll_interval = active_poll_interval
        self.reconnect_interval = reconnect_interval
        self.link = Link(self.transport, reply_timeout=reply_timeout)
        self.info: InfoReply | None = None
        self.last_status: StatusReply | None = None
        self.resets_detected = 0
        self._io = threading.RLock()  # one transaction at a time
        self.events = EventLog()
        self._counter = 0
        self._boot_id: int | None = None
        self._up = threading.Event()
        self._kick = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle
    def _start(self, timeout: float) -> float:
        """Connect (retrying until ``timeout``) and start the poll thread; returns the deadline."""
        deadline = time.monotonic() + timeout
        while not self._connect(new_session=True):
            if time.monotonic() >= deadline:
                raise LinkDownError(f"no table answered on {self.url!r} within {timeout:g} s")
            time.sleep(min(self.reconnect_interval, max(0.0, deadline - time.monotonic())))
        self._thread = threading.Thread(target=self._run, name="table-driver-poll", daemon=True)
        self._thread.start()
        return deadline

    def close(self) -> None:
        self._closing.set()
        self._kick.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._io:
            self.transport.close()
        self._up.clear()

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    @property
    def event_counter(self) -> int:
        return self._counter

    # ------------------------------------------------------------ commands
    def _call(self, message: Message, expected: type[M], timeout: float) -> M:
        return expect_reply(message, self._execute(message, timeout), expected)

    def _execute(self, message: Message, timeout: float) -> Message:
        """One command, retried with the same seq across timeouts and reconnects until done."""
        deadline = time.monotonic() + timeout
        with self._io:
            seq = self.link.allocate_seq()
        retry = False
        while True:
            remaining = deadline - time.monotonic()
            if not self._up.wait(max(0.0, remaining)) or remaining <= 0:
                raise TableTimeoutError(f"{message.op.name.lower()}: no reply within {timeout:g} s")
            with self._io:
                try:
                    reply = self.link.exchange(
                        message, seq, attempts=self.attempts, deadline=deadline, retry=retry
                    )
                except (ReplyTimeoutError, LinkDownError) as exc:
                    if isinstance(exc, ReplyTimeoutError) and time.monotonic() >= deadline:
                        raise TableTimeoutError(f"{message.op.name.lower()}: {exc}") from None
                    self._mark_down(str(exc))
                    retry = True
                    continue
            if isinstance(reply, Nak):
                raise NakError(message.op.name.lower(), reply)
            return reply

    def _exchange_locked(self, message: Message, expected: type[M], deadline: float) -> M:
        """A single exchange for the poll thread (caller holds ``_io``)."""
        seq = self.link.allocate_seq()
        reply = self.link.exchange(message, seq, attempts=self.attempts, deadline=deadline)
        return expect_reply(message, reply, expected)

    # ------------------------------------------------------------ connection
    def _mark_down(self, reason: str) -> None:
        if self._up.is_set():
            self._up.clear()
            with self._io:
                self.transport.close()
            self._notify([LinkLost(reason)])
        self._kick.set()

    def _notify(self, notices: list[Notice]) -> None:
        if self.on_event is None:
            return
        for notice in notices:
            try:
                self.on_event(notice)
            except Exception:
                log.exception("table event callback failed on %r", notice)

    def _connect(self, *, new_session: bool = False) -> bool:
        """(Re)open the port and resynchronise. A reconnect keeps the session, so commands
        retried across it are still answered from the device's replay cache."""
        was_connected = self._boot_id is not None
        with self._io:
            try:
                self.transport.open()
                self.transport.discard_input()
                self.link.decoder.reset()
                deadline = time.monotonic() + 1.0
                if new_session:
                    nonce = random.getrandbits(32)
                    self._exchange_locked(OpenSession(nonce), Ack, deadline)
                self.info = self._exchange_locked(GetInfo(), InfoReply, deadline)
                notices = self._sync(deadline)
            except (LinkDownError, ReplyTimeoutError, TableError) as exc:
                log.debug("connect to %s failed: %s", self.url, exc)
                self.transport.close()
                return False
        self._up.set()
        self._notify(([LinkRestored(self.url)] if was_connected else []) + notices)
        return True

    # ------------------------------------------------------------ heartbeat
    def _run(self) -> None:
        while not self._closing.is_set():
            if not self._up.is_set():
                if not self._connect():
                    self._closing.wait(self.reconnect_interval)
                continue
            try:
                with self._io:
                    notices = self._sync(time.monotonic() + 1.0)
            except (LinkDownError, ReplyTimeoutError) as exc:
                self._mark_down(str(exc))
                continue
            except TableError as exc:
                log.warning("table poll failed: %s", exc)
                notices = []
            self._notify(notices)
            self._kick.wait(
                self.active_poll_interval if self.events.waiters else self.poll_interval
            )
            self._kick.clear()

    def _sync(self, deadline: float) -> list[Notice]:
        """Poll status, detect resets, fetch new events (caller holds ``_io``)."""
        status = self._exchange_locked(GetStatus(), StatusReply, deadline)
        self.last_status = status
        notices: list[Notice] = []
        if self._boot_id is None:
            self._boot_id, self._counter = status.boot_id, status.event_counter
            return notices
        moved = status.event_counter != self._counter
        if moved and not ev.counter_after(status.event_counter, self._counter):
            why = f"event counter went back from {self._counter} to {status.event_counter}"
            notices.append(self._reset_detected(why, status.event_counter, status.boot_id))
        elif status.boot_id != self._boot_id:
            why = f"boot id changed from {self._boot_id} to {status.boot_id}"
            notices.append(self._reset_detected(why, status.event_counter, status.boot_id))
        while self._counter != status.event_counter:
            reply = self._exchange_locked(GetEvents(self._counter), EventsReply, deadline)
            if reply.boot_id != self._boot_id:
                why = f"boot id changed from {self._boot_id} to {reply.boot_id}"
                notices.append(self._reset_detected(why, reply.latest, reply.boot_id))
                continue
            if reply.gap and self._counter:
                first = reply.records[0].counter if reply.records else reply.latest
                notices.append(EventsMissed(self._counter, first))
            if not reply.records:  # nothing (more) to fetch, whatever status said
                self._counter = reply.latest
                break
            self._counter = reply.records[-1].counter
            self.events.extend(reply.records)
            notices.extend(reply.records)
            if ev.counter_after(self._counter, status.event_counter):
                break
        return notices

    def _reset_detected(self, why: str, counter: int, boot_id: int) -> DeviceResetDetected:
        notice = DeviceResetDetected(why, self._counter, counter, boot_id)
        log.warning("table reset detected: %s", why)
        self._counter = 0
        self._boot_id = boot_id
        self.resets_detected += 1
        self.events.new_generation()
        self.link.decoder.reset()
        return notice
