"""The MQTT topic tree: one versioned tree per table, built and parsed only here.

``tilesight/v1/<tournament>/<table>/`` holds ``status`` (retained), ``state`` (retained public
snapshot), ``events/<type>`` (QoS 1, never retained), ``private/<name>`` (referees only: the
retained ``private/state`` and ``private/events/<type>``, the referee-only events such as
violations), ``cmd/<verb>`` (commands in) and ``reply/<client>`` (command responses and resync
replays, kept inside the table's own tree so a broker ACL can confine each table to its tree).
With a broadcast delay configured, ``delayed/state`` and ``delayed/events/<type>`` repeat the
public topics late (never the private ones).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "tilesight/v1"
#: Event types for referees only: published under ``private/events/``, out of a viewer's reach.
REFEREE_ONLY_EVENTS = frozenset({"violation"})
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class TopicError(ValueError):
    """A topic or id that does not fit the tree."""


def check_id(kind: str, value: str) -> str:
    """Ids become topic levels, so wildcards, slashes and blanks are refused up front."""
    if not _ID.match(value):
        raise TopicError(
            f"{kind} id {value!r} must be 1-64 letters, digits, '_', '-' or '.', "
            "starting with a letter or digit"
        )
    return value


@dataclass(frozen=True)
class TableTopics:
    """Every topic of one table."""

    tournament: str
    table: str
    prefix: str = PREFIX

    def __post_init__(self) -> None:
        check_id("tournament", self.tournament)
        check_id("table", self.table)

    @property
    def root(self) -> str:
        return f"{self.prefix}/{self.tournament}/{self.table}"

    @property
    def status(self) -> str:
        return f"{self.root}/status"

    @property
    def state(self) -> str:
        return f"{self.root}/state"

    def event(self, event_type: str) -> str:
        """Where an event of this type is published: ``events/<type>``, or
        ``private/events/<type>`` for a referee-only type."""
        if event_type in REFEREE_ONLY_EVENTS:
            return self.private(f"events/{event_type}")
        return f"{self.root}/events/{event_type}"

    def is_private(self, topic: str) -> bool:
        return topic.startswith(f"{self.root}/private/")

    @property
    def events(self) -> str:
        return f"{self.root}/events/#"

    def private(self, name: str) -> str:
        return f"{self.root}/private/{name}"

    def cmd(self, verb: str) -> str:
        return f"{self.root}/cmd/{verb}"

    @property
    def commands(self) -> str:
        return f"{self.root}/cmd/+"

    def reply(self, client: str) -> str:
        return f"{self.root}/reply/{client}"

    def delayed(self, topic: str) -> str:
        """The broadcast-delayed copy of a public topic (``state``, ``events/<type>``)."""
        return f"{self.root}/delayed/{topic.removeprefix(self.root + '/')}"


def tournament_filter(tournament: str, leaf: str, prefix: str = PREFIX) -> str:
    """A filter over every table of a tournament, e.g. ``leaf="events/#"``."""
    return f"{prefix}/{check_id('tournament', tournament)}/+/{leaf}"


def shared(group: str, topic_filter: str) -> str:
    """An MQTT 5 shared subscription: the broker hands each message to one group member."""
    return f"$share/{check_id('group', group)}/{topic_filter}"


@dataclass(frozen=True)
class ParsedTopic:
    tournament: str
    table: str
    kind: str  # status | state | events | private | cmd | reply | delayed
    leaf: str  # event type, private name (``state``, ``events/<type>``), verb or client


def parse_topic(topic: str, prefix: str = PREFIX) -> ParsedTopic:
    """Split a topic of the tree; anything else is a :class:`TopicError` quoting it."""
    head = prefix + "/"
    if not topic.startswith(head):
        raise TopicError(f"not a tilesight topic: {topic!r}")
    parts = topic[len(head) :].split("/")
    if len(parts) < 3 or not all(parts[:3]):
        raise TopicError(f"not a tilesight topic: {topic!r}")
    tournament, table, kind, *rest = parts
    if kind in ("status", "state") and not rest:
        return ParsedTopic(tournament, table, kind, "")
    if kind in ("events", "private", "cmd", "reply") and len(rest) == 1 and rest[0]:
        return ParsedTopic(tournament, table, kind, rest[0])
    if kind == "private" and len(rest) == 2 and rest[0] == "events" and rest[1]:
        return ParsedTopic(tournament, table, kind, "/".join(rest))
    delayed_leaf = rest == ["state"] or (len(rest) == 2 and rest[0] == "events" and rest[1])
    if kind == "delayed" and delayed_leaf:
        return ParsedTopic(tournament, table, kind, "/".join(rest))
    raise TopicError(f"not a tilesight topic: {topic!r}")
