"""How long reading stored Safety Profiles takes: N rows from a real database (a scratch
SQLite file, or the empty PostgreSQL database given with --url, where the column is JSONB).

    .venv/bin/python benchmarks/db_load.py            # 10,000 rows, best of 5
    .venv/bin/python benchmarks/db_load.py --rows 100000 --repeat 3
    .venv/bin/python benchmarks/db_load.py --url 'postgresql+psycopg://postgres@/bench?host=/tmp/pg'

Prints the best wall time of each way of reading all rows and the cost per row, and counts
pydantic schema-validator builds during the reads (0: the model's validator is built once).
Needs the [db] extra.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic.plugin._schema_validator as pydantic_validator_builder
import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, load_only, mapped_column

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.persistence import SafetyProfileJSON
from cleveragents.persistence.column_type import stored_type
from cleveragents.persistence.stored_json import profile_from_stored


class Base(DeclarativeBase):
    pass


class Action(Base):
    __tablename__ = "actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str]
    safety_profile_json: Mapped[SafetyProfile | None] = mapped_column(SafetyProfileJSON)


def sample_profile(i: int) -> SafetyProfile:
    return SafetyProfile(
        allowed_skill_categories=[f"skill-{i % 37}", "code", "deploy"],
        require_sandbox=i % 2 == 0,
        require_human_approval=i % 3 == 0,
        max_cost_per_plan=float(i % 50),
        max_retries_per_step=i % 101,
        max_total_cost=None if i % 5 == 0 else float(50 + i % 1000),
    )


def best_of(repeat: int, read: Callable[[], list[Any]], rows: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = read()
        best = min(best, time.perf_counter() - start)
        assert len(result) == rows, len(result)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--url",
        help="an empty database to use (default: a scratch SQLite file); its table is dropped",
    )
    options = parser.parse_args()

    builds = 0
    real_builder = pydantic_validator_builder.SchemaValidator

    def counting_builder(*args: Any, **kwargs: Any) -> Any:
        nonlocal builds
        builds += 1
        return real_builder(*args, **kwargs)

    with tempfile.TemporaryDirectory() as scratch:
        engine = sa.create_engine(options.url or f"sqlite:///{Path(scratch) / 'bench.db'}")
        Base.metadata.create_all(engine)
        with Session(engine) as session:
            session.add_all(
                Action(id=i, name=f"action {i}", safety_profile_json=sample_profile(i))
                for i in range(options.rows)
            )
            session.commit()
        column = Action.__table__.c.safety_profile_json
        # What the driver hands over: JSON text (SQLite), or JSONB already parsed (PostgreSQL).
        raw_query = sa.select(sa.type_coerce(column, stored_type(engine.dialect)))
        with engine.connect() as connection:
            texts = connection.execute(raw_query).scalars().all()

        def raw_text() -> list[Any]:
            with engine.connect() as connection:
                return list(connection.execute(raw_query).scalars())

        def core_column() -> list[Any]:
            with engine.connect() as connection:
                return list(connection.execute(sa.select(column)).scalars())

        def orm_entities_without_profiles() -> list[Any]:
            with Session(engine) as session:
                query = sa.select(Action).options(load_only(Action.id, Action.name))
                return list(session.scalars(query))

        def orm_entities() -> list[Any]:
            with Session(engine) as session:
                return list(session.scalars(sa.select(Action)))

        readings = {
            f"raw stored values, no validation ({engine.dialect.name} + SQLAlchemy baseline)": (
                raw_text
            ),
            "Core select of the column (SafetyProfileJSON)": core_column,
            "ORM: Action entities without their profiles (ORM baseline)": (
                orm_entities_without_profiles
            ),
            "ORM: Action entities with their profiles": orm_entities,
            "decoding alone: profile_from_stored over the texts": lambda: [
                profile_from_stored(text) for text in texts
            ],
            "for comparison: SafetyProfile.model_validate(_json)": lambda: [
                SafetyProfile.model_validate_json(text)
                if isinstance(text, str)
                else SafetyProfile.model_validate(text)
                for text in texts
            ],
        }
        pydantic_validator_builder.SchemaValidator = counting_builder  # type: ignore[misc]
        try:
            timings = {
                label: best_of(options.repeat, read, options.rows)
                for label, read in readings.items()
            }
        finally:
            pydantic_validator_builder.SchemaValidator = real_builder  # type: ignore[misc]
            if options.url:
                Base.metadata.drop_all(engine)
        engine.dispose()

    print(f"{options.rows:,} rows from {engine.dialect.name}, best of {options.repeat}:")
    for label, seconds in timings.items():
        per_row = seconds / options.rows * 1e6
        print(f"  {seconds * 1000:8.1f} ms  {per_row:6.2f} µs/row  {label}")
    print(f"schema validators built while reading: {builds}")


if __name__ == "__main__":
    main()
