"""The demo application's own tables: projects, actions and action_runs.

Revision ID: app_001_actions
Revises: (none: the base of the application's history)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "app_001_actions"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "projects",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("project_id", sa.Integer(), sa.ForeignKey("projects.id"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("cost", sa.Float(), nullable=True),
    )
    op.create_index("ix_actions_project_id", "actions", ["project_id"])
    op.create_table(
        "action_runs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "action_id",
            sa.Integer(),
            sa.ForeignKey("actions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("outcome", sa.String(20), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("action_runs")
    op.drop_index("ix_actions_project_id", table_name="actions")
    op.drop_table("actions")
    op.drop_table("projects")
