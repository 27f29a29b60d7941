"""How large an image file may be, read from its header before any pixel is decoded.

A 69-byte PNG can claim 100000 x 100000 pixels: decoding it would ask for 30 GB. The width and
height of PNG, JPEG and BMP files are read from their headers (a few bytes, no decoding) and an
image over :data:`MAX_PIXELS` is refused; other formats are left to OpenCV's own limit.

>>> import struct
>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I4sII", 13, b"IHDR", 100000, 100000)
>>> header_size(png)
(100000, 100000)
"""

from __future__ import annotations

import struct

#: 100 megapixels: above any phone or camera a referee uses, far below what would exhaust memory.
MAX_PIXELS = 100_000_000
#: Bytes of an image file (a 100 MP PNG is well under this).
MAX_FILE_BYTES = 300 * 1024 * 1024
_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def header_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from a PNG, JPEG or BMP header; None for another or a broken one."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(int(width)), abs(int(height))
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The size in the first start-of-frame segment, walking the segments' lengths."""
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers with no length
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _JPEG_FRAMES:
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return int(width), int(height)
        at += 2 + length
    return None


def size_problem(data: bytes) -> str | None:
    """Why an image file of these bytes must not be decoded, or None."""
    if len(data) > MAX_FILE_BYTES:
        return f"{len(data)} bytes, over the {MAX_FILE_BYTES} allowed"
    size = header_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        return f"claims {size[0]} x {size[1]} pixels, over the {MAX_PIXELS} allowed"
    return None
