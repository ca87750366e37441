"""A name both kinds' patterns claim (`actions/empty_safety_profile.action.yaml`: under
`actions/`, and holding `safety_profile`) is settled by one rule, the same in every reader: a file
under an `actions/` folder named `*.action.yaml` is an action, whatever else its name holds
(docs/actions.md, "A name both kinds claim"). The real hooks (`pre-commit try-repo`), `check`,
the language server and the editors' YAML globs (yaml-language-server's own picomatch) agree;
where `check`'s hint still applies, it says what to rename in the repository.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from conftest import EXAMPLES, REPO_ROOT, console_script
from git_repos import committed_copy_of_this_repository, new_repository, try_repo_all_files
from lsprotocol import types as lsp
from programs import run_program
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from readme import code_blocks

from cleveragents.safety_toolkit.core.kinds import KINDS

ACTION_TEXT = (EXAMPLES / "actions" / "valid" / "empty_safety_profile.action.yaml").read_text(
    encoding="utf-8"
)
PROFILE_TEXT = (EXAMPLES / "valid" / "spec_example.safety_profile.yaml").read_text(encoding="utf-8")
BOTH = "actions/empty_safety_profile.action.yaml"


def kinds_of(name: str) -> list[str]:
    return [kind for kind, document in KINDS.items() if document.matches(name)]


@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        (BOTH, ["action"]),
        ("Actions/x/Deploy.Safety-Profile.ACTION.YML", ["action"]),
        ("src/actions/safety_profile.action.yml", ["action"]),
        ("actions/kept.safety_profile.yaml", ["profile"]),
        ("actions/safety_profile_action.yaml", ["profile"]),  # not `.action.yaml`
        ("config/x.safety_profile.action.yaml", ["profile"]),  # not under actions/
        ("actions/deploy.yaml", ["action"]),
        (".github/actions/p.safety_profile.action.yaml", []),  # nothing there is an action
    ],
)
def test_each_name_is_of_one_kind_at_most(name: str, kinds: list[str]) -> None:
    assert kinds_of(name) == kinds


def test_every_name_either_pattern_claims_is_of_exactly_one_kind_or_under_github() -> None:
    names = [
        "".join(parts)
        for parts in itertools.product(
            ["", "actions/", "a/Actions/b/", "config/", ".github/actions/"],
            ["deploy", "x.safety_profile", "X_Safety-Profile", "safety_profile_action"],
            ["", ".action", ".ACTION", ".actions"],
            [".yaml", ".yml", ".YAML"],
        )
    ]
    for name in names:
        claimed = [kind for kind, document in KINDS.items() if re.search(document.files, name)]
        if claimed and not name.startswith(".github/"):
            assert len(kinds_of(name)) == 1, name


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args, cwd=cwd)


def test_check_as_the_action_hook_passes_and_the_hints_name_the_rename(tmp_path: Path) -> None:
    files = {
        BOTH: ACTION_TEXT,
        "actions/deploy_safety_profile.yaml": ACTION_TEXT,  # a profile's name, an action's text
        "config/x.safety_profile.yaml": ACTION_TEXT,
        "actions/strict.yaml": PROFILE_TEXT,  # an action's name, a profile's text
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert run("check", "--kind", "action", BOTH, cwd=tmp_path).stdout == "ok: 1 file valid\n"
    hints = run(
        "check", "--kind", "profile", "actions/deploy_safety_profile.yaml",
        "config/x.safety_profile.yaml", BOTH, cwd=tmp_path,
    ).stdout  # fmt: skip
    assert [line for line in hints.splitlines() if ": hint: " in line] == [
        "actions/deploy_safety_profile.yaml: hint: this looks like an action, not a safety "
        "profile: rename it 'actions/deploy_safety_profile.action.yaml' (the hooks check that "
        "name as an action), or use --kind action [kind.hint]",
        # The name is an action's already: the hooks check it so; by hand, the flag.
        f"{BOTH}: hint: this looks like an action, not a safety profile: use --kind action "
        "[kind.hint]",
        "config/x.safety_profile.yaml: hint: this looks like an action, not a safety profile: "
        "rename it 'config/actions/x.safety_profile.action.yaml' (the hooks check that name as "
        "an action), or use --kind action [kind.hint]",
    ]
    # docs/actions.md shows this hint as it is.
    ((_, shown),) = [
        block
        for block in code_blocks("Actions and resolution", "A name both kinds claim")
        if block[0] == "text"
    ]
    assert shown.splitlines()[0] in hints.splitlines()
    hint = run("check", "--kind", "action", "actions/strict.yaml", cwd=tmp_path).stdout
    assert (
        "actions/strict.yaml: hint: this looks like a safety profile, not an action: rename it "
        "'actions/strict.safety_profile.yaml' (the hooks check that name as a safety profile), "
        "or use --kind profile [kind.hint]"
    ) in hint.splitlines()
    # Following the hint: the renamed files pass as the kind their new names give them.
    (tmp_path / "actions/deploy_safety_profile.yaml").rename(
        tmp_path / "actions/deploy_safety_profile.action.yaml"
    )
    (tmp_path / "actions/strict.yaml").rename(tmp_path / "actions/strict.safety_profile.yaml")
    renamed = ["actions/deploy_safety_profile.action.yaml", "actions/strict.safety_profile.yaml"]
    assert [kinds_of(name) for name in renamed] == [["action"], ["profile"]]
    for name in renamed:
        (kind,) = kinds_of(name)
        assert run("check", "--kind", kind, name, cwd=tmp_path).returncode == 0, name


def test_the_real_hooks_check_it_once_as_an_action(tmp_path: Path) -> None:
    """`pre-commit try-repo` (which takes committed files only) on a repository holding the
    project's own example action under actions/: the profile hook has nothing to check, the
    action hook passes it."""
    hook_repo = committed_copy_of_this_repository(tmp_path / "hook-repo")
    (tmp_path / "project").mkdir()
    project = new_repository(tmp_path / "project", {BOTH: ACTION_TEXT})
    # Every hook of the repository, in one run (one hook environment).
    status, output = try_repo_all_files(hook_repo, project, tmp_path / "home")
    assert status == 0, output
    profile_hook, action_hook = (
        line for line in output.splitlines() if line.startswith(("check Safety", "check Clever"))
    )
    assert profile_hook.startswith("check Safety Profiles"), output
    assert profile_hook.endswith("(no files to check)Skipped"), output
    assert action_hook.startswith("check CleverAgents actions"), output
    assert action_hook.endswith("Passed"), output
    assert "ok: 1 file valid" in output


SERVER = [console_script("safety-profile"), "lsp"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def server(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code@1.65.2"),
            root_uri=REPO_ROOT.as_uri(),
            initialization_options={"debounce_ms": 0},
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_the_language_server_checks_it_as_an_action(
    server: LanguageClient, tmp_path: Path
) -> None:
    """The example action, opened as `actions/empty_safety_profile.action.yaml`, gets no
    diagnostic (as a profile it would get five unknown fields); a profile's text under that
    name gets the action's errors."""
    import asyncio

    async def codes(path: Path, text: str) -> list[str]:
        uri = path.as_uri()
        server.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "yaml", 1, text))
        )
        for _ in range(1000):
            if uri in server.diagnostics:
                return [str(diagnostic.code) for diagnostic in server.diagnostics[uri]]
            await asyncio.sleep(0.01)
        raise AssertionError(f"nothing was published for {uri}")

    assert await codes(tmp_path / "one" / BOTH, ACTION_TEXT) == []
    as_action = await codes(tmp_path / "two" / BOTH, PROFILE_TEXT)
    assert "schema.missing" in as_action
    assert "kind.hint" in as_action


