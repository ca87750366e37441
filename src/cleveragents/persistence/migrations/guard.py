"""`keep_revisions_out_of_package`: Alembic's `process_revision_directives` hook that refuses a
new revision based on this package's branch, which Alembic would write into the package.

Alembic puts a new revision beside its parent. With this package's folder in
`version_locations`, a plain `alembic revision -m ...` in an application without revisions of
its own bases the new file on this package's head and writes it into the installed package.
The hook runs when env.py does, which for `alembic revision` needs `revision_environment = true`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from alembic.operations.ops import MigrationScript
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.script.revision import Revision, RevisionError
from alembic.util import CommandError

from .folder import VERSIONS_FOLDER

__all__ = ["keep_revisions_out_of_package"]


def _in_package(path: str | os.PathLike[str]) -> bool:
    return Path(path).resolve() == VERSIONS_FOLDER


def _shipped_here(revision: object) -> bool:
    """Whether `revision` is a Script loaded from this package's folder."""
    path = getattr(revision, "path", None)
    return path is not None and _in_package(Path(path).parent)


def _own_version_folder(context: MigrationContext) -> str:
    """The application's first version location (relative to the working folder when inside
    it), for the command the message suggests."""
    locations = context.config.get_version_locations_list() if context.config else None
    for location in locations or []:
        if ":" in location and not os.path.isabs(location):
            continue  # a package resource such as this package's folder
        path = Path(location).absolute()
        if path.resolve() == VERSIONS_FOLDER:
            continue
        return os.path.relpath(path) if path.is_relative_to(Path.cwd()) else str(path)
    return "<your versions folder, listed in version_locations>"


def _own_heads(script: ScriptDirectory) -> list[str]:
    """The application's heads, as `--head` takes them: `label@head` when labelled."""
    heads = []
    for head in script.get_revisions("heads"):
        if head is None or _shipped_here(head):
            continue
        labels = sorted(head.branch_labels)
        heads.append(f"{labels[0]}@head" if labels else head.revision)
    return heads


def _refusal(
    context: MigrationContext, script: ScriptDirectory, directive: MigrationScript, why: str
) -> CommandError:
    """`this new revision {why}; nothing was written. To {what to run instead}`."""
    message = directive.message or "MESSAGE"
    own_heads = _own_heads(script)
    if own_heads:
        fix = "base it on your own branch: " + " or ".join(
            f'alembic revision -m "{message}" --head={head}' for head in own_heads
        )
    else:
        fix = (
            "start your application's own branch in its own folder: "
            f'alembic revision -m "{message}" --head=base --branch-label=app '
            f"--version-path={_own_version_folder(context)}; later revisions take --head=app@head"
        )
    return CommandError(f"this new revision {why}; nothing was written. To {fix}")


def keep_revisions_out_of_package(
    context: MigrationContext,
    revision: object,
    directives: Sequence[MigrationScript],
) -> None:
    """Refuse (CommandError, nothing written) a new revision based on one of this package's
    revisions or aimed at its folder. Pass it to `context.configure(...,
    process_revision_directives=keep_revisions_out_of_package)` in env.py and set
    `revision_environment = true` in alembic.ini."""
    script = context.script
    if script is None:
        return
    for directive in directives:
        if directive.version_path is not None and _in_package(directive.version_path):
            why = (
                "would be written into the installed cleveragents-safety-profile package's "
                f"folder ({VERSIONS_FOLDER}), where reinstalling deletes it"
            )
            raise _refusal(context, script, directive, why)
        try:
            # The command line passes no head for Alembic's default, "head".
            parents = script.revision_map.get_revisions(directive.head or "head")
        except RevisionError:
            continue  # Alembic itself reports a head it cannot resolve
        for parent in parents:
            if isinstance(parent, Revision) and _shipped_here(parent):
                why = (
                    f"would be based on {parent.revision}, a revision of the installed "
                    "cleveragents-safety-profile package, and written into its folder "
                    f"({VERSIONS_FOLDER}), where reinstalling deletes it and `alembic upgrade "
                    "heads` runs it before your own tables exist"
                )
                raise _refusal(context, script, directive, why)
