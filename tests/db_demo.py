"""A small demo application for the persistence tests: its own Alembic setup and history
(`demo_app/`), copied into a scratch folder with an alembic.ini naming its version locations.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DEMO_APP = Path(__file__).resolve().parent / "demo_app"
APP_VERSIONS = "%(here)s/alembic/versions"
PACKAGE_VERSIONS = "cleveragents.persistence.migrations:versions"  # as the README documents
APP_REVISION = "app_001_actions"
BRANCH = "cleveragents_safety_profile"

# `alembic init alembic` writes this file; the README's lines set path_separator and
# version_locations (`os` would split the package location at its colon).
ALEMBIC_INI = """\
[alembic]
script_location = %(here)s/alembic
prepend_sys_path = .
path_separator = ;
version_locations = {locations}
sqlalchemy.url = sqlite:///%(here)s/app.db
"""


def make_demo_app(directory: Path, version_locations: Sequence[str]) -> Path:
    """The demo application in `directory`, configured with `version_locations`."""
    shutil.copytree(DEMO_APP, directory, ignore=shutil.ignore_patterns("__pycache__"))
    locations = ";".join(version_locations)
    (directory / "alembic.ini").write_text(ALEMBIC_INI.format(locations=locations))
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


def database(app: Path) -> Path:
    return app / "app.db"


def table_rows(db: Path, table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()


def column_names(db: Path, table: str) -> list[str]:
    with sqlite3.connect(db) as connection:
        return [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]


def current_revisions(app: Path) -> set[str]:
    """What `alembic current` reports, read straight from Alembic's version table."""
    with sqlite3.connect(database(app)) as connection:
        return {row[0] for row in connection.execute("SELECT version_num FROM alembic_version")}
