"""Integration fixtures: a real PostgreSQL server for the store and checkpointer."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import NoReturn

import pytest

from tests.fakes.postgres import PostgresCluster, PostgresUnavailableError, find_bindir

_databases = itertools.count(1)


def _unavailable(reason: str) -> NoReturn:
    """Fail under CI (the PostgreSQL tests must run there), skip elsewhere."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {reason}; .ci/run installs it", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A throw-away PostgreSQL cluster shared by the session, stopped at its end."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable('psycopg is not installed (pip install -e ".[dev]")')
    bindir = find_bindir()
    if bindir is None:
        _unavailable(
            "PostgreSQL server binaries (initdb, pg_ctl, pg_isready) are not installed "
            "(apt-get install postgresql)"
        )
    try:
        cluster = PostgresCluster(bindir)
    except PostgresUnavailableError as exc:
        _unavailable(str(exc))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    """DSN of a fresh, empty database on the session's cluster."""
    import psycopg

    name = f"finagent_test_{next(_databases)}"
    with psycopg.connect(postgres_cluster.dsn(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return postgres_cluster.dsn(name)
