"""Strict, safe YAML loading with a position for every value.

libyaml (PyYAML's pure-Python parser when libyaml is missing) composes the node graph; one
walk over it then builds the value, so nothing is ever constructed from a tag, and every limit
is checked before any work can grow out of bounds:

* YAML 1.2 core scalars only, like check-jsonschema and yaml-language-server: `yes`/`no`/`on`/`off`
  are strings (the schema then rejects them where a boolean is expected), `1e3` is a number,
  timestamps are strings. Any explicit tag other than the core ones is an error.
* Duplicate keys, non-string keys, several documents, non-UTF-8 bytes: errors.
* Size, nesting depth and the number of nodes after alias expansion are bounded, so alias bombs
  and deep nesting fail fast with a clear message instead of a hang, `MemoryError` or
  `RecursionError`.
"""

from __future__ import annotations

import yaml

from .bounds import expansion_problem
from .limits import DEFAULT_LIMITS, LoadLimits
from .nodes import Stop, Walker, YamlDocument
from .problems import Problem, ProfileFileError
from .scalars import yaml12_loader
from .text import AMBIGUOUS_BREAK, ambiguous_break_problem, character_problem, decode_utf8

try:  # libyaml's parser and composer when present: much faster
    from yaml import CSafeLoader as _ComposingLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _ComposingLoader  # type: ignore[assignment]

__all__ = ["YamlDocument", "load_yaml_document"]

_Yaml12Loader = yaml12_loader(_ComposingLoader)


def _syntax_problem(error: yaml.MarkedYAMLError, filename: str) -> Problem:
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
            "yaml.multiple-documents",
        )
    what = error.problem or "invalid YAML"
    if error.context:
        what = f"{error.context}: {what}"
    return Problem(filename, line, column, "$", f"invalid YAML: {what}", "yaml.syntax")


def load_yaml_document(
    data: bytes,
    filename: str,
    limits: LoadLimits = DEFAULT_LIMITS,
    *,
    file_size: int | None = None,
) -> YamlDocument:
    """Load one YAML document strictly. Problems found on the way are in `.problems`;
    when loading could not finish, `.value` is None and `.problems` says why.

    `file_size`: the true size when `data` is only the start of a file (for the message)."""
    size = file_size or len(data)
    if len(data) > limits.max_bytes:
        raise ProfileFileError(
            [
                Problem(
                    filename,
                    1,
                    1,
                    "$",
                    f"the file is {size} bytes, more than the limit of {limits.max_bytes}",
                    "yaml.too-large",
                )
            ]
        )
    if b"\x00" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ProfileFileError(
            [Problem(filename, 1, 1, "$", "the file is binary, not YAML text", "yaml.binary")]
        )
    text = decode_utf8(data, filename)
    ambiguous = AMBIGUOUS_BREAK.search(text)
    if ambiguous is not None:
        return YamlDocument(
            value=None, problems=[ambiguous_break_problem(ambiguous, text, filename)]
        )
    loader = _Yaml12Loader(text)
    try:
        # libyaml composes the node graph (its parser caps nesting at 1,000 levels); no Python
        # object is ever constructed from a tag.
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as error:
        return YamlDocument(value=None, problems=[_syntax_problem(error, filename)])
    except yaml.reader.ReaderError as error:
        return YamlDocument(value=None, problems=[character_problem(error, text, filename)])
    except RecursionError:  # only PyYAML's pure-Python composer recurses (libyaml stops at 1,000)
        problem = Problem(
            filename,
            1,
            1,
            "$",
            f"nesting is deeper than {limits.max_depth} levels; flatten the document",
            "yaml.too-deep",
        )
        return YamlDocument(value=None, problems=[problem])
    finally:
        loader.dispose()
    walker = Walker(filename, limits)
    walker.document.empty = root is None
    if root is not None:
        # Without an alias (`*`) every value starts at its own character, so a short text
        # cannot expand past the limit: skip the graph walk, a third of a small file's cost.
        too_large = (
            expansion_problem(root, limits.max_nodes, filename)
            if "*" in text or len(text) > limits.max_nodes
            else None
        )
        if too_large is not None:
            walker.document.problems.append(too_large)
            return walker.document
        try:
            walker.document.value = walker.walk(root, (), 0)
        except Stop:
            walker.document.value = None
    return walker.document
