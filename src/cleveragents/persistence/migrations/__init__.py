"""The Alembic migrations this package ships, for an application's own Alembic setup.

They form their own branch (no `down_revision`), labelled `cleveragents_safety_profile`, so they
fit any application history, with or without a base revision of its own. Add the folder to the
application's `version_locations`, then `alembic upgrade heads`.

The folder holds this package's revisions only: `keep_revisions_out_of_package` (for
`process_revision_directives` in the application's env.py) refuses a new revision that would
be written there, and the shipped revisions refuse to load beside a file that is not theirs.
"""

from __future__ import annotations

from .folder import SHIPPED_REVISION_FILES, VERSIONS_FOLDER
from .guard import keep_revisions_out_of_package

__all__ = [
    "BRANCH_LABEL",
    "HEAD_REVISION",
    "REVISION",
    "SHIPPED_REVISION_FILES",
    "VERSION_LOCATION",
    "keep_revisions_out_of_package",
    "versions_path",
]

BRANCH_LABEL = "cleveragents_safety_profile"
"""Upgrade or downgrade only these: `alembic upgrade cleveragents_safety_profile@head`."""

REVISION = "c4_001_safety_profile_column"
"""Adds the nullable `safety_profile_json` column to the application's `actions` table."""

HEAD_REVISION = "c4_002_safety_profile_jsonb"
"""The branch's head: on PostgreSQL the column becomes JSONB holding JSON objects only."""

VERSION_LOCATION = "cleveragents.persistence.migrations:versions"
"""The folder as an Alembic package resource, for `version_locations` in alembic.ini."""


def versions_path() -> str:
    """The folder's absolute path, for `version_locations` set from Python."""
    return str(VERSIONS_FOLDER)
