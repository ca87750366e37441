"""Coverage-guided fuzzing of the whole check path with atheris (run outside CI).

    .venv/bin/pip install atheris
    .venv/bin/python fuzz/fuzz_check.py -atheris_runs=2000000 examples/valid examples/invalid

The corpus folders seed it. A crash is any exception escaping `check_yaml_bytes`, or a
document the schema rejects being returned as a valid model.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import atheris

with atheris.instrument_imports():
    import jsonschema
    from referencing import Registry, Resource

    from cleveragents.domain.models.core.action import Action
    from cleveragents.domain.models.core.safety_profile import SafetyProfile
    from cleveragents.safety_toolkit.kinds import KINDS
    from cleveragents.safety_toolkit.validation import check_yaml_bytes
    from cleveragents.safety_toolkit.yaml_loading import load_yaml_document


def _validators() -> dict[type, jsonschema.Draft202012Validator]:
    folder = KINDS["profile"].schema_path().parent
    resources = [
        Resource.from_contents(json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(folder.glob("*.schema.json"))
    ]
    registry: Registry[Any] = Registry().with_resources((r.id() or "", r) for r in resources)

    def build(kind: str) -> jsonschema.Draft202012Validator:
        schema = json.loads(KINDS[kind].schema_path().read_text(encoding="utf-8"))
        return jsonschema.Draft202012Validator(schema, registry=registry)

    return {SafetyProfile: build("profile"), Action: build("action")}


VALIDATORS = _validators()


def _finite(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_finite(item) for item in value.values())
    if isinstance(value, list):
        return all(_finite(item) for item in value)
    return not isinstance(value, float) or math.isfinite(value)


def test_one_input(data: bytes) -> None:
    for model, validator in VALIDATORS.items():
        result = check_yaml_bytes(data, "fuzz.yaml", model)
        if result.instance is None:
            assert result.problems, "invalid without a reason"
            continue
        loaded = load_yaml_document(data, "fuzz.yaml").value
        assert validator.is_valid(loaded), f"loaded what the schema rejects: {loaded!r}"
        assert _finite(loaded), f"loaded a non-finite number: {loaded!r}"


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
