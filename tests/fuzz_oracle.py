"""The fuzzing oracle, shared by tests/reading/test_hardening.py,
tests/reading/test_yaml_test_suite.py and fuzz/fuzz_check.py: a check must never raise, nothing the
schema rejects may ever load as a model, the commands' validator (no pydantic) reports exactly the
problems the models' path reports, and
whatever the loader accepts must mean the same to the other readers of the file: PyYAML's
`safe_load` (its own pure-Python reader), PyYAML on libyaml, and check-jsonschema's loader
(ruamel)."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from functools import cache
from typing import Any

import jsonschema
import yaml
from conftest import local_schema_registry

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.document_check import ACTION, PROFILE, Schema, check_loaded
from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.document import load_yaml_document
from cleveragents.reading.loaded_file import load_bytes
from cleveragents.reading.problems import ProfileFileError
from cleveragents.reading.validation import check_yaml_bytes
from cleveragents.safety_toolkit.core.kinds import KINDS

INSTALLED_SCHEMAS = KINDS["profile"].schema_path().parent


@cache
def installed_registry() -> Any:
    """Every installed schema under its `$id`; anything else is refused, never fetched."""
    return local_schema_registry(INSTALLED_SCHEMAS)


@cache
def validators() -> dict[type, jsonschema.Draft202012Validator]:
    def validator(kind: str) -> jsonschema.Draft202012Validator:
        schema = json.loads(KINDS[kind].schema_path().read_text(encoding="utf-8"))
        return jsonschema.Draft202012Validator(schema, registry=installed_registry())

    return {SafetyProfile: validator("profile"), Action: validator("action")}


def _finite(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_finite(item) for item in value.values())
    if isinstance(value, list):
        return all(_finite(item) for item in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return True


@cache
def other_readers() -> dict[str, Callable[[bytes], Any]]:
    """The readers of a profile besides ours, each as its users call it."""
    from check_jsonschema.parsers.yaml import construct_yaml_implementation, impl2loader

    check_jsonschema_load = impl2loader(
        construct_yaml_implementation(), construct_yaml_implementation(pure=True)
    )
    return {
        "yaml.safe_load": yaml.safe_load,
        "PyYAML on libyaml": lambda data: yaml.load(data, Loader=yaml.CSafeLoader),
        "check-jsonschema": lambda data: check_jsonschema_load(io.BytesIO(data)),
    }


def same_value(ours: Any, theirs: Any) -> bool:
    """The same value of the same type, all the way down (NaN equals NaN here)."""
    if type(ours) is not type(theirs):
        return False
    if isinstance(ours, float) and math.isnan(ours):
        return math.isnan(theirs)
    if isinstance(ours, dict):
        return ours.keys() == theirs.keys() and all(same_value(ours[k], theirs[k]) for k in ours)
    if isinstance(ours, list):
        return len(ours) == len(theirs) and all(map(same_value, ours, theirs))
    return bool(ours == theirs)


def readers_that_disagree(data: bytes) -> dict[str, str]:
    """For a document our loader accepts, each other reader that reads another value (or
    fails), with what it read; empty when all agree or when we refuse the document."""
    try:
        document = load_yaml_document(data, "fuzz.yaml")
    except ProfileFileError:
        return {}  # not text we read at all
    if document.problems or not document.built:
        return {}
    disagreeing = {}
    for name, read in other_readers().items():
        try:
            theirs = read(data)
        except Exception as error:  # a reader that fails on an accepted file disagrees
            disagreeing[name] = f"{type(error).__name__}: {error}"
            continue
        if not same_value(document.value, theirs):
            disagreeing[name] = repr(theirs)
    return disagreeing


# The commands' validator (no pydantic) of each model's schema: it must report what the model's
# path reports, word for word.
COMMAND_PATHS: dict[type, Schema] = {SafetyProfile: PROFILE, Action: ACTION}


def assert_never_loads_what_the_schema_rejects(data: bytes) -> None:
    loaded_file = load_bytes(data, "fuzz.yaml")
    for model in (SafetyProfile, Action):
        result = check_yaml_bytes(data, "fuzz.yaml", model)  # must not raise
        command = check_loaded(loaded_file, COMMAND_PATHS[model], "fuzz.yaml")
        assert command.problems == result.problems, data
        assert (command.valid is not None) == (result.instance is not None), data
        if result.instance is None:
            assert result.problems, "an invalid file must say why"
            continue
        assert result.problems == ()
        loaded = load_yaml_document(data, "fuzz.yaml").value
        assert validators()[model].is_valid(loaded), loaded
        assert _finite(loaded), loaded


def assert_accepted_means_the_same_to_every_reader(data: bytes) -> None:
    assert_never_loads_what_the_schema_rejects(data)
    assert readers_that_disagree(data) == {}, data
