"""What a check reports: one `Problem` per finding, with where and why."""

from __future__ import annotations

from collections.abc import Sequence

from .lean_typing import NamedTuple
from .rules import Rule, Severity
from .terminal_text import visible

Loc = tuple[str | int, ...]


class Problem(NamedTuple):
    """One finding in one file. Lines and columns are 1-based; line 0 is the file as a whole.

    Only an `error` makes the file invalid (`Severity.fails`); a `warning` is said and the file
    stays valid; a `hint` only accompanies errors, saying what may be wrong (e.g. the file looks
    like another kind of document). Problems sort by file, line, column, then the other fields
    in order."""

    file: str
    line: int
    column: int
    path: str
    message: str
    rule: Rule
    severity: Severity = Severity.ERROR

    def render(self, label: str | None = None) -> str:
        """`FILE:LINE:COL: error: FIELD: message` (the label is the severity unless given);
        file-level problems (line 0) have no position.

        What comes from the file (its name, the field path, values quoted in the message) is
        escaped for a terminal; `label` is the caller's (it may hold colour codes)."""
        label = self.severity if label is None else label
        return render_line(self.file, self.line, self.column, self.path, label, self.message)


def with_rule_id(line: str, rule: str) -> str:
    """A reported line ends with its rule's id in brackets, as mypy writes its error codes.
    Last, not after the position as ruff writes it: our ids hold dots, the line still starts
    as compilers' lines do (editors' problem matchers read it unchanged), and the id is where
    a reader who wants it looks (`safety-profile rules ID`)."""
    return f"{line} [{rule}]"


def render_line(file: str, line: int, column: int, path: str, label: str, message: str) -> str:
    """`FILE:LINE:COL: LABEL: FIELD: message`, the shape of every line the reports print about
    a place in a file (no position when `line` is 0, no field when `path` is empty), with what
    comes from the file escaped for a terminal."""
    shown_file = visible(file)
    where = f"{shown_file}:{line}:{column}" if line else shown_file
    # Messages quote file text with repr, which already escapes backslashes.
    return f"{where}: {labelled(label, visible(path), visible(message, escape_backslashes=False))}"


def labelled(label: str, path: str, message: str, *, field_first: bool = False) -> str:
    """`LABEL: FIELD: message`: a problem or a finding in words (`error: max_total_cost: ...`,
    `loosens: max_total_cost: 100.0 → null (no limit)`), for every format and the editor.

    `field_first` gives `FIELD LABEL: message` (`max_total_cost loosens: ...`), the shape of
    `diff`'s GitHub annotations and SARIF results: there no `FILE:LINE:COL:` leads the words,
    the annotation is shown under the file and line, and the field reads as the sentence's
    subject; kept so that the alerts and annotations people already have keep their words.
    What comes from the file is the caller's to escape for where it is shown."""
    if field_first:
        return f"{path} {label}: {message}" if field_prefix(path) else f"{label}: {message}"
    return f"{label}: {field_prefix(path)}{message}"


def field_prefix(path: str) -> str:
    """`FIELD: `, what a message for people starts with; nothing for the file (``) or the
    document as a whole (`$`, which JSON output keeps as its path: it reads as noise)."""
    return "" if path in ("", "$") else f"{path}: "


def render_loc(loc: Loc) -> str:
    """`("categories", 1)` -> `categories[1]`; `()` -> `$` (the root)."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text or "$"


class ProfileFileError(ValueError):
    """A file could not be loaded as a valid document; `problems` says every reason and where."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(sorted(problems))
        super().__init__("\n".join(problem.render() for problem in self.problems))
