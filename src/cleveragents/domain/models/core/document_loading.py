"""`from_config` and `from_yaml` for the hand-written models (one implementation for all)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from pydantic import BaseModel

from cleveragents.reading.validation import load_yaml_file


class LoadableDocument(BaseModel):
    """Mixin: build a model from a mapping or from a YAML file, through the one check path."""

    document_name: ClassVar[str] = "document"

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Self:
        """Build from a mapping such as one loaded from YAML or JSON.

        Raises ValueError when `config` is not a mapping, and pydantic's ValidationError (a
        ValueError) when it is not valid."""
        if not isinstance(config, Mapping):
            raise ValueError(
                f"a {cls.document_name} config must be a mapping, not {type(config).__name__}"
            )
        return cls.model_validate(dict(config))

    @classmethod
    def from_yaml(cls, path: str | os.PathLike[str]) -> Self:
        """Load from a YAML file.

        Raises FileNotFoundError when the file is missing (another OSError when it cannot be
        read), and ProfileFileError (a ValueError) listing every problem with file, line,
        column and field when it is not valid (including an empty file or a root that is not
        a mapping)."""
        return load_yaml_file(path, cls)
