"""`safety-profile show`: the effective document with every default filled in."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel


def _yaml_value(value: Any) -> str:
    # JSON is valid YAML flow syntax, and it quotes every string that needs it.
    return json.dumps(value, ensure_ascii=False)


def render_effective(instance: BaseModel, source: str) -> str:
    """Every field as YAML, each marked `# from file` or `# default`."""
    values = instance.model_dump(mode="json")
    lines = [f"{key}: {_yaml_value(value)}" for key, value in values.items()]
    width = max(len(line) for line in lines)
    marked = [
        f"{line.ljust(width)}  # {'from file' if key in instance.model_fields_set else 'default'}"
        for line, key in zip(lines, values, strict=True)
    ]
    header = f"# Effective {type(instance).__name__} for {source}"
    return "\n".join([header, *marked]) + "\n"
