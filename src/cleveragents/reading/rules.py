"""Every rule the toolkit reports, in one table: a stable id, a title, what it means, how to fix
it, its default severity, and which other readers of the file disagree.

It lives in `reading`, the lowest hand-written package, because everything that reports a
problem sits above it: the reader itself (`yaml.*`, `file.*`), the schema's errors
(`schema.*`), the commands (`kind.hint`, `diff`'s `loosens.*`, `tightens.*`, `diff.added`,
`check`'s `advice.*`), the SARIF log and the language server. It imports nothing but the
standard library and the field facts (`field_facts`, from the generated code; no dataclasses:
`check`'s start-up stays lean), so any of them may read it.

A problem's `rule` is a `Rule`, a `str` enum: it prints, compares and serialises as its id
(`Rule.YAML_TAB == "yaml.tab"`), and a rule that is not in this table cannot be named.

Every id has one style (`ID_PATTERN`; tests/reading/test_rule_catalogue.py holds each id to it):
`family.name`, in lower-case ASCII. The family is one word (`file`, `git`, `yaml`,
`document`, `schema`, `kind`, `floor`, `internal`, `loosens`, `tightens`, `diff`, `advice`:
the families of `safety_toolkit.core.rule_docs.FAMILIES`); the name's words are joined by `-`
(`yaml.byte-order-mark`, `schema.less-than-equal`). One exception: in `loosens.FIELD` and
`tightens.FIELD` the name is a profile field's exact name, underscores and all
(`loosens.require_sandbox`, `tightens.max_total_cost`), so it reads as the key in the file.
An id, once released, is kept: a renamed rule keeps its old id in `ALIASES`.
"""

from __future__ import annotations

import enum
import re

from .field_facts import FIELD_FACTS
from .lean_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Literal

    ReaderVerdict = Literal["error", "accepts", "crashes"]

__all__ = [
    "ALIASES",
    "DOCS_URL",
    "ID_PATTERN",
    "REPOSITORY_URL",
    "STRICTER",
    "Example",
    "Reading",
    "Rule",
    "RuleDoc",
    "RuleReference",
    "Severity",
    "find_rule",
    "rule_anchor",
    "rule_reference",
]


class Severity(enum.StrEnum):
    """How much a problem matters, with every word a report uses for it, defined once here.

    A `str` enum: it prints, compares and serialises as its word (`Severity.ERROR == "error"`,
    JSON's `severity`). Only an error makes a file invalid (and the exit status 1): a warning is
    said and the file stays valid; a hint only accompanies errors, saying what may be wrong.
    Members in order of weight: a file's errors are listed first, then warnings, then hints."""

    # Annotated here for the type checker; set on each member by `__new__`.
    github: str  # the GitHub Actions workflow command (`::error`, `::warning`, `::notice`)
    sarif: str  # the SARIF 2.1.0 result level
    lsp: int  # the LSP DiagnosticSeverity (1 Error, 2 Warning, 3 Information, 4 Hint)
    colour: str  # the terminal's colour for the word (an SGR sequence)
    fails: bool  # whether a problem of this severity makes the file invalid
    rank: int  # the order a file's problems are listed in

    def __new__(
        cls, word: str, github: str, sarif: str, lsp: int, colour: str, fails: bool
    ) -> Severity:
        member = str.__new__(cls, word)
        member._value_ = word
        member.github, member.sarif, member.lsp = github, sarif, lsp
        member.colour, member.fails, member.rank = colour, fails, len(cls.__members__)
        return member

    ERROR = ("error", "error", "error", 1, "\033[31m", True)
    WARNING = ("warning", "warning", "warning", 2, "\033[33m", False)
    HINT = ("hint", "notice", "note", 4, "\033[36m", False)


# The one style of every id (see above): `family.name`, the name's words joined by `-`, or, for
# `loosens.FIELD` and `tightens.FIELD`, a profile field's name. The output schemas of `check`
# and `diff` give their `rule` the same pattern.
ID_PATTERN = r"^[a-z]+\.(?:[a-z0-9]+(?:-[a-z0-9]+)*|[a-z0-9]+(?:_[a-z0-9]+)+)$"

# Where the repository's files are published (examples link there from the docs), and
# docs/rules.md, where each rule has its own heading (`rule_anchor`).
REPOSITORY_URL = "https://github.com/cleveragents/cleveragents-safety-profile/blob/main/"
DOCS_URL = f"{REPOSITORY_URL}docs/rules.md"


class Reading(NamedTuple):
    """What one other reader makes of an example file: its verdict, and what it reads or says."""

    verdict: ReaderVerdict
    detail: str = ""


class Example(NamedTuple):
    """A file in examples/ the rule refuses, and what the other readers make of it: a row of
    "What each reader says" (docs/one-file-one-meaning.md), which
    tests/reading/test_readers_agree.py checks against the real readers."""

    case: str  # what the file shows, in a few words
    path: str  # relative to the repository root
    ours: str  # what our message says, in short (our verdict is always error)
    check_jsonschema: Reading  # check-jsonschema 0.39, --schemafile
    editor: Reading  # yaml-language-server 2.0, as VS Code's YAML extension runs it


class RuleDoc(NamedTuple):
    """What one rule means, for people: the rules command, docs/rules.md, SARIF, editors."""

    id: str
    title: str  # one line, no final stop
    description: str  # what the rule refuses, and why
    fix: str  # what to write instead
    severity: Severity = Severity.ERROR  # HINT: said beside a file's errors, never alone
    readers: str = ""  # which other readers (PyYAML, check-jsonschema, editors) disagree
    examples: tuple[Example, ...] = ()  # files that show what each reader says


_LOOSENS_FIX = (
    "If the change is intended, say so in review; the loosening hook can be skipped once with "
    "SKIP=safety-profile-loosening."
)

# Which value of each profile field is stricter, in words: `diff`'s rules, its --help and the
# strictness table, built from the field facts kept beside the schema (`field_facts`).
STRICTER: dict[str, str] = {name: facts.stricter_words for name, facts in FIELD_FACTS.items()}


def _loosens(field: str) -> RuleDoc:
    return RuleDoc(
        f"loosens.{field}",
        f"{field} loosens",
        f"The change makes {field} less strict ({STRICTER[field]}), so plans may do more than "
        "before.",
        _LOOSENS_FIX,
    )


