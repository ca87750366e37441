"""`safety-profile lsp` against a hostile workspace and client, the real server over stdio: a
repository whose configuration names commands (none runs), bytes that break the protocol's
framing (each bad message is answered or dropped, and the server goes on), URIs that name no
file (a warning or a line in the log, never an exception), a workspace opened below the
repository's top (kinds come from the repository path) and profiles that are links (read, and
compared with HEAD, as `diff --git` reads them)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
import pytest_lsp
from conftest import console_script
from git_repos import git, new_repository, write_files
from hostile_git import ACTION, STRICT, hostile_repository, trace, traces_left
from lsp_client import LanguageServerClient
from lsp_sessions import Servers, open_text, servers_fixture, tidy
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from test_language_server import awaiting, change_document, shown

from cleveragents.safety_toolkit.lsp.server import GIT_TIME_LIMIT

SERVER = [console_script("safety-profile"), "lsp"]
LOOSE = "require_sandbox: false\nmax_retries_per_step: 3\n"
INVALID_ACTION = ACTION.replace("require_sandbox: true", "max_retries_per_step: yes")


# -- a client that writes bytes as they are -------------------------------------------------------
@pytest.fixture
def raw_client(tmp_path: Path) -> Iterator[LanguageServerClient]:
    client = LanguageServerClient(SERVER, {}, cwd=tmp_path)
    client.initialize(tmp_path)
    yield client
    client.close()


def still_serving(client: LanguageServerClient, folder: Path, name: str) -> None:
    """A document opened now gets its diagnostics, and a request its answer."""
    uri = (folder / f"{name}.safety_profile.yaml").as_uri()
    client.open_document(uri, "max_retries_per_step: yes\n")
    assert [d["code"] for d in client.diagnostics(uri)] == ["yaml.ambiguous-scalar"]
    pulled = client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    assert [d["code"] for d in pulled["items"]] == ["yaml.ambiguous-scalar"]


def framed(header: bytes) -> Callable[[bytes], bytes]:
    """`header` (`%d` for the body's length) before the body."""
    return lambda body: (header % len(body) if b"%d" in header else header) + body


# Headers HTTP's syntax allows (what the base protocol takes its headers from): answered.
ACCEPTED = {
    "two spaces": b"Content-Length:  %d\r\n\r\n",
    "a tab, a final space, lower case": b"content-length:\t%d \r\n\r\n",
    "a Content-Type too": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
    b"Content-Length: %d\r\n\r\n",
    "lines ending in LF only": b"Content-Length: %d\n\n",
}
# Headers that frame nothing: the request is answered with an error, and dropped.
REFUSED = {
    "no Content-Length": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
    "not a number": b"Content-Length: 1e3\r\n\r\n",
    "a negative number": b"Content-Length: -5\r\n\r\n",
    "an empty value": b"Content-Length:\r\n\r\n",
    "two lengths": b"Content-Length: %d\r\nContent-Length: 1\r\n\r\n",
    "not a header": b"Content Length %d\r\n\r\n",
    "not ASCII": "Content-Length: %d\r\nX-Naïve: 1\r\n\r\n".encode(),
}


@pytest.mark.parametrize("header", list(ACCEPTED.values()), ids=list(ACCEPTED))
def test_a_header_http_allows_is_read(
    raw_client: LanguageServerClient, tmp_path: Path, header: bytes
) -> None:
    uri = (tmp_path / "a.safety_profile.yaml").as_uri()
    raw_client.open_document(uri, "max_retries_per_step: yes\n")
    response = raw_client.request_framed(
        framed(header), "textDocument/diagnostic", {"textDocument": {"uri": uri}}
    )
    assert [d["code"] for d in response["result"]["items"]] == ["yaml.ambiguous-scalar"]
    still_serving(raw_client, tmp_path, "after")


@pytest.mark.parametrize("header", list(REFUSED.values()), ids=list(REFUSED))
def test_a_malformed_header_is_answered_with_an_error_and_the_server_goes_on(
    raw_client: LanguageServerClient, tmp_path: Path, header: bytes
) -> None:
    response = raw_client.request_framed(framed(header), "shutdown", None)
    assert response["error"]["code"] == -32600
    assert "malformed header" in response["error"]["message"]
    logged = [n for n in raw_client.notifications if n["method"] == "window/logMessage"]
    assert any("malformed header" in n["params"]["message"] for n in logged)
    still_serving(raw_client, tmp_path, "after")


def test_bytes_that_are_no_message_are_dropped_up_to_the_next_header(
    raw_client: LanguageServerClient, tmp_path: Path
) -> None:
    """A body without its header runs into the next message's header, which is read."""
    raw_client.send_raw(b'{"jsonrpc": "2.0", "method": "$/nothing"}garbage\r\n')
    raw_client.send_raw(b"\r\n\r\n\x00\xff more garbage")
    still_serving(raw_client, tmp_path, "after")
    # The first lines end in an empty line: a header block of their own, not a valid one; what
    # follows is its body, up to the next header.
    assert "is not a valid header; the message was dropped" in raw_client.stderr_text()


def test_a_request_without_a_header_is_answered_when_the_next_message_comes(
    raw_client: LanguageServerClient, tmp_path: Path
) -> None:
    request = {"jsonrpc": "2.0", "id": 7, "method": "shutdown"}
    raw_client.send_raw(json.dumps(request).encode())
    still_serving(raw_client, tmp_path, "after")
    assert "came before a header" in raw_client.stderr_text()


def test_a_length_above_the_limit_is_skipped_unread(
    raw_client: LanguageServerClient, tmp_path: Path
) -> None:
    """The header says 99999999999 bytes (93 GiB): nothing is read or held for it, and the
    message after it is read."""
    raw_client.send_raw(b'Content-Length: 99999999999\r\n\r\n{"jsonrpc": "2.0"}')
    still_serving(raw_client, tmp_path, "after")
    assert "a message of 99999999999 bytes is larger than the limit" in raw_client.stderr_text()


def test_a_message_above_the_limit_is_refused_and_the_next_one_read(
    raw_client: LanguageServerClient, tmp_path: Path
) -> None:
    """An editor that really sends 65 MiB (a document opened whole): refused, said in the log,
    and the document after it is checked."""
    uri = (tmp_path / "huge.safety_profile.yaml").as_uri()
    text = "max_retries_per_step: 3\n" + "#" * (65 * 1024 * 1024) + "\n"
    raw_client.open_document(uri, text)
    still_serving(raw_client, tmp_path, "after")
    assert uri not in [
        n["params"]["uri"]
        for n in raw_client.notifications
        if n["method"] == "textDocument/publishDiagnostics"
    ]
    logged = [
        n["params"]["message"]
        for n in raw_client.notifications
        if n["method"] == "window/logMessage"
    ]
    assert any("is larger than the limit of 67108864 bytes" in m for m in logged)


@pytest.mark.parametrize(
    "header", [b"Content-Type: x\r\n\r\n", b"Content-Length: %d\r\n\r\n"], ids=["bad", "good"]
)
def test_a_body_nested_too_deep_to_read_is_dropped(
    raw_client: LanguageServerClient, tmp_path: Path, header: bytes
) -> None:
    """100,000 nested arrays: Python's JSON reader gives up (RecursionError); the server does
    not."""
    body = b"[" * 100_000 + b"]" * 100_000
    raw_client.send_raw(framed(header)(body))
    still_serving(raw_client, tmp_path, "after")


def test_a_message_written_a_byte_at_a_time_is_read(
    raw_client: LanguageServerClient, tmp_path: Path
) -> None:
    uri = (tmp_path / "slow.safety_profile.yaml").as_uri()
    raw_client.open_document(uri, "max_retries_per_step: yes\n")

    def trickle(body: bytes) -> bytes:
        for byte in b"Content-Length: %d\r\n\r\n" % len(body) + body[:-1]:
            raw_client.send_raw(bytes([byte]))
        return body[-1:]

    response = raw_client.request_framed(
        trickle, "textDocument/diagnostic", {"textDocument": {"uri": uri}}
    )
    assert [d["code"] for d in response["result"]["items"]] == ["yaml.ambiguous-scalar"]


# -- the real server through pytest-lsp, as an editor --------------------------------------------
@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), loop_scope="module")
async def client(lsp_client: LanguageClient) -> AsyncIterator[LanguageClient]:
    """A started server; each test initializes it with the folder it opens."""
    yield lsp_client
    await lsp_client.shutdown_session()


