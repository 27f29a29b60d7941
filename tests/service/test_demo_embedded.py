"""``tilesight demo`` on the embedded broker, and how the demo picks its broker."""

from __future__ import annotations

import logging
import re
import subprocess
from pathlib import Path

import pytest

from tests.service.conftest import TILESIGHT
from tests.service.minibroker_helpers import Client
from tilesight.demo import broker as broker_module
from tilesight.demo.broker import BrokerError, choose_broker
from tilesight.score_store import ScoreStore


def test_demo_on_the_embedded_broker_stores_every_seq_exactly_once(tmp_path: Path) -> None:
    scores = tmp_path / "scores.sqlite"
    done = subprocess.run(
        [TILESIGHT, "demo", "--no-vision", "--broker", "embedded", "--hands", "2", "--pace", "0",
         "--quiet", "--scores-db", str(scores)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "started the embedded MQTT 5 broker at mqtt://127.0.0.1:" in out
    assert "Mosquitto" not in out
    published = int(re.search(r"events published this run: (\d+)", out).group(1))  # type: ignore[union-attr]
    assert published > 50
    capture = re.search(r"score capture: (\d+) received, (\d+) duplicates", out)
    assert capture and "INCOMPLETE" not in out, out
    assert int(capture.group(1)) - int(capture.group(2)) == published  # QoS 1 may deliver twice
    assert "Traceback" not in done.stderr
    store = ScoreStore(scores)
    try:
        (stream,) = store.streams("demo")
        assert stream[0] == "T01"
        assert store.seqs("demo", *stream) == list(range(1, published + 1))
    finally:
        store.close()


def test_broker_flag_cannot_be_combined_with_a_broker_url() -> None:
    done = subprocess.run(
        [TILESIGHT, "demo", "--broker", "embedded", "--mqtt", "mqtt://127.0.0.1:1"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--broker embedded" in done.stderr and "Traceback" not in done.stderr


def test_a_configured_url_wins_and_starts_nothing(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tilesight.broker")
    with choose_broker("mqtt://hall.example:1883") as chosen:
        assert (chosen.kind, chosen.url) == ("configured", "mqtt://hall.example:1883")
    assert "using the configured broker mqtt://hall.example:1883" in caplog.text
    with pytest.raises(BrokerError, match="conflict"):
        choose_broker("mqtt://hall.example:1883", "embedded")
    with pytest.raises(BrokerError, match="unknown broker 'rabbit'"):
        choose_broker(None, "rabbit")


def test_without_mosquitto_auto_falls_back_to_the_embedded_broker(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="tilesight.broker")
    monkeypatch.setattr(broker_module, "find_mosquitto", lambda: None)
    with choose_broker(None, "auto") as chosen:
        assert chosen.kind == "embedded"
        port = int(chosen.url.rsplit(":", 1)[1])
        with Client(port, "probe") as probe:  # a real broker answers there
            probe.subscribe("ping")
            probe.publish("ping", b"pong")
            probe.wait_for(b"pong")
    assert "started the embedded MQTT 5 broker" in caplog.text
    with pytest.raises(BrokerError, match="mosquitto is not installed"):
        choose_broker(None, "mosquitto")


def test_auto_prefers_an_installed_mosquitto() -> None:
    if broker_module.find_mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    with choose_broker(None, "auto") as chosen:
        assert chosen.kind == "mosquitto"
        assert chosen.description.startswith("started a private Mosquitto at mqtt://127.0.0.1:")
