"""Table logs written before runs of tiles became lists and winds 0-3 (table logs v1: ``"123m"``,
``"E"``) still replay to the very events they gave, and rewritten in today's form to the same."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from engine.events import to_json
from engine.procedures import find_procedure
from engine.replay import load_record, replay
from engine.rulesets import find_rules
from engine.table import Table
from engine.tablelog import read_tablelog, write_tablelog

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: sha256 of ``tilesight replay examples/<name>.tablelog`` (the events, one JSON per line) as
#: the code before the one JSON form (commit edaebfe) printed them. broken.tablelog is not here:
#: its chow violation quotes the action, whose ``tiles`` is now a list (docs/events.md).
GOLDEN = {
    "mcr-claims-and-kong": "a2461f65dc68f883de1dcf692864b42333a4e14e011d5a1be669351deea16ca8",
    "wsom-camera": "a4ba535512f3aed895a43d5feced68783c875890995d1e79adb0bed9d82ce91f",
    "wsom-simulated": "cdcdcd68c8de7b3071cc1deb008d5586b14abc66ec6261c50692a109b6107689",
}
#: Fields events gained since, null on these logs' events (docs/events.md, versions).
NEWER_NULL_FIELDS = ("hand_tile_inferred",)


def _events(text: str) -> str:
    record = load_record(text)
    rules = find_rules(record.rules) if record.rules else None
    table = Table(find_procedure(record.procedure or "log"), rules=rules)
    lines = "".join(to_json(event) + "\n" for event in replay(table, record.actions))
    for field in NEWER_NULL_FIELDS:
        lines = lines.replace(f'"{field}":null,', "")
    return lines


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_an_old_log_replays_to_the_events_it_gave(name: str):
    text = (EXAMPLES / f"{name}.tablelog").read_text(encoding="utf-8")
    assert json.loads(text.splitlines()[0])["tablelog"] == 1
    assert hashlib.sha256(_events(text).encode()).hexdigest() == GOLDEN[name]


@pytest.mark.parametrize("name", ["broken", *sorted(GOLDEN)])
def test_an_old_log_rewritten_replays_the_same(name: str):
    old = (EXAMPLES / f"{name}.tablelog").read_text(encoding="utf-8")
    log = read_tablelog(old)
    header = {k: v for k, v in log.header.items() if k != "tablelog"}
    new = write_tablelog(log.actions, header)
    assert new != old and json.loads(new.splitlines()[0])["tablelog"] == 2
    assert '"tiles": "' not in new and '"wall": "' not in new  # runs are lists now
    assert read_tablelog(new).actions == log.actions
    assert _events(new) == _events(old)


def test_an_old_wind_letter_replays_as_its_number():
    lines = (EXAMPLES / "mcr-claims-and-kong.tablelog").read_text(encoding="utf-8").splitlines()
    start = json.loads(lines[1])
    assert start["action"] == "hand_start"
    old = "\n".join([lines[0], json.dumps({**start, "prevalent_wind": "S"}), *lines[2:]])
    new = "\n".join([lines[0], json.dumps({**start, "prevalent_wind": 1}), *lines[2:]])
    events = _events(old)
    assert events == _events(new)
    assert json.loads(events.splitlines()[0])["prevalent_wind"] == 1