async def start(client: LanguageClient, root: Path) -> None:
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code@1.65.2"),
            root_uri=root.as_uri(),
            initialization_options={"debounce_ms": 0},
        )
    )


def open_uri(client: LanguageClient, uri: str, text: str) -> str:
    return open_text(client, uri, text)


# One server for the tests whose files need no workspace of their own: it is opened in an empty
# folder, their files are in their own tmp_path (tests/lsp_sessions.py).
servers = servers_fixture(SERVER)
in_the_files_loop = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workspace")


@pytest_asyncio.fixture(loop_scope="module")
async def editor(servers: Servers, workspace: Path) -> AsyncIterator[LanguageClient]:
    """The file's shared server, as VS Code opened in an empty folder."""
    client = await servers.session("visual-studio-code@1.65.2", workspace)
    yield client
    await tidy(client)


def check(cwd: Path, *args: str) -> list[tuple[int, int, str, str]]:
    """What `safety-profile check --format json ARGS` reports, as diagnostics place it."""
    result = subprocess.run(
        [SERVER[0], "check", "--format", "json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    return [
        (max(p["line"] - 1, 0), max(p["column"] - 1, 0), p["rule"], p["message"])
        for p in json.loads(result.stdout)
    ]


def placed(diagnostics: list[lsp.Diagnostic]) -> list[tuple[int, int, str, str]]:
    return [
        (d.range.start.line, d.range.start.character, str(d.code), d.message) for d in diagnostics
    ]


# -- no command a folder's configuration names runs ----------------------------------------------
@in_the_files_loop
async def test_opening_and_saving_in_a_hostile_repository_runs_nothing(
    client: LanguageClient, tmp_path: Path
) -> None:
    traces = tmp_path / "traces"
    traces.mkdir()
    repository = tmp_path / "repository"
    repository.mkdir()
    hostile_repository(repository, traces)
    await start(client, repository)
    for name, text in [
        ("prod.safety_profile.yaml", STRICT),
        ("other.safety_profile.yml", STRICT),
        ("actions/deploy.yaml", ACTION),
    ]:
        uri = open_uri(client, (repository / name).as_uri(), text)
        codes = [d.code for d in await shown(client, uri)]
        assert "git.attribute" in codes, name  # the filter is reported, not run
        before = awaiting(client, uri)
        client.text_document_did_save(
            lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri))
        )
        await shown(client, uri, before)
    assert traces_left(traces) == []


