"""Stop-and-wait transactions: one command in flight, matched to its reply by sequence number.

Retransmissions reuse the command's sequence number (with the RETRY flag), and the device replays
its cached reply for a sequence number it has already answered: a retried START_SHUFFLE whose
first reply was lost never shuffles twice. A corrupt frame or a NAK(CRC) triggers an immediate
retransmission instead of waiting for the timeout.
"""

from __future__ import annotations

import dataclasses
import random
import time

from devices.codes import NakReason, State
from devices.framing import BadFrame, Flag, FrameDecoder, encode_frame
from devices.messages import Message, MessageError, Nak, decode_message, message_frame
from devices.transport import Transport


class TableError(Exception):
    """Base of every error the driver raises."""


class ReplyTimeoutError(TableError):
    """No valid reply within the attempts allowed; the command's sequence number stays pending."""


class NakError(TableError):
    """The device refused the command; ``reason`` says why."""

    def __init__(self, command: str, nak: Nak) -> None:
        state = nak.state.name.lower()
        super().__init__(f"table refused {command}: {nak.reason.name.lower()} (state {state})")
        self.nak = nak
        self.reason: NakReason = nak.reason
        self.state: State = nak.state


@dataclasses.dataclass
class LinkStats:
    transactions: int = 0
    retransmissions: int = 0
    bad_frames: int = 0
    stale_replies: int = 0
    timeouts: int = 0
    replayed: int = 0


def next_seq(seq: int) -> int:
    """Sequence numbers run 1..255 and skip 0 (0 means "none" in the ack field)."""
    return 1 if seq >= 255 else seq + 1


class Link:
    """Frames, sends and matches; holds no thread and no lock (the driver serialises calls)."""

    def __init__(
        self, transport: Transport, *, reply_timeout: float = 0.2, rng: random.Random | None = None
    ) -> None:
        self.transport = transport
        self.reply_timeout = reply_timeout
        self.decoder = FrameDecoder()
        self.stats = LinkStats()
        # A random start makes a restarted host unlikely to reuse the device's cached seq.
        self._seq = (rng or random.Random()).randint(1, 255)
        self._last_reply_seq = 0

    def allocate_seq(self) -> int:
        self._seq = next_seq(self._seq)
        return self._seq

    def exchange(
        self, message: Message, seq: int, *, attempts: int, deadline: float, retry: bool = False
    ) -> Message:
        """Send ``message`` as ``seq`` until a reply for it arrives; NAKs are returned as Nak.

        Raises :class:`ReplyTimeoutError` after ``attempts`` sends or at ``deadline`` (monotonic),
        and :class:`~devices.transport.LinkDownError` when the port fails.
        """
        self.stats.transactions += 1
        for attempt in range(attempts):
            flags = Flag.RETRY if (retry or attempt) else Flag.NONE
            frame = message_frame(message, seq=seq, ack=self._last_reply_seq, flags=flags)
            if attempt:
                self.stats.retransmissions += 1
            self.transport.write(encode_frame(frame))
            reply = self._await(seq, min(time.monotonic() + self.reply_timeout, deadline))
            if reply is not None:
                return reply
            if time.monotonic() >= deadline:
                break
        self.stats.timeouts += 1
        raise ReplyTimeoutError(f"no reply to {message.op.name} (seq {seq}) after {attempts} sends")

    def _await(self, seq: int, until: float) -> Message | None:
        """The reply to ``seq``, or None to retransmit (timeout, corrupt frame, NAK CRC)."""
        while (remaining := until - time.monotonic()) > 0:
            data = self.transport.read(remaining)
            corrupt = False
            for item in self.decoder.feed(data):
                if isinstance(item, BadFrame):
                    self.stats.bad_frames += 1
                    corrupt = True
                    continue
                if not item.is_reply:
                    continue  # our own echo (loop://) or a confused peer
                try:
                    message = decode_message(item)
                except MessageError:
                    self.stats.bad_frames += 1
                    corrupt = True
                    continue
                if isinstance(message, Nak) and message.reason == NakReason.CRC:
                    corrupt = True
                    continue
                if item.ack != seq:
                    self.stats.stale_replies += 1
                    continue
                if item.flags & Flag.REPLAYED:
                    self.stats.replayed += 1
                self._last_reply_seq = item.seq
                return message
            if corrupt:
                return None
        return None
