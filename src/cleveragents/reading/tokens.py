"""Token-level checks: where libyaml's reading of the characters differs from another reader's.

libyaml (which PyYAML, and so many applications, use) accepts spellings that YAML 1.2 readers
(editors) read differently or refuse, as the official YAML test suite shows, and some that
PyYAML's own pure-Python reader or ruamel (check-jsonschema) refuse, as fuzzing against them
shows. Each is refused here with what to write instead, so that a file we accept is read the
same way by all of them:

* a comment whose `#` has no space before it (`"value"# note`, `[a, b]#note`, `># note`);
* an anchor or alias name followed by a character YAML 1.2 counts as part of the name
  (`&an:chor value`);
* the non-specific tag `!`, which YAML 1.2 reads as text and libyaml resolves anyway, and a tag
  followed directly by `,` or a bracket;
* `?x`, `-`, a lone `-`, `?` or `:`, and text holding `?`, inside flow collections, and a `:`
  with no space after it inside a flow sequence (`["key":value]`);
* continuation lines of a flow collection or of quoted text not indented past the block that
  holds them;
* block scalars whose blank lines before the text hold spaces other than none or the text's
  indentation, top-level block scalars whose text is not indented, and a file that ends inside
  a block scalar on a line of spaces without a line break;
* a second `...` marker;
* tabs outside quoted text, block scalar text and comments.
"""

from __future__ import annotations

import bisect
import re
import sys

import yaml
from yaml import tokens

from .lean_typing import TYPE_CHECKING
from .rules import Rule
from .text import TextFinding

if TYPE_CHECKING:
    from typing import Any

