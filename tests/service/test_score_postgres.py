"""The score store's two backends against the real local PostgreSQL (and SQLite): the same
idempotency and standings, concurrent writers that never double-count, consumers of a shared
subscription writing one hall database, and ``tilesight scores --db postgresql://...``.

Each test works in its own schema, dropped afterwards; skipped when PostgreSQL is unreachable.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.conftest import TILESIGHT, wait_until
from tilesight.config import parse_mqtt_url
from tilesight.demo.broker import MosquittoBroker
from tilesight.score_store import (
    BaseScoreStore,
    ScoreStore,
    StoreUnavailableError,
    is_postgres_url,
    open_store,
)

#: Override with TILESIGHT_TEST_POSTGRES (a server where the test may create schemas).
BASE_URL = os.environ.get("TILESIGHT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture
def pg_url() -> Iterator[str]:
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(BASE_URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as exc:
        pytest.skip(f"PostgreSQL unreachable at {BASE_URL}: {exc}")
    schema = f"tilesight_test_{uuid.uuid4().hex[:12]}"
    try:
        yield f"{BASE_URL}?schema={schema}"
    finally:
        admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.close()


@pytest.fixture(params=["sqlite", "postgres"])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "scores.sqlite")
    return str(request.getfixturevalue("pg_url"))


def _event(seq: int, kind: str = "tile_discarded", table: str = "T1", epoch: int = 1) -> dict:
    return {
        "schema": "tilesight.event/1",
        "type": kind,
        "event_id": f"{table}-{epoch}-{seq:05d}",
        "table": table,
        "epoch": epoch,
        "seq": seq,
        "timestamp": 1.0 * seq,
    }


def _hand(seq: int, hand: int, deltas: list[int], table: str = "T1", epoch: int = 1) -> dict:
    winners = [s for s, d in enumerate(deltas) if d > 0]
    return _event(seq, "hand_ended", table, epoch) | {
        "hand_number": hand,
        "result": "win",
        "winners": winners,
        "deltas": deltas,
        "penalties": [0, 0, 0, 0],
        "scores": deltas,
    }


def _tournament_events() -> list[dict]:
    """Two tables, three hands, a corrected hand (two hand_ended, the later one counts)."""
    events = []
    for table, results in (("T1", [[24, -8, -8, -8], [-8, 24, -8, -8]]), ("T2", [[0, 0, 0, 0]])):
        seq = 0
        for number, deltas in enumerate(results, start=1):
            for _ in range(3):
                seq += 1
                events.append(_event(seq, table=table))
            seq += 1
            events.append(_hand(seq, number, deltas, table=table))
    events.append(_hand(20, 2, [-8, -8, 24, -8]))  # T1 hand 2 after a correction
    return events


def _summary(store: BaseScoreStore) -> list[tuple[str, int, int, int, int]]:
    return [(s.table, s.seat, s.hands, s.wins, s.points) for s in store.standings("cup")]


def test_both_backends_keep_the_same_contract(store_target: str):
    store = open_store(store_target)
    assert isinstance(store, ScoreStore) != is_postgres_url(store_target)
    try:
        events = _tournament_events()
        assert all(store.store("cup", e) for e in events)
        assert not any(store.store("cup", e) for e in events)  # replays change nothing
        clash = _event(2) | {"event_id": "another-id"}  # a different id for a stored seq
        assert not store.store("cup", clash)
        assert store.event_count("cup") == len(events)
        assert store.seqs("cup", "T1", 1) == [*range(1, 9), 20]
        assert sorted(store.streams("cup")) == [("T1", 1), ("T2", 1)]
        hands = store.hands("cup")
        assert [(h["table"], h["hand_number"], h["winners"]) for h in hands] == [
            ("T1", 1, [0]),
            ("T1", 2, [2]),  # the correction's result, not the first one
            ("T2", 1, []),
        ]
        assert _summary(store)[0] == ("T1", 0, 2, 1, 16)
        assert sum(points for *_, points in _summary(store)) == 0
        with pytest.raises(KeyError):
            store.store("cup", {"type": "hand_ended"})  # malformed: refused, nothing stored
        assert store.event_count("cup") == len(events)
    finally:
        store.close()


def test_concurrent_writers_on_postgres_never_double_count(pg_url: str):
    """Four consumers (each its own connection) store the same events at once, each in its own
    shuffled order, as duplicates do after resyncs: every event is fresh exactly once."""
    events = _tournament_events()  # each writer sends all of them
    stores = [open_store(pg_url) for _ in range(4)]
    fresh: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(len(stores))

    def write(store: BaseScoreStore, seed: int) -> None:
        mine = list(events)
        random.Random(seed).shuffle(mine)
        start.wait()
        count = sum(store.store("cup", e) for e in mine)
        with lock:
            fresh.append(count)

    threads = [threading.Thread(target=write, args=(s, n)) for n, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        assert sum(fresh) == len(events), fresh
        reference = ScoreStore(":memory:")
        for event in events:
            reference.store("cup", event)
        assert _summary(stores[0]) == _summary(reference)
        assert stores[1].event_count("cup") == len(events)
    finally:
        for store in stores:
            store.close()


def test_shared_subscription_consumers_write_one_postgres_database(
    broker: MosquittoBroker, pg_url: str, tmp_path: Path
):
    from tilesight.demo.play import DemoOptions, run_demo
    from tilesight.scores import ScoreConsumer

    consumers = [
        ScoreConsumer(parse_mqtt_url(broker.url), "cup", open_store(pg_url), name=name)
        for name in ("pg-a", "pg-b")
    ]
    for consumer in consumers:
        consumer.start()
    store = open_store(pg_url)
    try:
        for consumer in consumers:
            wait_until(consumer.connected.is_set, 10, "consumer connection")
        options = DemoOptions(
            mqtt=broker.url,
            tournament="cup",
            hands=2,
            seed=6,
            pace_s=0,
            quiet=True,
            consumer=False,
            outbox=tmp_path / "o.sqlite",
        )
        summary = run_demo(options, io.StringIO())
        wait_until(
            lambda: store.seqs("cup", "T01", 1) == list(range(1, summary.events + 1)),
            30,
            "the whole stream in the hall database",
        )
        received = [c.received for c in consumers]
    finally:
        for consumer in consumers:
            consumer.stop()
            consumer.store.close()
    try:
        assert all(received), received  # the broker gave each consumer a share
        assert store.event_count("cup") == summary.events
        hands = store.hands("cup")
        assert len(hands) == 2
        assert sum(s.points for s in store.standings("cup")) == 0
        assert [h["scores"] for h in hands][-1] == [
            sum(h["deltas"][seat] for h in hands) for seat in range(4)
        ]
    finally:
        store.close()


def test_scores_cli_reads_standings_from_postgres(pg_url: str):
    store = open_store(pg_url)
    for event in _tournament_events():
        store.store("cup", event)
    expected = _summary(store)
    store.close()
    out = subprocess.run(
        [TILESIGHT, "scores", "--tournament", "cup", "--db", pg_url, "--offline"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1 + len(expected)
    assert lines[1].split() == ["1", "T1", "0", "2", "1", "+16"]


def test_an_unreachable_or_bad_database_is_a_clear_error_not_a_traceback(tmp_path: Path):
    pytest.importorskip("psycopg")
    cases = [
        ("postgresql://nobody:s3cret@127.0.0.1:1/none", "'postgresql://nobody:***@127.0.0.1"),
        ("postgresql://postgres@127.0.0.1:5432/test?schema=bad;name", "'bad;name'"),
        (str(tmp_path / "missing-dir" / "x.sqlite"), "unable to open"),
    ]
    for target, expected in cases:
        out = subprocess.run(
            [TILESIGHT, "scores", "--tournament", "cup", "--db", target, "--offline"],
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode != 0
        assert expected in out.stderr, out.stderr
        assert "Traceback" not in out.stderr and "s3cret" not in out.stderr
    with pytest.raises(StoreUnavailableError):
        open_store("postgresql://nobody@127.0.0.1:1/none")
