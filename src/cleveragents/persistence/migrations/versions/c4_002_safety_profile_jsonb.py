"""On PostgreSQL, store safety_profile_json as JSONB holding JSON objects only.

Revision ID: c4_002_safety_profile_jsonb
Revises: c4_001_safety_profile_column

JSONB: the server refuses text that is not JSON, queries and indexes can look inside
(`safety_profile_json @> '{"allow_unsafe_tools": true}'`), and SQL and the application read
the same value. A CHECK constraint keeps out JSON that is not an object (`null`, lists, ...).
The conversion first locks the table, then refuses, naming the rows, while any stored text is
not a JSON object or has a duplicate key (which JSONB would silently drop); nothing changes
then. Other databases keep JSON text: this revision does nothing there.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op
from alembic.util import CommandError
from sqlalchemy.dialects import postgresql

from cleveragents.persistence.column_type import render_row_key
from cleveragents.persistence.migrations.folder import refuse_foreign_revision_files
from cleveragents.persistence.stored_json import UnreadableProfileJSON, parse_strict_json

refuse_foreign_revision_files()  # Alembic loads every revision file before any command runs

revision = "c4_002_safety_profile_jsonb"
down_revision = "c4_001_safety_profile_column"
branch_labels = None
depends_on = None

TABLE = "actions"
COLUMN = "safety_profile_json"
CONSTRAINT = "ck_actions_safety_profile_json_object"
_ROWS_NAMED = 10


def _on_postgresql() -> bool:
    return op.get_context().dialect.name == "postgresql"


def _why_not_convertible(stored: str) -> str | None:
    try:
        value = parse_strict_json(stored)
    except UnreadableProfileJSON as error:
        return str(error)
    if not isinstance(value, dict):
        return "the stored value is JSON but not an object"
    return None


def _unconvertible_rows() -> list[str]:
    """`id=7: why` for each stored text JSONB would refuse or change (first few only)."""
    table = sa.Table(TABLE, sa.MetaData(), autoload_with=op.get_bind())
    keys = list(table.primary_key.columns) or [table.c[COLUMN]]
    query = sa.select(*keys, table.c[COLUMN]).where(table.c[COLUMN].is_not(None))
    names = [key.name for key in keys]
    found = []
    for *key, stored in op.get_bind().execute(query.order_by(*keys)):
        why = _why_not_convertible(stored)
        if why is not None:
            found.append(f"{render_row_key(tuple(zip(names, key, strict=True)))}: {why}")
    return found


def upgrade() -> None:
    if not _on_postgresql():
        return
    # Writers wait from here to the commit: nothing is written between the check and the change.
    op.execute(f"LOCK TABLE {TABLE} IN ACCESS EXCLUSIVE MODE")
    if not context.is_offline_mode():
        problems = _unconvertible_rows()
        if problems:
            shown = "; ".join(problems[:_ROWS_NAMED])
            hidden = len(problems) - _ROWS_NAMED
            more = f" (and {hidden} more)" if hidden > 0 else ""
            raise CommandError(
                f"{revision} converts {TABLE}.{COLUMN} to JSONB, but {len(problems)} stored "
                f"value(s) are not a JSON object it would keep as written: {shown}{more}. Fix "
                f"them or set them to NULL (no profile), then run `alembic upgrade heads` again; "
                "nothing was changed"
            )
    op.alter_column(
        TABLE,
        COLUMN,
        type_=postgresql.JSONB(none_as_null=True),
        existing_type=sa.Text(),
        existing_nullable=True,
        postgresql_using=f"{COLUMN}::jsonb",
    )
    op.create_check_constraint(CONSTRAINT, TABLE, f"jsonb_typeof({COLUMN}) = 'object'")


def downgrade() -> None:
    if not _on_postgresql():
        return
    op.drop_constraint(CONSTRAINT, TABLE, type_="check")
    op.alter_column(
        TABLE,
        COLUMN,
        type_=sa.Text(),
        existing_type=postgresql.JSONB(none_as_null=True),
        existing_nullable=True,
        postgresql_using=f"{COLUMN}::text",
    )
