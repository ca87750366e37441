"""Part 4: the strict YAML loader, over the example folders and its own edge cases."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, INVALID_PROFILES, VALID_PROFILES, check_example, expected_output_path

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.document import load_yaml_document
from cleveragents.reading.limits import DEFAULT_LIMITS, LoadLimits
from cleveragents.reading.problems import ProfileFileError
from cleveragents.reading.validation import check_yaml_bytes


def load(text: str | bytes, limits: LoadLimits = DEFAULT_LIMITS) -> Any:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return load_yaml_document(data, "f.yaml", limits)


def rules(text: str | bytes) -> list[str]:
    return [
        problem.rule
        for problem in check_yaml_bytes(
            text.encode() if isinstance(text, str) else text, "f.yaml", SafetyProfile
        ).problems
    ]


@pytest.mark.parametrize("example", VALID_PROFILES, ids=lambda p: p.name)
def test_valid_examples_load(example: Path) -> None:
    instance, rendered = check_example(example, SafetyProfile)
    assert rendered == ""
    assert isinstance(instance, SafetyProfile)


@pytest.mark.parametrize("example", INVALID_PROFILES, ids=lambda p: p.name)
def test_invalid_examples_give_exactly_the_expected_messages(example: Path) -> None:
    instance, rendered = check_example(example, SafetyProfile)
    assert instance is None
    assert rendered == expected_output_path(example).read_text(encoding="utf-8")


def test_every_invalid_example_has_a_snapshot_and_no_snapshot_is_orphaned() -> None:
    snapshots = {expected_output_path(example) for example in INVALID_PROFILES}
    assert all(snapshot.is_file() for snapshot in snapshots)
    assert set((EXAMPLES / "invalid").glob("*.expected")) == snapshots


# -- YAML 1.2 core scalars ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "word", ["yes", "Yes", "YES", "no", "No", "on", "ON", "off", "Off", "y", "Y", "n", "N", "yEs"]
)
def test_yaml11_boolean_words_load_as_strings(word: str) -> None:
    assert load(f"key: {word}\n").value == {"key": word}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true", True),
        ("False", False),
        ("TRUE", True),
        ("~", None),
        ("null", None),
        ("", None),
        ("3", 3),
        ("-7", -7),
        ("0o17", 15),
        ("0x1F", 31),
        ("017", 17),
        ("1_000", "1_000"),
        ("1e3", 1000.0),
        ("3.0", 3.0),
        (".5", 0.5),
        ("-.inf", -math.inf),
        ("1:30", "1:30"),
        ("2024-01-01", "2024-01-01"),
        ('"3"', "3"),
        ("'true'", "true"),
        ("!!str 5", "5"),
        ("!!int '7'", 7),
        ("!!float 2", 2.0),
    ],
)
def test_scalars_follow_the_yaml_1_2_core_schema(text: str, expected: Any) -> None:
    assert load(f"key: {text}\n").value == {"key": expected}


def test_nan_loads_as_nan() -> None:
    assert math.isnan(load("key: .nan\n").value["key"])


# -- Safety ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "tag",
    [
        "!!python/object/apply:os.system",
        "!!python/name:os.system",
        "!custom",
        "!!binary",
        "!!timestamp",
        "!!set",
    ],
)
def test_non_core_tags_are_errors_and_never_run(tag: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    document = load(f'key: {tag} ["touch {marker}"]\n')
    assert document.value is None
    assert [problem.rule for problem in document.problems] == ["yaml.tag"]
    assert repr(tag.split(" ")[0]) in document.problems[0].message
    assert not marker.exists()


def test_duplicate_keys_name_the_key_and_both_lines() -> None:
    document = load("allow_unsafe_tools: false\nrequire_sandbox: true\nallow_unsafe_tools: true\n")
    (problem,) = document.problems
    assert problem.rule == "yaml.duplicate-key"
    assert (problem.line, problem.column, problem.path) == (3, 1, "allow_unsafe_tools")
    assert "'allow_unsafe_tools'" in problem.message
    assert "line 1" in problem.message
    assert "line 3" in problem.message


def test_duplicate_key_never_passes_even_when_both_values_are_valid() -> None:
    result = check_yaml_bytes(
        b"allow_unsafe_tools: false\nallow_unsafe_tools: true\n", "f.yaml", SafetyProfile
    )
    assert result.instance is None
    assert [problem.rule for problem in result.problems] == ["yaml.duplicate-key"]


def test_duplicate_keys_in_nested_mappings_are_found() -> None:
    document = load("outer:\n  inner: 1\n  inner: 2\n")
    (problem,) = document.problems
    assert (problem.line, problem.path) == (3, "outer.inner")


def test_non_string_keys_are_errors() -> None:
    assert [problem.rule for problem in load("1: a\n").problems] == ["yaml.key-type"]
    assert [problem.rule for problem in load("? [a]\n: b\n").problems] == ["yaml.key-type"]


def test_multiple_documents_are_an_error() -> None:
    assert rules("require_sandbox: true\n---\nrequire_sandbox: false\n") == [
        "yaml.multiple-documents"
    ]


def test_non_utf8_input_names_the_byte_and_where() -> None:
    with pytest.raises(ProfileFileError) as caught:
        load(b"require_sandbox: true\nname: caf\xe9\n")
    (problem,) = caught.value.problems
    assert (problem.line, problem.column, problem.rule) == (2, 10, "yaml.encoding")
    assert "0xe9" in problem.message


def test_utf16_is_not_accepted() -> None:
    with pytest.raises(ProfileFileError):
        load("require_sandbox: true\n".encode("utf-16"))


def test_binary_input_is_an_error() -> None:
    with pytest.raises(ProfileFileError, match="binary"):
        load(b"\x00\x01\x02")


def test_syntax_errors_carry_a_position() -> None:
    document = load("require_sandbox: [true\n")
    (problem,) = document.problems
    assert problem.rule == "yaml.syntax"
    assert problem.line == 2


def test_tab_indentation_is_a_syntax_error() -> None:
    assert [problem.rule for problem in load("a:\n\tb: 1\n").problems] == ["yaml.syntax"]


# -- Resource bounds (their speed is measured in benchmarks/, not here) ------------------------
def _alias_bomb(levels: int) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        refs = ", ".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_rejected() -> None:
    document = load(_alias_bomb(10))
    assert document.value is None
    assert [problem.rule for problem in document.problems] == ["yaml.too-many-nodes"]


def test_small_aliases_are_fine() -> None:
    document = load("base: &base [code, test]\nmore: *base\n")
    assert document.problems == []
    assert document.value == {"base": ["code", "test"], "more": ["code", "test"]}


@pytest.mark.parametrize("depth", [65, 10_000, 200_000])
def test_deep_nesting_is_rejected(depth: int) -> None:
    document = load("[" * depth + "]" * depth)
    assert document.value is None
    assert [problem.rule for problem in document.problems] in (["yaml.too-deep"], ["yaml.syntax"])


def test_nesting_below_the_limit_is_fine() -> None:
    assert load("[" * 64 + "]" * 64).problems == []


def test_block_nesting_is_bounded_too() -> None:
    text = "".join("  " * level + f"k{level}:\n" for level in range(100)) + "  " * 100 + "v\n"
    assert [problem.rule for problem in load(text).problems] == ["yaml.too-deep"]


def test_oversized_input_is_rejected_before_parsing() -> None:
    with pytest.raises(ProfileFileError, match="more than the limit of 100"):
        load(b"a: " + b"x" * 200, LoadLimits(max_bytes=100))


# -- Positions ---------------------------------------------------------------------------------
def test_positions_are_one_based_and_point_at_values_and_keys() -> None:
    document = load("a: 1\nlist:\n  - x\n  - y\n")
    assert document.position(("a",)) == (1, 4)
    assert document.position(("a",), of_key=True) == (1, 1)
    assert document.position(("list", 1)) == (4, 5)
    assert document.position(("list", 7)) == (3, 3)  # falls back to the nearest known ancestor
    assert document.position(()) == (1, 1)


def test_too_many_values_without_aliases_name_the_entry() -> None:
    document = load("require_sandbox: true\nallowed_skill_categories: [" + "a," * 100_001 + "]\n")
    (problem,) = document.problems
    assert (problem.rule, problem.path, problem.line, problem.column) == (
        "yaml.too-many-nodes",
        "allowed_skill_categories",
        2,
        1,
    )


def test_alias_bomb_names_the_first_entry_that_reaches_the_limit() -> None:
    (problem,) = load(_alias_bomb(12)).problems
    assert (problem.path, problem.line) == ("a5", 6)  # 9**6 values: the first over 100,000


def test_pure_python_yaml_parser_is_bounded_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where PyYAML was built without libyaml, its pure-Python composer recurses.
    import yaml

    from cleveragents.reading import document, scalars

    monkeypatch.setattr(document, "_Yaml12Loader", scalars.yaml12_loader(yaml.SafeLoader))
    assert load("key: yes\nn: 0o17\n").value == {"key": "yes", "n": 15}
    document = load("allowed_skill_categories: " + "[" * 10_000 + "]" * 10_000)
    assert [problem.rule for problem in document.problems] == ["yaml.too-deep"]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_line_breaks_only_yaml_11_readers_see_are_refused(separator: str) -> None:
    # In an editor this is one line ending in a comment; to PyYAML (YAML 1.1) the comment ends
    # at the separator and a hidden `allow_unsafe_tools: true` follows.
    import yaml

    text = f"require_sandbox: true  # reviewed{separator}allow_unsafe_tools: true\n"
    assert yaml.safe_load(text)["allow_unsafe_tools"] is True  # the differential is real
    (problem,) = load(text).problems
    assert (problem.rule, problem.line, problem.column) == ("yaml.ambiguous-line-break", 1, 34)
