"""One real yaml-language-server session, opened the way an editor opens files.

Shared by the editor tests and the readers-agree test: the server (pinned in package.json,
installed by `npm ci`) with the VS Code settings from editors/vscode/settings.json, refusing every
http(s) schema it asks for, so what works here works offline.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import REPO_ROOT, missing_tool
from lsp_client import LanguageServerClient

SERVER_SCRIPT = REPO_ROOT / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
VSCODE_SETTINGS = REPO_ROOT / "editors" / "vscode" / "settings.json"


# yaml-language-server 2.0.0 declares Node.js >= 22.13, yet every test here passes on 20.20.2
# (this machine's and CI's); the README states this minimum.
NODE_MINIMUM = 20


def node_major_version(node: str) -> int:
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    return int(version.stdout.strip().lstrip("v").split(".")[0])


def server_command() -> list[str]:
    node = shutil.which("node")
    if node is None:
        missing = "node is not on PATH"
    elif node_major_version(node) < NODE_MINIMUM:
        missing = f"the editor tests need Node.js {NODE_MINIMUM} or later"
    elif not SERVER_SCRIPT.exists():
        missing = "yaml-language-server is not installed: run `npm ci` in the repository root"
    else:
        return [node, str(SERVER_SCRIPT), "--stdio"]
    return missing_tool(missing)


class Editor:
    """The server plus fresh document names, as an editor would open files."""

    def __init__(self, client: LanguageServerClient, folder: Path) -> None:
        self.client = client
        self.folder = folder
        self._numbers = itertools.count()

    def open(self, text: str, name: str = "document{}.yaml") -> str:
        """Open `text` under a new name (`{}` takes a number); returns its URI."""
        uri = (self.folder / name.format(next(self._numbers))).as_uri()
        self.client.open_document(uri, text)
        return uri


@contextmanager
def editor_session(schema_store_url: str | None = None) -> Iterator[Editor]:
    """With `schema_store_url`, the server reads that SchemaStore catalog (a local server's)
    instead of the VS Code settings' file names."""
    vscode = json.loads(VSCODE_SETTINGS.read_text(encoding="utf-8"))
    settings = {
        "yaml": {
            "validate": True,
            "completion": True,
            "hover": True,
            "schemas": vscode["yaml.schemas"],  # relative keys resolve against the workspace
            "schemaStore": {"enable": False},  # no network: only our schema is in play
        }
    }
    if schema_store_url is not None:
        settings["yaml"].update(schemas={}, schemaStore={"enable": True, "url": schema_store_url})
    client = LanguageServerClient(server_command(), settings, cwd=REPO_ROOT)
    try:
        client.initialize(REPO_ROOT)
        client.route_remote_schemas_through_editor()  # and refuse them: offline, provably
        # In-memory documents, one folder below the root (as the README's modeline expects);
        # nothing is written there.
        yield Editor(client, REPO_ROOT / "editor-documents")
    finally:
        client.close()
