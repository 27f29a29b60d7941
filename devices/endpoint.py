"""The device side of the link: bytes in, reply bytes out, with the replay cache.

This is where idempotency lives. The endpoint remembers the last ``REPLAY_CACHE`` commands it
executed (sequence number, opcode and payload) with their replies; the same command with the same
sequence number is answered from that cache with the REPLAYED flag and is not executed again.
More than one entry matters because a host may send a few other commands (a reconnect's
GET_INFO and GET_STATUS) before it retransmits a command whose reply it never got.
"""

from __future__ import annotations

import collections
import dataclasses

from devices.codes import BootReason, NakReason
from devices.framing import BadFrame, Flag, Frame, FrameDecoder, encode_frame
from devices.link import next_seq
from devices.messages import (
    Message,
    MessageError,
    Nak,
    OpenSession,
    UnknownOpcodeError,
    decode_message,
    message_frame,
)
from devices.table_model import TableModel

REPLAY_CACHE = 16  # commands remembered for replay; far below the 255 sequence numbers


@dataclasses.dataclass
class EndpointCounts:
    """What the emulator reports on exit: executed commands by name, and link troubles."""

    executed: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    replayed: int = 0
    naks: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    bad_frames: int = 0
    resets: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "executed": dict(sorted(self.executed.items())),
            "replayed": self.replayed,
            "naks": dict(sorted(self.naks.items())),
            "bad_frames": self.bad_frames,
            "resets": self.resets,
        }


class DeviceEndpoint:
    """Decodes host frames, runs them on the model and encodes replies."""

    def __init__(self, model: TableModel) -> None:
        self.model = model
        self.decoder = FrameDecoder()
        self.counts = EndpointCounts()
        self._seq = 0
        self._cache: collections.OrderedDict[int, tuple[bytes, Frame]] = collections.OrderedDict()

    def receive(self, data: bytes, now: float) -> bytes:
        """Feed received bytes; returns the bytes to send back (possibly empty)."""
        out = bytearray()
        for item in self.decoder.feed(data):
            reply = self._answer(item, now)
            if reply is not None:
                out += encode_frame(reply)
            if self.model.reboot_requested:
                self.power_cycle(now, BootReason.RESET_COMMAND)
        return bytes(out)

    def power_cycle(self, now: float, reason: BootReason) -> None:
        """Reboot the board: the replay cache and partial input are lost with the RAM."""
        self.model.reboot(now, reason)
        self.decoder.reset()
        self._cache.clear()
        self.counts.resets += 1

    def _frame(self, message: Message, ack: int, flags: Flag = Flag.NONE) -> Frame:
        self._seq = next_seq(self._seq)
        return message_frame(message, seq=self._seq, ack=ack, flags=flags)

    def _answer(self, item: Frame | BadFrame, now: float) -> Frame | None:
        if isinstance(item, BadFrame):
            self.counts.bad_frames += 1
            reason = NakReason.VERSION if item.reason == "version" else NakReason.CRC
            self.counts.naks[reason.name.lower()] += 1
            return self._frame(Nak(reason, 0, self.model.state, 0), ack=0)
        if item.is_reply:
            return None  # another device's reply on a shared line: not for us
        key = bytes([item.type]) + item.payload
        cached = self._cache.get(item.seq)
        if cached is not None and cached[0] == key:
            self.counts.replayed += 1
            return dataclasses.replace(cached[1], flags=cached[1].flags | Flag.REPLAYED)
        try:
            command = decode_message(item)
        except UnknownOpcodeError:
            reply: Message = Nak(NakReason.UNSUPPORTED, item.type, self.model.state, 0)
        except MessageError:
            reply = Nak(NakReason.BAD_PARAMETER, item.type, self.model.state, 0)
        else:
            if isinstance(command, OpenSession):
                self._cache.clear()  # a new host session: older replies must never be replayed
            reply = self.model.handle(command, now)
        if isinstance(reply, Nak):
            self.counts.naks[reply.reason.name.lower()] += 1
        else:
            self.counts.executed[reply.op.name.lower()] += 1
        frame = self._frame(reply, ack=item.seq)
        self._cache.pop(item.seq, None)
        self._cache[item.seq] = (key, frame)
        while len(self._cache) > REPLAY_CACHE:
            self._cache.popitem(last=False)
        return frame
