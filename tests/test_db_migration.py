"""Migration c4_001_safety_profile_column in a real application's Alembic setup.

The demo application (tests/demo_app) has its own history creating `projects`, `actions` and
`action_runs` (which references actions with ON DELETE CASCADE; its env.py turns SQLite's
foreign keys on). Every test runs real Alembic commands against a real SQLite file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from conftest import REPO_ROOT
from db_demo import (
    ALEMBIC_INI,
    APP_REVISION,
    APP_VERSIONS,
    BRANCH,
    DEMO_APP,
    PACKAGE_VERSIONS,
    alembic,
    alembic_ok,
    column_names,
    current_revisions,
    database,
    make_demo_app,
    table_rows,
)
from demo_app.demo_models import Action
from sqlalchemy.orm import Session

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.persistence.migrations import (
    BRANCH_LABEL,
    REVISION,
    VERSION_LOCATION,
    versions_path,
)

APP_TABLES = ("projects", "actions", "action_runs")
APP_ACTION_COLUMNS = ["id", "project_id", "name", "cost"]
PROFILE = SafetyProfile(allowed_skill_categories=["deploy"], max_cost_per_plan=5.0)


@pytest.fixture
def app(tmp_path: Path) -> Path:
    return make_demo_app(tmp_path / "app", [APP_VERSIONS, PACKAGE_VERSIONS])


def populate(db: Path) -> None:
    """Rows with awkward values: quotes, non-ASCII text, NULLs, extreme floats."""
    names = ["plain", 'it\'s "quoted"', "ünïcödé ✓", "", "x" * 200]
    costs: list[float | None] = [None, 0.0, 1.5, 1e300, -2.25]
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA foreign_keys=ON")
        connection.executemany("INSERT INTO projects VALUES (?, ?)", [(1, "one"), (2, "two")])
        connection.executemany(
            "INSERT INTO actions VALUES (?, ?, ?, ?)",
            [(i, 1 + i % 2, names[i % 5], costs[i % 5]) for i in range(1, 201)],
        )
        connection.executemany(
            "INSERT INTO action_runs VALUES (?, ?, ?)",
            [(i, 1 + i % 200, "ok" if i % 3 else "failed") for i in range(1, 301)],
        )


def snapshot(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    return {table: table_rows(db, table) for table in APP_TABLES}


def structure(db: Path) -> list[list[tuple[Any, ...]]]:
    """Indexes and foreign keys of the application's tables."""
    with sqlite3.connect(db) as connection:
        return [
            connection.execute(f"PRAGMA {pragma}({table})").fetchall()
            for table in APP_TABLES
            for pragma in ("index_list", "foreign_key_list")
        ]


def with_profile_column(
    before: dict[str, list[tuple[Any, ...]]], value: object = None
) -> dict[str, list[tuple[Any, ...]]]:
    return {**before, "actions": [(*row, value) for row in before["actions"]]}


def test_constants_name_the_shipped_migration() -> None:
    assert (REVISION, BRANCH_LABEL) == ("c4_001_safety_profile_column", BRANCH)
    assert VERSION_LOCATION == PACKAGE_VERSIONS
    assert (Path(versions_path()) / f"{REVISION}.py").is_file()


def test_readme_shows_the_setup_these_tests_run() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Persistence (optional [db] extra)", 1)[1]
    ini = ALEMBIC_INI.format(locations=f"{APP_VERSIONS};{PACKAGE_VERSIONS}").splitlines()
    model = (DEMO_APP / "demo_models.py").read_text(encoding="utf-8").splitlines()
    three_lines = [
        "path_separator = ;",
        f"version_locations = {APP_VERSIONS};{PACKAGE_VERSIONS}",
        "safety_profile_json: Mapped[SafetyProfile | None] = mapped_column(SafetyProfileJSON)",
    ]
    assert [line in section.splitlines() for line in three_lines] == [True, True, True]
    assert three_lines[:2] == [line for line in ini if line in three_lines]
    assert f"    {three_lines[2]}" in model
    assert "alembic upgrade heads" in section
    assert f"alembic downgrade {BRANCH}@base" in section


def test_upgrade_downgrade_and_upgrade_again_keep_every_row_and_value(app: Path) -> None:
    db = database(app)
    alembic_ok(app, "upgrade", APP_REVISION)
    populate(db)
    before, indexes_and_keys = snapshot(db), structure(db)

    alembic_ok(app, "upgrade", "heads")
    assert current_revisions(app) == {APP_REVISION, REVISION}
    assert column_names(db, "actions") == [*APP_ACTION_COLUMNS, "safety_profile_json"]
    assert snapshot(db) == with_profile_column(before)
    with Session(sa.create_engine(f"sqlite:///{db}")) as session:
        session.get_one(Action, 7).safety_profile_json = PROFILE
        session.commit()
    assert table_rows(db, "actions")[6][-1] == PROFILE.model_dump_json()

    alembic_ok(app, "downgrade", f"{BRANCH}@base")
    assert current_revisions(app) == {APP_REVISION}
    assert column_names(db, "actions") == APP_ACTION_COLUMNS
    assert snapshot(db) == before  # action_runs too: no cascade from rebuilding actions
    assert structure(db) == indexes_and_keys

    alembic_ok(app, "upgrade", f"{BRANCH}@head")
    assert current_revisions(app) == {APP_REVISION, REVISION}
    assert snapshot(db) == with_profile_column(before)  # the downgrade dropped the profiles
    assert structure(db) == indexes_and_keys


