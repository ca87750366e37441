"""Add the nullable safety_profile_json column to the actions table.

Revision ID: c4_001_safety_profile_column
Revises: (none: the base of the cleveragents_safety_profile branch)

The `actions` table belongs to the application; its own migrations must have created it.
Batch mode, so SQLite works too.
"""

from __future__ import annotations

from typing import Literal

import sqlalchemy as sa
from alembic import context, op
from alembic.util import CommandError

from cleveragents.persistence.migrations.folder import refuse_foreign_revision_files

refuse_foreign_revision_files()  # Alembic loads every revision file before any command runs

revision = "c4_001_safety_profile_column"
down_revision = None
branch_labels = ("cleveragents_safety_profile",)
depends_on = None

TABLE = "actions"
COLUMN = "safety_profile_json"


def upgrade() -> None:
    if not context.is_offline_mode() and not sa.inspect(op.get_bind()).has_table(TABLE):
        raise CommandError(
            f"{revision} adds {COLUMN} to the {TABLE!r} table, which does not exist yet: run "
            f"`alembic upgrade <the revision that creates {TABLE}>` first, then "
            "`alembic upgrade heads`"
        )
    with op.batch_alter_table(TABLE) as batch:
        batch.add_column(sa.Column(COLUMN, sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table(TABLE, recreate=_sqlite_recreate()) as batch:
        batch.drop_column(COLUMN)


def _sqlite_recreate() -> Literal["auto", "never"]:
    """Whether batch mode may rebuild the table to drop the column.

    A rebuild DROPs the old table, and while SQLite enforces foreign keys that deletes every
    row of the tables that reference it with ON DELETE CASCADE. SQLite 3.35+ drops a column in
    place, so rebuild only on older versions, and only when no foreign key is enforced."""
    dialect = op.get_context().dialect
    if dialect.name != "sqlite" or context.is_offline_mode():
        return "auto"
    if (dialect.server_version_info or (0,)) >= (3, 35):
        return "never"
    if op.get_bind().exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise CommandError(
            f"dropping {COLUMN} on SQLite before 3.35 rebuilds the {TABLE!r} table, which "
            "would delete rows that reference it while foreign keys are enforced: run this "
            "downgrade with PRAGMA foreign_keys=OFF"
        )
    return "auto"
