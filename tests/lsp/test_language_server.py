"""`safety-profile lsp` end to end: the real server over stdio, driven by pytest-lsp with the
recorded capabilities of real editors (Neovim 0.7 and 0.11, VS Code, Emacs), which negotiate
UTF-16, UTF-8 and UTF-32 positions and push or pull diagnostics."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import pytest_lsp
from conftest import REPO_ROOT, console_script
from lsp_expectations import EXAMPLE_FILES, Shown, editor_text, expected_diagnostics, units
from lsp_sessions import Servers, close_text, open_text, servers_fixture, tidy
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from cleveragents.reading.rules import Severity, find_rule

# Neovim 0.11 prefers UTF-8 and pulls; Emacs prefers UTF-32; the others speak UTF-16.
CLIENTS = {
    "neovim@0.7.0": "utf-16",
    "neovim@0.11.0": "utf-8",
    "visual-studio-code@1.65.2": "utf-16",
    "emacs@29.1": "utf-32",
}
SEVERITIES = {lsp.DiagnosticSeverity(severity.lsp): severity.value for severity in Severity}
SERVER = [console_script("safety-profile"), "lsp"]


async def start(
    lsp_client: LanguageClient, spec: str, root: Path = REPO_ROOT, **options: Any
) -> lsp.InitializeResult:
    params = lsp.InitializeParams(
        capabilities=client_capabilities(spec),
        root_uri=root.as_uri(),
        initialization_options={"debounce_ms": 0, **options},
    )
    return await lsp_client.initialize_session(params)


ENCODINGS: dict[int, str] = {}  # by id(client): the position encoding the server chose
# One server for each editor, shared by the file's tests (tests/lsp_sessions.py).
servers = servers_fixture(SERVER)
in_the_files_loop = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", params=list(CLIENTS))
async def editor(request: pytest.FixtureRequest, servers: Servers) -> AsyncIterator[LanguageClient]:
    """A session with one editor's recorded capabilities."""
    client = await servers.session(request.param, REPO_ROOT)
    assert servers.results[id(client)].capabilities.position_encoding == CLIENTS[request.param]
    ENCODINGS[id(client)] = CLIENTS[request.param]
    yield client
    await tidy(client)


@pytest_asyncio.fixture(loop_scope="module")
async def vscode(servers: Servers) -> AsyncIterator[LanguageClient]:
    client = await servers.session("visual-studio-code@1.65.2", REPO_ROOT)
    yield client
    await tidy(client)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), loop_scope="module")
async def uninitialized(lsp_client: LanguageClient) -> AsyncIterator[None]:
    """A started server the test initializes itself."""
    yield
    await lsp_client.shutdown_session()


def pulls(client: LanguageClient) -> bool:
    text_document = client.capabilities.text_document if client.capabilities else None
    return text_document is not None and text_document.diagnostic is not None


async def shown(client: LanguageClient, uri: str, before: object = None) -> list[lsp.Diagnostic]:
    """The document's diagnostics: pulled when the client pulls, else the next publication
    (one that replaced `before`, the list published last), waited for."""
    if pulls(client):
        report = await client.text_document_diagnostic_async(
            lsp.DocumentDiagnosticParams(text_document=lsp.TextDocumentIdentifier(uri))
        )
        assert isinstance(report, lsp.RelatedFullDocumentDiagnosticReport)
        return list(report.items)
    for _ in range(1000):
        found = client.diagnostics.get(uri)
        if found is not None and found is not before:
            return list(found)
        await asyncio.sleep(0.01)
    raise AssertionError(f"nothing was published for {uri}")


def awaiting(client: LanguageClient, uri: str) -> object:
    """Mark the document's diagnostics as old: `shown(client, uri, marker)` waits for new ones
    (the diagnostics themselves cannot tell: an empty tuple is always the same object)."""
    marker: list[lsp.Diagnostic] = []
    client.diagnostics[uri] = marker
    return marker


