"""`safety-profile lsp`: the language server. An editor shows what `check` reports, because the
problems come from the same `Checker`; this module only says where they are in the client's
units and when to send them.

Files are the hooks' files (`KINDS[...].matches`, names in any case); other YAML files get
nothing from this server. Only this command imports pygls (see the `lsp` extra).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from cleveragents.reading.files import read_regular_file
from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule, rule_reference
from cleveragents.reading.text import line_starts

from .check import Checker
from .editor_fixes import FIXED_RULES, fixes, lines_of
from .floor import FloorError, Floors
from .kind_hint import with_hints_last
from .kinds import KINDS

__all__ = ["SOURCE", "SafetyProfileServer", "build_server", "client_column", "serve"]

SOURCE = "safety-profile"
logger = logging.getLogger(__name__)

_SEVERITIES = {"error": lsp.DiagnosticSeverity.Error, "hint": lsp.DiagnosticSeverity.Hint}
_UNITS: dict[str, Callable[[str], int]] = {
    lsp.PositionEncodingKind.Utf8: lambda text: len(text.encode("utf-8", "surrogatepass")),
    lsp.PositionEncodingKind.Utf16: lambda text: (
        len(text.encode("utf-16-le", "surrogatepass")) // 2
    ),
    lsp.PositionEncodingKind.Utf32: len,
}


def client_column(line_text: str, characters: int, encoding: str) -> int:
    """The first `characters` code points of `line_text`, counted in the client's units."""
    return _UNITS[encoding](line_text[:characters])


def code_point_column(line_text: str, units: int, encoding: str) -> int:
    """The code points of `line_text` that make up `units` of the client's units."""
    count = _UNITS[encoding]
    for index in range(len(line_text) + 1):
        if count(line_text[:index]) >= units:
            return index
    return len(line_text)


def _decodings(data: bytes) -> set[str]:
    """The texts an editor may show for a file's bytes: UTF-8 (a BOM dropped), UTF-16 or -32
    by their BOM, and Latin-1 or replacement characters for bytes that are not UTF-8."""
    texts = set()
    for codec, errors in (
        ("utf-8-sig", "strict"),
        ("utf-16", "strict"),
        ("utf-32", "strict"),
        ("utf-8", "replace"),
        ("latin-1", "strict"),
    ):
        try:
            texts.add(data.decode(codec, errors))
        except UnicodeDecodeError:
            continue
    return texts


def _same_text(a: str, b: str) -> bool:
    return a.replace("\r\n", "\n") == b.replace("\r\n", "\n")


