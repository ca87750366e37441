"""Where editors find the schema, in the real yaml-language-server: the modeline `init` writes
(the published URL in a fresh folder, a path relative to the file in a repository holding the
schema), and, with no modeline at all, the SchemaStore catalog entry in editors/, which gives
the schema to the files the pre-commit hook checks, and no others.

This editor serves the schema's published URLs (its `$id`, which the catalog entry names, and
the default branch's, which `init` names until a release) from the installed file, as if the
release were published, and a local HTTP server serves a SchemaStore catalog holding only our
entry; any other http(s) schema is refused, so nothing comes from the network.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO_ROOT
from git_repos import new_repository, write_files
from lsp_client import REMOTE_CONTENT_REQUEST, remote_uri
from programs import run_program
from yaml_language_server import Editor, editor_session

from cleveragents.safety_toolkit.core.starter import published_schema_url

CATALOG_ENTRY: dict[str, Any] = json.loads(
    (REPO_ROOT / "editors" / "schemastore-catalog-entry.json").read_text(encoding="utf-8")
)
HOOKS = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
(HOOK_FILES,) = [hook["files"] for hook in HOOKS if hook["id"] == "safety-profile"]
TOO_MANY_RETRIES = "Value is above the maximum of 100."


def installed_schema() -> tuple[str, str]:
    """The installed profile schema's `$id` and text, as `safety-profile schema` prints it."""
    text = run_program("safety-profile", "schema").stdout
    return json.loads(text)["$id"], text


@pytest.fixture(scope="module")
def catalog_url() -> Iterator[str]:
    """A local SchemaStore: its catalog lists only our entry, exactly as committed."""
    catalog = json.dumps({"schemas": [CATALOG_ENTRY]}).encode()

    class Catalog(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(catalog)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Catalog)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/json/catalog.json"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def editor(catalog_url: str) -> Iterator[Editor]:
    with editor_session(schema_store_url=catalog_url) as session:
        schema_id, text = installed_schema()
        session.client.remote_content[schema_id] = text  # "published"
        session.client.remote_content[published_schema_url(schema_id)] = text
        yield session


def open_written(editor: Editor, path: Path, text: str) -> str:
    """Open a file that is on disk, under its own URI (a relative modeline resolves from it)."""
    uri = path.as_uri()
    editor.client.open_document(uri, text)
    return uri


def init_with_too_many_retries(folder: Path, name: str) -> tuple[Path, str]:
    """`safety-profile init NAME` in `folder`, then one value above its maximum."""
    result = run_program("safety-profile", "init", name, cwd=folder)
    assert result.returncode == 0, result.stderr
    written = folder / name
    text = written.read_text(encoding="utf-8")
    assert "\nmax_retries_per_step: 3\n" in text
    return written, text.replace("\nmax_retries_per_step: 3\n", "\nmax_retries_per_step: 500\n")


def test_in_a_fresh_folder_init_points_at_the_published_schema(
    editor: Editor, tmp_path: Path
) -> None:
    # Not named like a profile: the modeline, not the catalog, gives the schema.
    written, text = init_with_too_many_retries(tmp_path, "starter.yaml")
    schema_id = published_schema_url(installed_schema()[0])
    assert text.splitlines()[0] == f"# yaml-language-server: $schema={schema_id}"
    (diagnostic,) = editor.client.diagnostics(open_written(editor, written, text))
    assert diagnostic["message"] == TOO_MANY_RETRIES
    line = text.splitlines().index("max_retries_per_step: 500")
    assert diagnostic["range"]["start"] == {"line": line, "character": 22}
    asked = [
        remote_uri(request) for request in editor.client.server_requests(REMOTE_CONTENT_REQUEST)
    ]
    assert asked == [schema_id]