@in_the_files_loop
async def test_git_never_reads_the_editors_messages(client: LanguageClient, tmp_path: Path) -> None:
    """A repository configured to include `/dev/stdin`: git would read its configuration from
    the server's standard input, the editor's messages, and the server would wait forever."""
    repository = new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT})
    git(repository, "config", "include.path", "/dev/stdin")
    await start(client, repository)
    uri = open_uri(client, (repository / "prod.safety_profile.yaml").as_uri(), STRICT)
    assert await shown(client, uri) == []
    before = awaiting(client, uri)
    change_document(client, uri, "a: 1\n", 2)
    assert [d.code for d in await shown(client, uri, before)] == ["schema.extra-forbidden"]


@in_the_files_loop
@pytest.mark.parametrize("included", ["/dev/stdout", "/proc/self/fd/2"])
async def test_git_never_waits_for_its_own_output(
    client: LanguageClient, tmp_path: Path, included: str
) -> None:
    """A repository configured to include git's own standard output or error: read from a pipe,
    git waited on itself until the timeout, 120 s for each of the three gits an open runs, and
    the server answered nothing meanwhile. Git writes to files: HEAD is read at once, and the
    note says what loosens. HEAD's blob is read by one `git cat-file --batch` answering on a
    socket, which git cannot open again through /proc: with `/dev/stdout` included it stops at
    once, HEAD cannot be read (logged), and the buffer is checked without a note, never
    waited on. (The file on disk is edited since HEAD: HEAD's blob must be read, not taken
    from the disk's bytes by their blob id.)"""
    repository = new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT})
    (repository / "prod.safety_profile.yaml").write_text(STRICT + "# edited\n", encoding="utf-8")
    git(repository, "config", "include.path", included)
    await start(client, repository)
    uri = open_uri(client, (repository / "prod.safety_profile.yaml").as_uri(), LOOSE)
    shown_now = await asyncio.wait_for(shown(client, uri), timeout=30)
    if included == "/dev/stdout":
        assert shown_now == []  # the buffer is valid; HEAD unreadable: no note
        return
    [note] = shown_now
    assert note.message == "loosens: require_sandbox: true → false"


