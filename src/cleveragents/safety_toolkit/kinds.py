"""The kinds of document the toolkit checks: each with its schema file, its model, what accepts
a valid document without the model, the file names its pre-commit hook matches and where in it
the safety profile sits."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from pathlib import Path

    from pydantic import BaseModel


def _imported(path: str) -> Any:
    """The attribute `module:attribute` names, imported only when it is needed."""
    module_name, attribute = path.split(":")
    return getattr(importlib.import_module(module_name), attribute)


class DocumentKind(NamedTuple):
    name: str
    label: str  # in messages: "a safety profile", "an action"
    schema_file: str
    model_path: str  # "module:attribute", imported only when this kind is checked
    # "module:attribute": a function that says whether the model accepts a loaded document,
    # without importing pydantic (see `acceptance`)
    acceptance_path: str
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
        model: type[BaseModel] = _imported(self.model_path)
        return model

    def field_names(self) -> tuple[str, ...]:
        """The document's top-level fields: its schema's properties, which are its model's
        fields (a test keeps them equal), read without pydantic."""
        stem = self.schema_file.removesuffix(".schema.json")
        names: tuple[str, ...] = _imported(
            f"cleveragents.schema_validators.{stem}_schema:PROPERTIES"
        )
        return names

    def acceptance(self) -> Callable[[dict[str, Any]], bool]:
        accepts: Callable[[dict[str, Any]], bool] = _imported(self.acceptance_path)
        return accepts


# A YAML file's name, in any case as the hooks match names: what `diff` takes under a folder
# the user names.
YAML_NAME = re.compile(r"(?i)\.ya?ml$")

# The hooks' patterns (.pre-commit-hooks.yaml; a test keeps them equal): names in any case.
_PROFILE_FILE_NAME = r"(?i)(^|/)[^/]*safety[_-]profile[^/]*\.ya?ml$"

KINDS: dict[str, DocumentKind] = {
    "profile": DocumentKind(
        "profile",
        "a safety profile",
        "safety_profile.schema.json",
        "cleveragents.domain.models.core.safety_profile:SafetyProfile",
        "cleveragents.domain.models.core.acceptance:accepts_profile",
        files=_PROFILE_FILE_NAME,
        exclude=None,
        profile_field=None,
    ),
    "action": DocumentKind(
        "action",
        "an action",
        "action.schema.json",
        "cleveragents.domain.models.core.action:Action",
        "cleveragents.domain.models.core.acceptance:accepts_action",
        files=r"(?i)(^|/)actions/.*\.ya?ml$",
        # A safety profile file kept beside actions is a profile, not an action; anything under
        # .github/ is GitHub's own (composite actions), not a CleverAgents action.
        exclude=r"(?i)(^|/)[^/]*safety[_-]profile[^/]*\.ya?ml$|(^|/)\.github/",
        profile_field="safety_profile",
    ),
}