def _tightens(field: str) -> RuleDoc:
    return RuleDoc(
        f"tightens.{field}",
        f"{field} tightens",
        f"The change makes {field} stricter ({STRICTER[field]}). Reported for the record; it "
        "never fails a check.",
        "Nothing to fix.",
        Severity.HINT,
    )


def _either(names: list[str]) -> str:
    """`a, b or c`."""
    return " or ".join(filter(None, (", ".join(names[:-1]), names[-1])))


# The flags an action's automation profile also states and the safety profile decides, in words.
_YIELDING_FLAGS = _either(
    [name for name, facts in FIELD_FACTS.items() if facts.automation_profile_yields]
)

_YAML11 = "PyYAML's safe_load (YAML 1.1)"
_DOCS: dict[str, RuleDoc] = {}  # filled as the table is built


class Rule(enum.StrEnum):
    """A rule's id, as a member of the one table; `.doc` says what it means."""

    def __new__(cls, *fields: str) -> Rule:
        doc = RuleDoc(*fields)  # type: ignore[arg-type]  # the table's entries are RuleDocs
        member = str.__new__(cls, doc.id)
        member._value_ = doc.id
        _DOCS[doc.id] = doc
        return member

    @property
    def doc(self) -> RuleDoc:
        return _DOCS[self.value]

    @property
    def url(self) -> str:
        """The rule's section of docs/rules.md."""
        return f"{DOCS_URL}#{rule_anchor(self.value)}"

    # -- files that cannot be read -------------------------------------------------------------
    FILE_MISSING = RuleDoc(
        "file.missing",
        "No such file",
        "A path given on the command line does not exist.",
        "Check the path.",
    )
    FILE_DIRECTORY = RuleDoc(
        "file.directory",
        "A directory, not a file",
        "A path given on the command line is a directory; directories are not searched.",
        "Pass the YAML files inside it (a shell glob, or pre-commit, does that).",
    )
    FILE_UNREADABLE = RuleDoc(
        "file.unreadable",
        "A file that cannot be read",
        "The file cannot be opened or read as a regular file: permission denied, a FIFO, a "
        "device, or another operating-system error (the message gives it).",
        "Make the file readable, or pass a regular YAML file.",
    )
    # -- files git would not check out as committed ---------------------------------------------
    GIT_ATTRIBUTE = RuleDoc(
        "git.attribute",
        "A profile a git attribute transforms",
        "A `filter`, `working-tree-encoding` or `ident` attribute makes the checked-out file "
        "differ from the committed one, and `export-subst` or `export-ignore` the file `git "
        "archive` writes (or leaves out), so what is reviewed is not what a program reads. "
        "Patterns are matched in any case too, as clones on macOS and Windows match them.",
        "Remove the attribute for profile files (.gitattributes).",
        Severity.ERROR,
        "git applies the attribute on checkout; a reader of the repository's blobs does not.",
    )
    GIT_LINK = RuleDoc(
        "git.link",
        "A profile link that leaves the repository or leads nowhere",
        "A profile that is a symbolic link must lead to a file committed in the repository, "
        "through folders that exist (as the kernel follows it); a link whose target's name "
        "reads as a YAML mapping becomes that text in a checkout without links. A submodule "
        "or folder in a profile's place is reported too.",
        "Make the profile a regular file, or link it to a file committed in the repository.",
        Severity.ERROR,
        "A checkout without links (core.symlinks=false, Windows' default) writes the link as a "
        "file holding its target's name.",
    )
    GIT_SUBMODULE = RuleDoc(
        "git.submodule",
        "A changed submodule",
        "The profiles in a submodule are not compared by the repository that holds it.",
        "Run safety-profile diff --git in the submodule.",
    )
    # -- text ----------------------------------------------------------------------------------
    YAML_TOO_LARGE = RuleDoc(
        "yaml.too-large",
        "A file larger than the limit",
        "A profile or action is at most 1 MiB; the file is read no further.",
        "Keep the file small: a profile is a handful of fields.",
    )
    YAML_BINARY = RuleDoc(
        "yaml.binary",
        "A binary file",
        "The file holds a NUL byte, so it is not YAML text.",
        "Pass the YAML file, not a binary one.",
    )
    YAML_ENCODING = RuleDoc(
        "yaml.encoding",
        "Text that is not UTF-8",
        "The file is UTF-16, or holds bytes that are not UTF-8. Readers guess other encodings "
        "differently; the toolkit reads UTF-8 only.",
        "Save the file as UTF-8.",
        Severity.ERROR,
        "Some editors guess Latin-1 or UTF-16 and show text the others refuse.",
    )
    YAML_CHARACTER = RuleDoc(
        "yaml.character",
        "A character YAML does not allow",
        "A control character (other than tab, line feed and carriage return) or another "
        "character outside YAML's printable set.",
        "Remove the character.",
        examples=(
            Example(
                "control character",
                "examples/invalid/control_character.safety_profile.yaml",
                "U+0001 is not allowed",
                Reading("error", "cannot parse"),
                Reading("error", "reads text, not a boolean"),
            ),
        ),
    )
    YAML_BYTE_ORDER_MARK = RuleDoc(
        "yaml.byte-order-mark",
        "A byte order mark after the start of the file",
        "U+FEFF anywhere but the very start: some readers skip it, others keep it as part of "
        "the text (so `\\ufeffallow_unsafe_tools` is another key).",
        "Remove it.",
        Severity.ERROR,
        "check-jsonschema refuses the key; yaml-language-server skips the mark.",
        examples=(
            Example(
                "second BOM",
                "examples/invalid/second_bom.safety_profile.yaml",
                "after the start of the file",
                Reading("error", "`'\\ufeffallow_unsafe_tools' was unexpected`"),
                Reading("accepts", "`allow_unsafe_tools: true`"),
            ),
        ),
    )
    YAML_LONE_CARRIAGE_RETURN = RuleDoc(
        "yaml.lone-carriage-return",
        "A carriage return not followed by a line feed",
        "YAML readers break the line at a lone CR; terminals and diff viewers do not, so a "
        "reviewer may see a comment where a program reads a setting.",
        "Use LF (or CRLF) line endings throughout.",
        Severity.ERROR,
        "check-jsonschema and yaml-language-server read the text after the CR as a new line.",
        examples=(
            Example(
                "lone CR",
                "examples/invalid/lone_carriage_return.safety_profile.yaml",
                "a terminal shows a comment",
                Reading("accepts", "`allow_unsafe_tools: true`"),
                Reading("accepts", "`allow_unsafe_tools: true`"),
            ),
        ),
    )
    YAML_AMBIGUOUS_LINE_BREAK = RuleDoc(
        "yaml.ambiguous-line-break",
        "A line break YAML readers disagree on",
        "U+0085, U+2028 or U+2029: a line break to YAML 1.1 readers and libyaml, an ordinary "
        "character to YAML 1.2 readers.",
        "Remove the character.",
        Severity.ERROR,
        "libyaml breaks the line; yaml-language-server reads it as part of the text.",
        examples=(
            Example(
                "U+2028",
                "examples/invalid/line_separator.safety_profile.yaml",
                "a line break to some readers only",
                Reading("error", "cannot parse"),
                Reading("accepts", "part of the comment"),
            ),
        ),
    )
    YAML_DIRECTIVE = RuleDoc(
        "yaml.directive",
        "A YAML directive",
        "`%YAML` and `%TAG` change how some readers read the rest of the file (after "
        "`%YAML 1.1`, editors and check-jsonschema read `yes` as true).",
        "Remove the directive.",
        Severity.ERROR,
        "check-jsonschema and yaml-language-server follow `%YAML 1.1`; PyYAML ignores it.",
        examples=(
            Example(
                "`%YAML` directive",
                "examples/invalid/directive_yaml.safety_profile.yaml",
                "the directive, and `yes`",
                Reading("accepts", "`%YAML 1.1` makes `yes` true"),
                Reading("accepts", "`%YAML 1.1` makes `yes` true"),
            ),
            Example(
                "`%TAG` directive",
                "examples/invalid/directive_tag.safety_profile.yaml",
                "the directive, and the tag",
                Reading("error", "no constructor for the tag"),
                Reading("error", "unresolved tag"),
            ),
        ),
    )
    YAML_MULTIPLE_DOCUMENTS = RuleDoc(
        "yaml.multiple-documents",
        "More than one YAML document",
        "A file holds one profile or action: one document, with at most one `...` end marker.",
        "Remove the `---` separator and what follows, or split the file.",
        Severity.ERROR,
        "yaml-language-server accepts several documents; check-jsonschema refuses them.",
        examples=(
            Example(
                "a second `...`",
                "examples/invalid/document_end_twice.safety_profile.yaml",
                "keep one",
                Reading("error", "expected a single document"),
                Reading("error", "a second, empty document"),
            ),
            Example(
                "several documents",
                "examples/invalid/multi_document.safety_profile.yaml",
                "keep one",
                Reading("error", "expected a single document"),
                Reading("accepts"),
            ),
        ),
    )
    YAML_SYNTAX = RuleDoc(
        "yaml.syntax",
        "Invalid YAML",
        "The file cannot be parsed; the message gives libyaml's reason and, where it can, "
        "what to change (indentation, a quoted `: `, an undefined alias).",
        "Fix the YAML at the line and column given.",
    )
    YAML_TAB = RuleDoc(
        "yaml.tab",
        "A tab where YAML readers disagree",
        "A tab outside quoted text, block scalar text and comments (after `key:`, after `-`, "
        "before a comment, at the end of a line).",
        "Use spaces.",
        Severity.ERROR,
        "libyaml accepts some of these tabs; PyYAML's own reader and check-jsonschema refuse "
        "the file.",
        examples=(
            Example(
                "tab after `-`",
                "examples/invalid/tab_after_dash.safety_profile.yaml",
                "a tab here; use spaces",
                Reading("error", "cannot parse (`found character '\\t'`)"),
                Reading("accepts"),
            ),
            Example(
                "tab after `key:`",
                "examples/invalid/tab_after_colon.safety_profile.yaml",
                "a tab here; use spaces",
                Reading("error", "cannot parse (`found character '\\t'`)"),
                Reading("accepts"),
            ),
            Example(
                "tab before a comment",
                "examples/invalid/tab_before_comment.safety_profile.yaml",
                "a tab here; use spaces",
                Reading("error", "cannot parse (`found character '\\t'`)"),
                Reading("accepts"),
            ),
        ),
    )
    YAML_INDENTATION = RuleDoc(
        "yaml.indentation",
        "A continuation line not indented past its block",
        "A line continuing a flow collection or quoted text must be indented more than the "
        "block that holds it.",
        "Indent the line.",
        Severity.ERROR,
        "YAML 1.2 readers refuse it; libyaml (PyYAML, check-jsonschema) reads it.",
        examples=(
            Example(
                "unindented flow line",
                "examples/invalid/flow_continuation_unindented.safety_profile.yaml",
                "indent it",
                Reading("accepts"),
                Reading("error", "flow sequence must be sufficiently indented"),
            ),
            Example(
                "unindented quoted line",
                "examples/actions/invalid/quoted_continuation_unindented.action.yaml",
                "indent it",
                Reading("accepts"),
                Reading("error", "missing closing quote"),
            ),
        ),
    )
    YAML_COMMENT = RuleDoc(
        "yaml.comment",
        "A comment without a space before `#`",
        "`value# note` is text to YAML 1.2 readers and a comment to libyaml.",
        "Add a space before `#`, or quote the text if `#` belongs to it.",
        Severity.ERROR,
        "check-jsonschema reads a comment; YAML 1.2 readers refuse it or read text.",
        examples=(
            Example(
                "`#` without a space",
                "examples/invalid/comment_without_space.safety_profile.yaml",
                "a comment needs a space before `#`",
                Reading("accepts", "reads a comment"),
                Reading("accepts"),
            ),
            Example(
                "`#` after a block scalar indicator",
                "examples/actions/invalid/block_scalar_header_comment.action.yaml",
                "a comment needs a space before `#`",
                Reading("error", "cannot parse"),
                Reading("accepts"),
            ),
        ),
    )
    YAML_ANCHOR_NAME = RuleDoc(
        "yaml.anchor-name",
        "An anchor or alias name readers end at different places",
        "A name followed by `:` or another character YAML 1.2 counts as part of the name.",
        "Use only letters, digits, `-` and `_` in the name, and a space after it.",
        Severity.ERROR,
        "yaml-language-server reads anchor `an:chor`; libyaml ends the name at `:`.",
        examples=(
            Example(
                "`:` in an anchor name",
                "examples/invalid/anchor_name_colon.safety_profile.yaml",
                "readers end the name at different places",
                Reading("accepts"),
                Reading("accepts", "anchor `an:chor`, value `code` (a warning only)"),
            ),
        ),
    )
    YAML_FLOW_INDICATOR = RuleDoc(
        "yaml.flow-indicator",
        "An indicator inside a flow collection that readers disagree on",
        'Inside `[...]` or `{...}`: `?x`, a lone `-`, `?` inside text, or `"key":value` with '
        "no space after `:`.",
        "Quote the text, or put a space after `:`.",
        Severity.ERROR,
        "libyaml reads a key or a mapping where YAML 1.2 readers read text, or the reverse.",
        examples=(
            Example(
                "`?x` in a flow list",
                "examples/invalid/flow_question_mark.safety_profile.yaml",
                "a key to libyaml, text in YAML 1.2",
                Reading("error", "`{'code': None} is not of type 'string'`"),
                Reading("accepts", "reads `?code`"),
            ),
            Example(
                "`-` in a flow list",
                "examples/invalid/flow_lone_dash.safety_profile.yaml",
                "quote it",
                Reading("accepts", "reads `-`"),
                Reading("error", "block collections are not allowed within flow collections"),
            ),
            Example(
                "`?` inside text in a flow list",
                "examples/invalid/flow_question_inside_text.safety_profile.yaml",
                "PyYAML ends the text at `?`",
                Reading("accepts", "reads `code?`"),
                Reading("accepts", "reads `code?`"),
            ),
            Example(
                '`"key":value` in a flow list',
                "examples/invalid/flow_list_colon_no_space.safety_profile.yaml",
                "put a space after `:`",
                Reading("error", "cannot parse"),
                Reading("error", "a mapping, not a category name"),
            ),
        ),
    )
    YAML_BLOCK_SCALAR = RuleDoc(
        "yaml.block-scalar",
        "A block scalar readers read differently",
        "Blank lines before a block scalar's text holding some spaces, a top-level block "
        "scalar that is not indented, or a block scalar ending the file on spaces.",
        "Remove the spaces from the blank lines, indent the text, or end the file with a line "
        "break.",
        Severity.ERROR,
        "libyaml, ruamel (check-jsonschema) and yaml-language-server each read these differently.",
        examples=(
            Example(
                "block scalar blank lines",
                "examples/actions/invalid/block_scalar_blank_line_spaces.action.yaml",
                "remove the trailing spaces",
                Reading("error", "cannot parse"),
                Reading("error", "more-indented leading empty lines"),
            ),
            Example(
                "top-level block scalar not indented",
                "examples/invalid/root_block_scalar_unindented.safety_profile.yaml",
                "libyaml reads a comment, ruamel text",
                Reading("error", "not of type 'object' (reads the text)"),
                Reading("error", "not a mapping"),
            ),
            Example(
                "block scalar blank line with fewer spaces",
                "examples/actions/invalid/block_scalar_blank_line_fewer_spaces.action.yaml",
                "remove the spaces from the blank line",
                Reading("error", "cannot parse"),
                Reading("accepts"),
            ),
        ),
    )
    YAML_TAG = RuleDoc(
        "yaml.tag",
        "A YAML tag",
        "Any tag other than the core ones (`!!str`, `!!int`, ...), the non-specific tag `!`, "
        "or a tag followed directly by `,` or a bracket. Nothing is ever constructed from a "
        "tag.",
        "Remove the tag: write a plain value.",
        Severity.ERROR,
        "PyYAML's unsafe loaders run Python tags; others fail or read text.",
        examples=(
            Example(
                "non-specific tag `!`",
                "examples/invalid/non_specific_tag.safety_profile.yaml",
                "text in YAML 1.2, an integer to libyaml",
                Reading("accepts", "reads 12"),
                Reading("error", "text, not a whole number"),
            ),
            Example(
                "a tag followed by `,`",
                "examples/invalid/tag_then_comma.safety_profile.yaml",
                "put a space after the tag",
                Reading("error", "cannot parse"),
                Reading("accepts"),
            ),
            Example(
                "custom tag",
                "examples/invalid/custom_tag.safety_profile.yaml",
                "tags are not allowed",
                Reading("error", "no constructor for the tag"),
                Reading("error", "unresolved tag"),
            ),
            Example(
                "Python tag",
                "examples/invalid/python_tag.safety_profile.yaml",
                "tags are not allowed, never run",
                Reading("error", "no constructor for the tag"),
                Reading("error", "unresolved tag"),
            ),
        ),
    )
    YAML_SCALAR = RuleDoc(
        "yaml.scalar",
        "A tagged value its tag does not fit",
        "A core tag's value must match the tag's YAML 1.2 pattern to the end (`!!int three`).",
        "Write a value of the tag's type, or remove the tag.",
    )
    YAML_AMBIGUOUS_SCALAR = RuleDoc(
        "yaml.ambiguous-scalar",
        "A value that means one thing in YAML 1.2 and another in YAML 1.1",
        "`yes`, `no`, `on`, `off`, `y`, `n`, `010`, `0o10`, `1e3`, `1_000`, `0b101`, `1:20`, "
        "`+0x1F`, dates: editors and check-jsonschema (YAML 1.2) read one value, PyYAML (YAML "
        "1.1) another.",
        "Write the value unambiguously (`true`, `10`, `1000.0`), or quote it if it is text.",
        Severity.ERROR,
        f"{_YAML11} and the YAML 1.2 readers (editors, check-jsonschema) read different values.",
        examples=(
            Example(
                "YAML 1.1 boolean words",
                "examples/invalid/yaml11_yes.safety_profile.yaml",
                "text in YAML 1.2, true in YAML 1.1; write true",
                Reading("error", "`'yes' is not of type 'boolean'`"),
                Reading("error", "expected true or false"),
            ),
            Example(
                "`y` and `n`",
                "examples/invalid/yaml11_y.safety_profile.yaml",
                "text in YAML 1.2, true in YAML 1.1",
                Reading("error", "not of type 'boolean'"),
                Reading("error", "expected true or false"),
            ),
            Example(
                "leading zero",
                "examples/invalid/yaml11_leading_zero.safety_profile.yaml",
                "10 in YAML 1.2, 8 in YAML 1.1; write 10",
                Reading("accepts", "reads 10"),
                Reading("accepts", "reads 10"),
            ),
            Example(
                "`0o` octal",
                "examples/invalid/yaml12_octal.safety_profile.yaml",
                "10 in YAML 1.2, text in YAML 1.1",
                Reading("accepts", "reads 10"),
                Reading("accepts", "reads 10"),
            ),
            Example(
                "exponent without a dot",
                "examples/invalid/yaml12_exponent.safety_profile.yaml",
                "1000.0 in YAML 1.2, text in YAML 1.1; write 1000.0",
                Reading("accepts", "reads 1000.0"),
                Reading("accepts", "reads 1000.0"),
            ),
            Example(
                "`1_000`, `0b101`, `1:20`",
                "examples/invalid/yaml11_integer_forms.safety_profile.yaml",
                "text in YAML 1.2, numbers in YAML 1.1, each",
                Reading(
                    "error", "only `'1:20' is not of type 'integer'` (reads the others as numbers)"
                ),
                Reading("error", "each is text"),
            ),
            Example(
                "signed hexadecimal",
                "examples/invalid/yaml11_signed_hex.safety_profile.yaml",
                "text in YAML 1.2, 31 in YAML 1.1",
                Reading("accepts", "reads 31"),
                Reading("error", "text, not a whole number"),
            ),
            Example(
                "dates",
                "examples/invalid/yaml11_date.safety_profile.yaml",
                "text in YAML 1.2, a date in YAML 1.1",
                Reading("accepts"),
                Reading("accepts"),
            ),
            Example(
                "`on` as text",
                "examples/invalid/yaml11_on_category.safety_profile.yaml",
                "text in YAML 1.2, true in YAML 1.1",
                Reading("accepts", "reads text"),
                Reading("accepts", "reads text"),
            ),
            Example(
                "`on` as a key",
                "examples/invalid/yaml11_key.safety_profile.yaml",
                "text in YAML 1.2, true in YAML 1.1",
                Reading("error", "`'on' was unexpected`"),
                Reading("error", "property on is not allowed"),
            ),
            Example(
                "`=`",
                "examples/invalid/yaml11_equals.safety_profile.yaml",
                "PyYAML cannot load it",
                Reading("error", "cannot parse (no constructor for `tag:yaml.org,2002:value`)"),
                Reading("accepts", "reads text"),
            ),
            Example(
                "`_` and signs in numbers",
                "examples/invalid/lenient_numbers.safety_profile.yaml",
                "text in YAML 1.2, 15 and -15 to ruamel",
                Reading("error", "only `-15 is less than the minimum of 0` (reads 15 and -15)"),
                Reading("error", "text, not numbers"),
            ),
        ),
    )
    YAML_INTEGER_TOO_LONG = RuleDoc(
        "yaml.integer-too-long",
        "An integer longer than the limit",
        "An integer of more than 40 digits: converting it costs time, and some readers crash.",
        "Write a shorter number.",
        Severity.ERROR,
        "check-jsonschema crashes with a traceback past 4,300 digits.",
        examples=(
            Example(
                "4,000-digit integer",
                "examples/invalid/integer_too_long.safety_profile.yaml",
                "longer than 40 digits",
                Reading("crashes", "a traceback (`Exceeds the limit (4300 digits)`)"),
                Reading("error", "above the maximum"),
            ),
        ),
    )
    YAML_KEY_TYPE = RuleDoc(
        "yaml.key-type",
        "A key that is not a string",
        "Keys are field names: a number, null, a list or a mapping as a key is refused.",
        "Quote the key, or write a field name.",
    )
    YAML_MERGE_KEY = RuleDoc(
        "yaml.merge-key",
        "A merge key (`<<`)",
        "YAML 1.2 has no merge keys: readers that merge them disagree with those that keep a "
        "key named `<<`.",
        "Write the fields out.",
        Severity.ERROR,
        "check-jsonschema and yaml-language-server merge; YAML 1.2 readers keep a key `<<`.",
        examples=(
            Example(
                "merge key",
                "examples/invalid/merge_key.safety_profile.yaml",
                "merge keys are not allowed",
                Reading("error", "`'base' was unexpected` (merges the rest)"),
                Reading("error", "property base is not allowed (merges the rest)"),
            ),
            Example(
                "merge key, nested",
                "examples/invalid/merge_key_nested.safety_profile.yaml",
                "merge keys are not allowed",
                Reading("error", "`'base', 'nested' were unexpected`"),
                Reading("error", "properties not allowed"),
            ),
            Example(
                "merge key in an action",
                "examples/actions/invalid/merge_key_top_level.action.yaml",
                "merge keys are not allowed",
                Reading("accepts", "merges, the action allows unsafe tools"),
                Reading("accepts", "merges"),
            ),
        ),
    )
    YAML_INVISIBLE_CHARACTER = RuleDoc(
        "yaml.invisible-character",
        "A key holding invisible characters",
        "A key with a zero-width space, word joiner or another invisible format character is "
        "not the key it looks like.",
        "Remove the invisible characters.",
        Severity.ERROR,
        "Other readers report an unknown field, or keep the setting under a key nobody reads.",
        examples=(
            Example(
                "invisible character in a key",
                "examples/invalid/key_zero_width_space.safety_profile.yaml",
                "U+200B",
                Reading("error", "`'require_sandbox\\u200b' was unexpected`"),
                Reading("error", "property not allowed"),
            ),
            Example(
                "invisible character in an action key",
                "examples/actions/invalid/invisible_safety_profile.action.yaml",
                "U+200B",
                Reading("accepts", "the action has no profile"),
                Reading("accepts", "the action has no profile"),
            ),
        ),
    )
    YAML_DUPLICATE_KEY = RuleDoc(
        "yaml.duplicate-key",
        "A key written twice",
        "Readers keep the first or the last value; a reviewer may read the other one.",
        "Keep only one.",
        Severity.ERROR,
        "PyYAML keeps the last value silently.",
        examples=(
            Example(
                "duplicate keys",
                "examples/invalid/duplicate_key.safety_profile.yaml",
                "the key and both lines",
                Reading("error", "cannot parse (duplicate key)"),
                Reading("error", "map keys must be unique"),
            ),
        ),
    )
    YAML_TOO_DEEP = RuleDoc(
        "yaml.too-deep",
        "Nesting deeper than the limit",
        "More than 64 levels of nesting.",
        "Flatten the document.",
    )
    YAML_TOO_MANY_NODES = RuleDoc(
        "yaml.too-many-nodes",
        "A document that expands to too many values",
        "More than 100,000 values after alias expansion (an alias bomb).",
        "Simplify the document: write the values out, without nested aliases.",
    )
    YAML_TOO_MUCH_TEXT = RuleDoc(
        "yaml.too-much-text",
        "A document whose text expands past the limit",
        "More than 1 MiB of text after alias expansion (one long string repeated by aliases).",
        "Simplify the document.",
        examples=(
            Example(
                "text multiplied by aliases",
                "examples/invalid/alias_text_bomb.safety_profile.yaml",
                "expands to more than 1 MiB of text",
                Reading("error", "properties not allowed"),
                Reading("error", "properties not allowed"),
            ),
        ),
    )
    YAML_RECURSIVE_ALIAS = RuleDoc(
        "yaml.recursive-alias",
        "An alias inside the value it refers to",
        "`a: &a [*a]` would never end.",
        "Remove the alias.",
    )
    # -- the document's shape and values ---------------------------------------------------------
    DOCUMENT_ROOT_TYPE = RuleDoc(
        "document.root-type",
        "A document that is not a mapping",
        "A safety profile (or an action) is a mapping of field names to values; the file is "
        "empty, a list or a single value.",
        "Write the fields as `name: value` lines.",
    )
    SCHEMA_EXTRA_FORBIDDEN = RuleDoc(
        "schema.extra-forbidden",
        "An unknown field",
        "The schema has no such field (a typo, or a field of another kind of document).",
        "Use the suggested field name, or remove the key; `safety-profile schema` lists them.",
        examples=(
            Example(
                "unknown profile key",
                "examples/invalid/typo_key.safety_profile.yaml",
                "did you mean allow_unsafe_tools?",
                Reading("error", "`'allow_unsafe_tool' was unexpected`"),
                Reading("error", "property not allowed"),
            ),
        ),
    )
    SCHEMA_MISSING = RuleDoc(
        "schema.missing",
        "A required field is missing",
        "An action must name the fields the schema requires.",
        "Add the field.",
    )
    SCHEMA_BOOL_TYPE = RuleDoc(
        "schema.bool-type",
        "A flag that is not true or false",
        "A flag's value is a number, text, null or a collection.",
        "Write true or false (unquoted).",
    )
    SCHEMA_INT_TYPE = RuleDoc(
        "schema.int-type",
        "A value that is not an integer",
        "A whole number is expected (max_retries_per_step), not a fraction, a flag or text.",
        "Write a whole number.",
    )
    SCHEMA_FLOAT_TYPE = RuleDoc(
        "schema.float-type",
        "A cost that is not a number",
        "A cost is a number >= 0, or null for no limit.",
        "Write a number, or null.",
    )
    SCHEMA_FINITE_NUMBER = RuleDoc(
        "schema.finite-number",
        "A cost that is not a finite number",
        "`.inf` and `.nan` are numbers to YAML but no limit a plan can be held to.",
        "Write a finite number, or null for no limit.",
        Severity.ERROR,
        "JSON Schema (check-jsonschema, editors) accepts them.",
        examples=(
            Example(
                "non-finite cost",
                "examples/invalid/nan_cost.safety_profile.yaml",
                "not a finite number",
                Reading("accepts"),
                Reading("accepts"),
            ),
        ),
    )
    SCHEMA_NON_FINITE_NUMBER = RuleDoc(
        "schema.non-finite-number",
        "A kept value that is not a finite number",
        "An action's other fields are kept and stored as JSON, which cannot hold `.inf` or `.nan`.",
        "Write a finite number.",
        Severity.ERROR,
        "JSON Schema (check-jsonschema, editors) accepts them.",
    )
    SCHEMA_GREATER_THAN_EQUAL = RuleDoc(
        "schema.greater-than-equal",
        "A value below its minimum",
        "Costs and retries are at least 0.",
        "Write a value at or above the minimum.",
    )
    SCHEMA_LESS_THAN_EQUAL = RuleDoc(
        "schema.less-than-equal",
        "A value above its maximum",
        "A value is above the schema's maximum (max_retries_per_step is at most 100).",
        "Write a value at or below the maximum.",
    )
    SCHEMA_STRING_TYPE = RuleDoc(
        "schema.string-type",
        "A value that is not a string",
        "A category name or an action's text field is a number, a flag, null or a collection.",
        "Write text; quote it if it looks like another type.",
    )
    SCHEMA_STRING_TOO_SHORT = RuleDoc(
        "schema.string-too-short",
        "An empty string",
        "A required text field is empty.",
        "Write the text.",
    )
    SCHEMA_IS_INSTANCE_OF = RuleDoc(
        "schema.is-instance-of",
        "A value that is not a list",
        "A list is expected (allowed_skill_categories), not a mapping or null.",
        "Write a list: `[code, docs]`, or `[]` to allow every category.",
    )
    SCHEMA_SEQUENCE_STR = RuleDoc(
        "schema.sequence-str",
        "A string where a list is expected",
        "A single category written as text is not a list of categories.",
        "Write a list: `[code]`.",
    )
    SCHEMA_MODEL_TYPE = RuleDoc(
        "schema.model-type",
        "A value that is not a mapping",
        "A nested profile (an action's safety_profile, automation_profile) is a mapping.",
        "Write the fields as an indented mapping under the key.",
    )
    SCHEMA_NULL_NOT_ALLOWED = RuleDoc(
        "schema.null-not-allowed",
        "null where a value is needed",
        "A key with no value (or null) where the schema gives no meaning to null.",
        "Leave the key out, or give a value.",
    )
    SCHEMA_COST_ORDER = RuleDoc(
        "schema.cost-order",
        "max_cost_per_plan exceeds max_total_cost",
        "One plan may not cost more than the total; JSON Schema cannot compare two fields.",
        "Lower max_cost_per_plan, or raise max_total_cost.",
        Severity.ERROR,
        "JSON Schema (check-jsonschema, editors) accepts it.",
        examples=(
            Example(
                "cost order",
                "examples/invalid/cost_order.safety_profile.yaml",
                "per-plan cost above the total",
                Reading("accepts", "JSON Schema cannot say it"),
                Reading("accepts"),
            ),
        ),
    )
    SCHEMA_BLANK_CATEGORIES = RuleDoc(
        "schema.blank-categories",
        "A categories list of only blank items",
        "Blank names are dropped, which would leave `[]`: every category allowed.",
        "Name the categories, or write `[]` to allow every category.",
        Severity.ERROR,
        "JSON Schema (check-jsonschema, editors) accepts it.",
        examples=(
            Example(
                "only blank categories",
                "examples/invalid/categories_only_blank.safety_profile.yaml",
                "would allow every category",
                Reading("accepts"),
                Reading("accepts"),
            ),
        ),
    )
    SCHEMA_MISSPELT_FIELD = RuleDoc(
        "schema.misspelt-field",
        "A misspelt action field",
        "An action keeps unknown top-level keys, but not near misses of its own fields "
        "(`safety_profle`): the profile would be silently lost.",
        "Use the suggested field name.",
        Severity.ERROR,
        "JSON Schema (check-jsonschema, editors) keeps the key; the action has no profile.",
        examples=(
            Example(
                "misspelt action field",
                "examples/actions/invalid/misspelt_safety_profile.action.yaml",
                "did you mean safety_profile?",
                Reading("accepts", "the action has no profile"),
                Reading("accepts", "the action has no profile"),
            ),
        ),
    )
    SCHEMA_CONFUSABLE_FIELD = RuleDoc(
        "schema.confusable-field",
        "An action key that looks like one of its fields",
        "A key written with look-alike characters (a Cyrillic letter for a Latin one) is not the "
        "field it looks like.",
        "Retype the key in plain ASCII.",
        Severity.ERROR,
        "JSON Schema (check-jsonschema, editors) keeps the key; the action has no profile.",
        examples=(
            Example(
                "Cyrillic look-alike action key",
                "examples/actions/invalid/confusable_safety_profile.action.yaml",
                "looks like safety_profile",
                Reading("accepts", "the action has no profile"),
                Reading("accepts", "the action has no profile"),
            ),
        ),
    )
    SCHEMA_PROFILE_FIELD_AT_TOP_LEVEL = RuleDoc(
        "schema.profile-field-at-top-level",
        "A profile field at an action's top level",
        "A safety profile field written beside the action's fields instead of under "
        "safety_profile would be kept and never applied.",
        "Indent it under safety_profile.",
        Severity.ERROR,
        "JSON Schema (check-jsonschema, editors) keeps the key; the setting is lost.",
        examples=(
            Example(
                "profile field at an action's top level",
                "examples/actions/invalid/profile_field_unindented.action.yaml",
                "indent it under safety_profile",
                Reading("accepts", "the setting is lost"),
                Reading("accepts", "the setting is lost"),
            ),
        ),
    )
    SCHEMA_INVISIBLE_CHARACTERS = RuleDoc(
        "schema.invisible-characters",
        "A kept key holding invisible characters",
        "The models refuse keys with invisible characters too (for documents not read from "
        "YAML, e.g. the Python API).",
        "Remove the invisible characters.",
    )
    SCHEMA_OTHER = RuleDoc(
        "schema.other",
        "Another value the schema does not allow",
        "A validation error the catalogue names no rule for; the message says what is wrong.",
        "Change the value as the message says; `safety-profile schema` prints the schema.",
    )
    KIND_HINT = RuleDoc(
        "kind.hint",
        "The file looks like another kind of document",
        "Said beside a file's errors when most of its keys are the other kind's fields (an "
        "action checked as a profile, or the reverse).",
        "Check it as that kind: --kind action or --kind profile.",
        Severity.HINT,
    )
    INTERNAL_ERROR = RuleDoc(
        "internal.error",
        "An internal error",
        "The toolkit failed on this file: a bug. The language server shows it as a diagnostic "
        "and keeps serving; the CLI prints it on standard error.",
        "Report it, with the file if you can (safety-profile check --traceback FILE shows "
        "where it failed).",
    )
    # -- the organisation's floor ---------------------------------------------------------------
    FLOOR_LOOSER = RuleDoc(
        "floor.looser",
        "A field looser than the organisation's floor",
        "Each field of every safety profile, and of every action's safety_profile, must be at "
        "least as strict as the floor's (set with --floor, or `floor` in [tool.safety-profile] "
        "of the nearest pyproject.toml), in the order `diff` uses; a key left out counts as its "
        "default. The message names the floor's value and where the floor comes from.",
        "Make the field at least as strict as the floor's value; the floor's owners decide any "
        "exception.",
    )
    FLOOR_UNUSABLE = RuleDoc(
        "floor.unusable",
        "A floor that cannot be used",
        "The floor the configuration or --floor names is missing, unreadable, invalid, or in a "
        "package that is not installed, so no profile can be checked against it. The commands "
        "stop with exit status 2; the language server shows this diagnostic instead, as it has "
        "no exit status.",
        "Fix the floor the message names (or install its package), or the `floor` setting in "
        "[tool.safety-profile].",
    )
    # -- diff: what a change does --------------------------------------------------------------
    LOOSENS_REMOVED = RuleDoc(
        "loosens.removed",
        "A safety profile was removed",
        "The profile is gone (removed: the next layer applies): plans fall back to the next "
        "layer's profile (plan > action > project > global), which may be looser.",
        _LOOSENS_FIX,
    )
    DIFF_INVALID = RuleDoc(
        "diff.invalid",
        "An invalid file, reported by the check hook",
        "The loosening hook (diff --pre-commit) cannot compare a staged file that is invalid, "
        "and fails: a file it cannot compare may still read as looser to another program. The "
        "check hook beside it (safety-profile, or safety-profile-action) reports the same "
        "bytes' problems, so this is one line, not a second copy of them.",
        "Fix what `safety-profile check FILE` (or the check hook) reports.",
    )
    DIFF_ADDED = RuleDoc(
        "diff.added",
        "A safety profile was added",
        "A new profile overrides the next layer's (plan > action > project > global) and there "
        "is nothing to compare it with.",
        "Review it whole, or compare it with that layer's profile "
        "(safety-profile diff LAYER_FILE NEW_FILE).",
        Severity.HINT,
    )
    # A change that loosens each field, then one that tightens each (`loosens.FIELD`,
    # `tightens.FIELD`): one rule per field of the field facts, so a new field needs none here.
    # The class body's namespace is the enum's: each assignment through it makes a member.
    _ignore_ = "_name _doc"
    for _name, _doc in [
        *((f"LOOSENS_{field.upper()}", _loosens(field)) for field in FIELD_FACTS),
        *((f"TIGHTENS_{field.upper()}", _tightens(field)) for field in FIELD_FACTS),
    ]:
        locals()[_name] = _doc
    # -- added since 0.1.0: at the end, so the SARIF ruleIndex of each rule above stays --------
    FILE_NAME_COLLISION = RuleDoc(
        "file.name-collision",
        "A name another file has on macOS or Windows",
        "Two names git keeps apart are one name on a case-insensitive or normalising file "
        "system (macOS, Windows): they differ only in case (`Prod.safety_profile.yaml`, "
        "`prod.safety_profile.yaml`), in Unicode normalisation (NFC or NFD), in code points "
        "HFS+ ignores or in trailing dots and spaces (Windows drops them). A checkout there "
        "holds one file for both, whichever git writes last, so what an agent reads there "
        "is not what was reviewed. `check` reports every such profile or action; `diff --git` "
        "reports a change that adds one.",
        "Rename one of them; keep one file per name in any case.",
    )
    FILE_OUTSIDE = RuleDoc(
        "file.outside",
        "A link that leads outside the repository",
        "The file is a link (or passes through one) to a file outside the git repository it "
        "is in (outside a repository: outside the folder checked), or to a file in its folder "
        "that git does not hold (in git's own folder, .git; a file git ignores; a nested "
        "repository's), so what is checked is not part of what is reviewed, and may exist on "
        "one machine only. It is not read, and nothing of it is printed.",
        "Make the profile a regular file, or link it to a file committed in the repository.",
    )
    FLOOR_OUTSIDE = RuleDoc(
        "floor.outside",
        "A floor outside the repository",
        "A `floor` path in [tool.safety-profile] (or a pyproject.toml that is a link) leads "
        "outside the repository that file is in (outside any repository: outside its folder), "
        "into git's own folder (.git), or to a file git ignores. It is not read, and nothing "
        "of it is printed: a floor must be part of what is reviewed, not a file that exists "
        "on one machine only. The commands stop with exit status 2.",
        "Commit the floor in the repository, or ship it as a package (pkg:PACKAGE/RESOURCE). "
        "A floor outside the repository can be given on the command line: --floor PATH.",
    )
    FLOOR_REMOVED = RuleDoc(
        "floor.removed",
        "A floor no longer set",
        "A change removes the floor a pyproject.toml sets ([tool.safety-profile] floor), so "
        "the profiles below it are no longer held to it: a loosening, whatever the profiles "
        "themselves do.",
        _LOOSENS_FIX,
    )
    # -- advice: warnings about a valid document (safety_toolkit/core/advice.py checks them) ---
    ADVICE_AUTOMATION_FLAG_OVERRULED = RuleDoc(
        "advice.automation-flag-overruled",
        "An automation profile flag the safety profile overrules",
        f"An action's automation_profile states {_YIELDING_FLAGS}: the safety profile decides "
        'these flags, whatever the automation profile says (specification, "Precedence over '
        'AutomationProfile"), so the value written there has no effect. Reported where it '
        "differs from the action's own safety_profile (a field it leaves out at its default), "
        "and for every such flag when the action sets no safety_profile (then the plan's, the "
        "project's or the global profile decides). A warning: the file stays valid.",
        "Set the flag in the action's safety_profile, and remove it from automation_profile.",
        Severity.WARNING,
    )


