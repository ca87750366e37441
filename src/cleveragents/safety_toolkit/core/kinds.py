"""The kinds of document the toolkit checks: each with its schema file, its model, its schema as
the commands' validator knows it (no pydantic), the file names its pre-commit hook matches and
where in it the safety profile sits."""

from __future__ import annotations

import re
from collections.abc import Callable

from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from pydantic import BaseModel

    from cleveragents.domain.models.core.document_check import Schema
    from cleveragents.domain.models.core.safety_profile import SafetyProfile
    from cleveragents.reading.problems import Loc


class DocumentKind(NamedTuple):
    name: str
    label: str  # in messages: "a safety profile", "an action"
    schema_file: str
    # Each of the next three imports what it returns when called, so a command imports only
    # what the kind it checks needs (pydantic only for the commands that build models).
    load_model: Callable[[], type[BaseModel]]
    # the schema as the commands' validator knows it, without pydantic (`document_check`)
    load_schema: Callable[[], Schema]
    # the document's top-level fields: its schema's properties, which are its model's fields
    # (a test keeps them equal), read without pydantic
    load_field_names: Callable[[], tuple[str, ...]]
    files: str  # the pre-commit hook's `files` pattern (a regex on the repository path)
    exclude: str | None  # and its `exclude` pattern
    profile_field: str | None  # the field holding the safety profile; None: the whole document

    def matches(self, path: str) -> bool:
        """Whether a repository path (with `/`) is named like a file of this kind."""
        return bool(re.search(self.files, path)) and not self.excluded(path)

    def excluded(self, path: str) -> bool:
        return self.exclude is not None and bool(re.search(self.exclude, path))

    def schema_path(self) -> Path:
        """The installed schema file (package data in `cleveragents/schemas`)."""
        from importlib.resources import files  # only this command needs it
        from pathlib import Path

        # `cleveragents` is a namespace package: join one level at a time.
        resource = files("cleveragents").joinpath("schemas").joinpath(self.schema_file)
        return Path(str(resource))

    def model(self) -> type[BaseModel]:
        return self.load_model()

    def field_names(self) -> tuple[str, ...]:
        return self.load_field_names()

    def profile_in(self, document: Any) -> tuple[SafetyProfile | None, Loc]:
        """The safety profile a valid document of this kind sets (None: an action without
        one), and where it sits in the document."""
        if self.profile_field is None:
            return document, ()
        return getattr(document, self.profile_field), (self.profile_field,)

    def profile_mapping_in(self, mapping: dict[str, Any]) -> tuple[dict[str, Any] | None, Loc]:
        """`profile_in` for a valid document as loaded (a mapping), not as a model."""
        if self.profile_field is None:
            return mapping, ()
        return mapping.get(self.profile_field), (self.profile_field,)

    def schema(self) -> Schema:
        return self.load_schema()


def _profile_model() -> type[BaseModel]:
    from cleveragents.domain.models.core.safety_profile import SafetyProfile

    return SafetyProfile


def _action_model() -> type[BaseModel]:
    from cleveragents.domain.models.core.action import Action

    return Action


def _profile_schema() -> Schema:
    from cleveragents.domain.models.core.document_check import PROFILE

    return PROFILE


def _action_schema() -> Schema:
    from cleveragents.domain.models.core.document_check import ACTION

    return ACTION


def _profile_fields() -> tuple[str, ...]:
    from cleveragents.schema_validators.safety_profile_schema import PROPERTIES

    return tuple(PROPERTIES)


def _action_fields() -> tuple[str, ...]:
    from cleveragents.schema_validators.action_schema import PROPERTIES

    return tuple(PROPERTIES)


# A YAML file's name, in any case as the hooks match names: what `diff` takes under a folder
# the user names.
YAML_NAME = re.compile(r"(?ai)\.ya?ml\Z")

# The hooks' patterns (.pre-commit-hooks.yaml; a test keeps them equal): names in any ASCII
# case, as git's icase pathspecs, editors' globs and every file system's folding agree on (not
# Python's Unicode folding, where U+017F LONG S is an `s`), ending at the end of the name (`\Z`: `$`
# would also match before a final newline, which git names may hold).
_PROFILE_FILE_NAME = r"(?ai)(^|/)[^/]*safety[_-]profile[^/]*\.ya?ml\Z"

