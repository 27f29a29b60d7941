"""The message base: opcodes, the payload error, and the ``Message`` encode/decode contract.

Multi-byte integers are big-endian. Receivers ignore payload bytes past the fields they know, so a
newer minor version may append fields (docs/table-protocol.md, "Versioning").
"""

from __future__ import annotations

import enum
import struct
from typing import ClassVar


class Opcode(enum.IntEnum):
    GET_INFO = 0x01
    GET_STATUS = 0x02
    START_SHUFFLE = 0x03
    RAISE_WALLS = 0x04
    ROLL_DICE = 0x05
    CLEAR_ERROR = 0x06
    RESET = 0x07
    GET_EVENTS = 0x08
    SET_CONFIG = 0x09
    PAUSE = 0x0A
    RESUME = 0x0B
    OPEN_SESSION = 0x0C
    NAK = 0x7F


class MessageError(ValueError):
    """A frame whose payload does not match its opcode's layout."""


def unpack(layout: struct.Struct, data: bytes, what: str) -> tuple[int, ...]:
    if len(data) < layout.size:
        raise MessageError(f"{what} payload needs {layout.size} bytes, got {data.hex() or 'none'}")
    return layout.unpack_from(data)


class Message:
    """Base: ``encode()`` gives the payload, ``decode(opcode, payload)`` the reverse."""

    opcode: ClassVar[Opcode]

    @property
    def op(self) -> Opcode:
        return self.opcode

    def encode(self) -> bytes:
        return b""

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> Message:
        return cls()
