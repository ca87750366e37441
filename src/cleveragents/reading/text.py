"""Reading bytes: size, encoding, and the characters and lines that YAML readers disagree on.

A file that is too large, binary or not UTF-8 cannot be read at all (`ProfileFileError`). Every
other finding here is kept as a `TextFinding` at an offset of the text, and the text the parser
reads has the refused characters and directive lines blanked to spaces: the same length, so
every position stays true, and the rest of the file is still checked; a key is named as the
file writes it (`DocumentText.exact`), so JSON output keeps its exact text. (A lone CR is refused
but left in place: every YAML reader breaks the line there, only terminals and diff viewers do
not.)
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator, Sequence

from .lean_typing import NamedTuple
from .limits import LoadLimits
from .problems import Problem, ProfileFileError
from .rules import Rule


class TextFinding(NamedTuple):
    """A problem found before the document's structure is known: where it is in the text."""

    offset: int
    message: str
    rule: Rule


class DocumentText(NamedTuple):
    """The text the parser reads and what was refused in the file's text."""

    parse_text: str  # the file's text with refused characters and lines blanked to spaces
    findings: tuple[TextFinding, ...]
    text: str = ""  # the file's text as it is (the same object when nothing was blanked)

    def exact(self, value: str, start: int, end: int) -> str:
        """A scalar read from `parse_text[start:end]` as the file writes it: the parser saw
        refused characters as spaces, but a key's path in JSON output must be the exact key
        (`{"path": "ke\\u0001y"}`, not `"ke y"`). Only where the scalar is its written text
        (plain, or quoted without escapes); any other scalar is `value` as read."""
        text = self.text
        if text is self.parse_text or not text or text[start:end] == self.parse_text[start:end]:
            return value
        written = self.parse_text[start:end]
        if written == value:
            return text[start:end]
        quoted = len(written) >= 2 and written[0] in "'\"" and written[-1] == written[0]
        if quoted and written[1:-1] == value:
            return text[start + 1 : end - 1]
        return value


# YAML's printable characters (c-printable) plus the breaks handled below; anything else is
# refused outright.
_NOT_PRINTABLE = "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


@functools.cache
def _refused() -> re.Pattern[str]:
    # Compiled on first use: its Unicode ranges take milliseconds to compile, and most files
    # never need it (see `_MAY_BE_REFUSED`).
    return re.compile(
        r"(?P<lone_cr>\r(?!\n))|(?P<break>[\x85\u2028\u2029])|(?P<bom>\ufeff)"
        f"|(?P<character>{_NOT_PRINTABLE})"
    )


# Every character `_refused()` matches is outside this set, so a text without one (most
# files: ASCII with LF line breaks) has nothing refused, and the slower scan is skipped.
_MAY_BE_REFUSED = re.compile(r"[^\t\n\x20-\x7e]")


def may_hold_refused(text: str) -> bool:
    """False only when `text` holds nothing `refused_matches` would find."""
    return _MAY_BE_REFUSED.search(text) is not None


def refused_matches(text: str) -> Iterator[re.Match[str]]:
    """Each refused character (or lone CR) in `text`, named by its kind (`lastgroup`)."""
    return _refused().finditer(text)


# A line starting with `%` before the first `---` is a directive (YAML 1.2 section 6.8).
_DIRECTIVE_LINE = re.compile(r"^%[^\n]*", re.MULTILINE)
_DOCUMENT_START = re.compile(r"^---(?=[ \t\r\n]|\Z)", re.MULTILINE)


def _refused_message(kind: str, character: str) -> tuple[str, Rule]:
    code = f"U+{ord(character):04X}"
    if kind == "lone_cr":
        return (
            "a carriage return (CR) not followed by a line feed: YAML readers break the line "
            "here, terminals and diff viewers do not, so a reviewer and a program would read "
            "different settings; save the file with LF (or CRLF) line endings",
            Rule.YAML_LONE_CARRIAGE_RETURN,
        )
    if kind == "break":
        return (
            f"the character {code} is a line break to some YAML readers and not to others; "
            "remove it",
            Rule.YAML_AMBIGUOUS_LINE_BREAK,
        )
    if kind == "bom":
        return (
            "a byte order mark (U+FEFF) after the start of the file: some readers skip it, "
            "others keep it as part of the text; remove it",
            Rule.YAML_BYTE_ORDER_MARK,
        )
    return (f"the character {code} is not allowed in YAML; remove it", Rule.YAML_CHARACTER)


def _counted(message: str, count: int) -> str:
    return message if count == 1 else f"{message} ({count} in the file; this is the first)"