_BLANK = " \t\r\n"
_AFTER_NAME_IN_BOTH = _BLANK + ",[]{}"  # characters that end an anchor name for every reader
_FLOW_STARTS = (tokens.FlowSequenceStartToken, tokens.FlowMappingStartToken)
_FLOW_ENDS = (tokens.FlowSequenceEndToken, tokens.FlowMappingEndToken)
_BLOCK_STARTS = (tokens.BlockMappingStartToken, tokens.BlockSequenceStartToken)
_BLOCK_SCALAR_HEADER = re.compile(r"[|>][0-9+-]*")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
# What may follow a block scalar that ends the file: only spaces and tabs, if anything.
_ONLY_BLANKS_TO_END = re.compile(r"[ \t]*\Z")


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without its break) for each line, broken where YAML breaks lines."""
    found: list[tuple[int, str]] = []
    for match in _LINE.finditer(text):
        if match.start() == len(text) and found:
            break
        found.append((match.start(), match.group().rstrip("\r\n")))
    return found


class _TokenChecker:
    def __init__(self, text: str) -> None:
        self.text = text
        self.findings: list[TextFinding] = []
        self.flow_level = 0
        self.flow_brackets: list[str] = []  # "[" or "{" for each open flow collection
        self.block_columns: list[int] = []
        self.flow_start: Any = None
        self.flow_required = 0
        self._lines: list[tuple[int, str]] | None = None
        # For the tab rule only (kept when the text holds a tab): where tabs are text, not YAML
        # syntax (quoted scalars, block scalar content), and every scalar, in order (a `#`
        # inside one does not start a comment).
        self.has_tabs = "\t" in text
        self.text_spans: list[tuple[int, int]] = []
        self.scalar_spans: list[tuple[int, int]] = []
        self.document_ends = 0

    @property
    def lines(self) -> list[tuple[int, str]]:
        if self._lines is None:
            self._lines = _lines(self.text)
        return self._lines

    def add(self, offset: int, message: str, rule: Rule) -> None:
        self.findings.append(TextFinding(offset, message, rule))

    def char_at(self, offset: int) -> str:
        return self.text[offset] if offset < len(self.text) else ""

    def required_indent(self) -> int:
        """Spaces a continuation line needs: more than the innermost block collection's."""
        return self.block_columns[-1] + 1 if self.block_columns else 0

    def check(self, token: Any) -> None:
        kind = type(token)
        start, end = token.start_mark.index, token.end_mark.index
        if kind in _FLOW_STARTS:
            if self.flow_level == 0:
                self.flow_start, self.flow_required = token.start_mark, self.required_indent()
            self.flow_level += 1
            self.flow_brackets.append(self.text[start])
        elif kind in _FLOW_ENDS:
            self.flow_level = max(self.flow_level - 1, 0)
            if self.flow_brackets:
                self.flow_brackets.pop()
            if self.flow_level == 0 and self.flow_start is not None:
                self.check_continuation(
                    self.flow_start.line, token.end_mark.line, self.flow_required, "flow collection"
                )
        elif kind in _BLOCK_STARTS:
            self.block_columns.append(token.start_mark.column)
        elif kind is tokens.BlockEndToken:
            if self.block_columns:
                self.block_columns.pop()
        elif kind in (tokens.AnchorToken, tokens.AliasToken):
            self.check_name_end(token, end)
        elif kind is tokens.TagToken:
            if self.text[start:end] == "!":
                self.add(
                    start,
                    "the non-specific tag '!' is read as text by YAML 1.2 and resolved like an "
                    "untagged value by libyaml; remove it, and quote the value if it is text",
                    Rule.YAML_TAG,
                )
            elif self.char_at(end) not in ("", *_BLANK):
                self.add(
                    end,
                    f"the tag is followed by {self.char_at(end)!r}, which some readers take as "
                    "part of the tag (PyYAML) and others do not (libyaml); put a space after it",
                    Rule.YAML_TAG,
                )
        elif kind is tokens.KeyToken:
            if self.flow_level and end > start and self.char_at(end) not in _BLANK:
                self.add(
                    start,
                    "'?' followed by text inside a flow collection starts a key for libyaml and "
                    "is part of the text for YAML 1.2; quote the text, or write '? ' with a space "
                    "for a key",
                    Rule.YAML_FLOW_INDICATOR,
                )
        elif kind is tokens.ValueToken:
            in_list = self.flow_brackets[-1:] == ["["]
            if in_list and end > start and self.char_at(end) not in _BLANK:
                self.add(
                    start,
                    "inside [...], a ':' with no space after it ('\"key\":value') makes a "
                    "one-pair mapping for libyaml and PyYAML and an error for ruamel "
                    "(check-jsonschema); put a space after ':', or quote the text",
                    Rule.YAML_FLOW_INDICATOR,
                )
        elif kind is tokens.BlockEntryToken:
            if self.flow_level:
                self.add(
                    start,
                    "'-' inside a flow collection ([...] or {...}) is not a list item; quote it "
                    '("-") if it is text',
                    Rule.YAML_FLOW_INDICATOR,
                )
        elif kind is tokens.ScalarToken:
            self.check_scalar(token, start)
        elif kind is tokens.DocumentEndToken:
            self.document_ends += 1
            if self.document_ends == 2:
                self.add(
                    start,
                    "a second '...' (document end) marker: check-jsonschema reads another, empty "
                    "document there and refuses the file; keep one",
                    Rule.YAML_MULTIPLE_DOCUMENTS,
                )
        if end > start and self.char_at(end) == "#" and self.text[end - 1] not in _BLANK:
            self.comment_without_space(end)

    def comment_without_space(self, offset: int) -> None:
        self.add(
            offset,
            "a comment needs a space before '#' (YAML 1.2 readers refuse it, libyaml reads a "
            "comment); add a space, or quote the text if '#' belongs to it",
            Rule.YAML_COMMENT,
        )

    def check_name_end(self, token: Any, end: int) -> None:
        following = self.char_at(end)
        if following and following not in _AFTER_NAME_IN_BOTH:
            what = "anchor" if type(token) is tokens.AnchorToken else "alias"
            self.add(
                end,
                f"the {what} name {token.value!r} is followed by {following!r}, which YAML 1.2 "
                "readers take as part of the name and libyaml does not; use only letters, digits, "
                "'-' and '_' in the name, and a space after it",
                Rule.YAML_ANCHOR_NAME,
            )

    def check_scalar(self, token: Any, start: int) -> None:
        end = token.end_mark.index
        if self.has_tabs:
            self.scalar_spans.append((start, end))
        if token.plain:
            if self.flow_level and token.value in ("-", "?", ":"):
                self.add(
                    start,
                    f"a lone {token.value!r} inside a flow collection is refused by YAML 1.2 "
                    f'readers; quote it ("{token.value}") if it is text',
                    Rule.YAML_FLOW_INDICATOR,
                )
            elif self.flow_level and "?" in token.value:
                self.add(
                    start + self.text[start:end].index("?"),
                    "'?' inside text in a flow collection ([...] or {...}) ends the text for "
                    "PyYAML and not for libyaml or YAML 1.2; quote the text",
                    Rule.YAML_FLOW_INDICATOR,
                )
        elif token.style in ("|", ">"):
            content = self.text.find("\n", start)
            if content != -1 and self.has_tabs:
                self.text_spans.append((content, end))
            self.check_block_scalar(token, start)
        else:
            if self.has_tabs:
                self.text_spans.append((start, end))
            if not self.flow_level and token.end_mark.line > token.start_mark.line:
                self.check_continuation(
                    token.start_mark.line,
                    token.end_mark.line,
                    self.required_indent(),
                    "quoted text",
                )

    def check_continuation(self, first: int, last: int, required: int, what: str) -> None:
        """Lines after the first of a flow collection or quoted text need `required` spaces
        (YAML 1.2's flow line prefix); libyaml does not check."""
        for offset, line in self.lines[first + 1 : last + 1]:
            spaces = len(line) - len(line.lstrip(" "))
            rest = line[spaces:]
            if spaces >= required or (not rest.strip(" \t") and "\t" not in rest):
                continue
            if rest.startswith("\t") or not rest.strip(" \t"):
                message = (
                    f"a tab indents this line of the {what}; YAML readers disagree on tabs here: "
                    f"indent it with spaces, at least {required}"
                )
            else:
                spaces_needed = f"{required} space{'' if required == 1 else 's'}"
                message = (
                    f"this line continues the {what} begun on line {first + 1} and must be "
                    f"indented by at least {spaces_needed} (more than the block that holds it): "
                    "YAML 1.2 readers refuse it, libyaml does not; indent it"
                )
            self.add(offset + spaces, message, Rule.YAML_INDENTATION)
            return

    def check_block_scalar(self, token: Any, start: int) -> None:
        header = _BLOCK_SCALAR_HEADER.match(self.text, start)
        header_end = header.end() if header else start + 1
        if self.char_at(header_end) == "#":
            self.comment_without_space(header_end)
        if header and not any(character.isdigit() for character in header.group()):
            self.check_leading_blank_lines(token.start_mark.line + 1)
        end = token.end_mark.index
        if not self.text.endswith(("\n", "\r")) and _ONLY_BLANKS_TO_END.match(self.text, end):
            offset, last = self.lines[-1]
            if last and not last.strip(" "):
                self.add(
                    offset,
                    "the file ends inside a block scalar on a line of only spaces and no line "
                    "break, which YAML readers read differently; remove the spaces or end the "
                    "file with a line break",
                    Rule.YAML_BLOCK_SCALAR,
                )

    def check_leading_blank_lines(self, first_line: int) -> None:
        """Blank lines before a block scalar's first line of text must be empty or hold exactly
        as many spaces as the text is indented. YAML 1.2 takes the indentation from the first
        line of text and refuses blank lines that hold more spaces (libyaml takes the most
        spaces instead); ruamel (check-jsonschema) refuses blank lines that hold fewer, and, in
        a block scalar with no text, a blank line holding more spaces than an earlier one."""
        parent = self.block_columns[-1] if self.block_columns else -1
        blank: list[tuple[int, int]] = []
        text_indent = None
        # By index, not a slice: a copy of the rest of the file per block scalar adds up.
        for line_number in range(first_line, len(self.lines)):
            offset, line = self.lines[line_number]
            spaces = len(line) - len(line.lstrip(" "))
            if line[spaces:].strip(" "):
                if spaces == 0 and parent < 0:
                    self.add(
                        offset,
                        "a top-level block scalar's text that is not indented: libyaml ends the "
                        "text at a line starting with '#' or '...', ruamel (check-jsonschema) "
                        "does not; indent the text",
                        Rule.YAML_BLOCK_SCALAR,
                    )
                    return
                text_indent = spaces if spaces > parent else None
                break
            blank.append((offset, spaces))
        if text_indent is None:  # no text: the first blank line holding spaces sets the bar
            bar = next((spaces for _, spaces in blank if spaces), 0)
            allowed: tuple[int, ...] = tuple(range(bar + 1))
        else:
            allowed = (0, text_indent)
        for offset, spaces in blank:
            if spaces not in allowed:
                self.add(
                    offset,
                    f"this blank line of a block scalar holds {spaces} "
                    f"space{'' if spaces == 1 else 's'}, which YAML readers read differently "
                    "(before the text, a blank line holds no spaces or as many as the text is "
                    "indented); remove the spaces from the blank line",
                    Rule.YAML_BLOCK_SCALAR,
                )
                return

    def check_tabs(self) -> None:
        """Tabs anywhere but in quoted text, block scalar text and comments: libyaml accepts
        some of them (after `key:`, at the end of a line, inside plain text), while PyYAML's
        own reader and check-jsonschema refuse the file."""
        if not self.has_tabs:
            return
        offset = self.text.find("\t")
        first, count = -1, 0
        while offset != -1:
            if not self.inside(self.text_spans, offset) and not self.in_comment(offset):
                first = first if count else offset
                count += 1
            offset = self.text.find("\t", offset + 1)
        if count:
            message = (
                "a tab here, outside quoted text, block scalars and comments: some YAML "
                "readers (PyYAML's own, check-jsonschema) refuse it; use spaces"
            )
            if count > 1:
                message += f" ({count} such tabs in the file; this is the first)"
            self.add(first, message, Rule.YAML_TAB)

    @staticmethod
    def inside(spans: list[tuple[int, int]], offset: int) -> bool:
        index = bisect.bisect_right(spans, (offset, sys.maxsize)) - 1
        return index >= 0 and spans[index][0] <= offset < spans[index][1]

    def in_comment(self, offset: int) -> bool:
        """Whether a comment (a `#` outside any scalar, after a blank or at the start of the
        line) begins before `offset` on its line."""
        line_start = max(self.text.rfind("\n", 0, offset), self.text.rfind("\r", 0, offset)) + 1
        hash_at = self.text.find("#", line_start, offset)
        while hash_at != -1:
            before = self.text[hash_at - 1] if hash_at > line_start else " "
            if before in " \t" and not self.inside(self.scalar_spans, hash_at):
                return True
            hash_at = self.text.find("#", hash_at + 1, offset)
        return False