def test_application_without_a_history_of_its_own(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path / "app", [PACKAGE_VERSIONS])
    db = database(app)
    with sqlite3.connect(db) as connection:  # the application made its table without Alembic
        connection.execute("CREATE TABLE actions (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        connection.executemany("INSERT INTO actions VALUES (?, ?)", [(1, "a"), (2, "b")])

    assert alembic_ok(app, "heads").split() == [REVISION, f"({BRANCH})", "(head)"]
    alembic_ok(app, "upgrade", "heads")
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE actions SET safety_profile_json = ? WHERE id = 2", ["{}"])
    assert table_rows(db, "actions") == [(1, "a", None), (2, "b", "{}")]

    alembic_ok(app, "downgrade", "base")
    assert table_rows(db, "actions") == [(1, "a"), (2, "b")]
    alembic_ok(app, "upgrade", "heads")
    assert table_rows(db, "actions") == [(1, "a", None), (2, "b", None)]


def test_empty_database_says_to_create_actions_first(app: Path) -> None:
    result = alembic(app, "upgrade", f"{BRANCH}@head")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        "FAILED: c4_001_safety_profile_column adds safety_profile_json to the 'actions'" in output
    )
    assert "table, which does not exist yet: run `alembic upgrade <the revision that" in output
    assert "then `alembic upgrade heads`" in output
    assert "Traceback" not in output
    assert current_revisions(app) == set()

    # What the message says to do works.
    alembic_ok(app, "upgrade", APP_REVISION)
    alembic_ok(app, "upgrade", "heads")
    assert current_revisions(app) == {APP_REVISION, REVISION}


def test_migrated_database_matches_the_model_using_the_column_type(app: Path) -> None:
    alembic_ok(app, "upgrade", APP_REVISION)
    assert alembic(app, "check").returncode != 0  # the model has the column, the table not yet
    alembic_ok(app, "upgrade", "heads")
    assert "No new upgrade operations detected" in alembic_ok(app, "check")


def test_offline_sql_adds_a_nullable_text_column(app: Path) -> None:
    sql = alembic_ok(app, "upgrade", f"{BRANCH}@head", "--sql")
    assert "ALTER TABLE actions ADD COLUMN safety_profile_json TEXT;" in sql
    assert f"INSERT INTO alembic_version (version_num) VALUES ('{REVISION}')" in sql


# -- From Python: versions_path() in a Config built in code, on the caller's connection --------
def programmatic_config(app: Path, connection: sa.Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(app / "alembic"))
    config.set_main_option("prepend_sys_path", str(app))
    config.set_main_option("path_separator", "newline")
    config.set_main_option(
        "version_locations", "\n".join([str(app / "alembic" / "versions"), versions_path()])
    )
    config.attributes["connection"] = connection
    return config


def sqlite_engine(db: Path, *, foreign_keys: bool, version: tuple[int, ...] | None = None) -> Any:
    engine = sa.create_engine(f"sqlite:///{db}")

    @sa.event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")

    if version is not None:  # pretend to be an older SQLite
        with engine.connect():
            engine.dialect.server_version_info = version
    return engine


def test_programmatic_upgrade_and_downgrade_with_versions_path(app: Path) -> None:
    db = database(app)
    with sqlite_engine(db, foreign_keys=True).begin() as connection:
        command.upgrade(programmatic_config(app, connection), APP_REVISION)
    populate(db)
    before = snapshot(db)
    with sqlite_engine(db, foreign_keys=True).begin() as connection:
        config = programmatic_config(app, connection)
        command.upgrade(config, "heads")
        command.downgrade(config, f"{BRANCH}@base")
    assert snapshot(db) == before


def test_old_sqlite_rebuilds_only_without_foreign_keys(app: Path) -> None:
    """Before SQLite 3.35 batch mode must rebuild the table; with foreign keys enforced that
    would delete the action_runs rows, so the downgrade refuses and says what to do."""
    db = database(app)
    alembic_ok(app, "upgrade", APP_REVISION)
    populate(db)
    alembic_ok(app, "upgrade", "heads")
    before = snapshot(db)

    engine = sqlite_engine(db, foreign_keys=True, version=(3, 34, 1))
    refused = "run this downgrade with PRAGMA foreign_keys=OFF"
    with pytest.raises(CommandError, match=refused), engine.begin() as connection:
        command.downgrade(programmatic_config(app, connection), f"{BRANCH}@base")
    assert snapshot(db) == before

    engine = sqlite_engine(db, foreign_keys=False, version=(3, 34, 1))
    with engine.begin() as connection:
        command.downgrade(programmatic_config(app, connection), f"{BRANCH}@base")
    assert snapshot(db) == {**before, "actions": [row[:-1] for row in before["actions"]]}
    assert current_revisions(app) == {APP_REVISION}
