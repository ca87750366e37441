"""A small demo application for the persistence tests: its own Alembic setup and history
(`demo_app/`), copied into a scratch folder with an alembic.ini naming its version locations
and its database (a SQLite file or a database on the test PostgreSQL server).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

DEMO_APP = Path(__file__).resolve().parent / "demo_app"
APP_VERSIONS = "%(here)s/alembic/versions"
PACKAGE_VERSIONS = "cleveragents.persistence.migrations:versions"  # as the README documents
APP_REVISION = "app_001_actions"
BRANCH = "cleveragents_safety_profile"
APP_TABLES = ("projects", "actions", "action_runs")

# `alembic init alembic` writes this file; the README's lines set path_separator and
# version_locations (`os` would split the package location at its colon).
ALEMBIC_INI = """\
[alembic]
script_location = %(here)s/alembic
prepend_sys_path = .
path_separator = ;
version_locations = {locations}
revision_environment = true
sqlalchemy.url = {url}
"""


@dataclass(frozen=True)
class Database:
    """One test database, by its SQLAlchemy URL, with what the tests read from it."""

    url: str

    @property
    def dialect(self) -> str:
        return sa.make_url(self.url).get_dialect().name

    @contextmanager
    def engine(self) -> Iterator[sa.Engine]:
        engine = sa.create_engine(self.url)
        try:
            yield engine
        finally:
            engine.dispose()

    def execute(self, sql: str, rows: Sequence[Mapping[str, Any]] | None = None) -> None:
        """Run `sql` (named `:parameters`, once per row when `rows` is given) and commit."""
        with self.engine() as engine, engine.begin() as connection:
            connection.execute(sa.text(sql), list(rows) if rows is not None else {})

    def rows(self, table: str) -> list[tuple[Any, ...]]:
        with self.engine() as engine, engine.connect() as connection:
            result = connection.execute(sa.text(f"SELECT * FROM {table} ORDER BY id"))
            return [tuple(row) for row in result]

    def columns(self, table: str) -> list[str]:
        with self.engine() as engine:
            return [column["name"] for column in sa.inspect(engine).get_columns(table)]

    def column_type(self, table: str, column: str) -> str:
        with self.engine() as engine:
            (found,) = [c for c in sa.inspect(engine).get_columns(table) if c["name"] == column]
            return str(found["type"])

    def revisions(self) -> set[str]:
        """What `alembic current` reports, read straight from Alembic's version table."""
        with self.engine() as engine, engine.connect() as connection:
            if not sa.inspect(connection).has_table("alembic_version"):
                return set()
            query = sa.text("SELECT version_num FROM alembic_version")
            return set(connection.execute(query).scalars())

    def structure(self, tables: Sequence[str] = APP_TABLES) -> list[Any]:
        """Indexes and foreign keys of `tables`."""
        with self.engine() as engine:
            inspector = sa.inspect(engine)
            return [
                (table, inspector.get_indexes(table), inspector.get_foreign_keys(table))
                for table in tables
            ]


def make_demo_app(directory: Path, version_locations: Sequence[str], database: Database) -> Path:
    """The demo application in `directory`, configured with `version_locations`, using
    `database`."""
    shutil.copytree(DEMO_APP, directory, ignore=shutil.ignore_patterns("__pycache__"))
    locations = ";".join(version_locations)
    url = database.url.replace("%", "%%")  # alembic.ini interpolates %(name)s
    (directory / "alembic.ini").write_text(ALEMBIC_INI.format(locations=locations, url=url))
    if not any(location.startswith("%(here)s") for location in version_locations):
        # An application without migrations of its own.
        shutil.rmtree(directory / "alembic" / "versions")
    return directory


def alembic(app: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """The `alembic` command line, run in the application's folder."""
    return subprocess.run(
        [sys.executable, "-m", "alembic", *arguments],
        cwd=app,
        capture_output=True,
        text=True,
        check=False,
    )


def alembic_ok(app: Path, *arguments: str) -> str:
    result = alembic(app, *arguments)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout
