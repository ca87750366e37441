"""`safety-profile lsp`: the language server. An editor shows what `check` reports, because the
problems come from the same `Checker`; this module only says where they are in the client's
units and when to send them.

Files are the hooks' files (`KINDS[...].matches` on the file's path in its git repository,
names in any case, whatever folder the editor opened); other YAML files get nothing from this
server. What a document is on disk and in git (its file, its links, HEAD's version) is
`lsp.documents`; the framing of what the editor sends is `lsp.framing`. Only this command
imports pygls (see the `lsp` extra).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO, NamedTuple, cast
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.workspace import TextDocument

from cleveragents.reading.files import read_regular_file
from cleveragents.reading.problems import Problem, labelled
from cleveragents.reading.rules import Rule, rule_reference
from cleveragents.reading.text import line_starts

from ..core.check import Checker
from ..core.kind_hint import with_hints_last
from ..core.kinds import KINDS, YAML_NAME
from ..floor import Floor, FloorError, Floors
from ..git.paths import in_no_work_tree, quoted
from .documents import Place, Places, UriRefused, file_path, kind_by_name
from .editor_fixes import FIXED_RULES, fixes, lines_of

__all__ = ["SOURCE", "SafetyProfileServer", "build_server", "client_column", "serve"]

SOURCE = "safety-profile"
logger = logging.getLogger(__name__)
# Seconds a git may take before the server stops it (the gits it runs answer in milliseconds):
# nothing else is answered meanwhile, and a repository where git did not answer is not asked
# again (`git.objects`).
GIT_TIME_LIMIT = 15.0

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
    """The code points of `line_text` that make up `units` of the client's units (in one pass:
    a client may name any column of a line of any length)."""
    count = _UNITS[encoding]
    total = 0
    for index, character in enumerate(line_text):
        if total >= units:
            return index
        total += count(character)
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


class OpenFile(NamedTuple):
    """What the server knows of a document's file: where it is, its kind, and, once read (on
    open and save), its bytes, its version at HEAD and the problems git has with it."""

    place: Place
    kind: str | None  # None: not a file this server checks
    read: bool = False
    disk: bytes | None = None  # the file's bytes (a link's target's): None, none on disk
    head: bytes | None = None  # at HEAD (None: none)
    # Problems with the file as git holds it (`git.attribute`, `git.link`), which are about its
    # path, whatever the buffer holds.
    git_problems: tuple[Problem, ...] = ()


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, with its own handling of documents opened, changed and closed made
    safe for any URI: one pygls cannot parse (`file://[::1`) is refused in the editor's log,
    not reported as "Error in server", and what the editor sends about a document pygls does
    not hold is ignored there too."""

    _server: SafetyProfileServer

    def _then_feature(
        self, uri: str, change: Callable[[], None], method: str, params: Any
    ) -> Iterator[Any]:
        """`change` pygls' workspace, then run the server's feature for `method`. A document pygls
        cannot take (its URI) is refused, one it cannot change (a range outside it, a document
        never opened) is said in the log; either way the feature is not run."""
        try:
            change()
        except (ValueError, KeyError, IndexError) as error:
            if method == lsp.TEXT_DOCUMENT_DID_OPEN:
                self._server.refuse(uri, f"cannot be read as a document's URI ({error!r})")
            elif not self._server.refused(uri):  # what follows a refused open is no news
                self._server.log(
                    f"safety-profile: {quoted(uri)}: the editor's {method} cannot be applied "
                    f"({error!r}); if the document is open, close and reopen it"
                )
            return
        if (handler := self.fm.features.get(method)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams) -> Any:
        document = params.text_document
        yield from self._then_feature(
            document.uri,
            lambda: self.workspace.put_text_document(document),
            lsp.TEXT_DOCUMENT_DID_OPEN,
            params,
        )

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Any:
        def apply() -> None:
            for change in params.content_changes:
                self.workspace.update_text_document(params.text_document, change)

        uri = params.text_document.uri
        yield from self._then_feature(uri, apply, lsp.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: lsp.DidCloseTextDocumentParams) -> Any:
        uri = params.text_document.uri
        yield from self._then_feature(
            uri,
            lambda: self.workspace.remove_text_document(uri),
            lsp.TEXT_DOCUMENT_DID_CLOSE,
            params,
        )


