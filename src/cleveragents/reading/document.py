"""Strict, safe YAML loading with a position for every value: one file, one meaning.

A document is accepted only if it means the same to every reader: a person at a terminal,
editors (YAML 1.2), check-jsonschema (ruamel), applications using PyYAML (YAML 1.1) and us. The
steps:

1. `text`: bytes to text; refused characters and directives are found and blanked.
2. `tokens`: the spellings libyaml reads differently from YAML 1.2, PyYAML's own reader or ruamel.
3. libyaml (PyYAML's pure-Python parser when libyaml is missing) composes the node graph;
   nothing is ever constructed from a tag.
4. `bounds`: what the graph expands to through aliases, before anything is built.
5. `nodes`: one walk builds the value with YAML 1.2 core scalars, refusing scalars another
   reader reads otherwise (`scalars`), merge keys, invisible characters in keys, duplicate keys
   and foreign tags.

Every step records what it finds and the next one still runs where it can, so a file's report
lists every problem; only an unreadable file, a syntax error or a bound stops it.
"""

from __future__ import annotations

import yaml

from .bounds import expansion_problem
from .limits import DEFAULT_LIMITS, LoadLimits
from .nodes import Stop, Walker, YamlDocument
from .problems import Problem, render_loc
from .rules import Rule
from .scalars import composing_loader
from .text import TextFinding, line_and_column, line_starts, read_document_text
from .tokens import token_findings

try:  # libyaml's parser and composer when present: much faster
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

__all__ = ["YamlDocument", "load_yaml_document"]

_ComposingLoader = composing_loader(_BaseLoader)

_TAB_ADVICE = (
    "a tab here, where YAML readers disagree on tabs (YAML 1.2 allows a tab in some of these "
    "places, libyaml in none); use spaces"
)


# What to change, for libyaml's commonest complaints (matched on its words).
_SYNTAX_ADVICE = (
    (
        "mapping values are not allowed",
        "check this line's indentation, or quote a value that holds ': '",
    ),
    ("did not find expected key", "check this line's indentation, and write a key before ':'"),
    ("could not find expected ':'", "write ': ' after the key, or quote the text"),
    (
        "did not find expected ',' or '}'",
        "close the mapping with '}', or separate its entries with ',' and write each key and "
        "its ':' on one line",
    ),
    ("did not find expected ',' or ']'", "close the list with ']', or separate its items with ','"),
    (
        "did not find expected '-' indicator",
        "start the line with '- ' for another item, or indent it less (to end the list) or "
        "more (to continue the item above)",
    ),
    (
        "did not find expected node content",
        "write a value here, and quote text that starts with ':', '?' or '-'",
    ),
    ("found unexpected ':'", "quote text that holds ':'"),
    ("found unexpected end of stream", "close the quote"),
    ("found unexpected document indicator", "close the quote"),
    ("found unknown escape character", "write '\\\\' for a backslash, or use single quotes"),
    ("found undefined tag handle", "remove the tag (only plain YAML values are accepted)"),
    ("did not find expected <document start>", "keep one document: remove what follows '...'"),
    (
        "did not find expected alphabetic or numeric character",
        "use only letters, digits, '-' and '_' in anchor and alias names",
    ),
    ("cannot start any token", "quote the value"),
)

# What libyaml was reading when it gave up (its `context`), in words: that began at the error's
# `context_mark`, often lines before the place it gave up (an unclosed '[' or quote).
_CONSTRUCTS = {
    "while parsing a flow sequence": "the list opened with '[' at",
    "while parsing a flow mapping": "the mapping opened with '{{' at",
    "while scanning a quoted scalar": "the text opened with {quote} at",
    "while parsing a quoted scalar": "the text opened with {quote} at",
    "while parsing a block mapping": "the mapping whose first key is at",
    "while parsing a block collection": "the list whose first item is at",
    "while scanning a block scalar": "the block scalar that starts at",
    "while scanning a simple key": "the key that starts at",
    "while scanning a plain scalar": "the value that starts at",
    "while parsing a block node": "the value that starts at",
    "while parsing a flow node": "the value that starts at",
    "while parsing a node": "the value that starts at",
    "while scanning an anchor": "the anchor that starts at",
    "while scanning an alias": "the alias that starts at",
    "while scanning a tag": "the tag that starts at",
}

# libyaml's words for where it gave up, in ours ("here" is the problem's line and column).
_PROBLEM_WORDS = {
    "did not find expected ',' or ']'": "expected ',' or ']' here",
    "did not find expected ',' or '}'": "expected ',' or '}' here",
    "did not find expected key": "expected a key here",
    "did not find expected '-' indicator": "expected '- ' here",
    "could not find expected ':'": "expected ':' here",
    "found unexpected end of stream": "the file ends before it is closed",
    "found unexpected document indicator": (
        "a document marker ('---' or '...') at the start of a line here ends it before it is closed"
    ),
}


