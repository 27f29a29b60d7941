"""The photo evaluation as Markdown: real and rendered sets side by side, per class, with 95 %
Wilson intervals (models.photo.evaluate writes ``metrics.json``, this turns it into a page)."""

from __future__ import annotations

from pathlib import Path

from vision.crops import TILE_NAMES


def _cell(share: dict | None) -> str:
    if not share or not share.get("total"):
        return "-"
    return f"{share['share']:.3f} ({share['low']:.2f}-{share['high']:.2f}, n={share['total']})"


def summary_lines(results: dict[str, dict[str, dict]]) -> list[str]:
    lines = [
        "| set | reader | tiles read right | tiles found (any reading) | boxes right "
        "| boxes right near labelled tiles "
        "| flowers read right | no box on a tile-free image | s / image |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for set_name, by_reader in results.items():
        for reader, m in by_reader.items():
            lines.append(
                f"| {set_name} | {reader} | {_cell(m.get('tiles'))} | {_cell(m.get('found'))} "
                f"| {_cell(m.get('boxes'))} | {_cell(m.get('boxes_near'))} "
                f"| {_cell(m.get('flowers'))} | {_cell(m.get('silent_on_empty'))} "
                f"| {m.get('seconds_per_image', '-')} |"
            )
    return lines


def class_lines(results: dict[str, dict[str, dict]], reader: str) -> list[str]:
    sets = [s for s, r in results.items() if reader in r and r[reader].get("per_class")]
    if not sets:
        return []
    lines = [
        f"| tile | {' | '.join(sets)} |",
        "| --- |" + " --- |" * len(sets),
    ]
    for name in [*TILE_NAMES, "back"]:
        cells = [_cell(results[s][reader]["per_class"].get(name)) for s in sets]
        if any(c != "-" for c in cells):
            lines.append(f"| {name} | {' | '.join(cells)} |")
    return lines


def confusion_lines(results: dict[str, dict[str, dict]], reader: str) -> list[str]:
    lines = []
    for set_name, by_reader in results.items():
        pairs = by_reader.get(reader, {}).get("confusions") or []
        if pairs:
            text = ", ".join(f"{a} as {b} x{n}" for a, b, n in pairs)
            lines.append(f"- {set_name}: {text}")
    return lines


def write_report(results: dict[str, dict[str, dict]], path: Path) -> None:
    readers = sorted({r for by_reader in results.values() for r in by_reader})
    parts = [
        "# Photo reading: real and rendered photographs",
        "",
        "Each cell: share (95 % Wilson interval, n). *Tiles read right*: true tiles found and "
        "named right, of those present. *Boxes right*: reported boxes on a true tile of the kind "
        "named, of those reported. *Near labelled tiles*: the same, leaving out boxes on no "
        "labelled tile that lie over two tile lengths from every labelled one (publishers often "
        "label only a player's hand). Real sets' boxes hold whole tiles; a report matches a true "
        "tile at an overlap (IoU) of 0.3 or more. Command and sources: docs/vision.md.",
        "",
        *summary_lines(results),
    ]
    for reader in readers:
        classes = class_lines(results, reader)
        if classes:
            parts += ["", f"## Per class, reader `{reader}` (tiles read right)", "", *classes]
        confused = confusion_lines(results, reader)
        if confused:
            parts += ["", f"### Most frequent misreadings, reader `{reader}`", "", *confused]
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
