"""The byte examples in docs/table-protocol.md are real: every one decodes and checks out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from devices.framing import Frame, FrameDecoder, cobs_decode, cobs_encode, crc16, decode_body
from devices.messages import decode_message

DOC = Path(__file__).resolve().parents[2] / "docs" / "table-protocol.md"
HEX = r"((?:[0-9a-f]{2}[ |]*)+)"


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def hexbytes(text: str) -> bytes:
    return bytes.fromhex(text.replace("|", " ").replace("\n", " "))


def wire_examples() -> list[str]:
    return re.findall(r"wire +" + r"((?:[0-9a-f]{2} )+00)\b", doc_text())


def body_examples() -> list[str]:
    blocks = re.findall(r"body +((?:[0-9a-f]{2}[ |]*|\n +\| )+)", doc_text())
    return [b for b in blocks if len(hexbytes(b)) >= 8]


def test_doc_has_examples() -> None:
    assert len(wire_examples()) >= 6 and len(body_examples()) >= 7


@pytest.mark.parametrize("wire", wire_examples())
def test_every_wire_example_decodes_to_one_valid_frame(wire: str) -> None:
    items = FrameDecoder().feed(bytes.fromhex(wire))
    assert len(items) == 1 and isinstance(items[0], Frame), items
    decode_message(items[0])  # the payload matches its opcode's layout


@pytest.mark.parametrize("body", body_examples())
def test_every_body_example_has_a_correct_crc_and_layout(body: str) -> None:
    raw = hexbytes(body)
    assert crc16(raw[:-2]) == int.from_bytes(raw[-2:], "big")
    frame = decode_body(cobs_encode(raw))
    decode_message(frame)


def test_cobs_table_rows() -> None:
    rows = re.findall(r"^\| `([0-9a-f ]+)` \| `([0-9a-f ]+)` \|$", doc_text(), re.MULTILINE)
    assert len(rows) == 5
    for raw, encoded in rows:
        assert cobs_encode(bytes.fromhex(raw)) == bytes.fromhex(encoded)
        assert cobs_decode(bytes.fromhex(encoded)) == bytes.fromhex(raw)


def test_crc_check_value_is_stated() -> None:
    assert "`0x29B1`" in doc_text() and crc16(b"123456789") == 0x29B1


def test_code_tables_match_the_implementation() -> None:
    from devices.codes import EventCode, FaultCode, NakReason, State
    from devices.messages import Opcode
    from devices.replies import _STATUS

    text = doc_text()
    opcodes = dict(re.findall(r"^\| 0x([0-9A-F]{2}) \| ([A-Z_]+) \|", text, re.MULTILINE))
    assert {int(k, 16): v for k, v in opcodes.items()} == {
        op.value: op.name for op in Opcode if op != Opcode.NAK
    }
    faults = re.findall(r"^\| (\d+) \| ([A-Z_]+) \| (?:yes|0) \|", text, re.MULTILINE)
    assert {int(k): v for k, v in faults} == {f.value: f.name for f in FaultCode if f.value}
    section6 = text[text.index("## 6.") : text.index("## 7.")]
    events = re.findall(r"^\| (\d) \| ([A-Z_]+) \| [a-z]", section6, re.MULTILINE)
    assert {int(k): v for k, v in events} == {e.value: e.name for e in EventCode}
    states = re.findall(r"^\| ([A-Z_]+) \| (\d) \|", text, re.MULTILINE)
    assert {int(v): k for k, v in states} == {s.value: s.name for s in State}
    for reason in NakReason:
        assert f"{reason.value} {reason.name}" in text
    assert f"**STATUS** payload ({_STATUS.size} bytes)" in text
