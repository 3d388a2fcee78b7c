"""SQLite that holds under the embedded default's load (issue 18: «database is locked» under concurrent writes).

* Every new SQLite connection is put in WAL mode (readers never wait for the writer, the writer never waits for
  readers), waits up to 20 s for another writer (``busy_timeout``) instead of failing at once, and syncs at
  commit points only (``synchronous=NORMAL``, safe in WAL mode).
* :func:`write_transaction` opens the write path's transaction with ``BEGIN IMMEDIATE``: a transaction that
  reads and then writes (a correction reads the row, checks its revision, writes it) takes the write lock at its
  start, so two of them queue behind the busy timeout instead of one failing when it tries to upgrade its read
  lock («database is locked», which no timeout cures). On other databases it is ``transaction.atomic``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=20000", "PRAGMA synchronous=NORMAL")


def on_connection_created(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    """``connection_created`` handler (connected in :class:`scoring.apps.ScoringConfig`)."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        for pragma in PRAGMAS:
            cursor.execute(pragma)


@contextmanager
def write_transaction(using: str | None = None) -> Iterator[None]:
    """``transaction.atomic`` that, on SQLite and outside any other transaction, begins ``IMMEDIATE``."""
    connection = transaction.get_connection(using)
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic(using=using):
            yield
        return
    connection.ensure_connection()  # connecting resets transaction_mode to the settings' value
    mode = getattr(connection, "transaction_mode", None)
    connection.transaction_mode = "IMMEDIATE"  # type: ignore[attr-defined]
    try:
        with transaction.atomic(using=using):  # BEGIN IMMEDIATE is issued on entering
            connection.transaction_mode = mode  # type: ignore[attr-defined]
            yield
    finally:
        connection.transaction_mode = mode  # type: ignore[attr-defined]
