"""Config, topics and outbox: the pieces without a broker."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.table.events import HandEnded
from tests.service.conftest import REPO_ROOT
from tilesight.config import ConfigError, load_config, parse_mqtt_url
from tilesight.outbox import Outbox
from tilesight.topics import TableTopics, TopicError, parse_topic, shared, tournament_filter


@pytest.mark.parametrize("name", ["table.toml", "minimal.toml", "gouji.toml"])
def test_example_configs_load(name: str):
    config = load_config(REPO_ROOT / "examples" / "config" / name)
    assert config.table == "T01"


def test_config_rejects_unknown_keys_and_bad_ids(tmp_path: Path):
    path = tmp_path / "c.toml"
    path.write_text('tournament = "x"\ntable = "T1"\n[mqtt]\nurl = "mqtt://h"\nport = 3\n')
    with pytest.raises(ConfigError, match=r"mqtt\.port: Extra inputs are not permitted"):
        load_config(path)
    path.write_text('tournament = "x/y"\ntable = "T1"\n')
    with pytest.raises(ConfigError, match="'x/y'"):
        load_config(path)
    path.write_text("tournament = [")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_every_config_field_is_described():
    from tilesight import config as cfg

    models = [
        cfg.ServiceConfig,
        cfg.MqttConfig,
        cfg.TlsConfig,
        cfg.CameraConfig,
        cfg.DetectorConfig,
        cfg.TablePortConfig,
        cfg.OutboxConfig,
        cfg.CalibrationConfig,
    ]
    for model in models:
        for name, info in model.model_fields.items():
            assert info.description, f"{model.__name__}.{name} has no description"


def test_mqtt_url_credentials_from_url_or_environment(monkeypatch: pytest.MonkeyPatch):
    endpoint = parse_mqtt_url("mqtts://ref%40hall:p%3Ass@broker:8884")
    assert (endpoint.host, endpoint.port, endpoint.tls) == ("broker", 8884, True)
    assert (endpoint.username, endpoint.password) == ("ref@hall", "p:ss")
    monkeypatch.setenv("U_ENV", "T01")
    monkeypatch.setenv("P_ENV", "secret")
    endpoint = parse_mqtt_url("ws://broker", "U_ENV", "P_ENV")
    assert (endpoint.port, endpoint.websockets, endpoint.username) == (80, True, "T01")
    assert endpoint.password == "secret" and "secret" not in os.environ.get("X", "")
    with pytest.raises(ConfigError, match="'http://x'"):
        parse_mqtt_url("http://x")


def test_topics_round_trip():
    topics = TableTopics("open-2026", "T01")
    assert topics.event("tile_discarded") == "tilesight/v1/open-2026/T01/events/tile_discarded"
    for topic, kind, leaf in [
        (topics.status, "status", ""),
        (topics.cmd("resync"), "cmd", "resync"),
        (topics.reply("c1"), "reply", "c1"),
        (topics.private("state"), "private", "state"),
    ]:
        parsed = parse_topic(topic)
        assert (parsed.tournament, parsed.table, parsed.kind, parsed.leaf) == (
            "open-2026",
            "T01",
            kind,
            leaf,
        )
    # referee-only events live under private/, out of reach of an overlay's events/# grant
    assert topics.event("violation") == "tilesight/v1/open-2026/T01/private/events/violation"
    parsed = parse_topic(topics.event("violation"))
    assert (parsed.kind, parsed.leaf) == ("private", "events/violation")
    assert shared("g", tournament_filter("open-2026", "events/#")) == (
        "$share/g/tilesight/v1/open-2026/+/events/#"
    )
    with pytest.raises(TopicError, match="'T/1'"):
        TableTopics("x", "T/1")


@given(st.text(max_size=80))
def test_parse_topic_fuzz(topic: str):
    try:
        parsed = parse_topic(topic)
    except TopicError as exc:
        assert repr(topic) in str(exc)
    else:
        assert topic.startswith("tilesight/v1/") and parsed.kind


def _ended(seq: int, table: str = "T1") -> HandEnded:
    return HandEnded(
        event_id=f"id-{table}-{seq}",
        table=table,
        epoch=1,
        seq=seq,
        timestamp=1.0,
        hand_number=seq,
        result="washout",
    )


def test_outbox_survives_restart_and_refuses_duplicates(tmp_path: Path):
    path = tmp_path / "outbox.sqlite"
    outbox = Outbox(path)
    rows = [outbox.append(_ended(seq), "t/events/hand_ended") for seq in (1, 2, 3)]
    assert all(rows)
    outbox.mark_sent(rows[0].rowid)  # type: ignore[union-attr]
    outbox.close()
    reopened = Outbox(path)
    assert [r.seq for r in reopened.unsent()] == [2, 3]
    assert reopened.append(_ended(2), "t/events/hand_ended") is None  # same (table, epoch, seq)
    assert reopened.last_position("T1") == (1, 3) and reopened.last_position("T9") is None
    assert [r.seq for r in reopened.between("T1", 1, 2, 9)] == [2, 3]
    assert reopened.counts() == (3, 2)
    reopened.close()


def test_outbox_commits_are_fsynced(tmp_path: Path):
    """WAL with synchronous=FULL: a commit is on disk before it returns, so an event the service
    counted as stored survives a power cut (NORMAL may lose the last commits)."""
    outbox = Outbox(tmp_path / "outbox.sqlite")
    pragma = outbox._db.execute  # the outbox's own connection: the setting is per connection
    assert pragma("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert pragma("PRAGMA synchronous").fetchone()[0] == 2  # 2 = FULL, 1 = NORMAL
    outbox.close()


def _hand_dict(seq: int, hand: int, deltas: list[int], epoch: int = 1) -> dict:
    return {
        "schema": "tilesight.event/1",
        "type": "hand_ended",
        "event_id": f"e{epoch}-{seq}",
        "table": "T1",
        "epoch": epoch,
        "seq": seq,
        "timestamp": 1.0,
        "hand_number": hand,
        "result": "win",
        "winners": [deltas.index(max(deltas))],
        "deltas": deltas,
        "penalties": [0, 0, 0, 0],
        "scores": deltas,
    }


def test_score_store_is_idempotent_and_takes_the_latest_result_of_a_hand():
    from tilesight.score_store import ScoreStore, standings_csv

    store = ScoreStore(":memory:")
    first = _hand_dict(5, 1, [24, -8, -8, -8])
    corrected = _hand_dict(9, 1, [-8, 24, -8, -8])  # the same hand after a correction
    assert store.store("cup", corrected)
    assert store.store("cup", first)  # arrives late: stored as an event, not as the result
    assert not store.store("cup", first)  # a duplicate changes nothing
    assert store.store("cup", _hand_dict(3, 1, [30, -10, -10, -10], epoch=2))  # new epoch
    assert store.event_count("cup") == 3
    points = {s.seat: s.points for s in store.standings("cup")}
    assert points == {0: 22, 1: 14, 2: -18, 3: -18}
    assert sum(points.values()) == 0
    assert standings_csv(store.standings("cup")).splitlines()[1] == "1,T1,0,2,1,22"


def test_stream_tracks_holes_in_seq():
    from tilesight.score_streams import StreamProgress

    stream = StreamProgress()
    for seq in (1, 2, 5, 7):
        stream.add(seq)
    assert (stream.contiguous, stream.end) == (2, 7)
    stream.announced = 9  # the retained state says the table reached seq 9
    assert stream.end == 9
    for seq in (3, 4, 6, 8, 9, 9):
        stream.add(seq)
    assert (stream.contiguous, stream.end, stream.seen) == (9, 9, set())
