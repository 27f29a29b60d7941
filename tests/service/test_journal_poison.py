"""A poisoned journal (issue 44, finding 2): out-of-range actions are refused before they are
journaled, and an entry already in the journal that cannot be applied is quarantined with an
alert at the next start, never replayed into a crash loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.service.conftest import Probe, wait_until
from tests.service.hostile_helpers import (
    ROOT,
    finish,
    replies,
    send,
    table_process,
    wait_online,
    write_config,
)
from tilesight.demo.broker import MosquittoBroker
from tilesight.outbox import Outbox

GOOD = [
    '{"action": "hand_start", "dealer": 0, "at": 1767225600.0}',
    *(f'{{"action": "deal", "seat": {s}, "count": 13, "at": 1767225601.0}}' for s in range(4)),
]
POISON = [
    '{"action": "draw", "seat": 0, "at": 1e400}',
    '{"action": "deal", "seat": 1, "count": 1000000000, "at": 1767225602.0}',
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
]


def _faults(probe: Probe) -> list[dict]:
    return [json.loads(m.payload) for m in probe.on("/events/table_fault")]


@pytest.mark.slow
def test_a_poisoned_journal_is_quarantined_and_the_table_starts(
    broker: MosquittoBroker, tmp_path: Path
):
    config = write_config(tmp_path, broker.url)
    outbox = Outbox(tmp_path / "outbox.sqlite")
    for text in [*GOOD, *POISON, '{"action": "draw", "seat": 0, "at": 1767225603.0}']:
        outbox.journal("T05", 1, text)
    outbox.close()
    with Probe(broker.url, "ref") as probe:
        probe.subscribe(f"{ROOT}/#")
        with table_process(config) as first:
            wait_online(probe)
            wait_until(lambda: len(_faults(probe)) == len(POISON), 15, "one alert per entry")
            state = json.loads(probe.on("T05/state")[-1].payload)
            first_output = finish(first)
        faults = _faults(probe)
        probe.messages.clear()
        with table_process(config) as second:
            wait_online(probe)
            wait_until(lambda: probe.on("T05/state"), 10, "the state again")
            again = json.loads(probe.on("T05/state")[-1].payload)
            second_output = finish(second)
    quarantined = Outbox(tmp_path / "outbox.sqlite").quarantined("T05")
    assert first.returncode == 0 and second.returncode == 0, first_output + second_output
    assert {f["code"] for f in faults} == {"journal_quarantined"}
    assert [action for action, _ in quarantined] == POISON
    assert state["game"]["hand"]["wall"]["drawn"] == 1  # the good draw after the poison applied
    assert (again["epoch"], again["seq"]) == (state["epoch"], state["seq"])  # same game, no more
    assert "quarantined" not in second_output
    assert "Traceback" not in first_output + second_output


@pytest.mark.slow
def test_out_of_range_actions_are_refused_before_the_journal(
    broker: MosquittoBroker, tmp_path: Path
):
    config = write_config(tmp_path, broker.url)
    bad = {
        b"inf": b'{"action": {"action": "hand_start", "dealer": 0, "at": 1e400}}',
        b"big": b'{"action": {"action": "deal", "seat": 0, "count": 1000000000}}',
        b"far": b'{"action": {"action": "washout", "at": 1e30}}',
        b"digits": b'{"action": {"action": "discard", "seat": 1, "tile": "5m", "row": '
        + b"9" * 5000
        + b"}}",
    }
    with Probe(broker.url, "ref") as probe:
        probe.subscribe(f"{ROOT}/#")
        with table_process(config) as process:
            wait_online(probe)
            for corr, payload in bad.items():
                send(probe, "action", payload, corr)
            send(probe, "action", b'{"action": {"action": "hand_start", "dealer": 0}}', b"ok")
            wait_until(lambda: len(replies(probe)) == len(bad) + 1, 15, "every answer")
            output = finish(process)
    answers = replies(probe)
    journal = Outbox(tmp_path / "outbox.sqlite").journaled("T05")
    assert all(answers[corr]["ok"] is False for corr in bad), answers
    assert "count must be 0..20" in answers[b"big"]["error"]
    assert "Unix seconds" in answers[b"far"]["error"]
    assert answers[b"ok"]["ok"] is True
    assert journal is not None
    assert [json.loads(a)["action"] for a in journal[1]] == ["hand_start", "command_record"]
    assert process.returncode == 0 and "Traceback" not in output
