"""PostgreSQL backend for a hall: several consumers on several machines write one database.

``postgresql://user:pass@host:5432/db?schema=scores`` (``schema``, optional, is ours: the store's
tables live there, created on first use; every other parameter is libpq's). Writes are single
transactions with ``ON CONFLICT``, so concurrent consumers of a shared subscription cannot
double-count; a lost connection is re-opened on the next call (the failed write raised
:class:`StoreUnavailableError` and stored nothing, so the consumer's gap repair asks for it again).
Needs the ``postgres`` extra (``psycopg``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from tilesight.score_store.base import (
    SCHEMA_STATEMENTS,
    BaseScoreStore,
    Cursor,
    Executor,
    StoreUnavailableError,
)

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
_SETUP_LOCK = 0x7453_636F_7265  # advisory lock: two consumers creating the tables at once


def split_url(url: str) -> tuple[str, str | None]:
    """``(libpq URL, schema)``: our ``schema`` query parameter taken out and checked."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schemas = [v for k, v in query if k == "schema"]
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    schema = schemas[-1] if schemas else None
    if schema is not None and not _IDENTIFIER.match(schema):
        raise ValueError(f"schema must be a plain SQL identifier, got {schema!r}")
    return urlunsplit(parts._replace(query=rest)), schema


class PostgresScoreStore(BaseScoreStore):
    def __init__(self, url: str, *, connect_timeout_s: int = 5) -> None:
        super().__init__()
        self._url, self.schema = split_url(url)
        self._timeout = connect_timeout_s
        self._conn: psycopg.Connection[Any] | None = None
        with self._lock:
            self._setup()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            options = f"-c search_path={self.schema}" if self.schema else None
            try:
                self._conn = psycopg.connect(
                    self._url, autocommit=True, connect_timeout=self._timeout, options=options
                )
            except psycopg.Error as exc:
                raise StoreUnavailableError(f"PostgreSQL: {_first_line(exc)}") from exc
        return self._conn

    def _setup(self) -> None:
        with self._guarded() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
            if self.schema:
                conn.execute(
                    sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema))
                )
            for statement in SCHEMA_STATEMENTS:
                conn.execute(statement)

    @contextmanager
    def _guarded(self) -> Iterator[psycopg.Connection[Any]]:
        """The connection; driver errors become StoreUnavailableError (a broken one is dropped)."""
        conn = self._connection()
        try:
            yield conn
        except psycopg.OperationalError as exc:
            conn.close()
            raise StoreUnavailableError(f"PostgreSQL: {_first_line(exc)}") from exc

    def _transaction(self) -> AbstractContextManager[Executor]:
        return self._write()

    @contextmanager
    def _write(self) -> Iterator[Executor]:
        with self._guarded() as conn, conn.transaction():

            def execute(statement: str, params: Sequence[Any], /) -> Cursor:
                return conn.execute(_dialect(statement), params)

            yield execute

    def _read(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._guarded() as conn:
            return conn.execute(_dialect(statement), params).fetchall()


def _dialect(statement: str) -> str:
    """The shared SQL's ``?`` placeholders as psycopg's ``%s`` (no literal ? or % in it)."""
    return statement.replace("?", "%s")


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
