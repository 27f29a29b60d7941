"""Referee corrections at a Gouji table (``cmd/correction``): ``tilesight run`` with a real
Mosquitto, a camera misread (a lone ``Td`` read as ``Tc Td``) corrected, the
``correction_applied`` event and the new state published; an unknown event and an illegal
replacement refused with an error and the state unchanged; a restart replays the correction from
the journal; and a card camera reads on from the corrected state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.actions import Correction
from engine.gouji.match_table import GoujiTable
from engine.gouji.table_events import GoujiPlay, GoujiStart
from tests.gouji.test_corrections import HANDS
from tests.service.conftest import Probe, make_service, wait_until
from tests.service.test_gouji_run import ROOT, _start, _state, _stop
from tilesight.card_feed import CardFeed
from tilesight.config import ServiceConfig
from tilesight.demo.broker import MosquittoBroker
from vision.card_seats import SeatZones
from vision.cards import CardRead

REPLY = f"{ROOT}/reply/ref"
DEAL = {"action": "gouji_start", "hands": list(HANDS), "leader": 0}
READ = [  # as a card camera would have read them: the lead misread, the answers refused
    {"action": "gouji_play", "seat": 0, "cards": "Tc Td", "camera": True},
    {"action": "gouji_play", "seat": 1, "cards": "J", "camera": True},
    {"action": "gouji_play", "seat": 2, "cards": "Q", "camera": True},
]


class Referee:
    """Sends commands and waits for each answer."""

    def __init__(self, probe: Probe) -> None:
        self.probe, self.sent = probe, 0

    def send(self, verb: str, body: dict[str, Any]) -> dict[str, Any]:
        self.sent += 1
        n = self.sent
        self.probe.command(
            f"{ROOT}/cmd/{verb}", json.dumps(body), reply_to=REPLY, correlation=str(n).encode()
        )
        wait_until(lambda: self._reply(n) is not None, 15, f"the answer to {verb} {body}")
        reply = self._reply(n)
        assert reply is not None
        return reply

    def _reply(self, n: int) -> dict[str, Any] | None:
        for message in self.probe.on("/reply/ref"):
            if message.properties.CorrelationData == str(n).encode():
                return dict(json.loads(message.payload))
        return None


def _config(tmp_path: Path, broker: MosquittoBroker) -> Path:
    config = tmp_path / "gouji.toml"
    config.write_text(
        f'tournament = "hall"\ntable = "G1"\ngame = "gouji"\n'
        f'[mqtt]\nurl = "{broker.url}"\nwill_delay_s = 0\n'
        f'[outbox]\npath = "{tmp_path / "outbox.sqlite"}"\n'
    )
    return config


def _plays(state: dict[str, Any]) -> list[tuple[int, list[str]]]:
    return [(p["seat"], p["cards"]) for p in state["game"]["trick"]["plays"]]


@pytest.mark.slow
def test_a_misread_play_corrected_over_cmd_correction(
    broker: MosquittoBroker, tmp_path: Path
) -> None:
    config = _config(tmp_path, broker)
    with Probe(broker.url, "ref") as probe:
        probe.subscribe(f"{ROOT}/#")
        referee = Referee(probe)
        process = _start(config)
        try:
            wait_until(lambda: probe.on(f"{ROOT}/state"), 20, "the first state")
            for action in [DEAL, *READ]:
                assert referee.send("action", {"action": action})["ok"]
            misread = json.loads(probe.on("/events/cards_played")[0].payload)
            assert misread["cards"] == ["Tc", "Td"] and misread["camera"] is True
            wait_until(lambda: _state(probe)["seq"] >= 8, 10, "the state after the plays")
            before = _state(probe)["game"]

            unknown = referee.send("correction", {"supersedes": "no-such-event"})
            assert unknown["ok"] is False and "'no-such-event'" in unknown["error"], unknown
            illegal = {"action": "gouji_play", "seat": 0, "cards": "Td Td Td"}
            body = {"supersedes": misread["event_id"], "replacement": illegal}
            refused = referee.send("correction", body)
            assert refused["ok"] is False, refused
            assert "correction not applied: correction refused" in refused["error"]
            assert "cards_not_in_hand" in refused["error"]
            assert not probe.on("/events/correction_applied")
            assert _state(probe)["game"] == before

            fix = {"action": "gouji_play", "seat": 0, "cards": "Td"}
            reason = "a lone Td, misread"
            body = {"supersedes": misread["event_id"], "replacement": fix, "reason": reason}
            assert referee.send("correction", body)["ok"]
            wait_until(lambda: probe.on("/events/correction_applied"), 10, "correction_applied")
            applied = json.loads(probe.on("/events/correction_applied")[0].payload)
            assert applied["schema"] == "tilesight.gouji-event/1"
            assert applied["supersedes"] == misread["event_id"]
            assert applied["replacement"] == fix and applied["reason"] == reason
            wait_until(lambda: _state(probe)["seq"] >= applied["seq"], 10, "the new state")
            state = _state(probe)
            assert _plays(state) == [(0, ["Td"]), (1, ["J"]), (2, ["Q"])]
            assert [s["cards_left"] for s in state["game"]["seats"]] == [4, 4, 4, 5, 5, 5]
            assert state["game"]["turn"] == 3
            private = json.loads(probe.on("/private/state")[-1].payload)
            assert private["hands"][0] == ["Tc", "9s", "9h", "K"]
            # the game goes on from the corrected state
            play = {"action": "gouji_play", "seat": 3, "cards": "K", "camera": True}
            assert referee.send("action", {"action": play})["ok"]
        finally:
            _stop(process)
        after = _state(probe)["game"]
        process = _start(config)  # the journal replays the correction
        try:
            wait_until(lambda: any(m.payload == b"online" for m in probe.on("/status")[-1:]), 20)
            wait_until(lambda: _state(probe)["game"] == after, 10, "the state after a restart")
        finally:
            _stop(process)
    assert [p[0] for p in _plays(_state(probe))] == [0, 1, 2, 3]
    violations = [json.loads(m.payload) for m in probe.on("/private/events/violation")]
    kinds = [v["kind"] for v in violations]
    assert kinds.count("unknown_event") == 1 and kinds.count("correction_refused") == 1, kinds


def _frame(zones: dict[int, tuple[str, ...]]) -> list[CardRead]:
    """One frame's reads: ``zones[seat]`` laid in seat ``seat``'s box (100 px wide)."""
    reads = []
    for seat, codes in zones.items():
        for n, code in enumerate(codes):
            x, y = seat * 100 + 20 + 20 * n, 50
            quad = np.array([[x - 5, y - 7], [x + 5, y - 7], [x + 5, y + 7], [x - 5, y + 7]], float)
            reads.append(CardRead(code, quad, 0.9, ()))
    return reads


def test_the_card_camera_reads_on_from_a_corrected_state(broker: MosquittoBroker) -> None:
    service = make_service(broker.url, "G1", engine=GoujiTable(table_id="G1"))
    config = ServiceConfig.model_validate(
        {"tournament": "hall", "table": "G1", "game": "gouji", "cameras": [{"source": "0"}]}
    )
    feed = CardFeed(config, service)
    zones = SeatZones.from_boxes([(100 * s, 0, 100 * s + 100, 100) for s in range(6)])
    service.apply(GoujiStart(hands=HANDS, leader=0))
    for _ in range(3):  # a lone Td misread as Tc Td, steady
        feed.see(_frame({0: ("Tc", "Td")}), zones)
    assert feed.plays == 1
    misread = service.engine.history.first_event[1]
    assert misread is not None
    fix = Correction(supersedes=misread, replacement=GoujiPlay(seat=0, cards="Td"))
    assert [e.type for e in service.apply(fix)] == ["correction_applied"]
    assert feed.on_table() == [["Td"], [], [], [], [], []]  # what a reopened camera primes with
    before = service.engine.seq
    for _ in range(3):  # the misread goes on, then the camera reads it right: no new play
        feed.see(_frame({0: ("Tc", "Td")}), zones)
    for _ in range(4):
        feed.see(_frame({0: ("Td",)}), zones)
    assert feed.plays == 1 and service.engine.seq == before
    for _ in range(3):  # seat 2 plays: seat 1's pass is inferred from the corrected game
        feed.see(_frame({0: ("Td",), 2: ("Q",)}), zones)
    assert feed.plays == 2
    rows = service.outbox.between("G1", 1, before + 1, before + 10)
    assert [row.type for row in rows] == ["passed", "cards_played"], rows
    assert [s["cards_left"] for s in service.engine.snapshot()["seats"]] == [4, 5, 4, 5, 5, 5]
    assert feed.on_table() == [["Td"], [], ["Q"], [], [], []]