# The one rule for a name both kinds' patterns claim (docs/actions.md, "A name both kinds
# claim"): a file under an `actions/` folder named `*.action.yaml` (or `.yml`) is an action,
# whatever else its name holds; the profile hook leaves out exactly those names. So
# `actions/empty_safety_profile.action.yaml` is an action, `actions/prod.safety_profile.yaml`
# a profile. (Under `.github/` it is neither: nothing there is a CleverAgents action.)
_ACTION_FILE_NAME = r"(?ai)(^|/)actions/(.*/)?[^/]*\.action\.ya?ml\Z"
# A profile's name that is not such an action's: `(?<!\.action)` before the extension.
_PROFILE_NOT_ACTION_NAME = r"(^|/)[^/]*safety[_-]profile[^/]*(?<!\.action)\.ya?ml\Z"

# The folders the kinds' patterns look for anywhere on a path (`actions/`, `.github/`), in any
# ASCII case as the patterns match them: whether a name is of a kind depends only on which of
# these it passes through and on its last component (a test keeps this true), so `diff --git`
# can tell the kind of every name a folder link gives a file without listing them all.
_MARKED_FOLDER = re.compile(r"(?ai)actions|\.github")


def folder_mark(name: str) -> str | None:
    """The marked folder (`actions`, `.github`) a path component is, in lower case; else None."""
    return name.lower() if _MARKED_FOLDER.fullmatch(name) else None


KINDS: dict[str, DocumentKind] = {
    "profile": DocumentKind(
        "profile",
        "a safety profile",
        "safety_profile.schema.json",
        _profile_model,
        _profile_schema,
        _profile_fields,
        files=_PROFILE_FILE_NAME,
        exclude=_ACTION_FILE_NAME,
        profile_field=None,
    ),
    "action": DocumentKind(
        "action",
        "an action",
        "action.schema.json",
        _action_model,
        _action_schema,
        _action_fields,
        files=r"(?ai)(^|/)actions/.*\.ya?ml\Z",
        # A safety profile file kept beside actions is a profile, not an action, unless it is
        # named `*.action.yaml`; anything under .github/ is GitHub's own (composite actions),
        # not a CleverAgents action.
        exclude=rf"(?ai){_PROFILE_NOT_ACTION_NAME}|(^|/)\.github/",
        profile_field="safety_profile",
    ),
}


def named_as(path: str, kind: str) -> str | None:
    """A name for the file at `path` (a repository path, with `/`) that the one rule makes a
    file of `kind`, keeping its folder where it can: an action gets `.action.yaml` and an
    `actions/` folder, a profile `safety_profile` and no `.action`. None: no such name there
    (under `.github/`, say)."""
    folder, _, base = path.rpartition("/")
    extension = YAML_NAME.search(base)
    if extension is None:
        return None
    stem, suffix = base[: extension.start()], base[extension.start() :]
    if stem.lower().endswith(".action"):
        stem = stem[: -len(".action")]
    if kind == "action":
        stem += ".action"
        if not any(folder_mark(part) == "actions" for part in folder.split("/")):
            folder = f"{folder}/actions" if folder else "actions"
    elif not re.search(r"(?ai)safety[_-]profile", stem):
        stem += ".safety_profile"
    candidate = f"{folder}/{stem}{suffix}" if folder else f"{stem}{suffix}"
    return candidate if KINDS[kind].matches(candidate) else None


def names_of_kind(kind: str, names: bytes) -> bytes:
    """Of NUL-terminated repository paths (`git ls-files -z`), those the hooks check as `kind`,
    NUL-terminated: how the review action (action.yml) picks its files by this one rule."""
    import os

    document = KINDS[kind]
    picked = [name for name in names.split(b"\0") if name and document.matches(os.fsdecode(name))]
    return b"".join(name + b"\0" for name in picked)


if __name__ == "__main__":  # python -I -m cleveragents.safety_toolkit.core.kinds KIND < NAMES
    import sys

    sys.stdout.buffer.write(names_of_kind(sys.argv[1], sys.stdin.buffer.read()))
