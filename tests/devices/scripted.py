"""A scripted transport: the test says which bytes the host must send and what comes back."""

from __future__ import annotations

import collections


class ScriptedTransport:
    """``expect(tx, reply)`` queues one exchange; a write that differs fails the test."""

    def __init__(self) -> None:
        self._script: collections.deque[tuple[bytes, bytes]] = collections.deque()
        self._pending = b""
        self.opened = 0
        self.writes: list[bytes] = []

    def expect(self, tx: bytes, reply: bytes = b"") -> None:
        self._script.append((tx, reply))

    def assert_done(self) -> None:
        assert not self._script, f"expected writes never came: {[t.hex() for t, _ in self._script]}"

    def open(self) -> None:
        self.opened += 1

    def close(self) -> None:
        pass

    def discard_input(self) -> None:
        self._pending = b""

    def write(self, data: bytes) -> None:
        self.writes.append(data)
        assert self._script, f"unexpected write {data.hex(' ')}"
        tx, reply = self._script.popleft()
        assert data == tx, f"host wrote {data.hex(' ')}, script expected {tx.hex(' ')}"
        self._pending += reply

    def read(self, timeout: float) -> bytes:
        data, self._pending = self._pending, b""
        return data