def test_a_git_that_never_answers_is_waited_for_once(tmp_path: Path) -> None:
    """`include.path` naming a FIFO (a repository unpacked from an archive may hold one): git
    waits for a writer until it is stopped. The server stopped it after 120 s, three times for
    each file opened, answering nothing meanwhile: now after 15 s, once for the repository,
    said in a warning; the repository's files are checked as files in no repository, and
    files elsewhere are checked at once."""
    repository = tmp_path / "repository"
    repository.mkdir()
    new_repository(
        repository, {"prod.safety_profile.yaml": STRICT, "sub/b.safety_profile.yaml": STRICT}
    )
    os.mkfifo(repository / ".git" / "never-written")
    git(repository, "config", "include.path", "never-written")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    client = LanguageServerClient(SERVER, {}, cwd=tmp_path, timeout=40)
    try:
        client.initialize(tmp_path)
        started = time.monotonic()
        for path in (
            repository / "prod.safety_profile.yaml",
            elsewhere / "x.safety_profile.yaml",
            repository / "sub" / "b.safety_profile.yaml",
        ):
            client.open_document(path.as_uri(), "require_sandbox: yes\n")
            assert [d["code"] for d in client.diagnostics(path.as_uri())] == [
                "yaml.ambiguous-scalar"
            ]
        assert time.monotonic() - started < 2 * GIT_TIME_LIMIT
        [warning] = [
            n["params"]["message"]
            for n in client.notifications
            if n["method"] == "window/showMessage"
        ]
        assert warning.startswith(
            f"safety-profile: git did not answer in {str(repository)!r} within 15 s"
        )
    finally:
        client.close()


# The server started with a terminal of its own, as a program started from a shell has: in a
# session of its own whose controlling terminal is a new pseudo-terminal nobody types into.
WITH_A_TERMINAL = [
    sys.executable,
    "-c",
    "import os, pty, sys\n"
    "master, terminal = pty.openpty()\n"
    "os.set_inheritable(master, True)\n"
    "os.setsid()\n"
    "os.close(os.open(os.ttyname(terminal), os.O_RDWR))\n"
    "os.execv(sys.argv[1], sys.argv[1:])\n",
    *SERVER,
]


def test_git_never_waits_for_the_terminal(tmp_path: Path) -> None:
    """`include.path=/dev/tty`: git read its configuration from the server's terminal until
    someone typed (or the timeout). Git runs without a terminal: it fails at once (no HEAD to
    compare with), and the document gets its diagnostics."""
    repository = new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT})
    git(repository, "config", "include.path", "/dev/tty")
    client = LanguageServerClient(WITH_A_TERMINAL, {}, cwd=repository, timeout=30)
    try:
        client.initialize(repository)
        uri = (repository / "prod.safety_profile.yaml").as_uri()
        client.open_document(uri, "require_sandbox: yes\n")
        assert [d["code"] for d in client.diagnostics(uri)] == ["yaml.ambiguous-scalar"]
    finally:
        client.close()


def test_a_git_the_folder_holds_never_runs(tmp_path: Path) -> None:
    """The editor starts the server in the folder it opened, with `.` in PATH: git is looked
    up in PATH's absolute folders only, never found in the repository."""
    traces = tmp_path / "traces"
    traces.mkdir()
    repository = tmp_path / "repository"
    repository.mkdir()
    hostile_repository(repository, traces)
    (repository / "git").write_text(f"#!/bin/sh\n{trace(traces, 'fake-git')}\nexit 1\n")
    (repository / "git").chmod(0o755)
    environment = {**os.environ, "PATH": f".:{os.environ['PATH']}"}
    client = LanguageServerClient(SERVER, {}, cwd=repository, env=environment)
    try:
        client.initialize(repository)
        uri = (repository / "prod.safety_profile.yaml").as_uri()
        client.open_document(uri, STRICT)
        assert "git.attribute" in [d["code"] for d in client.diagnostics(uri)]
    finally:
        client.close()
    assert traces_left(traces) == []