# What every finding above needs in the text: a tag (`!`), an anchor or alias (`&`, `*`), a
# flow collection (`[`, `{`), a block scalar (`|`, `>`), quoted text, a tab, a second `...`, or
# a `#` right after other text. Most files hold none of them, and then the token pass, a second
# scan of the whole file, is skipped.
_CHARACTERS_FINDINGS_NEED = "!&*[{|>\"'\t"


def may_hold_findings(text: str) -> bool:
    """False only when `text` holds nothing any token finding needs."""
    if "..." in text or any(character in text for character in _CHARACTERS_FINDINGS_NEED):
        return True
    hash_at = text.find("#", 1)
    while hash_at != -1:
        if text[hash_at - 1] not in _BLANK:
            return True
        hash_at = text.find("#", hash_at + 1)
    return False


def token_findings(text: str, loader_class: type[Any]) -> list[TextFinding]:
    """The token-level findings in `text`, up to its first syntax error (which composing the
    document reports)."""
    return every_token_finding(text, loader_class) if may_hold_findings(text) else []


def every_token_finding(text: str, loader_class: type[Any]) -> list[TextFinding]:
    """`token_findings`, scanning every token whatever the text holds."""
    checker = _TokenChecker(text)
    loader = loader_class(text)
    try:
        while loader.check_token():
            checker.check(loader.get_token())
    except yaml.YAMLError:
        pass  # composing the document reports it
    else:
        checker.check_tabs()
    finally:
        loader.dispose()
    return checker.findings
