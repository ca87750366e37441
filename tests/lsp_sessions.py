"""Language servers a test file's tests share: one real `safety-profile lsp` for each editor's
recorded capabilities (and workspace folder), started when a test first asks for it and shut down
at the end of the file, instead of one server per test (each start costs about half a CPU-second,
most of it importing lsprotocol).

Sharing is safe because each test leaves the server as it found it: the documents the test
opened (through `open_text`) are closed after it, and what the client recorded (diagnostics,
messages, log lines) is cleared, so a test sees only what its own documents caused. Tests open
documents at URIs of their own (in their `tmp_path`, or files no other test of the file opens).
A test that needs a server of its own (other initialization options, a workspace it creates, a
server it stops or breaks) starts one as before.

The tests of a file that shares run in the file's event loop:
`@pytest.mark.asyncio(loop_scope="module")`, as the sharing fixture does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest_asyncio
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

_OPENED: dict[int, list[str]] = {}  # by id(client): the URIs opened since the last tidy-up


def open_text(client: LanguageClient, uri: str, text: str, version: int = 1) -> str:
    """Open `text` at `uri` as the editor does; the document is closed after the test."""
    _OPENED.setdefault(id(client), []).append(uri)
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "yaml", version, text))
    )
    return uri


def close_text(client: LanguageClient, uri: str) -> None:
    """Close the document at `uri` as the editor does."""
    opened = _OPENED.get(id(client), [])
    while uri in opened:
        opened.remove(uri)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


async def tidy(client: LanguageClient) -> None:
    """Close the documents opened since the last tidy-up, wait until the server has done so (a
    request sent after the closes is answered after them, and so after the diagnostics they
    clear), then forget what the client recorded."""
    for uri in dict.fromkeys(_OPENED.get(id(client), [])):
        close_text(client, uri)
    nowhere = lsp.TextDocumentIdentifier("file:///nowhere/after-a-test.safety_profile.yaml")
    await asyncio.wait_for(
        client.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(nowhere)), timeout=20
    )
    client.diagnostics.clear()
    client.messages.clear()
    client.log_messages.clear()
    client.shown_documents.clear()


class Servers:
    """Servers started on demand, one for each set of initialization parameters."""

    def __init__(self, command: Sequence[str]) -> None:
        self._config = ClientServerConfig(server_command=list(command))
        self._clients: dict[tuple[str, str, str], LanguageClient] = {}
        self.results: dict[int, lsp.InitializeResult] = {}  # by id(client)

    async def session(self, spec: str, root: Path, **options: Any) -> LanguageClient:
        """The server initialized by an editor with `spec`'s recorded capabilities, opened in
        `root`, with `options` (and `debounce_ms: 0`) as its initialization options."""
        options = {"debounce_ms": 0, **options}
        key = (spec, root.as_uri(), repr(sorted(options.items())))
        if key not in self._clients:
            client = await self._config.start()
            assert isinstance(client, LanguageClient)
            params = lsp.InitializeParams(
                capabilities=client_capabilities(spec),
                root_uri=root.as_uri(),
                initialization_options=options,
            )
            self.results[id(client)] = await client.initialize_session(params)
            self._clients[key] = client
        return self._clients[key]

    async def stop(self) -> None:
        for client in self._clients.values():
            await client.shutdown_session()
            await client.stop()
        self._clients.clear()


def servers_fixture(command: Sequence[str]) -> Any:
    """A module-scoped fixture: the file's shared `Servers`."""

    @pytest_asyncio.fixture(scope="module", loop_scope="module")
    async def servers() -> AsyncIterator[Servers]:
        started = Servers(command)
        yield started
        await started.stop()

    return servers
