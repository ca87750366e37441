"""The Alembic migrations this package ships, for an application's own Alembic setup.

They form their own branch (no `down_revision`), labelled `cleveragents_safety_profile`, so they
fit any application history, with or without a base revision of its own. Add the folder to the
application's `version_locations`, then `alembic upgrade heads`.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["BRANCH_LABEL", "REVISION", "VERSION_LOCATION", "versions_path"]

BRANCH_LABEL = "cleveragents_safety_profile"
"""Upgrade or downgrade only these: `alembic upgrade cleveragents_safety_profile@head`."""

REVISION = "c4_001_safety_profile_column"
"""Adds the nullable `safety_profile_json` column to the application's `actions` table."""

VERSION_LOCATION = "cleveragents.persistence.migrations:versions"
"""The folder as an Alembic package resource, for `version_locations` in alembic.ini."""


def versions_path() -> str:
    """The folder's absolute path, for `version_locations` set from Python."""
    return str(Path(__file__).resolve().parent / "versions")
