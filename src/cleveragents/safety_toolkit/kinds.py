"""The kinds of document the toolkit checks: each with its schema file and its model."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class DocumentKind:
    name: str
    label: str  # in messages: "a safety profile", "an action"
    schema_file: str
    model_path: str  # "module:attribute", imported only when this kind is checked

    def schema_path(self) -> Path:
        """The installed schema file (package data in `cleveragents/schemas`)."""
        from importlib.resources import files  # only this command needs it

        # `cleveragents` is a namespace package: join one level at a time.
        resource = files("cleveragents").joinpath("schemas").joinpath(self.schema_file)
        return Path(str(resource))

    def model(self) -> type[BaseModel]:
        module_name, attribute = self.model_path.split(":")
        model: type[BaseModel] = getattr(importlib.import_module(module_name), attribute)
        return model


KINDS: dict[str, DocumentKind] = {
    "profile": DocumentKind(
        "profile",
        "a safety profile",
        "safety_profile.schema.json",
        "cleveragents.domain.models.core.safety_profile:SafetyProfile",
    ),
    "action": DocumentKind(
        "action",
        "an action",
        "action.schema.json",
        "cleveragents.domain.models.core.action:Action",
    ),
}
