"""The shipped migrations in a real application's Alembic setup, on SQLite and PostgreSQL.

The demo application (tests/demo_app) has its own history creating `projects`, `actions` and
`action_runs` (which references actions with ON DELETE CASCADE; on SQLite its env.py turns
foreign keys on). Every test runs real Alembic commands against a real database: a SQLite file,
or a database on the PostgreSQL server the tests start (tests/postgres_server.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from db_demo import (
    APP_REVISION,
    APP_TABLES,
    APP_VERSIONS,
    BRANCH,
    PACKAGE_VERSIONS,
    Database,
    alembic,
    alembic_ok,
    make_demo_app,
)
from demo_app.demo_models import Action
from sqlalchemy.orm import Session

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.persistence.migrations import (
    BRANCH_LABEL,
    HEAD_REVISION,
    REVISION,
    SHIPPED_REVISION_FILES,
    VERSION_LOCATION,
    versions_path,
)

APP_ACTION_COLUMNS = ["id", "project_id", "name", "cost"]
PROFILE = SafetyProfile(allowed_skill_categories=["deploy"], max_cost_per_plan=5.0)
MIGRATED = {APP_REVISION, HEAD_REVISION}
STORED_TYPE = {"sqlite": "TEXT", "postgresql": "JSONB"}


@pytest.fixture
def app(tmp_path: Path, database: Database) -> Path:
    return make_demo_app(tmp_path / "app", [APP_VERSIONS, PACKAGE_VERSIONS], database)


def populate(database: Database) -> None:
    """Rows with awkward values: quotes, non-ASCII text, NULLs, extreme floats."""
    names = ["plain", 'it\'s "quoted"', "ünïcödé ✓", "", "x" * 200]
    costs: list[float | None] = [None, 0.0, 1.5, 1e300, -2.25]
    database.execute(
        "INSERT INTO projects (id, name) VALUES (:id, :name)",
        [{"id": 1, "name": "one"}, {"id": 2, "name": "two"}],
    )
    database.execute(
        "INSERT INTO actions (id, project_id, name, cost) VALUES (:id, :project, :name, :cost)",
        [
            {"id": i, "project": 1 + i % 2, "name": names[i % 5], "cost": costs[i % 5]}
            for i in range(1, 201)
        ],
    )
    database.execute(
        "INSERT INTO action_runs (id, action_id, outcome) VALUES (:id, :action, :outcome)",
        [
            {"id": i, "action": 1 + i % 200, "outcome": "ok" if i % 3 else "failed"}
            for i in range(1, 301)
        ],
    )


def snapshot(database: Database) -> dict[str, list[tuple[Any, ...]]]:
    return {table: database.rows(table) for table in APP_TABLES}


def with_profile_column(
    before: dict[str, list[tuple[Any, ...]]], value: object = None
) -> dict[str, list[tuple[Any, ...]]]:
    return {**before, "actions": [(*row, value) for row in before["actions"]]}


def test_constants_name_the_shipped_migrations() -> None:
    assert (REVISION, HEAD_REVISION, BRANCH_LABEL) == (
        "c4_001_safety_profile_column",
        "c4_002_safety_profile_jsonb",
        BRANCH,
    )
    assert VERSION_LOCATION == PACKAGE_VERSIONS
    shipped = {path.name for path in Path(versions_path()).glob("*.py")}
    assert shipped == SHIPPED_REVISION_FILES == {f"{REVISION}.py", f"{HEAD_REVISION}.py"}


def test_upgrade_downgrade_and_upgrade_again_keep_every_row_and_value(
    app: Path, database: Database
) -> None:
    alembic_ok(app, "upgrade", APP_REVISION)
    populate(database)
    before, indexes_and_keys = snapshot(database), database.structure()

    alembic_ok(app, "upgrade", "heads")
    assert database.revisions() == MIGRATED
    assert database.columns("actions") == [*APP_ACTION_COLUMNS, "safety_profile_json"]
    assert database.column_type("actions", "safety_profile_json") == STORED_TYPE[database.dialect]
    assert snapshot(database) == with_profile_column(before)
    with database.engine() as engine, Session(engine) as session:
        session.get_one(Action, 7).safety_profile_json = PROFILE
        session.commit()
    stored = database.rows("actions")[6][-1]
    assert (json.loads(stored) if isinstance(stored, str) else stored) == json.loads(
        PROFILE.model_dump_json()
    )

    alembic_ok(app, "downgrade", f"{BRANCH}@base")
    assert database.revisions() == {APP_REVISION}
    assert database.columns("actions") == APP_ACTION_COLUMNS
    assert snapshot(database) == before  # action_runs too: no cascade from rebuilding actions
    assert database.structure() == indexes_and_keys

    alembic_ok(app, "upgrade", f"{BRANCH}@head")
    assert database.revisions() == MIGRATED
    assert snapshot(database) == with_profile_column(before)  # the downgrade dropped them
    assert database.structure() == indexes_and_keys


def test_application_without_a_history_of_its_own(tmp_path: Path, database: Database) -> None:
    app = make_demo_app(tmp_path / "app", [PACKAGE_VERSIONS], database)
    # The application made its table without Alembic.
    database.execute("CREATE TABLE actions (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    database.execute(
        "INSERT INTO actions VALUES (:id, :name)", [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
    )

    assert alembic_ok(app, "heads").split() == [HEAD_REVISION, f"({BRANCH})", "(head)"]
    alembic_ok(app, "upgrade", "heads")
    database.execute("UPDATE actions SET safety_profile_json = '{}' WHERE id = 2")
    assert database.rows("actions") == [
        (1, "a", None),
        (2, "b", "{}" if database.dialect == "sqlite" else {}),
    ]

    alembic_ok(app, "downgrade", "base")
    assert database.rows("actions") == [(1, "a"), (2, "b")]
    alembic_ok(app, "upgrade", "heads")
    assert database.rows("actions") == [(1, "a", None), (2, "b", None)]


def test_empty_database_says_to_create_actions_first(app: Path, database: Database) -> None:
    result = alembic(app, "upgrade", f"{BRANCH}@head")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        "FAILED: c4_001_safety_profile_column adds safety_profile_json to the 'actions'" in output
    )
    assert "table, which does not exist yet: run `alembic upgrade <the revision that" in output
    assert "then `alembic upgrade heads`" in output
    assert "Traceback" not in output
    assert database.revisions() == set()

    # What the message says to do works.
    alembic_ok(app, "upgrade", APP_REVISION)
    alembic_ok(app, "upgrade", "heads")
    assert database.revisions() == MIGRATED


def test_migrated_database_matches_the_model_using_the_column_type(app: Path) -> None:
    alembic_ok(app, "upgrade", APP_REVISION)
    assert alembic(app, "check").returncode != 0  # the model has the column, the table not yet
    alembic_ok(app, "upgrade", "heads")
    assert "No new upgrade operations detected" in alembic_ok(app, "check")


OFFLINE_SQL = {
    "sqlite": ["ALTER TABLE actions ADD COLUMN safety_profile_json TEXT;"],
    "postgresql": [
        "ALTER TABLE actions ADD COLUMN safety_profile_json TEXT;",
        "LOCK TABLE actions IN ACCESS EXCLUSIVE MODE;",
        "ALTER TABLE actions ALTER COLUMN safety_profile_json TYPE JSONB "
        "USING safety_profile_json::jsonb;",
        "ALTER TABLE actions ADD CONSTRAINT ck_actions_safety_profile_json_object "
        "CHECK (jsonb_typeof(safety_profile_json) = 'object');",
    ],
}


def test_offline_sql_adds_a_nullable_column(app: Path, database: Database) -> None:
    sql = alembic_ok(app, "upgrade", f"{BRANCH}@head", "--sql")
    statements = [
        line for line in sql.splitlines() if line.startswith(("ALTER TABLE actions", "LOCK"))
    ]
    assert statements == OFFLINE_SQL[database.dialect]
    assert f"UPDATE alembic_version SET version_num='{HEAD_REVISION}'" in sql


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


def connect(database: Database, *, version: tuple[int, ...] | None = None) -> sa.Engine:
    """An engine for `database`; on SQLite with foreign keys enforced, pretending to be
    `version` when given."""
    engine = sa.create_engine(database.url)
    if database.dialect == "sqlite":
        sa.event.listen(engine, "connect", lambda dbapi, _: dbapi.execute("PRAGMA foreign_keys=ON"))
    if version is not None:
        with engine.connect():
            engine.dialect.server_version_info = version
    return engine


def test_programmatic_upgrade_and_downgrade_with_versions_path(
    app: Path, database: Database
) -> None:
    with connect(database).begin() as connection:
        command.upgrade(programmatic_config(app, connection), APP_REVISION)
    populate(database)
    before = snapshot(database)
    with connect(database).begin() as connection:
        config = programmatic_config(app, connection)
        command.upgrade(config, "heads")
        command.downgrade(config, f"{BRANCH}@base")
    assert snapshot(database) == before


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_old_sqlite_rebuilds_only_without_foreign_keys(app: Path, database: Database) -> None:
    """Before SQLite 3.35 batch mode must rebuild the table; with foreign keys enforced that
    would delete the action_runs rows, so the downgrade refuses and says what to do."""
    alembic_ok(app, "upgrade", APP_REVISION)
    populate(database)
    alembic_ok(app, "upgrade", "heads")
    before = snapshot(database)

    engine = connect(database, version=(3, 34, 1))
    refused = "run this downgrade with PRAGMA foreign_keys=OFF"
    with pytest.raises(CommandError, match=refused), engine.begin() as connection:
        command.downgrade(programmatic_config(app, connection), f"{BRANCH}@base")
    assert snapshot(database) == before

    engine = sa.create_engine(database.url)  # foreign keys off: SQLite's default
    with engine.connect():
        engine.dialect.server_version_info = (3, 34, 1)
    with engine.begin() as connection:
        command.downgrade(programmatic_config(app, connection), f"{BRANCH}@base")
    assert snapshot(database) == {**before, "actions": [row[:-1] for row in before["actions"]]}
    assert database.revisions() == {APP_REVISION}


# -- PostgreSQL: JSON text becomes JSONB, refusing what JSONB would not keep as written --------
STORED_TEXT = {
    1: '{"require_sandbox": false, "max_retries_per_step": 4}',
    2: None,
    3: "{",
    4: '{"allow_unsafe_tools": false, "allow_unsafe_tools": true}',
    5: "null",
    6: "[1]",
    7: '{"max_total_cost": NaN}',
}


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_text_that_jsonb_would_not_keep_stops_the_conversion(app: Path, database: Database) -> None:
    alembic_ok(app, "upgrade", APP_REVISION)
    alembic_ok(app, "upgrade", REVISION)  # the text column, as the first release made it
    database.execute("INSERT INTO projects VALUES (1, 'demo')")
    database.execute(
        "INSERT INTO actions (id, project_id, name, safety_profile_json) "
        "VALUES (:id, 1, 'a', :stored)",
        [{"id": key, "stored": stored} for key, stored in STORED_TEXT.items()],
    )

    result = alembic(app, "upgrade", "heads")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Traceback" not in output
    (failed,) = [line for line in output.splitlines() if line.startswith("FAILED")]
    assert failed == (
        "FAILED: c4_002_safety_profile_jsonb converts actions.safety_profile_json to JSONB, "
        "but 5 stored value(s) are not a JSON object it would keep as written: "
        "id=3: the stored value is not valid JSON (Expecting property name enclosed in double "
        "quotes: line 1 column 2 (char 1)); "
        "id=4: the stored value is not valid JSON (duplicate key 'allow_unsafe_tools'); "
        "id=5: the stored value is JSON but not an object; "
        "id=6: the stored value is JSON but not an object; "
        "id=7: the stored value is not valid JSON (NaN is not a JSON value). "
        "Fix them or set them to NULL (no profile), then run `alembic upgrade heads` again; "
        "nothing was changed"
    )
    assert database.revisions() == {APP_REVISION, REVISION}
    assert database.column_type("actions", "safety_profile_json") == "TEXT"
    assert [row[-1] for row in database.rows("actions")] == list(STORED_TEXT.values())

    database.execute("UPDATE actions SET safety_profile_json = NULL WHERE id >= 3")
    alembic_ok(app, "upgrade", "heads")
    assert database.column_type("actions", "safety_profile_json") == "JSONB"
    assert [row[-1] for row in database.rows("actions")] == [json.loads(STORED_TEXT[1])] + [
        None
    ] * 6
    with database.engine() as engine, Session(engine) as session:
        assert session.get_one(Action, 1).safety_profile_json == SafetyProfile(
            require_sandbox=False, max_retries_per_step=4
        )


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_the_server_refuses_what_is_not_a_json_object(app: Path, database: Database) -> None:
    alembic_ok(app, "upgrade", APP_REVISION)
    alembic_ok(app, "upgrade", "heads")
    database.execute("INSERT INTO projects VALUES (1, 'demo')")
    insert = (
        "INSERT INTO actions (id, project_id, name, safety_profile_json) VALUES (1, 1, 'a', :v)"
    )
    refusals = {
        "{": "invalid input syntax for type json",
        '{"max_total_cost": NaN}': "invalid input syntax for type json",
        "null": 'violates check constraint "ck_actions_safety_profile_json_object"',
        "[1]": 'violates check constraint "ck_actions_safety_profile_json_object"',
    }
    for stored, reason in refusals.items():
        with pytest.raises(sa.exc.DBAPIError, match=reason):
            database.execute(insert, [{"v": stored}])
    assert database.rows("actions") == []


# -- PostgreSQL: rows written while the migration runs ------------------------------------------
def sessions_waiting_for_a_lock(database: Database) -> int:
    query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
    with database.engine() as engine, engine.connect() as connection:
        return int(connection.execute(sa.text(query)).scalar_one())


def wait_until(condition: Any, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.05)


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_rows_written_while_the_migration_runs_are_all_kept(app: Path, database: Database) -> None:
    """A writer is in the middle of a transaction when the migration starts, and more writers
    arrive while it waits and while it runs: every row they commit is there afterwards."""
    alembic_ok(app, "upgrade", APP_REVISION)
    populate(database)
    before = database.rows("actions")
    insert = sa.text(
        "INSERT INTO actions (id, project_id, name, cost) VALUES (:id, 1, :name, :cost)"
    )

    with database.engine() as engine:
        in_flight = engine.connect()
        in_flight.begin()
        in_flight.execute(insert, {"id": 1000, "name": "in flight", "cost": 1.0})

        migration = subprocess.Popen(
            [sys.executable, "-m", "alembic", "upgrade", "heads"],
            cwd=app,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_until(lambda: sessions_waiting_for_a_lock(database) >= 1, "the migration waits")

        written: list[int] = []
        written_lock = threading.Lock()

        def writer(first: int) -> None:
            with engine.connect() as connection:
                for row_id in range(first, first + 25):
                    with connection.begin():
                        connection.execute(
                            insert, {"id": row_id, "name": f"w{row_id}", "cost": None}
                        )
                    with written_lock:
                        written.append(row_id)

        writers = [threading.Thread(target=writer, args=(2000 + 100 * n,)) for n in range(4)]
        for thread in writers:
            thread.start()
        wait_until(lambda: sessions_waiting_for_a_lock(database) >= 5, "the writers queue up")
        assert written == []  # all of them wait behind the migration

        in_flight.commit()
        in_flight.close()
        _, errors = migration.communicate(timeout=60)
        for thread in writers:
            thread.join(timeout=60)

    assert migration.returncode == 0, errors
    assert database.revisions() == MIGRATED
    expected_ids = [row[0] for row in before] + [1000] + sorted(written)
    rows = database.rows("actions")
    assert [row[0] for row in rows] == expected_ids
    assert len(written) == 100
    assert rows[: len(before)] == [(*row, None) for row in before]
    assert rows[len(before)] == (1000, 1, "in flight", 1.0, None)
    assert all(row[-1] is None for row in rows)