# -- URIs that name no file ------------------------------------------------------------------------
def shown_warnings(client: LanguageClient) -> list[str]:
    return [m.message for m in client.messages if m.type == lsp.MessageType.Warning]


@in_the_files_loop
@pytest.mark.parametrize(
    ("uri", "reason"),
    [
        ("file:///tmp/a%00b/prod.safety_profile.yaml", "holds a NUL byte (%00)"),
        ("file:///tmp/x/../prod.safety_profile.yaml", "through '.' or '..'"),
        ("file:///tmp/./prod.safety_profile.yaml", "through '.' or '..'"),
        ("file://server/share/prod.safety_profile.yaml", "on another host ('server')"),
        ("file:///tmp/prod.safety_profile.yaml?x=1", "a query or a fragment"),
    ],
)
async def test_a_file_uri_that_names_no_file_is_refused_in_a_warning(
    editor: LanguageClient, tmp_path: Path, uri: str, reason: str
) -> None:
    open_uri(editor, uri, "max_retries_per_step: yes\n")
    after = open_uri(editor, (tmp_path / "b.safety_profile.yaml").as_uri(), "a: 1\n")
    assert [d.code for d in await shown(editor, after)] == ["schema.extra-forbidden"]
    [warning] = shown_warnings(editor)
    assert warning == f"safety-profile: {uri!r} is not checked: it {reason}" or reason in warning
    assert uri not in editor.diagnostics


@in_the_files_loop
@pytest.mark.parametrize(
    "uri",
    [
        "untitled:Untitled-1",
        "git:/tmp/prod.safety_profile.yaml?%7B%22ref%22%3A%22HEAD%22%7D",
        "vscode-vfs://github/org/repo/prod.safety_profile.yaml",
        "file:///tmp/%00.yaml",
        "no scheme at all",
        "file://[::1",
    ],
)
async def test_another_uri_is_refused_in_the_log(
    editor: LanguageClient, tmp_path: Path, uri: str
) -> None:
    open_uri(editor, uri, "max_retries_per_step: yes\n")
    after = open_uri(editor, (tmp_path / "b.safety_profile.yaml").as_uri(), "a: 1\n")
    assert [d.code for d in await shown(editor, after)] == ["schema.extra-forbidden"]
    assert shown_warnings(editor) == []
    [logged] = [m.message for m in editor.log_messages if uri in m.message or "is not" in m.message]
    assert logged.startswith(f"safety-profile: {uri!r} is not checked: it ")


@in_the_files_loop
async def test_a_name_that_is_not_utf8_is_checked_as_check_checks_it(
    editor: LanguageClient, tmp_path: Path
) -> None:
    """`caf%E9` is the name's own bytes: the file is read (its Latin-1 bytes are what the
    editor shows decoded, `yaml.encoding`), as `check` reads it."""
    name = b"caf\xe9.safety_profile.yaml"
    text = "allowed_skill_categories: [caf\xe9]\n"
    with open(os.path.join(os.fsencode(tmp_path), name), "wb") as stream:
        stream.write(text.encode("latin-1"))
    uri = tmp_path.as_uri() + "/caf%E9.safety_profile.yaml"
    diagnostics = await shown(editor, open_uri(editor, uri, text))
    assert placed(diagnostics) == check(tmp_path, os.fsdecode(name))
    assert [d.code for d in diagnostics] == ["yaml.encoding"]


# -- kinds by the path in the repository ----------------------------------------------------------
@in_the_files_loop
async def test_an_action_is_an_action_with_the_editor_opened_in_its_folder(
    client: LanguageClient, tmp_path: Path
) -> None:
    repository = new_repository(tmp_path, {"actions/deploy.yaml": INVALID_ACTION})
    await start(client, repository / "actions")
    uri = open_uri(client, (repository / "actions" / "deploy.yaml").as_uri(), INVALID_ACTION)
    diagnostics = await shown(client, uri)
    assert placed(diagnostics) == check(repository, "--kind", "action", "actions/deploy.yaml")
    assert [d.code for d in diagnostics] == ["yaml.ambiguous-scalar"]