# Ids a rule had before, which scripts may still name: `find_rule` and `safety-profile rules`
# take them (and say the id the rule has now). 0.1.0's ids mixed styles; each became the
# `family.name` id above.
ALIASES: dict[str, Rule] = {
    "root-type": Rule.DOCUMENT_ROOT_TYPE,
    "schema.extra_forbidden": Rule.SCHEMA_EXTRA_FORBIDDEN,
    "schema.bool_type": Rule.SCHEMA_BOOL_TYPE,
    "schema.int_type": Rule.SCHEMA_INT_TYPE,
    "schema.float_type": Rule.SCHEMA_FLOAT_TYPE,
    "schema.finite_number": Rule.SCHEMA_FINITE_NUMBER,
    "schema.non_finite_number": Rule.SCHEMA_NON_FINITE_NUMBER,
    "schema.greater_than_equal": Rule.SCHEMA_GREATER_THAN_EQUAL,
    "schema.less_than_equal": Rule.SCHEMA_LESS_THAN_EQUAL,
    "schema.string_type": Rule.SCHEMA_STRING_TYPE,
    "schema.string_too_short": Rule.SCHEMA_STRING_TOO_SHORT,
    "schema.is_instance_of": Rule.SCHEMA_IS_INSTANCE_OF,
    "schema.sequence_str": Rule.SCHEMA_SEQUENCE_STR,
    "schema.model_type": Rule.SCHEMA_MODEL_TYPE,
    "schema.null_not_allowed": Rule.SCHEMA_NULL_NOT_ALLOWED,
    "schema.cost_order": Rule.SCHEMA_COST_ORDER,
    "schema.blank_categories": Rule.SCHEMA_BLANK_CATEGORIES,
    "schema.misspelt_field": Rule.SCHEMA_MISSPELT_FIELD,
    "schema.confusable_field": Rule.SCHEMA_CONFUSABLE_FIELD,
    "schema.profile_field_at_top_level": Rule.SCHEMA_PROFILE_FIELD_AT_TOP_LEVEL,
    "schema.invisible_characters": Rule.SCHEMA_INVISIBLE_CHARACTERS,
    "internal-error": Rule.INTERNAL_ERROR,
    "added": Rule.DIFF_ADDED,
}


def find_rule(rule_id: str) -> Rule | None:
    """The rule of an id (or an old id), or None when there is none."""
    try:
        return Rule(rule_id)
    except ValueError:
        return ALIASES.get(rule_id)


class RuleReference(NamedTuple):
    """What an editor shows beside a diagnostic: its code, a title and a link to the docs."""

    id: str
    title: str
    url: str


def rule_reference(rule_id: str) -> RuleReference | None:
    """The id, title and documentation URL of a rule (an old id gives the rule's current id);
    None for an id the catalogue does not know. For the language server's `code` and
    `codeDescription.href`."""
    rule = find_rule(rule_id)
    return None if rule is None else RuleReference(rule.value, rule.doc.title, rule.url)


def rule_anchor(rule_id: str) -> str:
    """The anchor of a rule's heading in docs/rules.md, as GitHub makes it from `### ID`:
    lower case, punctuation other than `-` and `_` dropped (`yaml.tab` -> `yamltab`)."""
    return re.sub(r"[^\w\- ]", "", rule_id.lower()).replace(" ", "-")