RULES_PAGE = (REPO_ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def as_shown(diagnostic: lsp.Diagnostic) -> Shown:
    assert diagnostic.source == "safety-profile"
    assert diagnostic.severity is not None
    # The code links to the rule's section of docs/rules.md, as SARIF's helpUri does.
    rule = find_rule(str(diagnostic.code))
    assert rule is not None
    assert diagnostic.code_description == lsp.CodeDescription(href=rule.url)
    assert f"\n### {rule.value}\n" in RULES_PAGE
    return Shown(
        diagnostic.range.start.line,
        diagnostic.range.start.character,
        diagnostic.message,
        str(diagnostic.code),
        SEVERITIES[diagnostic.severity],
    )


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    return open_text(client, path.as_uri(), text, version)


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


@in_the_files_loop
async def test_every_example_shows_what_check_reports(editor: LanguageClient) -> None:
    expected = expected_diagnostics(EXAMPLE_FILES, ENCODINGS[id(editor)])
    assert any(expected.values())  # the comparison has something to compare
    for path in EXAMPLE_FILES:
        uri = open_document(editor, path, editor_text(path.read_bytes()))
        diagnostics = await shown(editor, uri)
        assert [as_shown(d) for d in diagnostics] == expected[path], path


@in_the_files_loop
async def test_a_column_after_non_ascii_text_is_in_the_clients_units(
    editor: LanguageClient, tmp_path: Path
) -> None:
    encoding = ENCODINGS[id(editor)]
    text = 'allowed_skill_categories: ["é😀", 010]\n'
    uri = open_document(editor, tmp_path / "safety_profile.yaml", text)
    [diagnostic] = await shown(editor, uri)
    column = units('allowed_skill_categories: ["é😀", ', encoding)
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (0, column)
    assert column == {"utf-8": 37, "utf-16": 34, "utf-32": 33}[encoding]
    assert diagnostic.code == "yaml.ambiguous-scalar"


@in_the_files_loop
async def test_other_yaml_files_get_nothing(vscode: LanguageClient) -> None:
    lsp_client = vscode
    profile = REPO_ROOT / "examples" / "invalid" / "cost_order.safety_profile.yaml"
    other = open_document(lsp_client, REPO_ROOT / "docker-compose.yaml", profile.read_text())
    checked = open_document(lsp_client, REPO_ROOT / "CI" / "Prod.Safety-Profile.YML", "a: 1\n")
    assert [d.code for d in await shown(lsp_client, checked)] == ["schema.extra-forbidden"]
    assert other not in lsp_client.diagnostics


@in_the_files_loop
async def test_an_edit_shows_then_clears_a_problem_and_close_clears_all(
    vscode: LanguageClient, tmp_path: Path
) -> None:
    lsp_client = vscode
    good = "max_cost_per_plan: 100\nmax_total_cost: 200\n"
    bad = "max_cost_per_plan: 300\nmax_total_cost: 200\n"
    uri = open_document(lsp_client, tmp_path / "safety_profile.yaml", good)
    assert await shown(lsp_client, uri) == []
    for version, text, expected in [(2, bad, 1), (3, good, 0), (4, bad, 1)]:
        before = awaiting(lsp_client, uri)
        change_document(lsp_client, uri, text, version)
        found = await shown(lsp_client, uri, before)
        assert [d.code for d in found] == ["schema.cost-order"] * expected
    before = awaiting(lsp_client, uri)
    close_text(lsp_client, uri)
    assert await shown(lsp_client, uri, before) == []


def test_the_command_says_what_to_install_without_the_extra(tmp_path: Path) -> None:
    import subprocess

    # A pygls that cannot be imported, shadowing the installed one.
    (tmp_path / "pygls").mkdir()
    (tmp_path / "pygls" / "__init__.py").write_text("raise ImportError(name='pygls')\n")
    result = subprocess.run(
        [sys.executable, "-m", "cleveragents.safety_toolkit", "lsp"],
        env={"PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "pip install 'cleveragents-safety-profile[lsp]'" in result.stderr


# -- bad input never stops the server --------------------------------------------------------


async def codes_after_opening(client: LanguageClient, path: Path, text: str) -> list[str]:
    return [str(d.code) for d in await shown(client, open_document(client, path, text))]


@in_the_files_loop
async def test_bad_buffers_get_a_diagnostic_and_the_server_goes_on(
    vscode: LanguageClient, tmp_path: Path
) -> None:
    bomb = (REPO_ROOT / "examples" / "invalid" / "alias_bomb.safety_profile.yaml").read_text()
    buffers = {
        "binary": ("require_sandbox: true\n\x00\x01\x02", ["yaml.binary"]),
        "huge": ("max_retries_per_step: 3\n" + "#" * 10_000_000 + "\n", ["yaml.too-large"]),
        "bomb": (bomb, ["yaml.too-many-nodes"]),
        "after": ("max_retries_per_step: 3\n", []),
    }
    for name, (text, codes) in buffers.items():
        path = tmp_path / f"{name}.safety_profile.yaml"
        assert await codes_after_opening(vscode, path, text) == codes, name


@in_the_files_loop
async def test_byte_rules_come_from_the_file_while_the_buffer_shows_it(
    vscode: LanguageClient, tmp_path: Path
) -> None:
    latin1 = tmp_path / "latin1.safety_profile.yaml"
    latin1.write_bytes("allowed_skill_categories: [café]\n".encode("latin-1"))
    utf16 = tmp_path / "utf16.safety_profile.yaml"
    utf16.write_bytes("max_retries_per_step: 3\n".encode("utf-16"))
    assert await codes_after_opening(vscode, latin1, "allowed_skill_categories: [café]\n") == [
        "yaml.encoding"
    ]
    uri = utf16.as_uri()
    assert await codes_after_opening(vscode, utf16, "max_retries_per_step: 3\n") == [
        "yaml.encoding"
    ]
    # Edited, the buffer is no longer the file: its own text is checked (and saved as UTF-8).
    before = awaiting(vscode, uri)
    change_document(vscode, uri, "max_retries_per_step: yes\n", 2)
    assert [d.code for d in await shown(vscode, uri, before)] == ["yaml.ambiguous-scalar"]


@in_the_files_loop
async def test_a_file_deleted_while_open_is_still_checked(
    vscode: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "safety_profile.yaml"
    path.write_text("max_retries_per_step: 3\n")
    assert await codes_after_opening(vscode, path, "max_retries_per_step: 3\n") == []
    path.unlink()
    uri = path.as_uri()
    before = awaiting(vscode, uri)
    vscode.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    assert await shown(vscode, uri, before) == []
    before = awaiting(vscode, uri)
    change_document(vscode, uri, "max_retries_per_step: 010\n", 2)
    assert [d.code for d in await shown(vscode, uri, before)] == ["yaml.ambiguous-scalar"]


def test_a_malformed_message_is_answered_and_the_next_request_too(tmp_path: Path) -> None:
    from lsp_client import LanguageServerClient

    client = LanguageServerClient(SERVER, {}, cwd=tmp_path)
    try:
        client.initialize(tmp_path)
        for body in [b"{not json", b'{"jsonrpc": "2.0", "id": "x"}', b"[1, 2]"]:
            client.send_raw(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        uri = (tmp_path / "safety_profile.yaml").as_uri()
        client.open_document(uri, "max_retries_per_step: yes\n")
        assert [d["code"] for d in client.diagnostics(uri)] == ["yaml.ambiguous-scalar"]
        pulled = client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        assert [d["code"] for d in pulled["items"]] == ["yaml.ambiguous-scalar"]
    finally:
        client.close()


# -- quick fixes ---------------------------------------------------------------------------------


def apply_edit(text: str, edit: lsp.TextEdit) -> str:
    """`edit` (UTF-16 positions, as VS Code's) applied to `text`."""
    lines = text.split("\n")

    def offset(position: lsp.Position) -> int:
        line = lines[position.line]
        encoded = line.encode("utf-16-le")[: 2 * position.character].decode("utf-16-le")
        return sum(len(before) + 1 for before in lines[: position.line]) + len(encoded)

    return text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]


CONFUSABLE = (
    REPO_ROOT / "examples" / "actions" / "invalid" / "confusable_safety_profile.action.yaml"
)
CONFUSED_KEY = "\u0455\u0430f\u0435ty_profile"  # Cyrillic s, a and e
MERGE_KEY = REPO_ROOT / "examples" / "invalid" / "merge_key.safety_profile.yaml"


@in_the_files_loop
@pytest.mark.parametrize(
    ("name", "text", "rule", "titles", "fixed"),
    [
        (
            # The quoted text is no integer: only the number is offered.
            "safety_profile.yaml",
            "max_retries_per_step: 0o12  # retries\n",
            "yaml.ambiguous-scalar",
            ["write 10"],
            "max_retries_per_step: 10  # retries\n",
        ),
        (
            # `true` is no category: only the text is offered.
            "safety_profile.yaml",
            "allowed_skill_categories: [deploy, yes]\n",
            "yaml.ambiguous-scalar",
            ['write "yes"'],
            'allowed_skill_categories: [deploy, "yes"]\n',
        ),
        (
            "safety_profile.yaml",
            "require_sandbox: on\n",
            "yaml.ambiguous-scalar",
            ["write true"],
            "require_sandbox: true\n",
        ),
        (
            "safety_profile.yaml",
            "max_retries_per_stpe: 3\n",
            "schema.extra-forbidden",
            ["rename 'max_retries_per_stpe' to max_retries_per_step"],
            "max_retries_per_step: 3\n",
        ),
        (
            "merge_key.safety_profile.yaml",
            MERGE_KEY.read_text(),
            "yaml.merge-key",
            ["write the merged fields out"],
            "base: &base {require_sandbox: false}\nrequire_sandbox: false\n",
        ),
        (
            "actions/deploy.yaml",
            CONFUSABLE.read_text(),
            "schema.confusable-field",
            [f"rename {CONFUSED_KEY!r} to safety_profile"],
            CONFUSABLE.read_text().replace(CONFUSED_KEY, "safety_profile"),
        ),
    ],
)
async def test_a_quick_fix_makes_the_edit_the_message_asks_for(
    vscode: LanguageClient,
    tmp_path: Path,
    name: str,
    text: str,
    rule: str,
    titles: list[str],
    fixed: str,
) -> None:
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    uri = open_document(vscode, path, text)
    diagnostics = [d for d in await shown(vscode, uri) if d.code == rule]
    assert diagnostics, rule
    actions = await vscode.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            diagnostics[0].range,
            lsp.CodeActionContext(diagnostics=diagnostics),
        )
    )
    assert actions is not None
    assert [action.title for action in actions] == titles
    first = actions[0]
    assert isinstance(first, lsp.CodeAction)
    assert first.kind == lsp.CodeActionKind.QuickFix
    assert first.edit is not None
    assert first.edit.changes is not None
    [edit] = first.edit.changes[uri]
    assert apply_edit(text, edit) == fixed
    before = awaiting(vscode, uri)
    change_document(vscode, uri, fixed, 2)
    assert rule not in [d.code for d in await shown(vscode, uri, before)]


# -- loosening while you type --------------------------------------------------------------------


@in_the_files_loop
async def test_a_field_that_loosens_against_head_is_noted_in_diffs_words(
    uninitialized: LanguageClient, tmp_path: Path
) -> None:
    lsp_client = uninitialized
    from git_repos import new_repository

    strict = "require_sandbox: true\nmax_retries_per_step: 3\n"
    # A decoy that a glob pathspec `?.safety_profile.yaml` would match first.
    repository = new_repository(
        tmp_path,
        {
            "?.safety_profile.yaml": strict,
            "0.safety_profile.yaml": "require_sandbox: false\nmax_retries_per_step: 3\n",
        },
    )
    await start(lsp_client, "visual-studio-code@1.65.2", root=repository)
    path = repository / "?.safety_profile.yaml"
    uri = open_document(lsp_client, path, strict)
    assert await shown(lsp_client, uri) == []
    before = awaiting(lsp_client, uri)
    change_document(lsp_client, uri, "require_sandbox: false\nmax_retries_per_step: 2\n", 2)
    [note] = await shown(lsp_client, uri, before)
    assert note.message == "loosens: require_sandbox: true → false"
    assert note.severity == lsp.DiagnosticSeverity.Information
    assert (note.code, note.range.start.line, note.range.start.character) == (
        "loosens.require_sandbox",
        0,
        17,
    )


@in_the_files_loop
async def test_head_is_head_itself_not_a_ref_named_head(
    uninitialized: LanguageClient, tmp_path: Path
) -> None:
    """On a branch with no commit yet, git's name guessing takes `HEAD` for a tag so named;
    the notes compare with HEAD itself, which has no version of the file: no note."""
    lsp_client = uninitialized
    from git_repos import git, new_repository

    strict = "require_sandbox: true\n"
    repository = new_repository(tmp_path, {"a.safety_profile.yaml": strict})
    git(repository, "tag", "HEAD")
    git(repository, "checkout", "-q", "--orphan", "release")
    await start(lsp_client, "visual-studio-code@1.65.2", root=repository)
    uri = open_document(lsp_client, repository / "a.safety_profile.yaml", strict)
    assert await shown(lsp_client, uri) == []
    before = awaiting(lsp_client, uri)
    change_document(lsp_client, uri, "require_sandbox: false\n", 2)
    assert await shown(lsp_client, uri, before) == []


@in_the_files_loop
async def test_a_file_git_transforms_at_checkout_is_reported_as_check_reports_it(
    uninitialized: LanguageClient, tmp_path: Path
) -> None:
    import json
    import subprocess

    from git_repos import new_repository

    text = "max_retries_per_step: 3\n"
    repository = new_repository(
        tmp_path, {".gitattributes": "*.yaml filter=lfs\n", "safety_profile.yaml": text}
    )
    checked = subprocess.run(
        [SERVER[0], "check", "--format", "json", "safety_profile.yaml"],
        cwd=repository,
        capture_output=True,
        text=True,
        check=False,
    )
    expected = [(p["rule"], p["message"]) for p in json.loads(checked.stdout)]
    assert [rule for rule, _ in expected] == ["git.attribute"]
    await start(uninitialized, "visual-studio-code@1.65.2", root=repository)
    uri = open_document(uninitialized, repository / "safety_profile.yaml", text)
    assert [(d.code, d.message) for d in await shown(uninitialized, uri)] == expected


@in_the_files_loop
async def test_changes_typed_in_quick_succession_are_checked_once_as_the_last_one(
    uninitialized: LanguageClient, tmp_path: Path
) -> None:
    # A debounce far longer than sending three changes takes: they come within it.
    await start(uninitialized, "visual-studio-code@1.65.2", debounce_ms=1000)
    uri = open_document(uninitialized, tmp_path / "safety_profile.yaml", "max_total_cost: 1\n")
    assert await shown(uninitialized, uri) == []
    before = awaiting(uninitialized, uri)
    texts = ["require_sandbox: yes\n", "max_cost_per_plan: 3\nmax_total_cost: 2\n", "a: 1\n"]
    for version, text in enumerate(texts, start=2):
        change_document(uninitialized, uri, text, version)
    assert [d.code for d in await shown(uninitialized, uri, before)] == ["schema.extra-forbidden"]


@in_the_files_loop
async def test_a_file_below_the_floor_shows_what_check_reports(
    uninitialized: LanguageClient, tmp_path: Path
) -> None:
    import json
    import subprocess

    from git_repos import new_repository, write_files

    text = "require_sandbox: false\nallowed_skill_categories: [code, ops]\n"
    profile = "teams/a.safety_profile.yaml"
    repository = new_repository(
        tmp_path,
        {
            "pyproject.toml": '[tool.safety-profile]\nfloor = "floor.yaml"\n',
            "floor.yaml": "max_total_cost: 100.0\nallowed_skill_categories: [code]\n",
            "teams/a.safety_profile.yaml": text,
        },
    )

    def checked() -> list[tuple[int, int, str, str]]:
        # From the server's folder, as the server runs: the floor's path is shown from there.
        result = subprocess.run(
            [
                SERVER[0],
                "check",
                "--format",
                "json",
                str(repository / profile),
            ],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        problems = json.loads(result.stdout)
        return [(p["line"] - 1, p["column"] - 1, p["rule"], p["message"]) for p in problems]

    expected = checked()
    assert {rule for _, _, rule, _ in expected} == {"floor.looser"}
    assert len(expected) == 3  # max_total_cost (absent), require_sandbox, the categories
    await start(uninitialized, "visual-studio-code@1.65.2", root=repository)
    uri = open_document(uninitialized, repository / "teams/a.safety_profile.yaml", text)

    def as_check(diagnostics: list[lsp.Diagnostic]) -> list[tuple[int, int, str, str]]:
        return [
            (d.range.start.line, d.range.start.character, str(d.code), d.message)
            for d in diagnostics
        ]

    assert as_check(await shown(uninitialized, uri)) == expected
    # The floor is found afresh: one that cannot be used is shown, not ignored.
    write_files(repository, {"pyproject.toml": '[tool.safety-profile]\nfloor = "gone.yaml"\n'})
    before = awaiting(uninitialized, uri)
    change_document(uninitialized, uri, text + "\n", 2)
    [diagnostic] = await shown(uninitialized, uri, before)
    assert diagnostic.code == "floor.unusable"
    assert diagnostic.message.startswith("the floor ")
    assert "gone.yaml (set in " in diagnostic.message
    assert diagnostic.message.endswith("pyproject.toml): no such file; check the path")
