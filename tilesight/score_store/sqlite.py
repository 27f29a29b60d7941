"""The embedded default: one SQLite file a hall can copy; several consumers may share it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from tilesight.score_store.base import (
    SCHEMA_STATEMENTS,
    BaseScoreStore,
    Executor,
    StoreUnavailableError,
)


class ScoreStore(BaseScoreStore):
    """SQLite backend (``path`` may be ``:memory:``)."""

    def __init__(self, path: Path | str) -> None:
        super().__init__()
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses nothing committed
            self._db.execute("PRAGMA busy_timeout=5000")  # several consumers may share the file
            for statement in SCHEMA_STATEMENTS:
                self._db.execute(statement)
        except sqlite3.Error as exc:
            raise StoreUnavailableError(f"SQLite {str(path)!r}: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _transaction(self) -> AbstractContextManager[Executor]:
        return self._immediate()

    @contextmanager
    def _immediate(self) -> Iterator[Executor]:
        try:
            self._db.execute("BEGIN IMMEDIATE")  # the write lock first: no deadlock upgrade
        except sqlite3.OperationalError as exc:
            raise StoreUnavailableError(f"SQLite: {exc}") from exc
        try:
            yield self._db.execute
            self._db.execute("COMMIT")
        except BaseException as exc:
            self._db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError):
                raise StoreUnavailableError(f"SQLite: {exc}") from exc
            raise

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._db.execute(sql, params).fetchall()