def _with_context(error: yaml.MarkedYAMLError, text: str, what: str) -> str:
    """`what`, libyaml's problem, said with the construct it was reading and where that began
    (`the list opened with '[' at line 2, column 27: expected ',' or ']' here`), when it began
    elsewhere; `context: problem` in libyaml's words for a construct not in `_CONSTRUCTS`."""
    mark, problem_mark = error.context_mark, error.problem_mark
    if error.context is None:
        return what
    if error.context.startswith("found duplicate anchor") and mark is not None:
        return (
            f"the anchor here was already defined at line {mark.line + 1}, column "
            f"{mark.column + 1}; give each anchor (&name) a name of its own"
        )
    construct = _CONSTRUCTS.get(error.context)
    if (
        construct is None
        or mark is None
        or problem_mark is None
        or mark.index == problem_mark.index
    ):
        return f"{error.context}: {what}"
    quote = repr(text[mark.index]) if mark.index < len(text) else "a quote"
    opened = construct.format(quote=quote)
    return (
        f"{opened} line {mark.line + 1}, column {mark.column + 1}: {_PROBLEM_WORDS.get(what, what)}"
    )


def _syntax_problem(error: yaml.MarkedYAMLError, text: str, filename: str) -> Problem:
    mark = error.problem_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    if error.problem == "but found another document":
        return Problem(
            filename,
            line,
            column,
            "$",
            "the file holds more than one YAML document; keep one (remove the '---' "
            "separator and what follows, or split the file)",
            Rule.YAML_MULTIPLE_DOCUMENTS,
        )
    what = error.problem or "invalid YAML"
    at_tab = mark is not None and mark.index < len(text) and text[mark.index] == "\t"
    if at_tab or "tab" in what:
        return Problem(filename, line, column, "$", f"invalid YAML: {_TAB_ADVICE}", Rule.YAML_TAB)
    advice = next((advice for words, advice in _SYNTAX_ADVICE if words in what), None)
    what = _with_context(error, text, what)
    if advice:
        what = f"{what}; {advice}"
    return Problem(filename, line, column, "$", f"invalid YAML: {what}", Rule.YAML_SYNTAX)


def _finding_problems(findings: list[TextFinding], text: str, walker: Walker) -> list[Problem]:
    """The findings made before the walk, each placed at its line and column and named by the
    field written around it."""
    starts = line_starts(text)
    locs = walker.locs_at([finding.offset for finding in findings])
    problems = []
    for finding, loc in zip(findings, locs, strict=True):
        line, column = line_and_column(starts, finding.offset)
        if loc:  # the model's errors about the same value would repeat it
            walker.document.reported.add(loc)
        problems.append(
            Problem(walker.filename, line, column, render_loc(loc), finding.message, finding.rule)
        )
    return problems


def load_yaml_document(
    data: bytes,
    filename: str,
    limits: LoadLimits = DEFAULT_LIMITS,
    *,
    file_size: int | None = None,
) -> YamlDocument:
    """Load one YAML document strictly. Every problem found is in `.problems`; when the value
    could not be built at all, `.value` is None.

    Raises ProfileFileError when the bytes cannot be read as YAML text at all (too large,
    binary, not UTF-8). `file_size`: the true size when `data` is only the start of a file
    (for the message)."""
    source = read_document_text(data, filename, limits, file_size=file_size)
    text = source.parse_text
    findings = [*source.findings, *token_findings(text, _ComposingLoader)]
    walker = Walker(filename, limits, locate=bool(findings))
    if source.text is not text:  # refused characters were blanked: keys keep their own
        walker.exact = source.exact
    document = walker.document
    loader = _ComposingLoader(text)
    try:
        # libyaml's parser caps nesting at 1,000 levels.
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as error:
        root = None
        document.problems.append(_syntax_problem(error, text, filename))
    except RecursionError:  # only PyYAML's pure-Python composer recurses (libyaml stops at 1,000)
        root = None
        document.problems.append(
            Problem(
                filename,
                1,
                1,
                "$",
                f"nesting is deeper than {limits.max_depth} levels; flatten the document",
                Rule.YAML_TOO_DEEP,
            )
        )
    except (
        yaml.YAMLError
    ) as error:  # pragma: no cover - the text step blanks what the reader refuses
        root = None
        document.problems.append(
            Problem(filename, 1, 1, "$", f"invalid YAML: {error}", Rule.YAML_SYNTAX)
        )
    finally:
        loader.dispose()
    document.empty = document.built = root is None and not document.problems
    if root is not None:
        # Without an alias (`*`) every value starts at its own character, so a short text
        # cannot expand past the limits: skip the graph walk, a third of a small file's cost.
        too_large = (
            expansion_problem(root, limits, filename)
            if "*" in text or len(text) > limits.max_nodes
            else None
        )
        if too_large is not None:
            document.problems.append(too_large)
        else:
            try:
                document.value, document.built = walker.walk(root, (), 0), True
            except Stop:
                document.value = None
    if findings:
        document.problems.extend(_finding_problems(findings, text, walker))
    return document
