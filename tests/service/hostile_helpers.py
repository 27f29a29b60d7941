"""Helpers for the hostile-input tests: a ``tilesight run`` process and its configuration."""

from __future__ import annotations

import json
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.service.conftest import TILESIGHT, Probe, wait_until

ROOT = "tilesight/v1/hall/T05"
REPLY = f"{ROOT}/reply/ref"


def write_config(tmp_path: Path, broker_url: str, extra: str = "", **mqtt: str) -> Path:
    config = tmp_path / "table.toml"
    mqtt_lines = "".join(f'{k} = "{v}"\n' for k, v in mqtt.items())
    config.write_text(
        f'tournament = "hall"\ntable = "T05"\nlog_level = "INFO"\n{extra}'
        f'[mqtt]\nurl = "{broker_url}"\nwill_delay_s = 0\n{mqtt_lines}'
        f'[outbox]\npath = "{tmp_path / "outbox.sqlite"}"\n'
    )
    return config


@contextmanager
def table_process(config: Path, **popen: Any) -> Iterator[subprocess.Popen[str]]:
    """``tilesight run --config``; SIGTERM (then SIGKILL) when the block ends."""
    options: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT}
    process = subprocess.Popen(
        [TILESIGHT, "run", "--config", str(config)], text=True, **(options | popen)
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def finish(process: subprocess.Popen[str]) -> str:
    """Stop a table process with SIGTERM; its whole output."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    output, _ = process.communicate(timeout=30)
    return output


def wait_online(probe: Probe, timeout: float = 20) -> None:
    wait_until(
        lambda: bool(probe.on("T05/status")) and probe.on("T05/status")[-1].payload == b"online",
        timeout,
        "the table online",
    )


def replies(probe: Probe, suffix: str = "/reply/ref") -> dict[bytes, dict[str, Any]]:
    """Command answers by correlation data (resync replays, which have no ``ok``, left out)."""
    out: dict[bytes, dict[str, Any]] = {}
    for message in probe.on(suffix):
        body = json.loads(message.payload)
        if "ok" in body:
            out[bytes(message.properties.CorrelationData)] = body
    return out


def all_replies(probe: Probe, suffix: str = "/reply/ref") -> list[tuple[bytes, dict[str, Any]]]:
    return [
        (bytes(m.properties.CorrelationData), json.loads(m.payload))
        for m in probe.on(suffix)
        if "ok" in json.loads(m.payload)
    ]


def send(
    probe: Probe,
    verb: str,
    payload: str | bytes,
    correlation: bytes,
    *,
    command_id: str | None = None,
    reply_to: str | None = REPLY,
    root: str = ROOT,
) -> int:
    """Publish a command (QoS 1, waits for the PUBACK); its PUBACK reason code."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    props = Properties(PacketTypes.PUBLISH)
    if reply_to:
        props.ResponseTopic = reply_to
    props.CorrelationData = correlation
    if command_id is not None:
        props.UserProperty = [("account", "ref"), ("command_id", command_id)]
    info = probe.client.publish(f"{root}/cmd/{verb}", payload, qos=1, properties=props)
    wait_until(lambda: info.mid in probe.acks, 10, "PUBACK")
    return int(probe.acks[info.mid].value)