@in_the_files_loop
async def test_a_file_in_a_folder_that_is_not_actions_in_the_repository_is_no_action(
    client: LanguageClient, tmp_path: Path
) -> None:
    """Below a repository inside a folder called `actions`, what matters is the path in the
    repository: `deploy/config.yaml` is not an action, wherever the repository sits."""
    (tmp_path / "actions").mkdir()
    repository = new_repository(tmp_path / "actions", {"deploy/config.yaml": "a: 1\n"})
    await start(client, repository)
    open_uri(client, (repository / "deploy" / "config.yaml").as_uri(), "a: 1\n")
    checked = open_uri(client, (repository / "x.safety_profile.yaml").as_uri(), "a: 1\n")
    assert [d.code for d in await shown(client, checked)] == ["schema.extra-forbidden"]
    assert (repository / "deploy" / "config.yaml").as_uri() not in client.diagnostics


@in_the_files_loop
async def test_a_folder_that_links_to_another_keeps_its_name(
    client: LanguageClient, tmp_path: Path
) -> None:
    """`actions` a link to `stuff/`: `actions/deploy.yaml` is an action, as `diff --git` names
    it (through the link), and is compared with HEAD through the link too."""
    repository = new_repository(tmp_path, {"stuff/deploy.yaml": ACTION})
    os.symlink("stuff", repository / "actions")
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "actions is a link")
    await start(client, repository / "actions")
    uri = open_uri(client, (repository / "actions" / "deploy.yaml").as_uri(), ACTION)
    assert await shown(client, uri) == []
    before = awaiting(client, uri)
    change_document(client, uri, ACTION.replace("true", "false"), 2)
    [note] = await shown(client, uri, before)
    assert note.code == "loosens.require_sandbox"
    assert note.message == "loosens: safety_profile.require_sandbox: true → false"


# -- profiles that are links ----------------------------------------------------------------------
@in_the_files_loop
async def test_editing_a_profile_that_is_a_link_notes_what_loosens_against_head(
    client: LanguageClient, tmp_path: Path
) -> None:
    repository = new_repository(tmp_path, {"data/prod.yaml": STRICT})
    os.symlink("data/prod.yaml", repository / "prod.safety_profile.yaml")
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "the profile is a link")
    await start(client, repository)
    uri = open_uri(client, (repository / "prod.safety_profile.yaml").as_uri(), STRICT)
    assert await shown(client, uri) == []
    before = awaiting(client, uri)
    change_document(client, uri, LOOSE, 2)
    [note] = await shown(client, uri, before)
    assert (note.code, note.message) == (
        "loosens.require_sandbox",
        "loosens: require_sandbox: true → false",
    )
    assert note.severity == lsp.DiagnosticSeverity.Information


@in_the_files_loop
async def test_a_profile_that_links_out_of_the_repository_is_refused_unread(
    client: LanguageClient, tmp_path: Path
) -> None:
    """The file outside is never read: its bytes (UTF-16, which the buffer would show as the same
    text) would otherwise be reported as `yaml.encoding`."""
    (tmp_path / "outside.yaml").write_bytes("max_retries_per_step: 3\n".encode("utf-16"))
    (tmp_path / "repository").mkdir()
    repository = new_repository(tmp_path / "repository", {"README.md": "x\n"})
    os.symlink("../outside.yaml", repository / "prod.safety_profile.yaml")
    await start(client, repository)
    uri = (repository / "prod.safety_profile.yaml").as_uri()
    [refused] = await shown(client, open_uri(client, uri, "max_retries_per_step: 3\n"))
    assert refused.code == "git.link"
    assert refused.message == (
        "'prod.safety_profile.yaml' leads outside the repository; a profile that is a link must "
        "lead to a file in the repository"
    )
    write_files(repository, {"README.md": "y\n"})


