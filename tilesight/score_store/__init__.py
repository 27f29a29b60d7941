"""Score capture storage: one interface (:class:`BaseScoreStore`), two backends.

SQLite (:class:`ScoreStore`, the embedded default: a file path) or PostgreSQL
(:class:`PostgresScoreStore`, for a hall: a ``postgresql://`` URL); :func:`open_store` picks one
from what the user typed. Standings are computed once, in the base class.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tilesight.score_store.base import BaseScoreStore, Standing, StoreUnavailableError
from tilesight.score_store.export import format_standings, standings_csv, standings_json
from tilesight.score_store.sqlite import ScoreStore

__all__ = [
    "BaseScoreStore",
    "ScoreStore",
    "Standing",
    "StoreUnavailableError",
    "format_standings",
    "is_postgres_url",
    "open_store",
    "redact",
    "standings_csv",
    "standings_json",
]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.lower().startswith(_POSTGRES_SCHEMES)


def redact(target: str | Path) -> str:
    """``target`` fit for a log or an error message: a URL's password replaced by ``***``."""
    text = str(target)
    if not is_postgres_url(text):
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def open_store(target: str | Path) -> BaseScoreStore:
    """A PostgreSQL store for a ``postgresql://`` URL, else a SQLite file at ``target``."""
    if is_postgres_url(target):
        try:
            from tilesight.score_store.postgres import PostgresScoreStore  # noqa: PLC0415
        except ImportError as exc:  # psycopg is the optional ``postgres`` extra
            raise StoreUnavailableError(
                f"PostgreSQL needs psycopg: pip install 'tilesight[postgres]' ({exc})"
            ) from exc
        return PostgresScoreStore(str(target))
    return ScoreStore(target)