def test_in_a_repository_holding_the_schema_init_points_at_it_relative_to_the_file(
    editor: Editor, tmp_path: Path
) -> None:
    new_repository(tmp_path, {"README.md": "a project\n"})
    # The repository's copy says 10 where the published schema says 100: the diagnostic shows
    # which one the editor read.
    _, text = installed_schema()
    copy = json.loads(text)
    copy["properties"]["max_retries_per_step"]["maximum"] = 10
    write_files(tmp_path, {"vendor/schemas/safety_profile.schema.json": json.dumps(copy)})
    (tmp_path / "config").mkdir()
    written, text = init_with_too_many_retries(tmp_path / "config", "starter.yaml")
    modeline = "# yaml-language-server: $schema=../vendor/schemas/safety_profile.schema.json"
    assert text.splitlines()[0] == modeline
    (diagnostic,) = editor.client.diagnostics(open_written(editor, written, text))
    assert diagnostic["message"] == "Value is above the maximum of 10."


@pytest.mark.parametrize(
    "name",
    [
        "prod{}.safety_profile.yaml",
        "Team{}.SAFETY-PROFILE.yml",
        "config/deep/ci-safety-profile_v{}.YAML",
        ".hidden{}.safety_profile.yaml",
        "profile{}.yaml",
        "safety_profile{}.json",
        "safetyprofile{}.yaml",
        "safety_profile{}.yaml.bak",
    ],
)
def test_without_a_modeline_the_catalog_entry_gives_the_schema_to_the_hook_s_files(
    editor: Editor, name: str
) -> None:
    uri = editor.open("bogus: 1\n", name=name)
    messages = [diagnostic["message"] for diagnostic in editor.client.diagnostics(uri)]
    checked_by_the_hook = re.search(HOOK_FILES, uri.rsplit("/editor-documents/", 1)[1])
    assert messages == (["Property bogus is not allowed."] if checked_by_the_hook else [])


# How yaml-language-server (FilePatternAssociation) matches a catalog entry's `fileMatch`: each
# pattern prefixed with `**/`, by its own picomatch, against the document's URI.
PICOMATCH = """
const server = require.resolve('yaml-language-server');
const picomatch = require(require.resolve('picomatch', {paths: [server]}));
const {patterns, uris} = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const isMatch = picomatch(patterns.map((p) => '**/' + p.replace(/^\\//, '')), {noglobstar: false});
process.stdout.write(JSON.stringify(uris.map((uri) => isMatch(uri))));
"""


def test_the_catalog_file_match_is_the_hook_s_pattern_over_many_names() -> None:
    """Every combination of folder, prefix, spelling, suffix and extension: the catalog entry
    matches a name exactly when the hook's pattern does (any case, `_` or `-`, .yaml or .yml,
    a name starting with a dot). Not covered: a file under a folder whose name starts with a
    dot, which picomatch never matches as yaml-language-server calls it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH")
    names = [
        "".join(parts)
        for parts in itertools.product(
            ["", "config/", "a/b/", "safety_profile.d/"],
            ["", "prod.", "ci-", "x_", ".", "a b "],
            [
                "safety_profile",
                "safety-profile",
                "Safety_Profile",
                "SAFETY-PROFILE",
                "sAfEtY_pRoFiLe",
                "safetyprofile",
                "safety profile",
                "safety__profile",
                "safety.profile",
            ],
            ["", "_v2", ".prod", "-x"],
            [".yaml", ".yml", ".YAML", ".YmL", ".json", ".yaml.bak", ".yamll", ".ya", ""],
        )
    ]
    request = {
        "patterns": CATALOG_ENTRY["fileMatch"],
        "uris": [f"file:///work/project/{n}" for n in names],
    }
    result = subprocess.run(
        [node, "-e", PICOMATCH],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
    )
    matched = dict(zip(names, json.loads(result.stdout), strict=True))
    differ = [name for name in names if matched[name] != bool(re.search(HOOK_FILES, name))]
    assert differ == []
    assert sum(matched.values()) > len(names) // 20  # the corpus holds many of the hook's names