# -- quick fixes that would loosen are not offered ---------------------------------------------
@in_the_files_loop
@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # Renamed, each keeps its value and turns the author's intent around.
        ("disallow_unsafe_tools: true\n", "schema.extra-forbidden"),
        ("min_retries_per_step: 50\n", "schema.extra-forbidden"),
        # Opposites no list names: a word the field lacks.
        ("ban_unsafe_tools: true\n", "schema.extra-forbidden"),
        ("ignorecheckpoints: false\n", "schema.extra-forbidden"),
        # `min` in fullwidth letters, which were read as no word at all.
        ("\uff4d\uff49\uff4e_retries_per_step: 50\n", "schema.extra-forbidden"),
        # 10 to editors, 8 to PyYAML: a fix would pick one, maybe the looser.
        ("max_retries_per_step: 010\n", "yaml.ambiguous-scalar"),
        # `true` is no category.
        ("allowed_skill_categories: [code, on]\n", None),
    ],
)
async def test_no_quick_fix_that_would_loosen_or_break_is_offered(
    editor: LanguageClient, tmp_path: Path, text: str, rule: str | None
) -> None:
    uri = open_uri(editor, (tmp_path / "prod.safety_profile.yaml").as_uri(), text)
    diagnostics = await shown(editor, uri)
    assert [d.code for d in diagnostics] == [rule or "yaml.ambiguous-scalar"]
    actions = await editor.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            diagnostics[0].range,
            lsp.CodeActionContext(diagnostics=diagnostics),
        )
    )
    titles = [action.title for action in actions or []]
    assert titles == ([] if rule else ['write "on"'])
    if rule == "schema.extra-forbidden":
        assert "did you mean" not in diagnostics[0].message


@in_the_files_loop
async def test_a_code_action_at_any_column_of_a_long_line_is_answered(
    editor: LanguageClient, tmp_path: Path
) -> None:
    """The editor names the column; the server finds it in one pass over the line."""
    text = "max_retries_per_step: 010  # " + "x" * 800_000 + "\n"
    uri = open_uri(editor, (tmp_path / "long.safety_profile.yaml").as_uri(), text)
    [diagnostic] = await shown(editor, uri)
    far = lsp.Range(lsp.Position(0, 800_000), lsp.Position(0, 800_001))
    asked = lsp.Diagnostic(far, "x", code=diagnostic.code, source=diagnostic.source)
    actions = await asyncio.wait_for(
        editor.text_document_code_action_async(
            lsp.CodeActionParams(
                lsp.TextDocumentIdentifier(uri), far, lsp.CodeActionContext(diagnostics=[asked])
            )
        ),
        timeout=20,
    )
    assert not actions  # nothing there to fix


@in_the_files_loop
@pytest.mark.parametrize(
    ("text", "line"),
    [
        # In a flow list, after a 200,000-letter word and a space: the word being typed is
        # found in one pass (every split of the line was tried: minutes).
        ("allowed_skill_categories: [" + "x" * 200_000 + " \n", 0),
        # Below an item with 200,000 spaces in it, likewise.
        ("allowed_skill_categories:\n  - x" + " " * 200_000 + "y\n  - \n", 2),
    ],
    ids=["flow", "block"],
)
async def test_completion_on_a_long_line_is_answered(
    editor: LanguageClient, tmp_path: Path, text: str, line: int
) -> None:
    """A profile from anywhere may hold such a line; completion comes as you type."""
    uri = open_uri(editor, (tmp_path / "long.safety_profile.yaml").as_uri(), text)
    await shown(editor, uri)
    position = lsp.Position(line, len(text.split("\n")[line]))
    result = await asyncio.wait_for(
        editor.text_document_completion_async(
            lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), position)
        ),
        timeout=20,
    )
    assert isinstance(result, lsp.CompletionList)


@in_the_files_loop
async def test_a_change_that_cannot_be_applied_is_logged_and_the_server_goes_on(
    editor: LanguageClient, tmp_path: Path
) -> None:
    never_opened = (tmp_path / "never.safety_profile.yaml").as_uri()
    change_document(editor, never_opened, "a: 1\n", 2)
    after = open_uri(editor, (tmp_path / "b.safety_profile.yaml").as_uri(), "a: 1\n")
    assert [d.code for d in await shown(editor, after)] == ["schema.extra-forbidden"]
    [logged] = [m.message for m in editor.log_messages if "cannot be applied" in m.message]
    assert logged.startswith(
        f"safety-profile: {never_opened!r}: the editor's textDocument/didChange"
    )
    assert shown_warnings(editor) == []


@in_the_files_loop
async def test_outside_a_repository_the_kind_does_not_depend_on_the_folder_opened(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "actions").mkdir()
    (tmp_path / "actions" / "deploy.yaml").write_text(INVALID_ACTION)
    await start(client, tmp_path / "actions")
    uri = open_uri(client, (tmp_path / "actions" / "deploy.yaml").as_uri(), INVALID_ACTION)
    assert [d.code for d in await shown(client, uri)] == ["yaml.ambiguous-scalar"]