class SafetyProfileServer(LanguageServer):
    """The server and what it knows of each open document."""

    def __init__(self) -> None:
        from importlib.metadata import version

        super().__init__(SOURCE, version("cleveragents-safety-profile"))
        self.kind_setting: str | None = None  # initializationOptions.kind: every file as this
        self.debounce = 0.05  # seconds: changes closer together than this are checked once
        self.pull = False  # the client pulls diagnostics (textDocument/diagnostic)
        self._checkers: dict[str, Checker] = {}
        self._disk: dict[str, bytes] = {}  # by URI: the file's bytes, read on open and save
        self._head: dict[str, bytes | None] = {}  # by URI: the file at HEAD (None: none)
        # By URI: problems with the file's git attributes (check's `git.attribute`), which are
        # about its path, whatever the buffer holds.
        self._checkout: dict[str, list[Problem]] = {}
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._last_checked: dict[str, float] = {}

    # -- which files, and what to check ---------------------------------------------------------
    def kind_of(self, document: TextDocument) -> str | None:
        """The kind a document is checked as: the setting, else the hook whose names match;
        None for other files."""
        path = document.path.replace(os.sep, "/")
        if self.kind_setting is not None:
            return self.kind_setting if path.lower().endswith((".yaml", ".yml")) else None
        root = self.workspace.root_path
        if root and path.startswith(root.rstrip("/") + "/"):
            path = path[len(root.rstrip("/")) + 1 :]  # a repository path, as the hooks see it
        return next((name for name, kind in KINDS.items() if kind.matches(path)), None)

    def read_disk(self, document: TextDocument) -> None:
        """Remember the file's bytes: rules about bytes (BOM, UTF-16, not UTF-8, size) are
        about the file, which the buffer shows decoded; and its version at HEAD, against which
        loosening is shown."""
        from .git_objects import checkout_problems
        from .head_version import head_version

        self._head[document.uri], self._checkout[document.uri] = None, []
        try:
            self._head[document.uri] = head_version(document.path)
            self._checkout[document.uri] = checkout_problems([document.path])
        except Exception:  # a bug: logged, and the buffer is still checked
            logger.exception("asking git about %s failed", document.uri)
        try:
            self._disk[document.uri] = read_regular_file(document.path).data
        except OSError:
            self._disk.pop(document.uri, None)  # a new buffer, or the file was deleted

    def has_read(self, document: TextDocument) -> bool:
        """Whether the file was read since it was opened (on open, save or a first pull)."""
        return document.uri in self._head

    def _bytes(self, document: TextDocument) -> bytes:
        """The file's bytes when the buffer shows them, else the buffer's text as UTF-8."""
        text = document.source
        disk = self._disk.get(document.uri)
        if disk is not None and any(_same_text(text, shown) for shown in _decodings(disk)):
            return disk
        return text.encode("utf-8", "surrogatepass")

    def problems(self, document: TextDocument) -> list[Problem]:
        kind = self.kind_of(document)
        if kind is None:
            return []
        checker = self._checkers.get(kind)
        if checker is None:
            checker = self._checkers[kind] = Checker(kind)
        try:
            # The floor as `check` finds it now: pyproject.toml and the floor may have changed.
            problems = checker.check_bytes(self._bytes(document), document.path, Floors())
        except FloorError as error:  # `check` stops with exit 2; the editor says why
            problems = [Problem(document.path, 0, 0, "", str(error), error.rule)]
        return with_hints_last(problems + self._checkout.get(document.uri, []))

    @property
    def encoding(self) -> str:
        return self.workspace.position_encoding or lsp.PositionEncodingKind.Utf16

    def code_actions(
        self, document: TextDocument, diagnostics: Sequence[lsp.Diagnostic]
    ) -> list[lsp.CodeAction]:
        """A quick fix for each of `diagnostics` (the client's, from this server) whose rule
        has a mechanical fix and whose problem the document still has."""
        kind = self.kind_of(document)
        wanted = [d for d in diagnostics if d.source == SOURCE and d.code in FIXED_RULES]
        if kind is None or not wanted:
            return []
        text = document.source
        lines = lines_of(text)
        # The field of each problem, by place and rule: what the diagnostics' data may omit.
        paths: dict[tuple[int, int, str], str] = {
            (problem.line - 1, problem.column - 1, problem.rule): problem.path
            for problem in self.problems(document)
        }
        actions: list[lsp.CodeAction] = []
        for diagnostic in wanted:
            line = diagnostic.range.start.line
            if line >= len(lines):
                continue
            column = code_point_column(lines[line], diagnostic.range.start.character, self.encoding)
            path = paths.get((line, column, str(diagnostic.code)))
            if path is None:
                continue  # the buffer changed since: no stale fix
            for fix in fixes(text, line, column, str(diagnostic.code), path, kind):
                start = client_column(lines[fix.line], fix.start, self.encoding)
                end = client_column(lines[fix.line], fix.end, self.encoding)
                edit = lsp.TextEdit(
                    lsp.Range(lsp.Position(fix.line, start), lsp.Position(fix.line, end)),
                    fix.new_text,
                )
                actions.append(
                    lsp.CodeAction(
                        title=fix.title,
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        edit=lsp.WorkspaceEdit(changes={document.uri: [edit]}),
                        is_preferred=not actions,
                    )
                )
        return actions

    def diagnostics(self, document: TextDocument) -> list[lsp.Diagnostic]:
        """The document's problems as diagnostics; an internal error is logged and shown as one
        diagnostic, never the end of the server."""
        encoding = self.encoding
        try:
            problems = self.problems(document)
            diagnostics = to_diagnostics(problems, document.source, encoding)
            head, kind = self._head.get(document.uri), self.kind_of(document)
            data = self._bytes(document)
            # Unchanged since HEAD (a file just opened, mostly): nothing loosens, and the
            # models need not be built to say so.
            if head is not None and kind is not None and not problems and data != head:
                diagnostics += loosening_diagnostics(
                    kind, head, data, document.path, document.source, encoding
                )
            return diagnostics
        except Exception as error:  # a bug: say so where the user looks, and keep serving
            logger.exception("checking %s failed", document.uri)
            message = f"internal error: {type(error).__name__}: {error} (please report it)"
            internal = Problem(document.path, 0, 0, "", message, Rule.INTERNAL_ERROR)
            return to_diagnostics([internal], "", encoding)

    # -- when ----------------------------------------------------------------------------------
    def publish(self, document: TextDocument) -> None:
        self._pending.pop(document.uri, None)
        if self.pull:
            return
        self._last_checked[document.uri] = asyncio.get_running_loop().time()
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(
                uri=document.uri, version=document.version, diagnostics=self.diagnostics(document)
            )
        )

    def publish_soon(self, uri: str) -> None:
        """Check at once when the last check is older than the debounce interval, else once
        at its end, however many changes come in between."""
        if uri in self._pending:
            return
        loop = asyncio.get_running_loop()
        wait = self._last_checked.get(uri, -self.debounce) + self.debounce - loop.time()
        self._pending[uri] = loop.call_later(max(wait, 0.0), self._publish_uri, uri)

    def _publish_uri(self, uri: str) -> None:
        self._pending.pop(uri, None)
        document = self.workspace.text_documents.get(unquote(uri))
        if document is not None:
            self.publish(document)

    def forget(self, uri: str) -> None:
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._disk.pop(uri, None)
        self._head.pop(uri, None)
        self._checkout.pop(uri, None)
        self._last_checked.pop(uri, None)
        if not self.pull:
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )


