"""A journal written before the one JSON form (runs of tiles as ``"123m"``, winds as letters)
replays to the very events and public state it gave, and to the same as today's journal."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine.actions import action_from_dict, action_to_dict
from tests.engine.test_old_logs import NEWER_NULL_FIELDS
from tests.service.conftest import make_service
from tilesight.outbox import Outbox
from tilesight.table_engine import TableEngine

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mcr-claims-and-kong.tablelog"
#: sha256 of the events (topic and payload) and public snapshot that the journal below replayed
#: to with the code before the one JSON form (commit edaebfe).
GOLDEN = "aa0025049fdc5225ec3114829cf2e57e6d72647519248eac60d3fba0dbb6c888"


def _old_journal() -> list[str]:
    """The example hand as an old journal held it, its hand_start with a wind letter."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()[1:]
    lines[0] = json.dumps({**json.loads(lines[0]), "prevalent_wind": "S"})
    return lines


def _replayed(journal: list[str]) -> str:
    outbox = Outbox(":memory:")
    for text in journal:
        outbox.journal("T05", 1, text)
    engine = TableEngine(table_id="T05", procedure="log", rules="mcr")
    service = make_service("mqtt://127.0.0.1:1", "T05", tournament="hall", engine=engine,
                           outbox=outbox, journal=True)  # fmt: skip
    assert service.restore() == len(journal)
    assert outbox.quarantined("T05") == []
    rows = outbox.between("T05", 1, 1, 10**6)
    outbox.close()
    events = "".join(f"{row.topic} {row.payload}\n" for row in rows)
    for field in NEWER_NULL_FIELDS:  # fields events gained since, null on this hand's
        events = events.replace(f'"{field}":null,', "")
    return events + json.dumps(engine.snapshot(), sort_keys=True)


def test_an_old_journal_replays_to_what_it_gave():
    old = _old_journal()
    assert any('"tiles": "' in line for line in old) and '"prevalent_wind": "S"' in old[0]
    replayed = _replayed(old)
    assert '"prevalent_wind":1' in replayed
    assert hashlib.sha256(replayed.encode()).hexdigest() == GOLDEN


def test_an_old_journal_replays_as_todays_does():
    old = _old_journal()
    today = [json.dumps(action_to_dict(action_from_dict(json.loads(line)))) for line in old]
    assert today != old and not any('"tiles": "' in line for line in today)
    assert _replayed(today) == _replayed(old)
