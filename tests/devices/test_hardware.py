"""Against a real table-agent board: `pytest -m hardware --port /dev/ttyUSB0` (skips without)."""

from __future__ import annotations

import pytest

from devices.codes import State
from devices.driver import TableDriver


@pytest.mark.hardware
def test_real_board_answers_info_status_and_events(request: pytest.FixtureRequest) -> None:
    port = request.config.getoption("--port")
    if not port:
        pytest.skip("no --port given for a real table-agent board")
    with TableDriver(port) as table:
        info = table.get_info()
        assert info.protocol_major == 1
        status = table.status()
        assert isinstance(status.state, State) and status.event_counter != 0
        reply = table.events_since(0)
        assert all(record.counter != 0 for record in reply.records)
