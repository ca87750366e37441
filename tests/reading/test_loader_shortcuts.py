"""The loader's shortcuts skip only work that would find nothing.

For speed, the token pass runs only when the text holds a character some token finding needs,
the scan for refused characters only when the text holds a character outside printable ASCII,
and a plain decimal such as `12.5` is read without asking every reader. Over texts built from
the characters YAML gives a meaning to, the skipped work never finds anything: whenever a
shortcut says "nothing here", the full work finds nothing either.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cleveragents.reading.document import _ComposingLoader
from cleveragents.reading.scalars import IMPLICIT_TAG, _read_scalar, read_scalar_fully
from cleveragents.reading.text import may_hold_refused, refused_matches
from cleveragents.reading.tokens import every_token_finding, may_hold_findings

# Lines of YAML-ish text: keys, values, comments, indentation, document markers, and
# (in the second alphabet) everything a token finding is about.
PLAIN = "ab1 :-#.\n"
MEANINGFUL = PLAIN + "?,%!&*[]{}|>\"'\t\r"


def yamlish(alphabet: str) -> st.SearchStrategy[str]:
    lines = st.lists(st.text(alphabet, max_size=14), max_size=8)
    return lines.map("\n".join)


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(yamlish(PLAIN) | yamlish(MEANINGFUL))
@example("key: value#comment\n")
@example("a: b\n...\n...\n")
@example("# comment\nkey: 1 # note\n")
@example("- [a, b]#x\n")
def test_the_token_pass_is_skipped_only_where_it_finds_nothing(text: str) -> None:
    if not may_hold_findings(text):
        assert every_token_finding(text, _ComposingLoader) == []


@settings(max_examples=1000)
@given(st.text(st.characters(max_codepoint=0x3000) | st.sampled_from("\r\x85\u2028\ufeff")))
@example("a\rb")
@example("a\x7fb")
@example("\u2029")
def test_the_refused_character_scan_is_skipped_only_where_it_finds_nothing(text: str) -> None:
    if not may_hold_refused(text):
        assert list(refused_matches(text)) == []


# Numbers and near misses of a plain decimal: signs, leading zeros, separators, exponents,
# base prefixes, sexagesimal colons, dots in other places.
numberish = st.text("0123456789.-+_eExob:", min_size=1, max_size=12)
near_decimals = st.from_regex(
    r"[-+]?[0-9_]{0,5}\.?[0-9_]{0,4}([eE][-+]?[0-9]{1,3})?", fullmatch=True
)
long_decimals = st.from_regex(r"-?[0-9]{1,400}\.[0-9]{1,20}", fullmatch=True)


@settings(max_examples=1500)
@given(numberish | near_decimals | long_decimals)
@example("313.37")
@example("-0.0")
@example("010.5")
@example("1_0.5")  # 10.5 in YAML 1.1, text in YAML 1.2
@example("+1.5")
@example("1.5e3")  # text in YAML 1.1
@example("1" * 400 + ".5")  # beyond the largest double: .inf to every reader
def test_a_plain_decimal_reads_as_every_reader_reads_it(text: str) -> None:
    assert _read_scalar(IMPLICIT_TAG, text, 40) == read_scalar_fully(IMPLICIT_TAG, text, 40)


def test_the_shortcuts_do_skip_a_plain_profile() -> None:
    text = "# Safety profile\nrequire_sandbox: true\nallowed_skill_categories:\n  - code\n"
    assert not may_hold_findings(text)
    assert not may_hold_refused(text)
