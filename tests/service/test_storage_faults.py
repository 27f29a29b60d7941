"""Storage that fails under a running table (issue 44, finding 3), and outboxes and configs that
cannot be used at start (finding 7): a crash is logged, reported and retried; one that cannot be
cured ends ``tilesight run`` non-zero with ``offline``; start-up errors are one line, exit 2."""

from __future__ import annotations

import json
import resource
import subprocess
from pathlib import Path

import pytest

from tests.service.conftest import TILESIGHT, Probe, wait_until
from tests.service.hostile_helpers import ROOT, send, table_process, wait_online, write_config
from tilesight.demo.broker import MosquittoBroker
from tilesight.supervisor import Supervisor

#: Bytes any file of the process may grow to: the outbox's write-ahead log soon hits it and
#: SQLite's writes fail as on a full disk (Python ignores SIGXFSZ, so write() returns EFBIG).
FILE_SIZE_LIMIT = 400_000


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))


@pytest.mark.slow
def test_a_full_disk_is_reported_and_ends_the_run_non_zero(broker: MosquittoBroker, tmp_path: Path):
    config = write_config(tmp_path, broker.url)
    with Probe(broker.url, "ref") as probe:
        probe.subscribe(f"{ROOT}/#")
        log = tmp_path / "run.log"
        with (
            log.open("w") as sink,
            table_process(config, preexec_fn=_limit_file_size, stdout=sink) as process,
        ):
            wait_online(probe)
            sent = 0
            while process.poll() is None and sent < 300:
                send(probe, "ack", json.dumps({"alert": f"a{sent}"}), b"%d" % sent)
                sent += 1
            process.wait(timeout=60)
        wait_until(lambda: probe.on("T05/status")[-1].payload == b"offline", 10, "offline")
        states = [json.loads(m.payload) for m in probe.on("T05/state")]
    output = log.read_text()
    assert process.returncode == 1, output[-3000:]
    assert "disk I/O error" in output and "giving up: " in output
    assert "stopped: " in output and "stopped cleanly" not in output
    assert any(s["links"].get("outbox") == "offline" for s in states)  # told, where it could be


def test_supervisor_gives_up_on_a_worker_that_keeps_crashing_and_reports_each_crash():
    crashes: list[tuple[str, str]] = []

    def broken(_stop: object) -> None:
        raise OSError("disk I/O error")

    supervisor = Supervisor(min_backoff_s=0.01, max_backoff_s=0.01, max_crashes=3)
    supervisor.on_crash = lambda name, error: crashes.append((name, error))
    supervisor.add("commands", broken)
    supervisor.start()
    wait_until(supervisor.stop_event.is_set, 5, "the supervisor giving up")
    supervisor.stop()
    assert crashes == [("commands", "OSError: disk I/O error")] * 3
    assert supervisor.failure == "commands crashed 3 times in a row (last: OSError: disk I/O error)"


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("outbox_is_a_directory", "cannot open the outbox"),
        ("config_not_utf8", "not UTF-8 text"),
    ],
)
def test_unusable_outbox_or_config_is_one_line_exit_2(setup: str, message: str, tmp_path: Path):
    config = write_config(tmp_path, "mqtt://127.0.0.1:1")
    if setup == "outbox_is_a_directory":
        (tmp_path / "outbox.sqlite").mkdir()
    else:
        config.write_bytes(b'tournament = "caf\xe9"\n')
    result = subprocess.run(
        [TILESIGHT, "run", "--config", str(config)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
