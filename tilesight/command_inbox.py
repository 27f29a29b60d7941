"""What the network thread may do with an incoming command: check where it came and where its
answer would go, copy its bytes, nothing more (parsing is the command worker's).

A command is accepted only on this table's own ``cmd/<verb>`` (a persistent session shared by
mistake, or a stale subscription, must not run another tournament's or table's commands), and
its response topic, if any, must lie in this table's own ``reply/``: a requester must not make
the table publish onto its ``status``, ``state`` or ``events``.
"""

from __future__ import annotations

import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from tilesight.command_journal import MAX_COMMAND_ID, CommandMessage
from tilesight.remote_commands import MAX_COMMAND_BYTES
from tilesight.topics import TableTopics, TopicError, check_id, parse_topic

#: The largest packet the broker may send the table (MQTT 5 Maximum Packet Size): bigger
#: commands are dropped by the broker and never reach the table's network thread.
MAX_PACKET_BYTES = 256 * 1024
#: Longest message expiry honoured (a day): a command is not kept waiting longer.
MAX_EXPIRY_S = 86_400
#: CONNACK reason codes a retry cannot cure (bad user name or password, not authorised, banned).
_REFUSALS = {
    0x84: "unsupported protocol version",
    0x85: "client identifier not valid",
    0x86: "bad user name or password",
    0x87: "not authorised (a wrong password, or an account the broker refuses)",
    0x8A: "banned",
    0x8C: "bad authentication method",
}


def refusal(rc: ReasonCode) -> str | None:
    """Why the broker refused for good (wrong credentials...), or None for a passing refusal."""
    return _REFUSALS.get(rc.value)


def command_from_message(msg: mqtt.MQTTMessage, topics: TableTopics) -> CommandMessage | str:
    """The command a message carries, or why it is not one of this table's commands."""
    try:
        parsed = parse_topic(msg.topic, topics.prefix)
    except TopicError:
        return "not a tilesight topic"
    if (parsed.tournament, parsed.table) != (topics.tournament, topics.table):
        return f"a command for {parsed.tournament}/{parsed.table}, not this table"
    if parsed.kind != "cmd":
        return "not a command topic"
    props = msg.properties
    response_topic = _prop(props, "ResponseTopic")
    if response_topic is not None and not _own_reply_topic(str(response_topic), topics):
        return f"response topic {str(response_topic)[:120]!r} is not in this table's reply/"
    expiry = _prop(props, "MessageExpiryInterval")
    payload = bytes(msg.payload)
    if len(payload) > MAX_COMMAND_BYTES:  # kept short: parsing refuses it for its size
        payload = payload[: MAX_COMMAND_BYTES + 1]
    correlation = _prop(props, "CorrelationData")
    return CommandMessage(
        verb=parsed.leaf[:64],
        payload=payload,
        response_topic=response_topic,
        correlation_data=bytes(correlation)[:256] if correlation is not None else None,
        expires_at=time.time() + min(int(expiry), MAX_EXPIRY_S) if expiry is not None else None,
        account=_user_property(props, "account"),
        command_id=_user_property(props, "command_id", MAX_COMMAND_ID),
    )


def _own_reply_topic(topic: str, topics: TableTopics) -> bool:
    head = topics.reply("")
    if not topic.startswith(head):
        return False
    try:
        check_id("reply client", topic[len(head) :])
    except TopicError:
        return False
    return True


def _prop(props: Any, name: str) -> Any:
    return getattr(props, name, None) if props is not None else None


def _user_property(props: Any, name: str, limit: int = 200) -> str | None:
    """The first MQTT 5 user property called ``name`` (paho gives a list of pairs)."""
    for key, value in _prop(props, "UserProperty") or []:
        if key == name:
            return str(value)[:limit]
    return None
