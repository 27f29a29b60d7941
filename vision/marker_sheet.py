"""A printable A4 sheet of the four table markers (ArUco DICT_4X4_50, ids 0-3) with instructions.

Drawn at 300 dpi; written as a PNG that records its resolution (pHYs) or as a one-page PDF whose
page is exactly A4, so "actual size" printing gives black squares of :data:`MARKER_MM`. Each
marker sits in its own cut-out piece, laid out as on the table seen from seat 0, with a white
border of about one marker cell that the detector needs around the black square.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

DPI = 300
PAGE_MM = (210.0, 297.0)  # A4 portrait
MARKER_MM = 70.0  # the black square; under 0.09 of a 0.9 m table side, clear of every zone
BORDER_MM = 12.0  # white around it (one marker cell is 70 / 6 mm)
LABEL_MM = 13.0  # the label strip, on the side of the piece toward the table centre
GAP_MM = 6.0
TOP_MM = 62.0  # where the pieces start, below the instructions

#: Where each marker goes, as seen from seat 0's chair (seat 1 at its right, 2 opposite).
CORNERS = {
    0: ("far left corner", "between seats 3 and 2"),
    1: ("far right corner", "between seats 2 and 1"),
    2: ("near right corner", "between seats 1 and 0"),
    3: ("near left corner", "between seats 0 and 3"),
}
#: Which corner of each black square lies on the table's corner (the marker read upright).
OUTER = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}

INSTRUCTIONS = [
    "Tilesight table markers: ArUco DICT_4X4_50, ids 0-3, black squares 70 mm",
    "1. Print at 100% / actual size (not 'fit to page'); check a black square measures 70 mm.",
    "2. Cut out the four pieces along the dashed lines; glue them on card to keep them flat.",
    "3. Lay each piece in the table corner named on it: the named corner of its black square",
    "   exactly on the table's corner, its text upright as read from seat 0's chair. The outer",
    "   white borders overhang the table's edges: keep them flat (card, tape) and in view.",
    "4. Nothing may cover a marker or its white border; avoid glare on it.",
    "5. Run: tilesight calibrate --config table.toml   and check the preview image it writes.",
]


def _px(mm: float) -> int:
    return round(mm * DPI / 25.4)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """One marker (black border included) as a ``side_px`` square grey image."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    cells = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)  # 4x4 bits + the border
    return np.asarray(cv2.resize(cells, (side_px, side_px), interpolation=cv2.INTER_NEAREST))


def piece_origins() -> dict[int, tuple[float, float]]:
    """Top-left of each marker's black square on the page, in mm. The markers are laid out as
    on the table (0 top left, 1 top right, 2 bottom right, 3 bottom left) and each label lies on
    the side toward the table's centre, so only a white border overhangs the table's edges."""
    piece_w, piece_h = MARKER_MM + 2 * BORDER_MM, MARKER_MM + 2 * BORDER_MM + LABEL_MM
    left = (PAGE_MM[0] - 2 * piece_w - GAP_MM) / 2
    columns = {0: 0, 1: 1, 2: 1, 3: 0}
    return {
        marker: (
            left + columns[marker] * (piece_w + GAP_MM) + BORDER_MM,
            TOP_MM + BORDER_MM + (piece_h + GAP_MM + LABEL_MM if marker in (2, 3) else 0.0),
        )
        for marker in range(4)
    }


def draw_sheet() -> np.ndarray:
    """The whole page, grey, at :data:`DPI`."""
    page = np.full((_px(PAGE_MM[1]), _px(PAGE_MM[0])), 255, np.uint8)
    for row, line in enumerate(INSTRUCTIONS):
        _write(
            page, line, (10.0, 16.0 + 6.0 * row), 1.45 if row == 0 else 1.2, 3 if row == 0 else 2
        )
    side = _px(MARKER_MM)
    for marker, (x_mm, y_mm) in piece_origins().items():
        x, y = _px(x_mm), _px(y_mm)
        page[y : y + side, x : x + side] = marker_image(marker, side)
        label_above = marker in (2, 3)
        top = y_mm - BORDER_MM - (LABEL_MM if label_above else 0.0)
        piece_h = MARKER_MM + 2 * BORDER_MM + LABEL_MM
        _dashed_box(page, (x_mm - BORDER_MM, top), (x_mm + MARKER_MM + BORDER_MM, top + piece_h))
        where, between = CORNERS[marker]
        label_y = top + 2.0 if label_above else y_mm + MARKER_MM + BORDER_MM
        _write(page, f"{marker}: {where} ({between})", (x_mm - 6, label_y + 4.0), 1.15, 2)
        outer = f"its {OUTER[marker]} corner on the table's corner"
        _write(page, outer, (x_mm - 6, label_y + 10.0), 1.15, 2)
    return page


def write_sheet(path: Path) -> None:
    """Write the sheet as ``.png`` or ``.pdf`` (chosen by the suffix)."""
    page = draw_sheet()
    suffix = path.suffix.lower()
    if suffix == ".png":
        data = _png_with_dpi(page)
    elif suffix == ".pdf":
        data = _pdf(page)
    else:
        raise ValueError(f"marker sheet {str(path)!r}: name it .png or .pdf")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _write(
    page: np.ndarray, text: str, at_mm: tuple[float, float], scale: float, bold: int
) -> None:
    origin = (_px(at_mm[0]), _px(at_mm[1]))
    cv2.putText(page, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, 0, bold, cv2.LINE_AA)


def _dashed_box(
    page: np.ndarray, top_left: tuple[float, float], bottom_right: tuple[float, float]
) -> None:
    (x1, y1), (x2, y2) = (_px(v) for v in top_left), (_px(v) for v in bottom_right)
    dash = _px(3.0)
    for start in range(x1, x2, 2 * dash):
        end = min(start + dash, x2)
        cv2.line(page, (start, y1), (end, y1), 128, 2)
        cv2.line(page, (start, y2), (end, y2), 128, 2)
    for start in range(y1, y2, 2 * dash):
        end = min(start + dash, y2)
        cv2.line(page, (x1, start), (x1, end), 128, 2)
        cv2.line(page, (x2, start), (x2, end), 128, 2)


def _png_with_dpi(page: np.ndarray) -> bytes:
    """PNG bytes with a pHYs chunk, so viewers and printers know the page is 300 dpi."""
    ok, encoded = cv2.imencode(".png", page)
    if not ok:
        raise ValueError("could not encode the marker sheet as PNG")
    data = encoded.tobytes()
    per_metre = round(DPI / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    header_end = 8 + 25  # signature, then IHDR (length, type, 13 bytes, CRC)
    return data[:header_end] + chunk + data[header_end:]


def _pdf(page: np.ndarray) -> bytes:
    """A one-page A4 PDF showing ``page`` edge to edge (8-bit grey, Flate-compressed)."""
    height, width = page.shape
    w_pt, h_pt = (f"{mm / 25.4 * 72:.3f}" for mm in PAGE_MM)
    pixels = zlib.compress(page.tobytes(), 9)
    content = f"q {w_pt} 0 0 {h_pt} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w_pt} {h_pt}] "
        "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} "
        f"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode "
        f"/Length {len(pixels)} >>\nstream\n".encode()
        + pixels
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)
