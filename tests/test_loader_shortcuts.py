"""The loader's shortcuts skip only work that would find nothing.

For speed, the token pass runs only when the text holds a character some token finding needs,
and the scan for refused characters only when the text holds a character outside printable
ASCII. Over texts built from the characters YAML gives a meaning to, the skipped work never
finds anything: whenever a shortcut says "nothing here", the full work finds nothing either.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cleveragents.reading.document import _ComposingLoader
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


def test_the_shortcuts_do_skip_a_plain_profile() -> None:
    text = "# Safety profile\nrequire_sandbox: true\nallowed_skill_categories:\n  - code\n"
    assert not may_hold_findings(text)
    assert not may_hold_refused(text)