class SafetyProfileServer(LanguageServer):
    """The server and what it knows of each open document."""

    def __init__(self) -> None:
        from importlib.metadata import version

        super().__init__(SOURCE, version("cleveragents-safety-profile"), protocol_cls=_Protocol)
        self._refused: set[str] = set()  # URIs refused, each said once
        self._stuck_told: set[str] = set()  # repositories where git did not answer, said once
        self.kind_setting: str | None = None  # initializationOptions.kind: every file as this
        self.debounce = 0.05  # seconds: changes closer together than this are checked once
        self.pull = False  # the client pulls diagnostics (textDocument/diagnostic)
        self._checkers: dict[str, Checker] = {}
        self._files: dict[str, OpenFile | None] = {}  # by URI (None: a URI that is no file)
        self._places = Places()
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._last_checked: dict[str, float] = {}

    # -- which files, and what to check ---------------------------------------------------------
    def file_of(self, document: TextDocument, afresh: bool = False) -> OpenFile | None:
        """The document's file, located once (None: its URI names none, which is logged);
        `afresh`: located again, its folder's repository asked about again too."""
        if afresh or document.uri not in self._files:
            self._files[document.uri] = self._locate(document.uri, afresh)
        return self._files[document.uri]

    def _locate(self, uri: str, afresh: bool = False) -> OpenFile | None:
        try:
            path = file_path(uri)
        except UriRefused as refusal:
            self.refuse(uri, str(refusal))
            return None
        if afresh:
            self._places.forget(path)  # the folder may be a repository now
        place = self._places.place(path)
        self._say_where_git_is_stuck()
        if self.kind_setting is not None:
            kind = self.kind_setting if YAML_NAME.search(path) else None
        else:
            kind = kind_by_name(place)
        return OpenFile(place, kind)

    def refuse(self, uri: str, reason: str) -> None:
        """Say in the editor why a document gets no diagnostics: a warning shown to the user
        for a name the hooks check (it would otherwise look checked and clean), a line in the
        editor's log for others (a diff view's `git:` URI, an untitled buffer)."""
        if uri in self._refused:
            return
        self._refused.add(uri)
        message = f"safety-profile: {quoted(uri)} is not checked: it {reason}"
        name = unquote(uri.split("?", 1)[0].split("#", 1)[0].rpartition("/")[2])
        if any(kind.matches(name) for kind in KINDS.values()) and uri.startswith("file:"):
            logger.warning("%s", message)
            self.window_show_message(
                lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message)
            )
        else:
            self.log(message)

    def refused(self, uri: str) -> bool:
        return uri in self._refused

    def log(self, message: str) -> None:
        """A line in the editor's log (and on standard error, which editors keep as a log)."""
        logger.warning("%s", message)
        self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Log, message=message))

    def open_document(self, uri: str) -> TextDocument | None:
        """The document the editor has open at `uri` (None: none; pygls would read the disk)."""
        document: TextDocument | None = self.workspace.text_documents.get(unquote(uri))
        return document

    def kind_of(self, document: TextDocument, afresh: bool = False) -> str | None:
        """The kind a document is checked as: the setting, else the hook whose names match its
        path in its repository; None for other files. `afresh`: its file located again."""
        file = self.file_of(document, afresh)
        return None if file is None else file.kind

    def read_disk(self, document: TextDocument, located: bool = False) -> None:
        """Locate the file again and read it: rules about bytes (BOM, UTF-16, not UTF-8, size)
        are about the file, which the buffer shows decoded; its version at HEAD, against which
        loosening is shown; and what git says of it. A file that is a link is read as the file
        it leads to inside its repository (`git.link` when it leads outside or nowhere).
        `located`: the file was just located afresh (`kind_of(document, afresh=True)`), so its
        repository is not asked about again."""
        file = self.file_of(document)
        if file is not None:
            self._read_disk(document, file.place.path, located)
            self._say_where_git_is_stuck()

    def _say_where_git_is_stuck(self) -> None:
        """Warn, once for each, of the repositories where git did not answer in time (their
        files are then checked as files in no repository)."""
        from ..git.paths import stuck_repositories

        for repository in sorted(stuck_repositories() - self._stuck_told):
            self._stuck_told.add(repository)
            message = (
                f"safety-profile: git did not answer in {quoted(repository)} within "
                f"{GIT_TIME_LIMIT:.0f} s (does the repository's configuration include a file "
                "that never ends, such as a FIFO?); it is not asked there again until the "
                "server restarts, and its files are checked as files in no repository"
            )
            logger.warning("%s", message)
            self.window_show_message(
                lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message)
            )

    def _read_disk(self, document: TextDocument, path: str, located: bool = False) -> None:
        if located:
            file = self._files.get(document.uri)
        else:
            self._places.forget(path)  # the folder may be a repository now
            file = self._locate(document.uri)
            self._files[document.uri] = file
        if file is None or file.kind is None:
            return
        place = file.place
        # In no repository (no `.git` above the file either way it is named, no GIT_DIR): the
        # file itself is read, git has nothing to say of it, and the git modules stay unloaded.
        read_from: str | None = place.path
        head: bytes | None = None
        git_problems: list[Problem] = []
        if place.root is not None or not in_no_work_tree(place.path):
            read_from, head, git_problems = _asked_git(document, place)
        disk = None
        try:
            if read_from is not None:
                disk = read_regular_file(read_from).data
        except (OSError, ValueError):
            pass  # a new buffer, or the file was deleted
        self._files[document.uri] = file._replace(
            read=True, disk=disk, head=head, git_problems=tuple(git_problems)
        )

    def has_read(self, document: TextDocument) -> bool:
        """Whether the file was read since it was opened (on open, save or a first pull)."""
        file = self.file_of(document)
        return file is not None and file.read

    def _bytes(self, document: TextDocument) -> bytes:
        """The file's bytes when the buffer shows them, else the buffer's text as UTF-8."""
        text = document.source
        file = self.file_of(document)
        disk = None if file is None else file.disk
        if disk is not None and any(_same_text(text, shown) for shown in _decodings(disk)):
            return disk
        return text.encode("utf-8", "surrogatepass")

    def problems(self, document: TextDocument) -> list[Problem]:
        file = self.file_of(document)
        if file is None or file.kind is None:
            return []
        checker = self._checkers.get(file.kind)
        if checker is None:
            checker = self._checkers[file.kind] = Checker(file.kind)
        name = file.place.path
        try:
            # The floor as `check` finds it now: pyproject.toml and the floor may have changed.
            problems = checker.check_bytes(self._bytes(document), name, Floors())
        except FloorError as error:  # `check` stops with exit 2; the editor says why
            problems = [Problem(name, 0, 0, "", str(error), error.rule)]
        return with_hints_last(problems + list(file.git_problems))

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
            file = self.file_of(document)
            if file is None or file.kind is None:
                return []
            problems = self.problems(document)
            diagnostics = to_diagnostics(problems, document.source, encoding)
            if file.head is None or problems:
                return diagnostics
            data = self._bytes(document)
            # Unchanged since HEAD (a file just opened, mostly): nothing loosens, and the
            # models need not be built to say so.
            if data != file.head:
                diagnostics += loosening_diagnostics(
                    file.kind, file.head, data, file.place.path, document.source, encoding
                )
            return diagnostics
        except Exception as error:  # a bug: say so where the user looks, and keep serving
            logger.exception("checking %s failed", document.uri)
            message = f"internal error: {type(error).__name__}: {error} (please report it)"
            internal = Problem(document.uri, 0, 0, "", message, Rule.INTERNAL_ERROR)
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
        document = self.open_document(uri)
        if document is not None:
            self.publish(document)

    def forget(self, uri: str) -> None:
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._files.pop(uri, None)
        self._refused.discard(uri)
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
            severity=lsp.DiagnosticSeverity(problem.severity.lsp),
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
    from ..core.diff import Verdict, Version, compare_versions

    findings, _ = compare_versions(KINDS[kind], Version(name, head), Version(name, data), name)
    place = _placer(text, encoding)
    return [
        lsp.Diagnostic(
            range=place(finding.line, finding.column),
            message=labelled(finding.verdict.value, finding.path, finding.detail),
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
        document = ls.open_document(params.text_document.uri)
        # Located afresh once (the folder may be a repository now), then read: one
        # `git rev-parse`, not one to find the kind and another to read.
        if document is not None and ls.kind_of(document, afresh=True) is not None:
            ls.read_disk(document, located=True)
            ls.publish(document)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SafetyProfileServer, params: lsp.DidChangeTextDocumentParams) -> None:
        document = ls.open_document(params.text_document.uri)
        if document is not None and ls.kind_of(document) is not None:
            ls.publish_soon(document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SafetyProfileServer, params: lsp.DidSaveTextDocumentParams) -> None:
        document = ls.open_document(params.text_document.uri)
        if document is not None and ls.kind_of(document) is not None:
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
        document = ls.open_document(params.text_document.uri)
        if document is None:  # not open: nothing to say (its file is not read)
            return lsp.RelatedFullDocumentDiagnosticReport(items=[])
        if ls.kind_of(document) is not None and not ls.has_read(document):
            ls.read_disk(document)
        return lsp.RelatedFullDocumentDiagnosticReport(items=ls.diagnostics(document))

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def code_actions(ls: SafetyProfileServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        document = ls.open_document(params.text_document.uri)
        return [] if document is None else ls.code_actions(document, params.context.diagnostics)

    _register_completion_and_hover(server)
    return server


# -- completion and hover: what to offer and say is lsp_completion's; here, only the protocol ---


def _register_completion_and_hover(server: SafetyProfileServer) -> None:
    from .completion import categories_in, completions, hover, workspace_categories

    found: dict[str, tuple[float, set[str]]] = {}  # by workspace root: when read, categories
    # By URI: an open buffer's categories, and the version and kind they were read for.
    buffers: dict[str, tuple[tuple[int | None, str] | None, list[str]]] = {}
    places = Places(by_repository=True)  # each repository asked once: which kind a file is

    def floors_of(ls: SafetyProfileServer, document: TextDocument) -> tuple[Floor, ...]:
        file = ls.file_of(document)
        try:
            return () if file is None else Floors().for_file(file.place.path)
        except FloorError:
            return ()  # the diagnostics say why it cannot be used

    def categories(ls: SafetyProfileServer, completed: str) -> set[str]:
        """The workspace's categories: its files' (read again after 10 s) and those of the
        open buffers but `completed`, whose list is being typed."""
        from cleveragents.reading.loaded_file import load_bytes

        root, now = ls.workspace.root_path, asyncio.get_running_loop().time()
        if root and (root not in found or now - found[root][0] > 10):  # files change: reread
            found[root] = (now, workspace_categories(root, lambda p: kind_by_name(places.place(p))))
        names = set(found[root][1]) if root else set()
        for document in list(ls.workspace.text_documents.values()):
            kind = ls.kind_of(document)
            if document.uri == completed or kind is None:
                continue  # other YAML buffers (an editor may send them all) are never read
            version = (document.version, kind)
            if buffers.get(document.uri, (None, []))[0] != version:  # read once a version
                mapping = load_bytes(document.source.encode(), document.uri).mapping
                read = [] if mapping is None else categories_in(mapping, kind)
                buffers[document.uri] = (version, read)
            names.update(buffers[document.uri][1])
        for uri in [uri for uri in buffers if ls.open_document(uri) is None]:
            del buffers[uri]  # closed
        return names

    def markup(formats: Sequence[str] | None, text: str) -> lsp.MarkupContent | str:
        """Markdown where the client takes it; else the same words as plain text."""
        if formats and lsp.MarkupKind.Markdown in formats:
            return lsp.MarkupContent(lsp.MarkupKind.Markdown, text)
        return text if not formats else lsp.MarkupContent(lsp.MarkupKind.PlainText, text)

    def place(document: TextDocument, position: lsp.Position) -> tuple[list[str], int] | None:
        lines = lines_of(document.source)
        if position.line >= len(lines):
            return None
        return lines, code_point_column(lines[position.line], position.character, server.encoding)

    @server.feature(
        lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "[", ","])
    )
    def complete(ls: SafetyProfileServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        document = ls.open_document(params.text_document.uri)
        kind = None if document is None else ls.kind_of(document)
        at = None if document is None else place(document, params.position)
        if document is None or kind is None or at is None:
            return lsp.CompletionList(is_incomplete=False, items=[])
        lines, column = at
        line = params.position.line
        text_document = ls.client_capabilities.text_document
        item_capability = (
            text_document
            and text_document.completion
            and (text_document.completion.completion_item)
        )
        snippets = bool(item_capability and item_capability.snippet_support)
        formats = item_capability.documentation_format if item_capability else None
        offered = completions(
            document.source,
            line,
            column,
            kind,
            floors_of(ls, document),
            lambda: categories(ls, document.uri),
        )
        items = [
            lsp.CompletionItem(
                label=item.label,
                kind=lsp.CompletionItemKind.Property
                if item.kind == "field"
                else lsp.CompletionItemKind.Value,
                detail=item.detail or None,
                documentation=markup(formats, item.documentation),
                sort_text=item.sort,
                filter_text=item.label,
                insert_text_format=lsp.InsertTextFormat.Snippet
                if snippets
                else lsp.InsertTextFormat.PlainText,
                text_edit=lsp.TextEdit(
                    lsp.Range(
                        lsp.Position(line, client_column(lines[line], item.start, ls.encoding)),
                        lsp.Position(line, client_column(lines[line], item.end, ls.encoding)),
                    ),
                    item.snippet if snippets else item.insert,
                ),
            )
            for item in offered
        ]
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def describe(ls: SafetyProfileServer, params: lsp.HoverParams) -> lsp.Hover | None:
        document = ls.open_document(params.text_document.uri)
        kind = None if document is None else ls.kind_of(document)
        at = None if document is None else place(document, params.position)
        if document is None or kind is None or at is None:
            return None
        lines, column = at
        text = document.source
        found = hover(text, params.position.line, column, kind, floors_of(ls, document))
        if found is None:
            return None
        text_document = ls.client_capabilities.text_document
        formats = (
            text_document.hover.content_format if text_document and text_document.hover else None
        )
        start = client_column(lines[found.line], found.start, ls.encoding)
        end = client_column(lines[found.line], found.end, ls.encoding)
        return lsp.Hover(
            markup(formats, found.markdown),
            lsp.Range(lsp.Position(found.line, start), lsp.Position(found.line, end)),
        )


def _asked_git(
    document: TextDocument, place: Place
) -> tuple[str | None, bytes | None, list[Problem]]:
    """For a file in a repository: the file to read (None: a link leading outside it or
    nowhere), its version at HEAD, and the problems git has with it."""
    from ..git.head_version import head_version
    from ..git.objects import LinkError, checkout_problems
    from .documents import link_problem, target

    head, git_problems = None, []
    try:
        read_from: str | None = target(place)
    except LinkError as error:
        read_from = None
        git_problems.append(link_problem(place, error))
    try:
        if read_from is not None:
            git_problems += checkout_problems([place.path])
            if place.root is not None and place.repository_path is not None:
                head = head_version(place.root, place.repository_path, _on_disk(read_from))
    except Exception:  # a bug: logged, and the buffer is still checked
        logger.exception("asking git about %s failed", document.uri)
    return read_from, head, git_problems


def _on_disk(path: str) -> bytes | None:
    """The bytes of the regular file at `path` (None: none there), for `head_version` to
    compare with HEAD's blob by id."""
    try:
        return read_regular_file(path).data
    except (OSError, ValueError):
        return None


def serve() -> None:
    """Serve one client over standard input and output until it says `exit`, whatever bytes
    it sends (`lsp.framing`)."""
    from ..git.paths import limit_git_time
    from .framing import FramedInput, LockedOutput, answer_refusals

    # Warnings and errors (pygls logs every message below that); editors keep stderr as the log.
    logging.basicConfig(level=logging.ERROR, format="safety-profile lsp: %(message)s")
    logger.setLevel(logging.WARNING)
    limit_git_time(GIT_TIME_LIMIT)
    standard_input: Any = sys.stdin.buffer
    output = LockedOutput(sys.stdout.buffer)
    framed = FramedInput(standard_input, answer_refusals(output, logger.warning))
    build_server().start_io(stdin=cast(BinaryIO, framed), stdout=cast(BinaryIO, output))