def _directive_spans(text: str) -> list[tuple[int, int]]:
    if not (text.startswith("%") or "\n%" in text):
        return []
    start = _DOCUMENT_START.search(text)
    area = text[: start.start()] if start else text
    return [found.span() for found in _DIRECTIVE_LINE.finditer(area)]


def refused_parts(text: str) -> tuple[str, list[TextFinding]]:
    """The text with refused characters and directive lines blanked, and a finding for each
    kind of refusal (at its first occurrence, with a count)."""
    spans: list[tuple[int, int]] = []
    first: dict[str, tuple[int, str]] = {}
    counts: dict[str, int] = {}
    for found in refused_matches(text) if may_hold_refused(text) else ():
        kind = found.lastgroup or "character"
        if kind != "lone_cr":  # every YAML reader breaks the line there: the parser may too
            spans.append(found.span())
        first.setdefault(kind, (found.start(), found.group()))
        counts[kind] = counts.get(kind, 0) + 1
    findings = []
    for kind, (offset, character) in first.items():
        message, rule = _refused_message(kind, character)
        findings.append(TextFinding(offset, _counted(message, counts[kind]), rule))
    directives = _directive_spans(text)
    if directives:
        findings.append(
            TextFinding(
                directives[0][0],
                _counted(
                    "YAML directives (%YAML, %TAG, ...) are not allowed: they change how some "
                    "readers read the file (after '%YAML 1.1', editors and check-jsonschema "
                    "read yes as true); remove the line",
                    len(directives),
                ),
                Rule.YAML_DIRECTIVE,
            )
        )
        spans.extend(directives)
    if not spans:
        return text, findings
    characters = list(text)
    for start, end in spans:
        characters[start:end] = " " * (end - start)
    return "".join(characters), findings


def _file_problem(
    filename: str, message: str, rule: Rule, line: int = 1, column: int = 1
) -> Problem:
    return Problem(filename, line, column, "$", message, rule)


_BOM = b"\xef\xbb\xbf"


def decode_utf8(data: bytes, filename: str) -> str:
    """The text of `data` (a leading BOM removed), or ProfileFileError naming where the first
    non-UTF-8 byte is (its line and column in the text after the BOM, as every problem's)."""
    # Not the "utf-8-sig" codec: its errors count from after the BOM, and its module is an
    # import of its own on every start.
    body = data[len(_BOM) :] if data.startswith(_BOM) else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as error:
        before = body[: error.start]
        line = before.count(b"\n") + 1
        column = error.start - (before.rfind(b"\n") + 1) + 1
        raise ProfileFileError(
            [
                _file_problem(
                    filename,
                    f"the file is not UTF-8 text (byte 0x{body[error.start]:02x}); "
                    "save it as UTF-8",
                    Rule.YAML_ENCODING,
                    line,
                    column,
                )
            ]
        ) from None


def read_document_text(
    data: bytes, filename: str, limits: LoadLimits, *, file_size: int | None = None
) -> DocumentText:
    """The text of one file. Raises ProfileFileError when it cannot be read as YAML text at all:
    too large, binary (a NUL byte), UTF-16 or not UTF-8. `file_size`: the file's true size when
    `data` is only its start (enough to see it is too large)."""
    if len(data) > limits.max_bytes:
        size = max(file_size or 0, len(data))
        raise ProfileFileError(
            [
                _file_problem(
                    filename,
                    f"the file is {size} bytes, more than the limit of {limits.max_bytes}",
                    Rule.YAML_TOO_LARGE,
                )
            ]
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # before the NUL test: UTF-16 has NULs
        raise ProfileFileError(
            [
                _file_problem(
                    filename, "the file is UTF-16 text; save it as UTF-8", Rule.YAML_ENCODING
                )
            ]
        )
    if b"\x00" in data:
        raise ProfileFileError(
            [_file_problem(filename, "the file is binary, not YAML text", Rule.YAML_BINARY)]
        )
    text = decode_utf8(data, filename)
    parse_text, findings = refused_parts(text)
    return DocumentText(parse_text, tuple(findings), text)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def line_starts(text: str) -> list[int]:
    """The offset where each line of `text` starts, with lines broken where YAML readers break
    them: found once, then `line_and_column` places any number of offsets."""
    return [0, *(found.end() for found in _LINE_BREAK.finditer(text))]


def line_and_column(starts: Sequence[int], offset: int) -> tuple[int, int]:
    """1-based line and column of `offset`, from the text's `line_starts`."""
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1
