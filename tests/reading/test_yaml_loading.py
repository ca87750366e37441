"""Part 4: the strict YAML loader, over the example folders and its own edge cases."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, INVALID_PROFILES, VALID_PROFILES, check_example, expected_output_path
from fuzz_oracle import readers_that_disagree, same_value
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.document import load_yaml_document
from cleveragents.reading.limits import DEFAULT_LIMITS, LoadLimits
from cleveragents.reading.problems import ProfileFileError
from cleveragents.reading.scalars import canonical_spelling
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


# -- syntax errors name where the unclosed construct was opened ----------------------------------
@pytest.mark.parametrize(
    ("text", "gave_up", "opened"),
    [
        ("a: 1\nb: [code, test\nc: 2\n", (3, 2), "the list opened with '[' at line 2, column 4"),
        ("a: {x: 1\n\nb: 2\n", (3, 2), "the mapping opened with '{' at line 1, column 4"),
        ('a: 1\nb: "abc\nc: 2\n', (4, 1), "the text opened with '\"' at line 2, column 4"),
        ("a: 'abc\n---\n", (2, 1), 'the text opened with "\'" at line 1, column 4'),
        ("a:\n  b: 1\n c: 2\n", (3, 2), "the mapping whose first key is at line 1, column 1"),
        ("- 1\n- 2\nx: 3\n", (3, 1), "the list whose first item is at line 1, column 1"),
    ],
)
def test_a_syntax_error_names_where_the_construct_began(
    text: str, gave_up: tuple[int, int], opened: str
) -> None:
    """libyaml gives up lines after an unclosed '[', '{' or quote; the message names both
    places, and a whole-document problem reads without the `$:` of its JSON path."""
    (problem,) = load(text).problems
    assert (problem.line, problem.column, problem.path) == (*gave_up, "$")
    assert problem.message.startswith(f"invalid YAML: {opened}: ")
    assert problem.render().startswith(f"f.yaml:{gave_up[0]}:{gave_up[1]}: error: invalid YAML: ")


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
    document = load(f'key: {tag} ["touch {marker}"]\nother: 0o17\n')
    # The tagged value is left out; the rest of the file is still read and checked.
    assert document.value == {"key": None, "other": 15}
    assert [(problem.rule, problem.path) for problem in document.problems] == [
        ("yaml.tag", "key"),
        ("yaml.ambiguous-scalar", "other"),
    ]
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


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_non_utf8_input_names_the_byte_and_where(bom: bytes) -> None:
    # After a byte order mark too: the line and column are in the text after it, and the byte
    # named is the one that is not UTF-8 (not the one three bytes before it).
    with pytest.raises(ProfileFileError) as caught:
        load(bom + b"require_sandbox: true\nname: caf\xe9\n")
    (problem,) = caught.value.problems
    assert (problem.line, problem.column, problem.rule) == (2, 10, "yaml.encoding")
    assert "(byte 0xe9)" in problem.message


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


@pytest.mark.parametrize("text", ["a:\n\tb: 1\n", "a:\n  -\tb\n", "a: |\n \tb\n"])
def test_a_tab_the_parser_refuses_is_named_in_the_message(text: str) -> None:
    (problem,) = load(text).problems
    assert problem.rule == "yaml.tab"
    assert "a tab here" in problem.message
    assert "use spaces" in problem.message


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

    monkeypatch.setattr(document, "_ComposingLoader", scalars.composing_loader(yaml.SafeLoader))
    assert load("key: text\nn: 15\nf: 1.5\n").value == {"key": "text", "n": 15, "f": 1.5}
    assert load("key: yes\n").problems[0].rule == "yaml.ambiguous-scalar"
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


# -- one file, one meaning: the spelling each message suggests is read the same everywhere ------
@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.integers(-(10**39), 10**39),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.none(),
    )
)
def test_the_spelling_a_message_suggests_reads_the_same_to_every_reader(value: Any) -> None:
    spelled = canonical_spelling(value)
    assert spelled is not None
    data = f"key: {spelled}\n".encode()
    document = load(data.decode())
    assert document.problems == []
    assert same_value(document.value["key"], value)
    assert readers_that_disagree(data) == {}


@pytest.mark.parametrize(
    ("text", "yaml12", "yaml11"),
    [
        ("010", 10, 8),
        ("0100", 100, 64),
        ("on", "on", True),
        ("0o17", 15, "0o17"),
        ("1e3", 1000.0, "1e3"),
        ("1_000", "1_000", 1000),
        ("0b101", "0b101", 5),
        ("1:20", "1:20", 80),
        ("+0x1F", "+0x1F", 31),
    ],
)
def test_the_issues_scalars_are_refused_showing_both_readings(
    text: str, yaml12: Any, yaml11: Any
) -> None:
    import yaml

    assert yaml.safe_load(f"key: {text}")["key"] == yaml11  # PyYAML's reading, as the issue says
    (problem,) = load(f"key: {text}\n").problems
    assert (problem.rule, problem.line, problem.column, problem.path) == (
        "yaml.ambiguous-scalar",
        1,
        6,
        "key",
    )
    assert f"{text} means " in problem.message
    assert "YAML 1.2" in problem.message
    assert "YAML 1.1" in problem.message
    assert f'quote it ("{text}")' in problem.message