def rule_link(rule_id: str) -> lsp.CodeDescription | None:
    """Where the rule is explained (its section of docs/rules.md), for the editor to link the
    diagnostic's code to; clients without codeDescriptionSupport ignore it."""
    reference = rule_reference(rule_id)
    return None if reference is None else lsp.CodeDescription(href=reference.url)


def to_diagnostics(problems: Sequence[Problem], text: str, encoding: str) -> list[lsp.Diagnostic]:
    """Problems (1-based lines and code-point columns; line 0 is the whole file) as
    diagnostics in the client's position encoding, each a one-character range."""
    place = _placer(text, encoding)
    return [
        lsp.Diagnostic(
            range=place(problem.line, problem.column),
            message=problem.message,
            severity=_SEVERITIES[problem.severity],
            code=problem.rule,
            code_description=rule_link(problem.rule),
            source=SOURCE,
            data={"path": problem.path},
        )
        for problem in problems
    ]


def _placer(text: str, encoding: str) -> Callable[[int, int], lsp.Range]:
    """What turns a 1-based line and code-point column of `text` into a one-character range
    in the client's units (line 0: the start of the file)."""
    starts = line_starts(text)

    def place(line_number: int, column_number: int) -> lsp.Range:
        line = max(line_number - 1, 0)
        start = end = 0
        if line_number and line < len(starts):
            line_end = starts[line + 1] if line + 1 < len(starts) else len(text)
            line_text = text[starts[line] : line_end].rstrip("\r\n")
            column = column_number - 1
            start = client_column(line_text, column, encoding)
            end = client_column(line_text, column + 1, encoding)
        return lsp.Range(lsp.Position(line, start), lsp.Position(line, end))

    return place


def loosening_diagnostics(
    kind: str, head: bytes, data: bytes, name: str, text: str, encoding: str
) -> list[lsp.Diagnostic]:
    """Information for each field that loosens against `head`, in `diff`'s words (nothing
    while either version is invalid: the buffer's problems say why)."""
    from .diff import Verdict, Version, compare_versions

    findings, _ = compare_versions(KINDS[kind], Version(name, head), Version(name, data), name)
    place = _placer(text, encoding)
    return [
        lsp.Diagnostic(
            range=place(finding.line, finding.column),
            message=f"{finding.verdict.value}: {finding.path}: {finding.detail}"
            if finding.path
            else f"{finding.verdict.value}: {finding.detail}",
            severity=lsp.DiagnosticSeverity.Information,
            code=finding.rule,
            code_description=rule_link(finding.rule),
            source=SOURCE,
        )
        for finding in findings
        if finding.verdict is Verdict.LOOSENS
    ]


def build_server() -> SafetyProfileServer:
    server = SafetyProfileServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: SafetyProfileServer, params: lsp.InitializeParams) -> None:
        options: Any = params.initialization_options
        if isinstance(options, dict):
            kind = options.get("kind")
            if kind in KINDS:
                ls.kind_setting = kind
            elif kind is not None:
                logger.error("initializationOptions.kind %r is not one of %s", kind, list(KINDS))
            debounce = options.get("debounce_ms")
            if isinstance(debounce, int | float) and debounce >= 0:
                ls.debounce = debounce / 1000
        text_document = params.capabilities.text_document
        ls.pull = text_document is not None and text_document.diagnostic is not None

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SafetyProfileServer, params: lsp.DidOpenTextDocumentParams) -> None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        if ls.kind_of(document) is not None:
            ls.read_disk(document)
            ls.publish(document)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SafetyProfileServer, params: lsp.DidChangeTextDocumentParams) -> None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        if ls.kind_of(document) is not None:
            ls.publish_soon(document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SafetyProfileServer, params: lsp.DidSaveTextDocumentParams) -> None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        if ls.kind_of(document) is not None:
            ls.read_disk(document)
            ls.publish(document)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SafetyProfileServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(
        lsp.TEXT_DOCUMENT_DIAGNOSTIC,
        lsp.DiagnosticOptions(
            identifier=SOURCE, inter_file_dependencies=False, workspace_diagnostics=False
        ),
    )
    def pull_diagnostics(
        ls: SafetyProfileServer, params: lsp.DocumentDiagnosticParams
    ) -> lsp.DocumentDiagnosticReport:
        document = ls.workspace.get_text_document(params.text_document.uri)
        if ls.kind_of(document) is not None and not ls.has_read(document):
            ls.read_disk(document)
        return lsp.RelatedFullDocumentDiagnosticReport(items=ls.diagnostics(document))

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def code_actions(ls: SafetyProfileServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        document = ls.workspace.get_text_document(params.text_document.uri)
        return ls.code_actions(document, params.context.diagnostics)

    return server


def serve() -> None:
    """Serve one client over standard input and output until it says `exit`."""
    # Errors only (pygls logs every message below that); editors keep stderr as the log.
    logging.basicConfig(level=logging.ERROR, format="safety-profile lsp: %(message)s")
    build_server().start_io()
