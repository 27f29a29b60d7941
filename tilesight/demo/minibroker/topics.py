"""Topic filters: validation, ``+``/``#`` matching and ``$share/<group>/<filter>`` parsing."""

from __future__ import annotations

from tilesight.demo.minibroker.codec import ProtocolError


def check_filter(topic_filter: str) -> None:
    """Raise ``ProtocolError`` (reason 0x8F) for a filter MQTT 5 §4.7 forbids."""
    if not topic_filter:
        raise ProtocolError("empty topic filter", 0x8F)
    levels = topic_filter.split("/")
    for index, level in enumerate(levels):
        if "#" in level and (level != "#" or index != len(levels) - 1):
            raise ProtocolError(f"'#' must be a whole last level: {topic_filter!r}", 0x8F)
        if "+" in level and level != "+":
            raise ProtocolError(f"'+' must be a whole level: {topic_filter!r}", 0x8F)


def split_shared(topic_filter: str) -> tuple[str | None, str]:
    """``("group", "a/b")`` for ``$share/group/a/b``, ``(None, filter)`` otherwise."""
    if not topic_filter.startswith("$share/"):
        return None, topic_filter
    parts = topic_filter.split("/", 2)
    if len(parts) < 3 or not parts[1] or not parts[2] or "+" in parts[1] or "#" in parts[1]:
        raise ProtocolError(f"malformed shared subscription: {topic_filter!r}", 0x8F)
    return parts[1], parts[2]


def matches(topic_filter: str, topic: str) -> bool:
    """True when ``topic`` (a concrete name) matches ``topic_filter``.

    Topics starting with ``$`` are not matched by a filter starting with a wildcard.
    """
    if topic.startswith("$") and topic_filter[:1] in ("+", "#"):
        return False
    want = topic_filter.split("/")
    have = topic.split("/")
    for index, level in enumerate(want):
        if level == "#":
            return True
        if index >= len(have):
            return False
        if level != "+" and level != have[index]:
            return False
    return len(want) == len(have)
