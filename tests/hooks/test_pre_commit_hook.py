"""The hook as repo owners use it: the real `pre-commit run` with the hook from this checkout at
a commit (conftest's `hook_repository`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLES, REPO_ROOT, console_script
from git_repos import HookRepository, run_hooks
from readme import code_blocks

PRE_COMMIT = console_script("pre-commit")
MANIFEST = REPO_ROOT / ".pre-commit-hooks.yaml"


# Profiles by name, each with its own bad value so the report shows which were checked.
ISSUE_NAMES = {
    # Case does not matter (issue 11).
    "Safety_Profile.yaml": 510,
    "SAFETY-PROFILE.yml": 511,
    "config/prod.safety_profile.YAML": 512,
    # A name starting with "-" is a file, not an option.
    "-prod.safety_profile.yaml": 513,
}
SYMLINK = "config/prod.safety_profile.yaml"  # -> real.yaml, which holds 514
CHECKED = [
    "config/bad-value.safety-profile.yml",
    "config/typo.safety_profile.yaml",
    "config/duplicate.safety_profile.yaml",
    "config/safety_profile.yaml",
    *ISSUE_NAMES,
    SYMLINK,
]


@pytest.fixture(scope="module")
def user_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository of a user with good and bad profiles, and a YAML file the hook must skip."""
    repo = tmp_path_factory.mktemp("user-repo")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    files = {
        "config/safety_profile.yaml": EXAMPLES / "valid/spec_example.safety_profile.yaml",
        "config/bad-value.safety-profile.yml": EXAMPLES
        / "invalid/retries_above_maximum.safety_profile.yaml",
        "config/typo.safety_profile.yaml": EXAMPLES / "invalid/typo_key.safety_profile.yaml",
        "config/duplicate.safety_profile.yaml": EXAMPLES
        / "invalid/duplicate_key.safety_profile.yaml",
        # Not a profile by name: the default `files` pattern leaves it alone.
        "config/unrelated.yaml": EXAMPLES / "invalid/typo_key.safety_profile.yaml",
    }
    for name, source in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, repo / name)
    for name, retries in ISSUE_NAMES.items():
        (repo / name).write_text(f"max_retries_per_step: {retries}\n", encoding="utf-8")
    (repo / "config/real.yaml").write_text("max_retries_per_step: 514\n", encoding="utf-8")
    (repo / SYMLINK).symlink_to("real.yaml")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    return repo


def run_hook(
    hooks: HookRepository, repo: Path, hook_id: str, *files: str
) -> subprocess.CompletedProcess[str]:
    """The hook on `files`, or on every file of the repository without them."""
    which = ["--files", *files] if files else ["--all-files"]
    return run_hooks(hooks, repo, [hook_id], *which)


def test_hook_manifest_is_valid_for_pre_commit() -> None:
    result = subprocess.run(
        [PRE_COMMIT, "validate-manifest", str(MANIFEST)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_valid_profile_passes(user_repo: Path, hook_repository: HookRepository) -> None:
    result = run_hook(hook_repository, user_repo, "safety-profile", "config/safety_profile.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


@pytest.fixture(scope="module")
def every_file_run(
    user_repo: Path, hook_repository: HookRepository
) -> subprocess.CompletedProcess[str]:
    """One run over every file of the repository (`--all-files`)."""
    return run_hook(hook_repository, user_repo, "safety-profile")


def test_bad_profiles_fail_naming_file_line_and_field(
    every_file_run: subprocess.CompletedProcess[str],
) -> None:
    result = every_file_run
    assert result.returncode == 1, result.stdout + result.stderr
    output = result.stdout
    assert "Failed" in output
    assert (
        "config/bad-value.safety-profile.yml:1:23: error: max_retries_per_step: "
        "500 is above the maximum 100"
    ) in output
    assert (
        "config/typo.safety_profile.yaml:2:1: error: allow_unsafe_tool: unknown field "
        "'allow_unsafe_tool'; did you mean 'allow_unsafe_tools'?"
    ) in output
    assert (
        "config/duplicate.safety_profile.yaml:3:1: error: allow_unsafe_tools: duplicate key "
        "'allow_unsafe_tools' (first on line 1, again on line 3); keep only one"
    ) in output
    assert "unrelated.yaml" not in output
    assert "Traceback" not in output + result.stderr


def test_diff_selects_the_files_the_check_hooks_match() -> None:
    # `diff --git` and the loosening hook (which asks git itself) use the same patterns.
    from cleveragents.safety_toolkit.core.kinds import KINDS

    hooks = {
        hook["id"]: hook
        for hook in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    assert (KINDS["profile"].files, KINDS["profile"].exclude) == (
        hooks["safety-profile"]["files"],
        hooks["safety-profile"]["exclude"],
    )
    assert (KINDS["action"].files, KINDS["action"].exclude) == (
        hooks["safety-profile-action"]["files"],
        hooks["safety-profile-action"]["exclude"],
    )
    # The loosening hook names the hook that checks each kind's files (and reports why one is
    # invalid).
    from cleveragents.safety_toolkit.core.diff import CHECK_HOOKS

    assert set(CHECK_HOOKS) == set(KINDS)
    for kind, hook_id in CHECK_HOOKS.items():
        assert hooks[hook_id]["entry"] == f"safety-profile check --kind {kind}"


def test_every_name_a_user_calls_a_profile_is_checked(
    every_file_run: subprocess.CompletedProcess[str],
) -> None:
    """Any case, a symlink (checked as the file it points to), a name starting with "-"."""
    output = every_file_run.stdout
    for name, retries in ISSUE_NAMES.items():
        assert f"{name}:1:23: error: max_retries_per_step: {retries} is above" in output
    assert f"{SYMLINK}:1:23: error: max_retries_per_step: 514 is above" in output
    assert "config/real.yaml" not in output  # not a profile by name; checked through the link
    assert "unrecognized arguments" not in output


def test_one_report_for_the_whole_run(every_file_run: subprocess.CompletedProcess[str]) -> None:
    """More files than pre-commit puts in one batch of a parallel run (4), one total, and the
    whole report sorted by file."""
    output = every_file_run.stdout
    summaries = [line for line in output.splitlines() if " files invalid" in line]
    assert summaries == [f"{len(CHECKED) - 1} of {len(CHECKED)} files invalid"]
    reported = [line.split(":")[0] for line in output.splitlines() if ": error: " in line]
    assert reported == sorted(reported)
    assert set(reported) == set(CHECKED) - {"config/safety_profile.yaml"}


def test_the_readme_states_the_patterns_each_hook_uses() -> None:
    """The README says exactly which names each hook checks: its blocks are the manifest's."""
    hooks = {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    stated = {
        section: [
            yaml.safe_load(text)
            for language, text in code_blocks(section)
            if language == "yaml" and text.lstrip().startswith("files:")
        ]
        for section in ("The pre-commit hook", "Actions and resolution")
    }
    (profile,) = stated["The pre-commit hook"]
    (action,) = stated["Actions and resolution"]
    assert profile == {key: hooks["safety-profile"][key] for key in profile}
    assert set(profile) == {"files", "exclude", "types", "types_or"}
    assert action == {key: hooks["safety-profile-action"][key] for key in action}
    assert set(action) == {"files", "exclude"}
