"""The `safety_profile_json` column through SQLAlchemy, on a real SQLite file migrated by
Alembic: round trips, NULL, refusals on write, clear errors on read, and many rows."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic.plugin._schema_validator as pydantic_validator_builder
import pytest
import sqlalchemy as sa
from conftest import EXAMPLES, PROFILE_SCHEMA_PATH
from db_demo import APP_REVISION, APP_VERSIONS, PACKAGE_VERSIONS, alembic_ok, make_demo_app
from demo_app.demo_models import Action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.orm import Session

from cleveragents.domain.models.core.safety_profile import DEFAULT_SAFETY_PROFILE, SafetyProfile
from cleveragents.persistence import SafetyProfileJSON, StoredSafetyProfileError, naming_rows

SCHEMA = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
FIX = "; fix the stored JSON, or set the field to NULL for no profile"
SPEC_PROFILE = SafetyProfile.from_yaml(EXAMPLES / "valid" / "spec_example.safety_profile.yaml")


@pytest.fixture(scope="module")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo application's database after `alembic upgrade heads`, with one project."""
    app = make_demo_app(tmp_path_factory.mktemp("db") / "app", [APP_VERSIONS, PACKAGE_VERSIONS])
    alembic_ok(app, "upgrade", APP_REVISION)
    alembic_ok(app, "upgrade", "heads")
    with sqlite3.connect(app / "app.db") as connection:
        connection.execute("INSERT INTO projects VALUES (1, 'demo')")
    return app / "app.db"


@pytest.fixture
def engine(migrated_database: Path, tmp_path: Path) -> Iterator[sa.Engine]:
    db = tmp_path / "app.db"
    shutil.copy(migrated_database, db)
    engine = sa.create_engine(f"sqlite:///{db}")
    yield engine
    engine.dispose()


def store_raw(engine: sa.Engine, rows: dict[int, object]) -> None:
    """Put values in the column as they are, as another program or an old release might."""
    with engine.begin() as connection:
        for action_id, stored in rows.items():
            connection.exec_driver_sql(
                "INSERT INTO actions (id, project_id, name, safety_profile_json) "
                "VALUES (?, 1, 'raw', ?)",
                (action_id, stored),
            )


def raw_column(engine: sa.Engine) -> list[tuple[int, object]]:
    with engine.connect() as connection:
        query = "SELECT id, safety_profile_json FROM actions ORDER BY id"
        return [tuple(row) for row in connection.exec_driver_sql(query)]


# -- Writing and reading back ------------------------------------------------------------------
def valid_profiles() -> st.SearchStrategy[SafetyProfile]:
    def build(instance: dict[str, Any]) -> SafetyProfile | None:
        try:
            return SafetyProfile.model_validate(instance)
        except ValidationError:  # e.g. max_cost_per_plan > max_total_cost
            return None

    built = from_schema(SCHEMA).map(build)
    return built.filter(lambda profile: profile is not None)  # type: ignore[return-value]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(profile=valid_profiles())
def test_profiles_written_and_read_back_are_equal(
    engine: sa.Engine, profile: SafetyProfile
) -> None:
    with Session(engine) as session:
        session.merge(Action(id=1, project_id=1, name="a", safety_profile_json=profile))
        session.commit()
    with Session(engine) as session:
        assert session.get_one(Action, 1).safety_profile_json == profile
    assert raw_column(engine) == [(1, profile.model_dump_json())]


def test_spec_profile_default_and_none_round_trip(engine: sa.Engine) -> None:
    written = {1: SPEC_PROFILE, 2: DEFAULT_SAFETY_PROFILE, 3: None}
    with Session(engine) as session:
        for action_id, profile in written.items():
            session.add(Action(id=action_id, project_id=1, name="a", safety_profile_json=profile))
        session.commit()
    assert raw_column(engine) == [
        (1, SPEC_PROFILE.model_dump_json()),
        (2, DEFAULT_SAFETY_PROFILE.model_dump_json()),
        (3, None),  # SQL NULL, not the text "null"
    ]
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
UNREADABLE = {
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
    "not_an_object": (
        "[]",
        "the stored value no longer matches the Safety Profile schema ($: a "
        "list is not a mapping; expected a mapping)",
    ),
    "json_null_text": (
        "null",
        "the stored value no longer matches the Safety Profile schema "
        "($: null is not a mapping; expected a mapping)",
    ),
    # The JSON decoder recurses once per level: 100,000 levels raised RecursionError.
    "nested_100000_deep": (
        '{"allowed_skill_categories": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "the stored value nests deeper than 64 levels, which no Safety Profile does",
    ),
}


@pytest.mark.parametrize(("stored", "reason"), UNREADABLE.values(), ids=UNREADABLE)
def test_unreadable_value_names_table_row_key_and_field(
    engine: sa.Engine, stored: object, reason: str
) -> None:
    store_raw(engine, {1: '{"max_retries_per_step": 4}', 7: stored})
    with (
        Session(engine) as session,
        pytest.raises(StoredSafetyProfileError) as raised,
        naming_rows(session),
    ):
        session.scalars(sa.select(Action).order_by(Action.id)).all()
    expected = f"table actions, row id=7, field safety_profile_json: {reason}{FIX}"
    assert str(raised.value) == expected
    assert (raised.value.table_name, raised.value.field_name) == ("actions", "safety_profile_json")
    assert (raised.value.row_keys, raised.value.stored_value) == (((("id", 7),),), stored)


def test_brackets_inside_stored_text_do_not_count_as_nesting(engine: sa.Engine) -> None:
    store_raw(engine, {1: '{"allowed_skill_categories": ["' + "[{" * 100 + '"]}'})
    with Session(engine) as session:
        (profile,) = session.scalars(sa.select(Action.safety_profile_json)).all()
    assert profile.allowed_skill_categories == ("[{" * 100,)


def test_without_naming_rows_the_error_still_names_table_and_field(engine: sa.Engine) -> None:
    store_raw(engine, {7: "{"})
    with Session(engine) as session, pytest.raises(StoredSafetyProfileError) as raised:
        session.get(Action, 7)
    assert str(raised.value).startswith(
        "table actions, field safety_profile_json, row not known here (read inside "
        "`with naming_rows(session):` to name it): the stored value is not valid JSON"
    )


def test_core_reads_on_a_connection_are_checked_too(engine: sa.Engine) -> None:
    store_raw(engine, {3: "[1]", 4: "{}", 5: "[1]"})
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
    store_raw(engine, {2: "{"})
    with (
        engine.connect() as connection,
        pytest.raises(StoredSafetyProfileError) as raised,
        naming_rows(connection),
    ):
        connection.execute(sa.select(first.c.safety_profile_json)).all()
    assert str(raised.value).startswith(
        "a stored safety profile (its table and row are not known here): the stored value is "
        "not valid JSON"
    )


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
