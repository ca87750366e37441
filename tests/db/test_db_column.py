"""The `safety_profile_json` column through SQLAlchemy, on a real SQLite file and a real
PostgreSQL database migrated by Alembic: round trips, NULL, refusals on write, clear errors on
read, concurrent sessions, and many rows."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic.plugin._schema_validator as pydantic_validator_builder
import pytest
import sqlalchemy as sa
from conftest import EXAMPLES, PROFILE_SCHEMA_PATH
from db_demo import (
    APP_REVISION,
    APP_VERSIONS,
    PACKAGE_VERSIONS,
    Database,
    alembic_ok,
    make_demo_app,
)
from demo_app.demo_models import Action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from postgres_server import PostgresServer
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.orm import Session

from cleveragents.domain.models.core.safety_profile import DEFAULT_SAFETY_PROFILE, SafetyProfile
from cleveragents.persistence import SafetyProfileJSON, StoredSafetyProfileError, naming_rows

SCHEMA = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
FIX = "; fix the stored JSON, or set the field to NULL for no profile"
SPEC_PROFILE = SafetyProfile.from_yaml(EXAMPLES / "valid" / "spec_example.safety_profile.yaml")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def migrated_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Database:
    """The demo application's database after `alembic upgrade heads`, with one project; each
    test gets a copy."""
    folder = tmp_path_factory.mktemp("db")
    if request.param == "sqlite":
        database = Database(f"sqlite:///{folder / 'app.db'}")
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        database = Database(server.url(server.create_database()))
    app = make_demo_app(folder / "app", [APP_VERSIONS, PACKAGE_VERSIONS], database)
    alembic_ok(app, "upgrade", APP_REVISION)
    alembic_ok(app, "upgrade", "heads")
    database.execute("INSERT INTO projects VALUES (1, 'demo')")
    return database


@pytest.fixture
def engine(
    request: pytest.FixtureRequest, migrated_database: Database, tmp_path: Path
) -> Iterator[sa.Engine]:
    template = sa.make_url(migrated_database.url)
    if template.get_backend_name() == "sqlite":
        shutil.copy(str(template.database), tmp_path / "app.db")
        url = f"sqlite:///{tmp_path / 'app.db'}"
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        url = server.url(server.create_database(template=template.database))
    engine = sa.create_engine(url)
    yield engine
    engine.dispose()


def on_postgresql(engine: sa.Engine) -> bool:
    return engine.dialect.name == "postgresql"


def store_raw(engine: sa.Engine, rows: dict[int, object]) -> None:
    """Put values in the column as they are, as another program or an old release might."""
    insert = sa.text(
        "INSERT INTO actions (id, project_id, name, safety_profile_json) "
        "VALUES (:id, 1, 'raw', :stored)"
    )
    with engine.begin() as connection:
        for action_id, stored in rows.items():
            connection.execute(insert, {"id": action_id, "stored": stored})


def comparable(value: object) -> object:
    """JSON with every number a float: JSONB gives 1e300 back as the integer 10**300."""
    if isinstance(value, dict):
        return {key: comparable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [comparable(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def raw_column(engine: sa.Engine) -> list[tuple[int, object]]:
    """Each row's stored value as the database keeps it, parsed: JSON text on SQLite, JSONB
    (which the driver parses) on PostgreSQL."""
    with engine.connect() as connection:
        query = "SELECT id, safety_profile_json FROM actions ORDER BY id"
        return [
            (key, comparable(json.loads(value) if isinstance(value, str) else value))
            for key, value in connection.exec_driver_sql(query)
        ]


def stored(profile: SafetyProfile) -> object:
    """What the column holds for `profile`: its JSON, every field included."""
    return comparable(json.loads(profile.model_dump_json()))


# -- Writing and reading back ------------------------------------------------------------------
def valid_profiles() -> st.SearchStrategy[SafetyProfile]:
    def build(instance: dict[str, Any]) -> SafetyProfile | None:
        try:
            return SafetyProfile.model_validate(instance)
        except ValidationError:  # e.g. max_cost_per_plan > max_total_cost
            return None

    built = from_schema(SCHEMA).map(build)
    return built.filter(lambda profile: profile is not None)  # type: ignore[return-value]


def assert_round_trip(engine: sa.Engine, profile: SafetyProfile) -> None:
    """Written and read back equal, stored as its JSON; on PostgreSQL a profile holding U+0000,
    which JSONB cannot store, is refused instead, naming the field, and nothing is written."""
    refused = on_postgresql(engine) and any("\x00" in c for c in profile.allowed_skill_categories)
    before = raw_column(engine)
    with Session(engine) as session:
        session.merge(Action(id=1, project_id=1, name="a", safety_profile_json=profile))
        if refused:
            with pytest.raises(sa.exc.StatementError) as raised:
                session.flush()
            message = str(raised.value)
            assert "value cannot hold the character U+0000 (allowed_skill_categories[" in message
            assert "PostgreSQL cannot store it in JSONB; remove it from the profile" in message
            assert raw_column(engine) == before
            return
        session.commit()
    with Session(engine) as session:
        assert session.get_one(Action, 1).safety_profile_json == profile
    assert raw_column(engine) == [(1, stored(profile))]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(profile=valid_profiles())
def test_profiles_written_and_read_back_are_equal(
    engine: sa.Engine, profile: SafetyProfile
) -> None:
    assert_round_trip(engine, profile)


def test_a_nul_character_is_kept_in_text_and_refused_by_jsonb(engine: sa.Engine) -> None:
    """PostgreSQL cannot store U+0000 in JSONB: the column type says so before the driver
    fails. (The YAML loader never lets one in; a profile built in Python can hold it.)"""
    assert_round_trip(engine, SafetyProfile(allowed_skill_categories=["deploy", "te\x00st"]))


def test_spec_profile_default_and_none_round_trip(engine: sa.Engine) -> None:
    written = {1: SPEC_PROFILE, 2: DEFAULT_SAFETY_PROFILE, 3: None}
    with Session(engine) as session:
        for action_id, profile in written.items():
            session.add(Action(id=action_id, project_id=1, name="a", safety_profile_json=profile))
        session.commit()
    assert raw_column(engine) == [
        (1, stored(SPEC_PROFILE)),
        (2, stored(DEFAULT_SAFETY_PROFILE)),
        (3, None),  # SQL NULL, not the JSON null
    ]
    if not on_postgresql(engine):  # JSON text: exactly what model_dump_json() writes
        with engine.connect() as connection:
            query = "SELECT safety_profile_json FROM actions WHERE id = 1"
            assert connection.exec_driver_sql(query).scalar() == SPEC_PROFILE.model_dump_json()
    with Session(engine) as session:
        read = {
            action.id: action.safety_profile_json for action in session.scalars(sa.select(Action))
        }
    assert read == written
    assert read[1].allowed_skill_categories == ("code", "test", "deploy")


def test_changing_the_profile_is_saved(engine: sa.Engine) -> None:
    with Session(engine) as session:
        session.add(Action(id=1, project_id=1, name="a", safety_profile_json=SPEC_PROFILE))
        session.commit()
        action = session.get_one(Action, 1)
        action.safety_profile_json = SPEC_PROFILE.model_copy(update={"max_retries_per_step": 9})
        session.commit()
    with Session(engine) as session:
        assert session.get_one(Action, 1).safety_profile_json == SPEC_PROFILE.model_copy(
            update={"max_retries_per_step": 9}
        )


@pytest.mark.parametrize("value", [{"require_sandbox": False}, '{"require_sandbox": false}', 3])
def test_only_a_profile_or_none_can_be_written(engine: sa.Engine, value: object) -> None:
    with Session(engine) as session:
        session.add(Action(id=1, project_id=1, name="a", safety_profile_json=value))
        with pytest.raises(sa.exc.StatementError) as raised:
            session.flush()
    assert "a safety_profile_json value must be a SafetyProfile or None, not" in str(raised.value)
    assert "build one with SafetyProfile.from_config(...)" in str(raised.value)
    assert raw_column(engine) == []


def test_the_issue_copy_never_reaches_the_column() -> None:
    """`model_copy(update=...)` validates, so the copy of issue 11 is never made."""
    with pytest.raises(ValidationError):
        SPEC_PROFILE.model_copy(update={"max_retries_per_step": 500, "allow_unsafe_tools": "no"})


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        (
            {"max_retries_per_step": 500, "allow_unsafe_tools": "no"},
            "this SafetyProfile breaks the rules (allow_unsafe_tools: 'no' (a string) is not a "
            "boolean",
        ),
        (
            {"max_total_cost": float("nan")},
            "this SafetyProfile would read back as a different profile (JSON has no .nan or .inf)",
        ),
    ],
)
def test_a_profile_built_without_validation_is_not_written(
    engine: sa.Engine, fields: dict[str, Any], reason: str
) -> None:
    """`model_construct` validates nothing; the column writes only what reads back the same."""
    unchecked = SafetyProfile.model_construct(**fields)
    with Session(engine) as session:
        session.add(Action(id=1, project_id=1, name="a", safety_profile_json=unchecked))
        with pytest.raises(sa.exc.StatementError) as raised:
            session.flush()
    assert reason in str(raised.value)
    assert "not model_construct(...)" in str(raised.value)
    assert raw_column(engine) == []


# -- Values that cannot be read back -----------------------------------------------------------
# Stored by another program or an old release: values no longer valid against the schema, which
# either database keeps; and, on SQLite only, text that is not a JSON object at all (the
# PostgreSQL server refuses those: see test_db_migration.py).
UNREADABLE_ANYWHERE = {
    "above_maximum": (
        '{"max_retries_per_step": 101}',
        "the stored value no longer matches the "
        "Safety Profile schema (max_retries_per_step: 101 is above the maximum "
        "100)",
    ),
    "removed_field": (
        '{"max_retries": 3, "require_sandbox": 1}',
        "the stored value no longer "
        "matches the Safety Profile schema (require_sandbox: 1 is not a boolean; "
        "expected true or false; max_retries: unknown field 'max_retries'; did you "
        "mean 'max_retries_per_step'?)",
    ),
    "cost_order": (
        '{"max_cost_per_plan": 10.0, "max_total_cost": 5.0}',
        "the stored value no "
        "longer matches the Safety Profile schema (max_total_cost: max_cost_per_plan "
        "(10.0) exceeds max_total_cost (5.0); the per-plan cost must not exceed the "
        "total cost)",
    ),
}
UNREADABLE_TEXT = {
    "not_json": (
        "{require_sandbox: true}",
        "the stored value is not valid JSON (Expecting "
        "property name enclosed in double quotes: line 1 column 2 (char 1))",
    ),
    "empty_text": (
        "",
        "the stored value is not valid JSON (Expecting value: line 1 column 1 (char 0))",
    ),
    "nan": (
        '{"max_total_cost": NaN}',
        "the stored value is not valid JSON (NaN is not a JSON value)",
    ),
    "duplicate_key": (
        '{"require_sandbox": true, "require_sandbox": false}',
        "the stored value is not valid JSON (duplicate key 'require_sandbox')",
    ),
    "binary": (b"{}", "the stored value is bytes, not JSON text"),
    "not_an_object": (
        "[]",
        "the stored value no longer matches the Safety Profile schema (a "
        "list is not a mapping; expected a mapping)",
    ),
    "json_null_text": (
        "null",
        "the stored value no longer matches the Safety Profile schema "
        "(null is not a mapping; expected a mapping)",
    ),
    # The JSON decoder recurses once per level: 100,000 levels raised RecursionError.
    "nested_100000_deep": (
        '{"allowed_skill_categories": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "the stored value nests deeper than 64 levels, which no Safety Profile does",
    ),
}
NO_LONGER_VALID = '{"max_retries_per_step": 101}'


def assert_unreadable_names_row_seven(engine: sa.Engine, value: object, reason: str) -> None:
    store_raw(engine, {1: '{"max_retries_per_step": 4}', 7: value})
    with (
        Session(engine) as session,
        pytest.raises(StoredSafetyProfileError) as raised,
        naming_rows(session),
    ):
        session.scalars(sa.select(Action).order_by(Action.id)).all()
    expected = f"table actions, row id=7, field safety_profile_json: {reason}{FIX}"
    assert str(raised.value) == expected
    assert (raised.value.table_name, raised.value.field_name) == ("actions", "safety_profile_json")
    # The value as the driver gave it: the text, or JSONB's dict.
    as_read = json.loads(value) if on_postgresql(engine) and isinstance(value, str) else value
    assert (raised.value.row_keys, raised.value.stored_value) == (((("id", 7),),), as_read)


@pytest.mark.parametrize(("value", "reason"), UNREADABLE_ANYWHERE.values(), ids=UNREADABLE_ANYWHERE)
def test_a_value_no_longer_valid_names_table_row_key_and_field(
    engine: sa.Engine, value: object, reason: str
) -> None:
    assert_unreadable_names_row_seven(engine, value, reason)


@pytest.mark.parametrize("migrated_database", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("value", "reason"), UNREADABLE_TEXT.values(), ids=UNREADABLE_TEXT)
def test_text_that_is_not_a_json_object_names_table_row_key_and_field(
    engine: sa.Engine, value: object, reason: str
) -> None:
    assert_unreadable_names_row_seven(engine, value, reason)


def test_duplicate_keys_written_by_another_program(engine: sa.Engine) -> None:
    """JSON text keeps both keys, and reading refuses it; JSONB keeps the last one, which SQL
    queries and the application then read alike."""
    store_raw(engine, {1: '{"allow_unsafe_tools": false, "allow_unsafe_tools": true}'})
    with Session(engine) as session:
        if not on_postgresql(engine):
            with pytest.raises(StoredSafetyProfileError, match="duplicate key"):
                session.get(Action, 1)
            return
        assert session.get_one(Action, 1).safety_profile_json == SafetyProfile(
            allow_unsafe_tools=True
        )
    assert raw_column(engine) == [(1, {"allow_unsafe_tools": True})]


def test_brackets_inside_stored_text_do_not_count_as_nesting(engine: sa.Engine) -> None:
    store_raw(engine, {1: '{"allowed_skill_categories": ["' + "[{" * 100 + '"]}'})
    with Session(engine) as session:
        (profile,) = session.scalars(sa.select(Action.safety_profile_json)).all()
    assert profile.allowed_skill_categories == ("[{" * 100,)


def test_without_naming_rows_the_error_still_names_table_and_field(engine: sa.Engine) -> None:
    store_raw(engine, {7: NO_LONGER_VALID})
    with Session(engine) as session, pytest.raises(StoredSafetyProfileError) as raised:
        session.get(Action, 7)
    assert str(raised.value).startswith(
        "table actions, field safety_profile_json, row not known here (read inside "
        "`with naming_rows(session):` to name it): the stored value no longer matches"
    )


def test_core_reads_on_a_connection_are_checked_too(engine: sa.Engine) -> None:
    store_raw(engine, {3: NO_LONGER_VALID, 4: "{}", 5: NO_LONGER_VALID})
    actions = Action.__table__
    with engine.connect() as connection:
        with pytest.raises(StoredSafetyProfileError, match=r"^table actions, field"):
            connection.execute(sa.select(actions.c.safety_profile_json)).all()
        with pytest.raises(StoredSafetyProfileError) as raised, naming_rows(connection):
            connection.execute(sa.select(actions.c.safety_profile_json)).all()
    assert str(raised.value).startswith("table actions, rows id=3; id=5, field safety_profile_json")


def test_a_type_object_shared_by_two_tables_does_not_guess(engine: sa.Engine) -> None:
    shared = SafetyProfileJSON()
    metadata = sa.MetaData()
    first = sa.Table(
        "actions",
        metadata,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("safety_profile_json", shared),
    )
    sa.Table(
        "other",
        metadata,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("profile", shared),
    )
    store_raw(engine, {2: NO_LONGER_VALID})
    with (
        engine.connect() as connection,
        pytest.raises(StoredSafetyProfileError) as raised,
        naming_rows(connection),
    ):
        connection.execute(sa.select(first.c.safety_profile_json)).all()
    assert str(raised.value).startswith(
        "a stored safety profile (its table and row are not known here): the stored value no "
        "longer matches"
    )


# -- Concurrent sessions -------------------------------------------------------------------------
@pytest.mark.parametrize("migrated_database", ["postgresql"], indirect=True)
def test_concurrent_sessions_lose_nothing(engine: sa.Engine) -> None:
    """Six sessions write and rewrite profiles at once while two others keep reading every row
    back: every committed profile is there afterwards and every read is a whole profile."""
    writers, per_writer = 6, 40

    def profile(writer: int, number: int, version: int) -> SafetyProfile:
        return SafetyProfile(
            allowed_skill_categories=[f"w{writer}", f"n{number}"],
            max_retries_per_step=version,
            max_cost_per_plan=float(number),
        )

    def write(writer: int) -> None:
        ids = [1000 * writer + number for number in range(per_writer)]
        with Session(engine) as session:
            for number, action_id in enumerate(ids):
                session.add(
                    Action(
                        id=action_id,
                        project_id=1,
                        name=f"w{writer}",
                        safety_profile_json=profile(writer, number, 1),
                    )
                )
                session.commit()
            for number, action_id in enumerate(ids):  # rewrite each one
                session.get_one(Action, action_id).safety_profile_json = profile(writer, number, 2)
                session.commit()

    stop = threading.Event()
    reads: list[int] = []

    def read() -> None:
        while not stop.is_set():
            with Session(engine) as session, naming_rows(session):
                loaded = session.scalars(sa.select(Action)).all()
            assert all(isinstance(a.safety_profile_json, SafetyProfile) for a in loaded)
            reads.append(len(loaded))

    errors: list[BaseException] = []

    def run(target: Any, *arguments: Any) -> None:
        try:
            target(*arguments)
        except BaseException as error:  # reported below, with the thread's failure
            errors.append(error)

    readers = [threading.Thread(target=run, args=(read,)) for _ in range(2)]
    writing = [threading.Thread(target=run, args=(write, n)) for n in range(writers)]
    for thread in [*readers, *writing]:
        thread.start()
    for thread in writing:
        thread.join(timeout=120)
    stop.set()
    for thread in readers:
        thread.join(timeout=120)

    assert errors == []
    assert len(reads) > 2
    with Session(engine) as session:
        final = {a.id: a.safety_profile_json for a in session.scalars(sa.select(Action))}
    assert final == {
        1000 * writer + number: profile(writer, number, 2)
        for writer in range(writers)
        for number in range(per_writer)
    }


# -- Many rows: validated with the one validator built with the class -------------------------
def test_ten_thousand_rows_load_without_building_a_schema_validator(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    profiles = [
        SafetyProfile(
            allowed_skill_categories=[f"skill-{i % 37}", "deploy"],
            max_retries_per_step=i % 101,
            max_cost_per_plan=float(i % 50),
            max_total_cost=float(50 + i % 1000),
            require_sandbox=i % 2 == 0,
        )
        for i in range(10_000)
    ]
    with Session(engine) as session:
        session.add_all(
            Action(id=i, project_id=1, name=f"a{i}", safety_profile_json=profile)
            for i, profile in enumerate(profiles)
        )
        session.commit()

    builds: list[object] = []
    real_builder = pydantic_validator_builder.SchemaValidator

    def counting_builder(*args: Any, **kwargs: Any) -> Any:
        builds.append(args[0])
        return real_builder(*args, **kwargs)

    monkeypatch.setattr(pydantic_validator_builder, "SchemaValidator", counting_builder)
    validator = SafetyProfile.__pydantic_validator__
    with Session(engine) as session:
        loaded = [
            a.safety_profile_json for a in session.scalars(sa.select(Action).order_by(Action.id))
        ]
    with engine.connect() as connection:
        column = Action.__table__.c.safety_profile_json
        core = connection.execute(sa.select(column).order_by(Action.__table__.c.id)).scalars().all()
    assert loaded == core == profiles
    assert builds == []
    assert SafetyProfile.__pydantic_validator__ is validator

    TypeAdapter(SafetyProfile | None)  # the spy sees a real schema build
    assert len(builds) == 1
