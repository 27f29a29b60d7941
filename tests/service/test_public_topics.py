"""No concealed tile on a public topic (issue 44, finding 4): whole simulated hands, a referee's
corrections and a deal that does not match the wall, read through the ``overlay`` account of
the example ACL on a real Mosquitto; every public payload is searched for concealed tiles."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from engine.notation import NotationError, parse_tiles
from engine.simulate.actions import demo_hands
from tests.service.conftest import Probe, make_service, wait_until
from tests.service.test_acl import ACCOUNTS, _url, secured_broker  # noqa: F401 - fixture
from tilesight.demo.broker import MosquittoBroker
from tilesight.table_engine import TableEngine

#: Where a public payload may hold several tiles in one string: a winning hand, revealed.
REVEALED = {"hand", "meld", "win_tile", "sets"}
_TOKEN = re.compile(r"[0-9msp ESWNCFP\[\]{}<]+")


def _tiles_in(text: str) -> int:
    """How many tiles of the project notation a free text spells out, run by run."""
    count = 0
    for token in _TOKEN.findall(text):
        for word in re.split(r"[\s\[\]{}<]+", token):
            if len(word) < 2:
                continue
            try:
                count += len(parse_tiles(word))
            except NotationError:
                continue
    return count


def concealed_leaks(topic: str, payload: Any, path: str = "") -> list[str]:
    """Every place in a public payload that holds concealed tiles."""
    leaks: list[str] = []
    if isinstance(payload, dict):
        kind = payload.get("type") or payload.get("action")
        for key, value in payload.items():
            where = f"{path}.{key}"
            if kind == "tile_drawn" and key == "tile" and value is not None:
                leaks.append(f"{topic}{where}: drawn tile {value!r}")
            if kind in ("tiles_dealt", "deal") and key == "tiles" and value is not None:
                leaks.append(f"{topic}{where}: dealt tiles {value!r}")
            if kind == "draw" and key == "tile" and value is not None:
                leaks.append(f"{topic}{where}: a correction's drawn tile {value!r}")
            if key in ("wall", "order") and isinstance(value, str | list):
                leaks.append(f"{topic}{where}: the wall order")
            if key == "concealed" and isinstance(value, str | list) and value:
                leaks.append(f"{topic}{where}: concealed tiles {value!r}")
            if key not in REVEALED:
                leaks += concealed_leaks(topic, value, where)
    elif isinstance(payload, list):
        for n, value in enumerate(payload):
            leaks += concealed_leaks(topic, value, f"{path}[{n}]")
    elif isinstance(payload, str) and _tiles_in(payload) >= 5:
        leaks.append(f"{topic}{path}: tiles in text {payload!r}")
    return leaks


def test_no_public_topic_carries_a_concealed_tile(
    secured_broker: MosquittoBroker,  # noqa: F811 - the fixture
):
    service = make_service(
        _url(secured_broker, "T1"),
        engine=TableEngine(table_id="T1", procedure="wsom", rules="mcr", seed=5),
    )
    service.start()
    overlay = Probe(secured_broker.url, "ov", "overlay", ACCOUNTS["overlay"])
    referee = Probe(secured_broker.url, "ref", "referee", ACCOUNTS["referee"])
    try:
        wait_until(service.link.connected.is_set, 10, "table connection")
        for probe in (overlay, referee):
            probe.__enter__()
            probe.subscribe("tilesight/v1/#")  # everything the account may read
        for hand in demo_hands("wsom", seed=5, hands=2):
            for action in hand.actions:
                service.apply(action)
        dealt = json.loads(referee.on("/events/tiles_dealt")[-1].payload)["event_id"]
        drawn = json.loads(referee.on("/events/tile_drawn")[-1].payload)["event_id"]
        corrections = [
            {"supersedes": dealt, "replacement": {"action": "deal", "seat": 0,
             "tiles": "123456789m1234p"}, "reason": "dealt tiles re-read"},
            {"supersedes": drawn, "replacement": {"action": "draw", "seat": 1, "tile": "9p"}},
        ]  # fmt: skip
        reply_to = "tilesight/v1/cup/T1/reply/ref"
        referee.subscribe(reply_to)
        for n, body in enumerate(corrections):
            referee.command(
                "tilesight/v1/cup/T1/cmd/correction",
                json.dumps(body),
                reply_to=reply_to,
                correlation=bytes([n]),
            )
        wait_until(lambda: len(service.replies) == 2, 30, f"corrections {service.replies}")
        last = service.engine.position[1]
        wait_until(
            lambda: any(json.loads(m.payload)["seq"] == last for m in overlay.on("/state")),
            10,
            "the overlay caught up",
        )
        time.sleep(0.5)
    finally:
        for probe in (overlay, referee):
            probe.__exit__()
        service.stop()
    public = [m for m in overlay.messages if not m.topic.endswith("/status")]
    leaks = [leak for m in public for leak in concealed_leaks(m.topic, json.loads(m.payload))]
    types = {json.loads(m.payload).get("type") for m in public}
    assert {"tiles_dealt", "tile_drawn", "win_declared", "correction_applied"} <= types, types
    assert not [m.topic for m in overlay.messages if "/private/" in m.topic]
    assert leaks == []
    # the checker does find what the referee may see
    private = [m for m in referee.messages if "/private/" in m.topic]
    assert any(concealed_leaks(m.topic, json.loads(m.payload)) for m in private)
