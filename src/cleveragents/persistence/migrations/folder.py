"""The package's versions folder, which must hold this package's revisions and nothing else.

A revision written there by mistake (`alembic revision` based on this package's head) would be
deleted by the next reinstall and, based on this branch, would run after it: before the
application's own tables exist. The shipped revisions call `refuse_foreign_revision_files` when
Alembic loads them, so every Alembic command stops, naming the file, until it is moved.
"""

from __future__ import annotations

from pathlib import Path

from alembic.util import CommandError

__all__ = [
    "SHIPPED_REVISION_FILES",
    "VERSIONS_FOLDER",
    "foreign_revision_files",
    "refuse_foreign_revision_files",
]

VERSIONS_FOLDER = Path(__file__).resolve().parent / "versions"

SHIPPED_REVISION_FILES = frozenset(
    {"c4_001_safety_profile_column.py", "c4_002_safety_profile_jsonb.py"}
)
"""Every revision file of the versions folder; any other `.py` file there is not ours."""


def foreign_revision_files() -> list[Path]:
    """The `.py` files of the versions folder this package did not ship (Alembic loads them all)."""
    return sorted(
        path for path in VERSIONS_FOLDER.glob("*.py") if path.name not in SHIPPED_REVISION_FILES
    )


def refuse_foreign_revision_files() -> None:
    """Raise CommandError (Alembic prints `FAILED: ...`) when the folder holds a file of the
    application's, saying where to move it."""
    foreign = foreign_revision_files()
    if not foreign:
        return
    names = ", ".join(path.name for path in foreign)
    raise CommandError(
        f"{names} in {VERSIONS_FOLDER} is not a revision of the installed "
        "cleveragents-safety-profile package: `alembic revision` based it on this package's "
        "branch and wrote it into the package, where reinstalling deletes it and `alembic "
        "upgrade heads` runs it after this package's revisions, before your own tables exist. "
        "Move it into your own versions folder, make it the base of your own branch there "
        "(down_revision = None, branch_labels = ('app',)), and create later revisions with "
        "--head=app@head"
    )
