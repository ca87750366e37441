"""Completion and hover from `safety-profile lsp`, end to end: the real server over stdio,
driven by pytest-lsp with the recorded capabilities of Neovim 0.7 and 0.11, VS Code and Emacs
(with and without snippets; UTF-16, UTF-8 and UTF-32 positions).

What the server says is compared with the schema file and the rule catalogue, read here: the
words must be theirs."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import pytest_lsp
from conftest import PROFILE_SCHEMA_PATH, REPO_ROOT, SCHEMA_DIR
from lsp_client import LanguageServerClient
from lsp_expectations import units
from lsp_sessions import Servers, servers_fixture, tidy
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient
from test_language_server import SERVER, open_document, start

from cleveragents.reading.rules import STRICTER
from cleveragents.safety_toolkit.lsp.completion import workspace_categories

PROFILE = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
ACTION = json.loads((SCHEMA_DIR / "action.schema.json").read_text(encoding="utf-8"))
FIELDS = list(PROFILE["properties"])
ENCODINGS = {
    "neovim@0.7.0": "utf-16",
    "neovim@0.11.0": "utf-8",
    "visual-studio-code@1.65.2": "utf-16",
    "emacs@29.1": "utf-32",
}
SESSION: dict[int, str] = {}  # by id(client): the client's recorded capabilities


# One server for each editor, shared by the file's tests (tests/lsp_sessions.py).
servers = servers_fixture(SERVER)
in_the_files_loop = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", params=list(ENCODINGS))
async def editor(request: pytest.FixtureRequest, servers: Servers) -> AsyncIterator[LanguageClient]:
    client = await servers.session(request.param, REPO_ROOT)
    SESSION[id(client)] = request.param
    yield client
    await tidy(client)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), loop_scope="module")
async def uninitialized(lsp_client: LanguageClient) -> AsyncIterator[None]:
    yield
    await lsp_client.shutdown_session()


def snippets(client: LanguageClient) -> bool:
    capabilities = client.capabilities
    assert capabilities is not None
    assert capabilities.text_document is not None
    completion = capabilities.text_document.completion
    assert completion is not None
    assert completion.completion_item is not None
    return bool(completion.completion_item.snippet_support)


async def complete(client: LanguageClient, uri: str, line: int, character: int) -> list[Any]:
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
    )
    assert isinstance(result, lsp.CompletionList)
    return list(result.items)


async def hover_text(client: LanguageClient, uri: str, line: int, character: int) -> str:
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
    )
    if result is None:
        return ""
    assert isinstance(result.contents, lsp.MarkupContent)
    return result.contents.value


def documentation(item: lsp.CompletionItem) -> str:
    docs = item.documentation
    return docs.value if isinstance(docs, lsp.MarkupContent) else str(docs)


@in_the_files_loop
async def test_after_a_new_line_every_field_not_written_is_offered_with_its_schema_words(
    editor: LanguageClient, tmp_path: Path
) -> None:
    text = "require_sandbox: true\nmax_total_cost: 10\n\n"
    uri = open_document(editor, tmp_path / "team.safety_profile.yaml", text)
    items = await complete(editor, uri, 2, 0)
    wanted = [name for name in FIELDS if name not in ("require_sandbox", "max_total_cost")]
    assert [item.label for item in items] == wanted
    for item in items:
        schema = PROFILE["properties"][item.label]
        assert item.kind == lsp.CompletionItemKind.Property
        assert schema["title"] in item.detail
        assert schema["description"] in documentation(item)
        default = json.dumps(schema["default"])
        assert f"Default: {default}" in documentation(item)
        assert f"Stricter: {STRICTER[item.label]}" in documentation(item)
        assert item.text_edit is not None
        assert isinstance(item.text_edit, lsp.TextEdit)
        insert = item.text_edit.new_text
        if snippets(editor):
            assert insert == f"{item.label}: ${{1:{default}}}"
            assert item.insert_text_format == lsp.InsertTextFormat.Snippet
        else:
            assert insert == f"{item.label}: "
        assert item.text_edit.range == lsp.Range(lsp.Position(2, 0), lsp.Position(2, 0))


@in_the_files_loop
async def test_a_partly_typed_key_is_replaced_and_a_written_key_never_offered(
    editor: LanguageClient, tmp_path: Path
) -> None:
    text = "require_checkpoints: true\nrequire_s\n"
    uri = open_document(editor, tmp_path / "safety_profile.yaml", text)
    [item] = await complete(editor, uri, 1, len("require_s"))
    assert item.label == "require_sandbox"
    assert isinstance(item.text_edit, lsp.TextEdit)
    assert item.text_edit.range == lsp.Range(lsp.Position(1, 0), lsp.Position(1, 9))
    # A key the schema forbids is never offered, whatever is typed.
    assert await complete(editor, uri, 1, 0) != []
    nothing = open_document(editor, tmp_path / "x.safety_profile.yaml", "require_z")
    assert await complete(editor, nothing, 0, 9) == []


@in_the_files_loop
@pytest.mark.parametrize(
    ("line", "labels", "details"),
    [
        ("require_sandbox: ", ["true", "false"], ["the default; stricter", "looser"]),
        ("allow_unsafe_tools: ", ["true", "false"], ["looser", "the default; stricter"]),
        ("max_cost_per_plan: ", ["null"], ["the default; the loosest"]),
        ("max_total_cost: n", ["null"], ["the default; the loosest"]),
        ("max_retries_per_step: ", ["3"], ["the default"]),
    ],
)
async def test_values_are_offered_with_which_is_stricter(
    editor: LanguageClient, tmp_path: Path, line: str, labels: list[str], details: list[str]
) -> None:
    uri = open_document(editor, tmp_path / "safety_profile.yaml", line + "\n")
    items = await complete(editor, uri, 0, len(line))
    assert [item.label for item in items] == labels
    assert [item.detail for item in items] == details


@in_the_files_loop
async def test_categories_used_in_the_workspace_are_offered_in_a_list(
    uninitialized: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "teams").mkdir()
    (tmp_path / "teams" / "a.safety_profile.yaml").write_text(
        "allowed_skill_categories: [code, test]\n"
    )
    (tmp_path / "actions").mkdir()
    (tmp_path / "actions" / "deploy.yaml").write_text(
        "name: x\nsafety_profile:\n  allowed_skill_categories:\n  - deploy\n"
    )
    (tmp_path / "other.yaml").write_text("allowed_skill_categories: [not-a-profile]\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "safety_profile.yaml").write_text(
        "allowed_skill_categories: [vendored]\n"
    )
    await start(uninitialized, "visual-studio-code@1.65.2", root=tmp_path)
    # An unsaved buffer's categories count too.
    open_document(
        uninitialized, tmp_path / "b.safety_profile.yaml", "allowed_skill_categories: [ops]\n"
    )
    flow = "allowed_skill_categories: [code, é, "
    uri = open_document(uninitialized, tmp_path / "c.safety_profile.yaml", flow + "\n")
    items = await complete(uninitialized, uri, 0, units(flow, "utf-16"))
    assert [item.label for item in items] == ["deploy", "ops", "test"]
    assert {item.kind for item in items} == {lsp.CompletionItemKind.Value}
    block = "name: y\nsafety_profile:\n  allowed_skill_categories:\n  - test\n  - d"
    action = open_document(uninitialized, tmp_path / "actions" / "new.yaml", block)
    [item] = await complete(uninitialized, action, 4, 5)
    assert item.label == "deploy"
    assert isinstance(item.text_edit, lsp.TextEdit)
    assert item.text_edit.range == lsp.Range(lsp.Position(4, 4), lsp.Position(4, 5))


@in_the_files_loop
async def test_an_action_is_offered_its_fields_and_its_profiles_below_safety_profile(
    editor: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "actions").mkdir()
    text = "name: x\ndefinition_of_done: y\nsafety_profile:\n  require_sandbox: true\n  \n"
    uri = open_document(editor, tmp_path / "actions" / "deploy.yaml", text)
    nested = await complete(editor, uri, 4, 2)
    assert [item.label for item in nested] == [f for f in FIELDS if f != "require_sandbox"]
    top = await complete(editor, uri, 5, 0)
    written = {"name", "definition_of_done", "safety_profile"}
    assert [item.label for item in top] == [f for f in ACTION["properties"] if f not in written]


@in_the_files_loop
async def test_hover_says_what_the_field_does_its_default_and_which_way_is_stricter(
    editor: LanguageClient, tmp_path: Path
) -> None:
    text = "require_sandbox: true\nmax_cost_per_plan: 5\n"
    uri = open_document(editor, tmp_path / "safety_profile.yaml", text)
    shown = await hover_text(editor, uri, 1, 3)
    schema = PROFILE["properties"]["max_cost_per_plan"]
    assert schema["description"] in shown
    assert "Default: null (no limit)" in shown
    assert f"Stricter: {STRICTER['max_cost_per_plan']}" in shown
    assert "Floor" not in shown  # no floor set
    on_value = await hover_text(editor, uri, 0, len("require_sandbox: t"))
    assert PROFILE["properties"]["require_sandbox"]["description"] in on_value
    assert await hover_text(editor, open_document(editor, tmp_path / "x.yaml", text), 0, 3) == ""


@in_the_files_loop
async def test_hover_shows_the_floors_value_and_values_below_it_are_marked(
    uninitialized: LanguageClient, tmp_path: Path
) -> None:
    from git_repos import new_repository

    repository = new_repository(
        tmp_path,
        {
            "pyproject.toml": '[tool.safety-profile]\nfloor = "floor.yaml"\n',
            "floor.yaml": "max_total_cost: 100.0\nrequire_human_approval: true\n",
            "teams/a.safety_profile.yaml": "max_total_cost: 50\n",
        },
    )
    await start(uninitialized, "visual-studio-code@1.65.2", root=repository)
    text = "max_total_cost: 50\nrequire_sandbox: true\nrequire_human_approval: "
    uri = open_document(uninitialized, repository / "teams" / "a.safety_profile.yaml", text)
    # The floor named as `check` names it: from the server's folder (this repository's).
    floor = os.path.relpath(repository / "floor.yaml", REPO_ROOT)
    shown = await hover_text(uninitialized, uri, 0, 1)
    assert f"Floor ({floor}): 100.0" in shown
    # A field the floor leaves out: its default is the floor.
    assert f"Floor ({floor}): true" in await hover_text(uninitialized, uri, 1, 1)
    items = await complete(uninitialized, uri, 2, len("require_human_approval: "))
    details = {item.label: item.detail for item in items}
    assert details == {
        "true": "stricter",
        "false": f"the default; looser; looser than the floor ({floor})",
    }


@in_the_files_loop
async def test_the_workspaces_categories_are_found_with_one_git_per_repository(
    tmp_path: Path,
) -> None:
    """300 profiles, each in a folder of its own, in one repository: their categories were found
    with a git for each folder (a second a hundred: the server answered nothing meanwhile, and
    again ten seconds later); now with one for the repository, and none for folders in no
    repository. Git's own trace counts the gits (`GIT_TRACE2_EVENT`, inherited)."""
    repository = tmp_path / "repository"
    for number in range(300):
        folder = repository / f"team{number:03}"
        folder.mkdir(parents=True)
        (folder / "safety_profile.yaml").write_text(f"allowed_skill_categories: [c{number:03}]\n")
    outside = tmp_path / "outside"
    for number in range(50):
        (outside / f"o{number}").mkdir(parents=True)
        (outside / f"o{number}" / "safety_profile.yaml").write_text(
            "allowed_skill_categories: []\n"
        )
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    trace = tmp_path / "trace.json"
    environment = {**os.environ, "GIT_TRACE2_EVENT": str(trace)}
    client = LanguageServerClient(SERVER, {}, cwd=tmp_path, env=environment)
    try:
        client.initialize(tmp_path)
        flow = "allowed_skill_categories: ["
        uri = (repository / "new.safety_profile.yaml").as_uri()
        client.open_document(uri, flow + "\n")
        client.diagnostics(uri)
        before = gits_started(trace)
        items = client.completion(uri, 0, len(flow))
        assert [item["label"] for item in items] == [f"c{number:03}" for number in range(300)]
        assert gits_started(trace) - before <= 2
    finally:
        client.close()


def gits_started(trace: Path) -> int:
    if not trace.exists():
        return 0
    events = [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]
    return sum(1 for event in events if event.get("event") == "start")


def test_the_walk_for_categories_stops_after_so_many_files_and_folders(tmp_path: Path) -> None:
    """A folder opened in an editor may hold millions of files (a home folder, or an archive
    made to): the walk for categories, on the server's only thread, looks at so many."""
    for number in range(20):
        (tmp_path / f"f{number:02}").mkdir()
        (tmp_path / f"f{number:02}" / "safety_profile.yaml").write_text(
            f"allowed_skill_categories: [c{number:02}]\n"
        )
    # The top folder's 20 names, then five folders' one file each.
    found = workspace_categories(str(tmp_path), lambda path: "profile", max_entries=25)
    assert found == {f"c{number:02}" for number in range(5)}
    assert workspace_categories(str(tmp_path), lambda path: "profile") == {
        f"c{number:02}" for number in range(20)
    }
