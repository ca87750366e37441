"""The demo application's Alembic environment, as `alembic init` makes it, plus two common
choices: SQLite enforces foreign keys, and a caller may pass its own connection
(`config.attributes["connection"]`, Alembic's cookbook recipe for programmatic use).
`alembic revision` refuses to write into the installed package, as the README sets up."""

from __future__ import annotations

from typing import Any

from alembic import context
from demo_models import Base
from sqlalchemy import Connection, engine_from_config, event, pool

from cleveragents.persistence.migrations import keep_revisions_out_of_package

config = context.config
target_metadata = Base.metadata


def _enforce_foreign_keys(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
        process_revision_directives=keep_revisions_out_of_package,
    )
    with context.begin_transaction():
        context.run_migrations()


def _run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        process_revision_directives=keep_revisions_out_of_package,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    given = config.attributes.get("connection")
    if given is not None:
        _run_on(given)
        return
    engine = engine_from_config(
        config.get_section(config.config_ini_section, {}),
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _enforce_foreign_keys)
    with engine.connect() as connection:
        _run_on(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