# How yaml-language-server (FilePatternAssociation) picks a schema for a document: the
# positive patterns match and no `!` pattern does, each prefixed with `**/`, by its picomatch.
PICOMATCH = """
const server = require.resolve('yaml-language-server');
const picomatch = require(require.resolve('picomatch', {paths: [server]}));
const {schemas, names} = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const glob = (ps) => picomatch(ps.map((p) => '**/' + p.replace(/^\\//, '')), {noglobstar: false});
const picked = names.map((name) => Object.keys(schemas).filter((key) => {
  const positive = schemas[key].filter((p) => !p.startsWith('!'));
  const negative = schemas[key].filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return glob(positive)(name) && !glob(negative)(name);
}));
process.stdout.write(JSON.stringify(picked));
"""


def test_the_editors_yaml_globs_pick_the_kind_the_hooks_do() -> None:
    """editors/vscode/settings.json (the extension's yamlValidation, docs/editor-autocompletion.md)
    maps each lower-case name outside .github/ to the schema of the kind the hooks give it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH")
    settings = json.loads((REPO_ROOT / "editors/vscode/settings.json").read_text("utf-8"))
    names = [
        "".join(parts)
        for parts in itertools.product(
            ["", "actions/", "a/actions/b/", "config/"],
            [
                "deploy",
                "x.safety_profile",
                "x_safety-profile",
                "empty_safety_profile",
                "safety_profile_b",
            ],
            ["", ".action", ".prod"],
            [".yaml", ".yml"],
        )
    ]
    result = subprocess.run(
        [node, "-e", PICOMATCH],
        input=json.dumps({"schemas": settings["yaml.schemas"], "names": names}),
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
    )
    schema_of = {
        "profile": "schema/safety_profile.schema.json",
        "action": "schema/action.schema.json",
    }
    picked = dict(zip(names, json.loads(result.stdout), strict=True))
    differ = {
        name: picked[name]
        for name in names
        if picked[name] != [schema_of[kind] for kind in kinds_of(name)]
    }
    assert differ == {}
    assert picked[BOTH] == [schema_of["action"]]
