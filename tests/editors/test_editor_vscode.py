"""The VS Code extension in a real VS Code: code-server with the .vsix built from editors/vscode
installed, in headless chromium, driven by Playwright as a user drives it. Each step asserts
what the user sees (squiggles, the status bar, the Problems panel, the quick fix menu, the
suggestion list, the hover, a notification) and leaves a screenshot in build/vscode-screenshots/.

One VS Code serves the module (opening it takes ~10 s); each test opens its own files and closes
them all when done. Tools: .ci/install-vscode-tools (tests/vscode_session.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, REPO_ROOT, console_script, missing_tool
from git_repos import new_repository
from vscode_session import (
    MissingTool,
    Problem,
    Tools,
    VSCode,
    Workbench,
    build_vsix,
    chromium,
    running_vscode,
    server_log,
    tools,
)

SCREENSHOTS = REPO_ROOT / "build" / "vscode-screenshots"
INSTALL_COMMAND = "pip install 'cleveragents-safety-profile[lsp]'"
PROFILE_SCHEMA = json.loads((REPO_ROOT / "schema" / "safety_profile.schema.json").read_text())

FILES = {
    "teams/several_problems.safety_profile.yaml": (
        EXAMPLES / "invalid" / "several_problems.safety_profile.yaml"
    ).read_text(),
    "teams/quick_fix.safety_profile.yaml": "require_sandbox: yes\nmax_total_cost: 10\n",
    "teams/typed.safety_profile.yaml": "max_total_cost: 10\nmax_retries_per_step: 101\n",
    "teams/strict.safety_profile.yaml": "require_sandbox: true\nmax_retries_per_step: 3\n",
    "teams/new.safety_profile.yaml": "require_sandbox: true\n",
    "teams/hover.safety_profile.yaml": "require_sandbox: true\nmax_cost_per_plan: 5\n",
    "CI/Prod.Safety-Profile.YML": "max_retries_per_step: 101\n",
    # Named like no hook's file: checked because safetyProfile.files names it.
    "policies/base.yaml": "require_sandbox: no\nmax_retries_per_step: 101\n",
    "actions/deploy.yaml": (
        "name: local/deploy\nstrategy_actor: local/default\nexecution_actor: local/default\n"
        "safety_profile:\n  require_sandbox: no\n  max_retries_per_step: 500\n"
    ),
}


@pytest.fixture(scope="module")
def vscode_tools() -> Tools:
    try:
        return tools()
    except MissingTool as missing:
        missing_tool(str(missing))


@pytest.fixture(scope="module")
def vsix(vscode_tools: Tools) -> Path:
    """The .vsix a user installs, packaged from editors/vscode into build/vscode/ (CI keeps it)."""
    return build_vsix(vscode_tools, REPO_ROOT / "build" / "vscode")


@pytest.fixture(scope="module")
def browser(vscode_tools: Tools) -> Iterator[Any]:
    """One headless chromium for the module; each VS Code gets a fresh context in it."""
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def screenshots() -> Path:
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True)
    return SCREENSHOTS


@pytest.fixture(scope="module")
def vscode(
    vscode_tools: Tools,
    vsix: Path,
    browser: Any,
    screenshots: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[VSCode]:
    """A repository of profiles open in VS Code; the server is this environment's, found
    through the setting safetyProfile.interpreter; policies/*.yaml added by safetyProfile.files."""
    folder = new_repository(tmp_path_factory.mktemp("workspace"), FILES)
    settings = {
        "safetyProfile.interpreter": sys.executable,
        "safetyProfile.files": {"**/policies/*.yaml": "profile"},
    }
    scratch = tmp_path_factory.mktemp("code-server")
    with running_vscode(
        vscode_tools, vsix, folder, scratch, screenshots, settings, browser
    ) as running:
        yield running


@pytest.fixture
def workbench(vscode: VSCode, request: pytest.FixtureRequest) -> Iterator[Workbench]:
    yield vscode.workbench
    vscode.workbench.screenshot(f"end-of-{request.node.name}")
    vscode.workbench.page.keyboard.press("Escape")
    # Revert, then close every editor: nothing unsaved asks to be saved, and the server is told
    # each document closed; no error may have reached the user on the way.
    vscode.workbench.command("File: Revert File")
    vscode.workbench.command("View: Close All Editors")
    assert not [n for n in vscode.workbench.notifications() if "Error in server" in n]


def checked(folder: Path, name: str, kind: str) -> list[Problem]:
    """What `safety-profile check --format json` says of the file, as Problems panel rows."""
    result = subprocess.run(
        [console_script("safety-profile"), "check", "--format", "json", "--kind", kind, name],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    return [
        Problem(p["line"], p["column"], p["message"], p["rule"], p["severity"])
        for p in json.loads(result.stdout)
    ]


def editor_lines(workbench: Workbench) -> list[str]:
    """The editor's lines as shown, top to bottom (Monaco places each line by its `top`)."""
    placed = workbench.page.locator(".editor-instance .monaco-editor .view-line").evaluate_all(
        "lines => lines.map(line => [parseFloat(line.style.top), line.innerText])"
    )
    return [text.replace("\u00a0", " ") for _, text in sorted(placed)]


def test_an_invalid_profile_shows_what_check_reports(vscode: VSCode, workbench: Workbench) -> None:
    name = "teams/several_problems.safety_profile.yaml"
    expected = checked(vscode.folder, name, "profile")
    assert len(expected) == 5
    workbench.open(name)
    workbench.wait_until(lambda: workbench.squiggles() >= len(expected))
    workbench.wait_until(lambda: workbench.status_errors() == 5)
    assert workbench.status_problems().startswith("Errors: 5")
    workbench.screenshot("squiggles-and-status-bar")
    assert workbench.show_problems() == expected
    workbench.screenshot("problems-panel")
    workbench.close_panel()


@pytest.mark.parametrize(
    ("name", "kind", "codes"),
    [
        # A name in other case and .YML: the hook's profile all the same.
        ("CI/Prod.Safety-Profile.YML", "profile", {"schema.less-than-equal"}),
        # Under actions/: an action (as a profile, its fields would be unknown keys).
        ("actions/deploy.yaml", "action", {"schema.missing", "yaml.ambiguous-scalar"}),
        # Added by the setting safetyProfile.files, as a profile.
        ("policies/base.yaml", "profile", {"yaml.ambiguous-scalar", "schema.less-than-equal"}),
    ],
)
def test_a_file_is_checked_as_the_hooks_check_it(
    vscode: VSCode, workbench: Workbench, name: str, kind: str, codes: set[str]
) -> None:
    expected = checked(vscode.folder, name, kind)
    assert codes <= {problem.code for problem in expected}
    assert expected != checked(vscode.folder, name, "action" if kind == "profile" else "profile")
    workbench.open(name)
    workbench.wait_until(lambda: workbench.squiggles() >= len(expected))
    assert workbench.show_problems() == expected
    workbench.screenshot(f"checked-as-{kind}")
    workbench.close_panel()


def test_a_quick_fix_from_the_code_action_menu_changes_the_text_and_clears_the_problem(
    workbench: Workbench,
) -> None:
    workbench.open("teams/quick_fix.safety_profile.yaml")
    workbench.wait_until(lambda: workbench.squiggles() == 1)
    workbench.go_to(1, 18)
    menu = workbench.quick_fix_menu()
    titles = menu.locator(".monaco-list-row").all_inner_texts()
    assert any("write true" in title for title in titles), titles
    workbench.screenshot("quick-fix-menu")
    workbench.page.keyboard.press("Enter")  # the preferred fix, selected
    workbench.wait_until(lambda: editor_lines(workbench)[0] == "require_sandbox: true")
    workbench.wait_until(lambda: workbench.squiggles() == 0)
    workbench.wait_until(lambda: workbench.status_errors() == 0)
    assert workbench.status_problems() == "No Problems"
    workbench.screenshot("quick-fix-applied")


def test_typing_a_fix_clears_the_diagnostic(workbench: Workbench) -> None:
    workbench.open("teams/typed.safety_profile.yaml")
    workbench.wait_until(lambda: workbench.squiggles() == 1)
    workbench.screenshot("before-typing")
    workbench.go_to(2, 23)
    workbench.page.keyboard.press("Shift+End")
    workbench.page.keyboard.type("5")
    workbench.wait_until(lambda: workbench.squiggles() == 0)
    assert editor_lines(workbench)[1] == "max_retries_per_step: 5"
    workbench.screenshot("typed-fix")


def test_a_loosening_edit_shows_its_note_against_head(workbench: Workbench) -> None:
    workbench.open("teams/strict.safety_profile.yaml")
    workbench.go_to(1, 18)
    workbench.page.keyboard.press("Shift+End")
    workbench.page.keyboard.type("false")
    note = Problem(
        1, 18, "loosens: require_sandbox: true → false", "loosens.require_sandbox", "info"
    )
    workbench.wait_until(lambda: note in workbench.show_problems())
    assert workbench.problems() == [note]
    workbench.screenshot("loosening-note")
    workbench.close_panel()


def test_completion_after_a_new_line_offers_the_fields_not_written(
    workbench: Workbench,
) -> None:
    workbench.open("teams/new.safety_profile.yaml")
    workbench.go_to(1, 22)
    workbench.page.keyboard.press("End")
    workbench.page.keyboard.press("Enter")
    workbench.page.keyboard.press("Control+Space")
    rows = workbench.page.locator(".suggest-widget .monaco-list-row")
    rows.first.wait_for(timeout=60_000)
    labels = workbench.page.locator(
        ".suggest-widget .monaco-list-row .label-name"
    ).all_inner_texts()
    assert labels == [name for name in PROFILE_SCHEMA["properties"] if name != "require_sandbox"]
    workbench.screenshot("completion")
    workbench.page.keyboard.press("Enter")  # the first: allowed_skill_categories, its default
    workbench.wait_until(lambda: editor_lines(workbench)[1] == "allowed_skill_categories: []")
    workbench.screenshot("completion-accepted")


def test_hover_on_a_field_shows_its_description_default_and_strictness(
    workbench: Workbench,
) -> None:
    workbench.open("teams/hover.safety_profile.yaml")
    key = workbench.page.locator(".editor-instance .view-line", has_text="require_sandbox").first
    key.hover(position={"x": 30, "y": 5})
    hover = workbench.page.locator(".monaco-hover-content", has_text="sandbox").first
    hover.wait_for(timeout=60_000)
    text = hover.inner_text()
    assert PROFILE_SCHEMA["properties"]["require_sandbox"]["description"] in text
    assert "Default: true" in text
    assert "Stricter: true is stricter" in text
    workbench.screenshot("hover")


def test_without_a_server_one_notification_names_the_install_command(
    vscode_tools: Tools, vsix: Path, browser: Any, screenshots: Path, tmp_path: Path
) -> None:
    (tmp_path / "workspace").mkdir()
    folder = new_repository(tmp_path / "workspace", {"safety_profile.yaml": "a: 1\n"})
    # A Python without the package; nothing named safety-profile on the login shell's PATH.
    python = shutil.which("python3", path="/usr/bin:/bin")
    assert python is not None
    settings = {"safetyProfile.interpreter": python}
    with running_vscode(
        vscode_tools, vsix, folder, tmp_path / "scratch", screenshots, settings, browser
    ) as running:
        workbench = running.workbench
        workbench.open("safety_profile.yaml")
        workbench.wait_until(lambda: any(INSTALL_COMMAND in n for n in workbench.notifications()))
        [notification] = [n for n in workbench.notifications() if "Safety Profile" in n]
        assert INSTALL_COMMAND in notification
        workbench.page.wait_for_timeout(500)  # the toast slides in
        workbench.screenshot("no-server-notification")
        log = server_log(running.user_data)
        assert "the setting safetyProfile.interpreter" in log
        assert "not installed" in log


@pytest.mark.parametrize("trusted", [False, True], ids=["untrusted", "trusted"])
def test_an_untrusted_folder_never_runs_its_own_files(
    vscode_tools: Tools,
    vsix: Path,
    browser: Any,
    screenshots: Path,
    tmp_path: Path,
    trusted: bool,
) -> None:
    """Restricted mode: the folder's settings do not choose the server, and a server inside the
    folder is refused even when the user's settings name it; one outside it runs. Trusted, the
    same folder's server runs (so the scripts would leave their trace)."""
    (tmp_path / "workspace").mkdir()
    folder = tmp_path / "workspace"
    traces = tmp_path / "traces"
    traces.mkdir()

    def leaves_a_trace(name: str) -> str:
        return f'#!/bin/sh\ntouch "{traces / name}"\nexec "{sys.executable}" "$@"\n'

    new_repository(
        folder,
        {
            "safety_profile.yaml": "max_retries_per_step: 101\n",
            ".vscode/settings.json": json.dumps(
                {"safetyProfile.interpreter": str(folder / "venv" / "python")}
            ),
            "venv/python": leaves_a_trace("folder-settings-interpreter"),
            "tools/safety-profile": (
                f'#!/bin/sh\ntouch "{traces / "users-path-into-the-folder"}"\n'
                f'exec "{console_script("safety-profile")}" "$@"\n'
            ),
        },
    )
    for script in (folder / "venv" / "python", folder / "tools" / "safety-profile"):
        script.chmod(0o755)
    settings = {
        "safetyProfile.path": str(folder / "tools" / "safety-profile"),
        "safetyProfile.interpreter": sys.executable,
    }
    scratch = tmp_path / "scratch"
    with running_vscode(
        vscode_tools,
        vsix,
        folder,
        scratch,
        screenshots,
        settings,
        browser,
        workspace_trust=not trusted,
    ) as running:
        workbench = running.workbench
        if not trusted:
            # VS Code opens a folder it was not told to trust in Restricted Mode, and says so.
            restricted = workbench.page.locator(".statusbar-item", has_text="Restricted Mode")
            restricted.first.wait_for(timeout=60_000)
        workbench.open("safety_profile.yaml")
        workbench.wait_until(lambda: workbench.squiggles() == 1)
        workbench.screenshot(f"{'trusted' if trusted else 'untrusted'}-folder-checked")
        log = server_log(running.user_data)
    if trusted:
        assert [path.name for path in traces.iterdir()] == ["users-path-into-the-folder"]
        assert "(the setting safetyProfile.path)" in log
        return
    assert list(traces.iterdir()) == []
    assert "workspace not trusted" in log
    assert (
        f"not used: the setting safetyProfile.path ({folder}/tools/safety-profile lsp): "
        "refused (it is a file of this untrusted folder)"
    ) in log
    assert str(folder / "venv" / "python") not in log  # the folder's own setting is not read
    assert f"starting {sys.executable} -P -m cleveragents.safety_toolkit lsp" in log
