"""Credentials (issue 44, finding 6): never printed nor served; a wrong password is reported as
such, once, and the process stops instead of retrying forever."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path

from tests.service.conftest import TILESIGHT
from tests.service.hostile_helpers import table_process, write_config
from tests.service.test_acl import ACCOUNTS, secured_broker  # noqa: F401 - fixture
from tilesight.demo.broker import MosquittoBroker


def _demo(url: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TILESIGHT, "demo", "--mqtt", url, "--tournament", "cup", "--table", "T1", "--hands",
         "1", "--pace", "0", "--no-vision", "--no-consumer", "--outbox", str(tmp_path / "o.db")],
        check=False, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_demo_never_prints_its_password_and_stops_on_a_wrong_one(
    secured_broker: MosquittoBroker,  # noqa: F811 - the fixture
    tmp_path: Path,
):
    port = secured_broker.port
    good = _demo(f"mqtt://T1:{ACCOUNTS['T1']}@127.0.0.1:{port}", tmp_path)
    started = time.monotonic()
    wrong = _demo(f"mqtt://T1:wrong-secret@127.0.0.1:{port}", tmp_path / "w")
    took = time.monotonic() - started
    assert good.returncode == 0, good.stdout + good.stderr
    assert ACCOUNTS["T1"] not in good.stdout + good.stderr
    assert wrong.returncode == 2, wrong.stdout + wrong.stderr
    assert "not authorised (a wrong password" in wrong.stderr
    assert "wrong-secret" not in wrong.stdout + wrong.stderr
    assert took < 8  # told at the first refusal, not after a wait and retries


def test_run_with_a_wrong_password_exits_non_zero_saying_why(
    secured_broker: MosquittoBroker,  # noqa: F811 - the fixture
    tmp_path: Path,
):
    config = write_config(tmp_path, f"mqtt://T05:wrong-secret@127.0.0.1:{secured_broker.port}")
    with table_process(config) as process:
        output, _ = process.communicate(timeout=30)
    assert process.returncode == 1, output
    assert "refused the table: not authorised" in output and "giving up" in output
    assert "wrong-secret" not in output


def test_web_neither_prints_nor_serves_broker_credentials():
    process = subprocess.Popen(
        [TILESIGHT, "web", "--port", "0", "--duration", "20",
         "--broker", "wss://overlay:ov-secret@hall.example:9001"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        base = lines[0].split()[1].split("/overlay.html")[0]
        with urllib.request.urlopen(f"{base}/defaults.json", timeout=10) as answer:
            defaults = json.loads(answer.read())
    finally:
        process.terminate()
        rest, _ = process.communicate(timeout=20)
    printed = "".join(lines) + rest
    assert defaults["broker"] == "wss://hall.example:9001"
    assert "ov-secret" not in printed and "wss://overlay:***@hall.example:9001" in printed
