"""The review a pull request cannot reach: the composite action (`action.yml`) and the job
docs/review-action.md documents, each step run as GitHub runs it (`bash --noprofile --norc -eo
pipefail` with the environment the runner sets), against a real repository served the way
GitHub serves one (`GITHUB_SERVER_URL/GITHUB_REPOSITORY`, here a `file://` folder) and a hostile
pull request: a `repo: local` pre-commit hook that moves `origin/main` to HEAD, a workflow
edit that drops the review, a floor loosened in `policy/floor.yaml` and a profile added exactly
as loose.

The README's former CI step (pre-commit, then `diff --git origin/main`) let that pull request
through: the hook ran first and the diff compared the change with itself. The action installs
safety-profile and the floor package before reading anything of the pull request, takes the
two revisions from the event, fetches them into a repository of its own and reads the pull
request's files as data: it fails the pull request, whatever ran in the workspace before it.

The action's first step installs safety-profile into a new virtual environment from this
repository's commit (dependencies from the package index), about 30 s on 2 cores: it runs once
per module (`installed_review`), and each run of the action's other steps uses its environment.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from conftest import REPO_ROOT
from git_repos import committed_copy_of_this_repository, git, write_files
from programs import run_program
from readme import code_blocks

ACTION = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
ORG_FLOOR = "pkg:acme_policies/floor.safety_profile.yaml"
REPOSITORY = "acme/service"
FLOOR = "require_sandbox: true\nmax_total_cost: 100.0\n"
PROFILE = (
    "require_sandbox: true\nrequire_checkpoints: true\nmax_cost_per_plan: 20.0\n"
    "max_total_cost: 100.0\nallowed_skill_categories: [code]\n"
)
WORKFLOW = """\
on: pull_request
permissions:
  contents: read
jobs:
  safety-profiles:
    runs-on: ubuntu-latest
    steps:
      - uses: cleveragents/cleveragents-safety-profile@0123456789abcdef0123456789abcdef01234567
        with:
          floor: pkg:acme_policies/floor.safety_profile.yaml
          floor-package: acme-policies==1.0.0
"""
# What the pull request's author changes.
MOVE_REFS_HOOK = """\
repos:
  - repo: local
    hooks:
      - id: tidy
        name: tidy
        language: system
        entry: git update-ref refs/remotes/origin/main HEAD
        pass_filenames: false
        always_run: true
"""
NO_REVIEW = "on: pull_request\njobs:\n  nothing:\n    runs-on: ubuntu-latest\n    steps: []\n"
LOOSE_FLOOR = "require_sandbox: false\nmax_total_cost: 100.0\n"
AS_LOOSE = "require_sandbox: false\nmax_total_cost: 100.0\n"


@pytest.fixture(scope="module")
def action_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository at a commit, as the runner checks out `uses: ...@<commit-sha>`."""
    return committed_copy_of_this_repository(tmp_path_factory.mktemp("action"))


def commit(folder: Path, message: str) -> str:
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", message)
    return git(folder, "rev-parse", "HEAD").strip()


class PullRequest:
    """A repository on a "server" (a folder served as GITHUB_SERVER_URL/acme/service), its main
    branch and a pull request with GitHub's refs: refs/pull/1/head and refs/pull/1/merge."""

    def __init__(self, tmp_path: Path, changes: dict[str, str]) -> None:
        self.server = tmp_path / "server"
        bare = self.server / REPOSITORY
        bare.parent.mkdir(parents=True)
        git(tmp_path, "init", "-q", "--bare", str(bare))
        work = tmp_path / "author"
        work.mkdir()
        git(work, "init", "-q", "-b", "main")
        write_files(
            work,
            {
                "pyproject.toml": '[tool.safety-profile]\nfloor = "policy/floor.yaml"\n',
                "policy/floor.yaml": FLOOR,
                "config/prod.safety_profile.yaml": PROFILE,
                ".pre-commit-config.yaml": "repos: []\n",
                ".github/workflows/review.yaml": WORKFLOW,
            },
        )
        self.base = commit(work, "main")
        git(work, "checkout", "-q", "-b", "change")
        write_files(work, changes)
        self.head = commit(work, "the pull request")
        git(work, "checkout", "-q", "main")
        git(work, "merge", "-q", "--no-ff", "-m", "Merge pull request #1", "change")
        self.merge = git(work, "rev-parse", "HEAD").strip()
        git(work, "push", "-q", str(bare), f"{self.base}:refs/heads/main")
        git(work, "push", "-q", str(bare), f"{self.head}:refs/pull/1/head")
        git(work, "push", "-q", str(bare), f"{self.merge}:refs/pull/1/merge")
        self.event = tmp_path / "event.json"
        payload = {
            "pull_request": {"number": 1, "base": {"sha": self.base}, "head": {"sha": self.head}}
        }
        self.event.write_text(json.dumps(payload), encoding="utf-8")

    def runner_environment(self, tmp_path: Path, action_path: Path | None) -> dict[str, str]:
        """What the runner sets for a `pull_request` run's steps."""
        temp, output = tmp_path / "runner-temp", tmp_path / "github-output"
        temp.mkdir(exist_ok=True)
        output.touch()
        environment = {
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": str(self.event),
            "GITHUB_SHA": self.merge,
            "GITHUB_REF": "refs/pull/1/merge",
            "GITHUB_REPOSITORY": REPOSITORY,
            "GITHUB_SERVER_URL": self.server.as_uri(),
            "GITHUB_WORKSPACE": str(tmp_path / "workspace"),
            "GITHUB_OUTPUT": str(output),
            "RUNNER_TEMP": str(temp),
        }
        if action_path is not None:
            environment["GITHUB_ACTION_PATH"] = str(action_path)
        return environment


def expression(value: Any, context: dict[str, str]) -> str:
    """A step's `env` value with its `${{ name }}` expressions (plain names only: the action
    writes no other) replaced from `context`."""
    text = str(value)
    for name in re.findall(r"\$\{\{\s*([\w.-]+)\s*\}\}", text):
        assert name in context, f"an expression the test does not know: {name}"
    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", lambda m: context[m.group(1)], text)


def run_steps(
    steps: list[dict[str, Any]], context: dict[str, str], environment: dict[str, str]
) -> list[subprocess.CompletedProcess[str]]:
    """Each step's `run`, in order, as the runner runs a `shell: bash` step: the script in a
    file, `bash --noprofile --norc -eo pipefail FILE`, the step's `env` over the runner's.
    Stops after a step that fails, as a job does."""
    results = []
    scripts = Path(environment["RUNNER_TEMP"]).parent / "scripts"
    scripts.mkdir(exist_ok=True)
    for number, step in enumerate(steps):
        assert step.get("shell", "bash") == "bash"
        script = scripts / f"step-{number}.sh"
        script.write_text(step["run"], encoding="utf-8")
        env = {name: expression(value, context) for name, value in step.get("env", {}).items()}
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=environment["GITHUB_WORKSPACE"],
            env={**os.environ, **environment, **env},
            capture_output=True,
            text=True,
            check=False,
        )
        results.append(result)
        if result.returncode != 0:
            break
    return results


def action_context(action_path: Path, inputs: dict[str, str]) -> dict[str, str]:
    """`github.*` and `inputs.*` as the runner evaluates them for the action's steps."""
    given = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    given.update(inputs)
    context = {"github.action_path": str(action_path), "github.token": ""}
    context |= {f"inputs.{name}": expression(value, context) for name, value in given.items()}
    return context


def hostile_pull_request(tmp_path: Path) -> PullRequest:
    return PullRequest(
        tmp_path,
        {
            ".pre-commit-config.yaml": MOVE_REFS_HOOK,
            ".github/workflows/review.yaml": NO_REVIEW,
            "policy/floor.yaml": LOOSE_FLOOR,
            "config/new.safety_profile.yaml": AS_LOOSE,
        },
    )


def workspace_after_the_hostile_hook(pull: PullRequest, tmp_path: Path) -> Path:
    """The job's workspace as actions/checkout leaves it (the merge commit, origin/main the
    base), after the pull request's own pre-commit configuration ran in it, as the README's
    former CI step ran it: its local hook moved origin/main to HEAD."""
    workspace = tmp_path / "workspace"
    git(tmp_path, "clone", "-q", str(pull.server / REPOSITORY), str(workspace))
    git(workspace, "fetch", "-q", "origin", "refs/pull/1/merge")
    git(workspace, "checkout", "-q", "--detach", "FETCH_HEAD")
    hooks = run_program(
        "pre-commit", "run", "--all-files", cwd=workspace,
        env={"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")},
    )  # fmt: skip
    assert hooks.returncode == 0, hooks.stdout + hooks.stderr
    moved = git(workspace, "rev-parse", "origin/main").strip()
    assert moved == git(workspace, "rev-parse", "HEAD").strip() == pull.merge
    return workspace


class InstalledReview(NamedTuple):
    """The action's install step, run once: its result, the context it ran with and the
    review folder holding its virtual environment."""

    result: subprocess.CompletedProcess[str]
    context: dict[str, str]
    folder: Path


@pytest.fixture(scope="module")
def installed_review(
    tmp_path_factory: pytest.TempPathFactory, action_path: Path, floor_wheel: Path
) -> InstalledReview:
    """The action's first step (install safety-profile and the organisation's floor package
    from the example's wheel), run as the runner runs it, once for this module's runs."""
    folder = tmp_path_factory.mktemp("installed-review")
    (folder / "runner-temp").mkdir()
    (folder / "workspace").mkdir()
    environment = {
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_ACTION_PATH": str(action_path),
        "GITHUB_WORKSPACE": str(folder / "workspace"),
        "RUNNER_TEMP": str(folder / "runner-temp"),
    }
    context = action_context(
        action_path,
        {"floor": ORG_FLOOR, "floor-package": str(floor_wheel), "python": sys.executable},
    )
    (result,) = run_steps(ACTION["runs"]["steps"][:1], context, environment)
    assert result.returncode == 0, result.stdout + result.stderr
    return InstalledReview(result, context, folder / "runner-temp" / "safety-profile-review")


def run_installed_action(
    installed: InstalledReview, context: dict[str, str], environment: dict[str, str]
) -> list[subprocess.CompletedProcess[str]]:
    """The action's steps with `context` in `environment`: the install step's (shared) result,
    then the other steps, run with the installed environment in this run's review folder."""
    for name in ("inputs.floor-package", "inputs.python", "github.action_path"):
        assert context[name] == installed.context[name], name
    review = Path(environment["RUNNER_TEMP"]) / "safety-profile-review"
    review.mkdir(parents=True)
    (review / "venv").symlink_to(installed.folder / "venv", target_is_directory=True)
    return [installed.result, *run_steps(ACTION["runs"]["steps"][1:], context, environment)]


def test_the_hostile_pull_request_fooled_the_former_ci_step(tmp_path: Path) -> None:
    """Why the review must run where the change cannot reach: after the pull request's own
    hook ran, `diff --git origin/main` compared the change with itself and passed."""
    pull = hostile_pull_request(tmp_path)
    workspace = workspace_after_the_hostile_hook(pull, tmp_path)
    former = run_program(
        "safety-profile", "diff", "--git", "origin/main", "--format", "github", cwd=workspace
    )
    assert (former.returncode, former.stdout) == (0, "")


def review_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("::error ")]


def assert_the_pull_request_fails(
    results: list[subprocess.CompletedProcess[str]], environment: dict[str, str]
) -> None:
    *installs, review = results
    assert all(r.returncode == 0 for r in installs), [r.stdout + r.stderr for r in installs]
    assert review.returncode == 1, review.stdout + review.stderr
    lines = review_lines(review.stdout)
    expected = [
        # diff: the floor file, compared like a profile.
        "::error file=policy/floor.yaml,line=1,col=18,title=loosens.require_sandbox::"
        "require_sandbox loosens: true → false",
        # diff: the added profile against the base revision's floor, and the organisation's.
        "::error file=config/new.safety_profile.yaml,line=1,col=18,title=floor.looser::"
        "require_sandbox loosens: false is looser than the floor's true (policy/floor.yaml in "
        "refs/review/base)",
        "::error file=config/new.safety_profile.yaml,line=1,col=18,title=floor.looser::"
        f"require_sandbox loosens: false is looser than the floor's true ({ORG_FLOOR})",
        # check (what the hooks check): every profile against the organisation's floor.
        "::error file=config/new.safety_profile.yaml,line=1,col=18,title=floor.looser::"
        f"require_sandbox: false is looser than the floor's true ({ORG_FLOOR})",
    ]
    for line in expected:
        assert line in lines, (line, review.stdout, review.stderr)
    # One SARIF log, a run for each check, each with its own category.
    output = Path(environment["GITHUB_OUTPUT"]).read_text(encoding="utf-8")
    (sarif_path,) = re.findall(r"^sarif=(.*)$", output, re.MULTILINE)
    log = json.loads(Path(sarif_path).read_text(encoding="utf-8"))
    categories = [run["automationDetails"]["id"] for run in log["runs"]]
    assert (
        categories
        == [
            "safety-profile/check-action/",
            "safety-profile/check-profile/",
            "safety-profile/diff-action/",
            "safety-profile/diff-profile/",
        ][-len(categories) :]
    )
    assert {"safety-profile/check-profile/", "safety-profile/diff-profile/"} <= set(categories)
    rules = {result["ruleId"] for run in log["runs"] for result in run["results"]}
    assert {"floor.looser", "loosens.require_sandbox"} <= rules


def test_the_action_fails_the_hostile_pull_request_whatever_ran_before_it(
    tmp_path: Path, action_path: Path, floor_wheel: Path, installed_review: InstalledReview
) -> None:
    """The action's steps, from this commit, in a job whose workspace the pull request's hook
    has already tampered with (the review must be the job's first step, or its own job; this
    shows it reads nothing of the workspace): it takes the base from the event, not from
    origin/main, and the floor from the base revision and the organisation's package, not
    from the pull request's loosened file; the pull request's workflow edit is data."""
    pull = hostile_pull_request(tmp_path)
    workspace_after_the_hostile_hook(pull, tmp_path)
    environment = pull.runner_environment(tmp_path, action_path)
    # The README's workflow, its package from the example's wheel rather than an index.
    inputs = readme_inputs()
    assert inputs == {"floor": ORG_FLOOR, "floor-package": "acme-policies==1.0.0"}
    inputs |= {"floor-package": str(floor_wheel), "python": sys.executable}
    context = action_context(action_path, inputs)
    results = run_installed_action(installed_review, context, environment)
    assert_the_pull_request_fails(results, environment)


def readme_inputs() -> dict[str, str]:
    """The action's inputs in the README's CI section (the review action, pinned)."""
    ((_, workflow),) = [
        block for block in code_blocks("Quick start", "In CI: GitHub Actions") if block[0] == "yaml"
    ]
    (step,) = yaml.safe_load(workflow)["jobs"]["safety-profiles"]["steps"]
    assert step["uses"] == "cleveragents/cleveragents-safety-profile@<commit-sha>"
    return dict(step["with"])


def run_the_action(
    pull: PullRequest, tmp_path: Path, action_path: Path, installed: InstalledReview, **runner: str
) -> tuple[list[subprocess.CompletedProcess[str]], dict[str, str], dict[str, str]]:
    """The action's steps for `pull` in a clean workspace (`runner`: variables to set besides
    the `pull_request` run's), the organisation's floor from the example's wheel (installed
    once, `installed_review`): the
    results, and the context and environment they ran with."""
    (tmp_path / "workspace").mkdir()
    environment = pull.runner_environment(tmp_path, action_path) | runner
    context = installed.context
    return run_installed_action(installed, context, environment), context, environment


def test_the_action_passes_a_pull_request_that_loosens_nothing(
    tmp_path: Path, action_path: Path, installed_review: InstalledReview
) -> None:
    pull = PullRequest(
        tmp_path,
        {"config/prod.safety_profile.yaml": PROFILE.replace("20.0", "10.0"), "README.md": "x\n"},
    )
    results, _, _ = run_the_action(pull, tmp_path, action_path, installed_review)
    assert [result.returncode for result in results] == [0, 0, 0], [
        result.stdout + result.stderr for result in results
    ]
    assert review_lines(results[-1].stdout) == []


# Code a pull request adds under the name of the review's own package, at the root of its
# tree: were it imported, it would leave a mark and rewrite the review step's script, which
# bash is still reading, so that the step ends with status 0 whatever the review found.
OUR_PACKAGE_IN_THE_PULL_REQUEST = {
    "cleveragents/__init__.py": """\
import os
from pathlib import Path
Path(os.environ["RUNNER_TEMP"], "pull-request-code-ran").write_text("ran")
arguments = Path(f"/proc/{os.getppid()}/cmdline").read_bytes().split(b"\\0")
for script in (Path(os.fsdecode(a)) for a in arguments if a.endswith(b".sh")):
    text = script.read_bytes().replace(b'exit "$status"', b'exit 0        ')
    script.write_bytes(text)
""",
    "cleveragents/safety_toolkit/__init__.py": "",
    "cleveragents/safety_toolkit/formats/__init__.py": "",
    "cleveragents/safety_toolkit/formats/sarif_runs.py": "print('{}')\n",
    "cleveragents/safety_toolkit/git/__init__.py": "",
    "cleveragents/safety_toolkit/git/github_event.py": "",
}


def test_no_code_of_the_pull_request_runs_in_the_review(
    tmp_path: Path, action_path: Path, installed_review: InstalledReview
) -> None:
    """The review's Python runs isolated (`-I`): a `python -m` puts the current folder first on
    the module path, and the review step runs in the pull request's checkout, so a package the
    pull request adds there under the review's own name was imported and run, and could make
    the step pass a loosening. Now the pull request's files stay data."""
    pull = PullRequest(
        tmp_path,
        {
            **OUR_PACKAGE_IN_THE_PULL_REQUEST,
            "config/prod.safety_profile.yaml": PROFILE.replace("true", "false", 1),
        },
    )
    results, _, environment = run_the_action(pull, tmp_path, action_path, installed_review)
    assert not (Path(environment["RUNNER_TEMP"]) / "pull-request-code-ran").exists()
    assert [result.returncode for result in results] == [0, 0, 1], [
        result.stdout + result.stderr for result in results
    ]
    expected = (
        "::error file=config/prod.safety_profile.yaml,line=1,col=18,"
        "title=loosens.require_sandbox::require_sandbox loosens: true → false"
    )
    assert expected in review_lines(results[-1].stdout)


def test_the_review_is_of_the_head_the_event_names(
    tmp_path: Path, action_path: Path, installed_review: InstalledReview
) -> None:
    """`pull_request_target` reviews `refs/pull/N/merge`, a ref that moves with each push and
    that GitHub updates some time after one. The event names a head that loosens a profile,
    while the ref still merges the head before it (a harmless one): the review of that ref
    passed, and its result counted for the loosening head. The review stops instead, saying
    why; once the ref merges the event's head, it reviews that head and fails it."""
    pull = PullRequest(tmp_path, {"README.md": "harmless\n"})
    work = tmp_path / "author"
    git(work, "checkout", "-q", "change")
    write_files(work, {"config/prod.safety_profile.yaml": PROFILE.replace("true", "false", 1)})
    loosening = commit(work, "loosen")
    bare = str(pull.server / REPOSITORY)
    git(work, "push", "-q", "-f", bare, f"{loosening}:refs/pull/1/head")
    payload = json.loads(pull.event.read_text(encoding="utf-8"))
    payload["pull_request"]["head"]["sha"] = loosening
    pull.event.write_text(json.dumps(payload), encoding="utf-8")
    results, context, environment = run_the_action(
        pull, tmp_path, action_path, installed_review,
        GITHUB_EVENT_NAME="pull_request_target", GITHUB_SHA=pull.base,
        GITHUB_REF="refs/heads/main",
    )  # fmt: skip
    assert [result.returncode for result in results] == [0, 1], [
        result.stdout + result.stderr for result in results
    ]
    assert f"not {loosening}, the head the event names" in results[1].stdout
    # GitHub has made the merge commit of the event's head: the review is of that head.
    git(work, "checkout", "-q", "main")
    git(work, "reset", "-q", "--hard", pull.base)
    git(work, "merge", "-q", "--no-ff", "-m", "Merge pull request #1", loosening)
    git(work, "push", "-q", "-f", bare, "HEAD:refs/pull/1/merge")
    results = run_steps(ACTION["runs"]["steps"][1:], context, environment)
    assert [result.returncode for result in results] == [0, 1]
    expected = (
        "::error file=config/prod.safety_profile.yaml,line=1,col=18,"
        "title=loosens.require_sandbox::require_sandbox loosens: true → false"
    )
    assert expected in review_lines(results[-1].stdout)


def documented_job() -> dict[str, Any]:
    ((_, workflow),) = [
        (language, text)
        for language, text in code_blocks("The same review as a job of your own")
        if language == "yaml"
    ]
    job: dict[str, Any] = yaml.safe_load(workflow)["jobs"]["safety-profiles"]
    return job


def test_the_documented_job_runs_the_actions_steps(
    tmp_path: Path, action_path: Path, floor_wheel: Path
) -> None:
    """docs/review-action.md's job for those who do not use actions from other repositories:
    the action's three steps, word for word, with safety-profile installed from its commit by
    pip. Run with this repository's URL and commit in place of GitHub's, it fails the hostile
    pull request as the action does."""
    job = documented_job()
    steps = [step for step in job["steps"] if "run" in step]
    assert [step["run"] for step in steps] == [step["run"] for step in ACTION["runs"]["steps"]]
    assert not any("actions/checkout" in str(step.get("uses", "")) for step in job["steps"])
    pull = hostile_pull_request(tmp_path)
    workspace_after_the_hostile_hook(pull, tmp_path)
    environment = pull.runner_environment(tmp_path, None)
    commit_id = git(action_path, "rev-parse", "HEAD").strip()
    # pip 23 takes a file URL in a requirement only with a host: file://localhost/...
    published = f"git+file://localhost{action_path}@{commit_id}"
    context = {"github.token": "", "secrets.GITHUB_TOKEN": ""}
    for step in steps:
        for name, value in step.get("env", {}).items():
            text = str(value).replace(
                "git+https://github.com/cleveragents/cleveragents-safety-profile@<commit-sha>",
                published,
            )
            step["env"][name] = text.replace("acme-policies==1.0.0", str(floor_wheel))
    results = run_steps(steps, context, {**environment, "PATH": os.environ["PATH"]})
    assert_the_pull_request_fails(results, environment)


def test_every_step_takes_its_inputs_through_env_never_in_its_script() -> None:
    """An input spliced into a script's text (`${{ inputs.floor }}` in `run:`) would run
    whatever the value holds; each step reads its inputs from its environment."""
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step["run"], step["name"]
        assert step["shell"] == "bash"
    assert ACTION["runs"]["using"] == "composite"


def test_the_files_checked_are_the_ones_the_hooks_check(tmp_path: Path) -> None:
    """The review step's file listing picks exactly the files the hooks' patterns in
    .pre-commit-hooks.yaml pick, in a repository of oddly named files; a name both kinds'
    patterns claim goes to one kind only (docs/actions.md, "A name both kinds claim")."""
    hooks = {
        hook["id"]: hook
        for hook in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    }
    names = [
        "config/Prod.SAFETY-PROFILE.YML",
        "config/ok.safety_profile.yaml",
        "safety_profile.yml",
        "safety_profile_docs/readme.yaml",  # the name is a folder's, not the file's
        "notes.safety_profile.yaml.txt",
        "actions/deploy.yaml",
        "Actions/Nested/Build.YML",
        "actions/kept.safety_profile.yaml",  # a profile: the profile hook's
        "actions/empty_safety_profile.action.yaml",  # an action: the action hook's
        "Actions/x/Deploy.Safety-Profile.ACTION.yml",
        ".github/actions/p.safety_profile.action.yaml",  # neither
        ".github/actions/build/action.yml",  # GitHub's own
        "src/.GitHub/actions/x.yaml",
        "actions.yaml",
        # Python's Unicode case folding would take these for profile names; git, editors and
        # the hooks do not.
        "config/\u017fafety_profile.yaml",  # LONG S
        "config/safety_prof\u0131le.yaml",  # DOTLESS I
        "config/x.safety_profile.yaml\n",  # a name ending in a newline
    ]
    picked = {
        kind: {
            name
            for name in names
            if re.search(hooks[hook_id]["files"], name)
            and not re.search(hooks[hook_id].get("exclude", "^$"), name)
        }
        for kind, hook_id in (("profile", "safety-profile"), ("action", "safety-profile-action"))
    }
    (tmp_path / "repo").mkdir()
    repository = tmp_path / "repo"
    git(repository, "init", "-q")
    write_files(repository, dict.fromkeys(names, "{}\n"))
    commit(repository, "names")
    review = ACTION["runs"]["steps"][-1]["run"]
    match = re.search(r"^ *(git ls-files -z \| .*?)>", review, re.MULTILINE | re.DOTALL)
    assert match is not None
    listing = match.group(1).replace('"$review/venv/bin/python"', sys.executable)
    for kind in ("profile", "action"):
        listed = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", listing],
            cwd=repository,
            capture_output=True,
            check=True,
            env={**os.environ, "kind": kind},
        )
        found = {os.fsdecode(name) for name in listed.stdout.split(b"\0") if name}
        assert found == picked[kind], kind
    assert not picked["profile"] & picked["action"]
    assert "actions/empty_safety_profile.action.yaml" in picked["action"]
    assert "actions/deploy.yaml" in picked["action"]


def test_the_action_is_valid_for_github_actions() -> None:
    """action.yml against GitHub's action schema (vendored in check-jsonschema: no network)."""
    result = run_program(
        "check-jsonschema", "--builtin-schema", "vendor.github-actions", "action.yml",
        cwd=REPO_ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


BASE, HEAD = "a" * 40, "b" * 40


@pytest.mark.parametrize(
    ("name", "event", "expected"),
    [
        ("pull_request", {"pull_request": {"number": 7, "base": {"sha": BASE}}}, (BASE, HEAD)),
        (
            "pull_request_target",
            {"pull_request": {"number": 7, "base": {"sha": BASE}}},
            (BASE, "refs/pull/7/merge"),
        ),
        ("merge_group", {"merge_group": {"base_sha": BASE, "head_sha": HEAD}}, (BASE, HEAD)),
        ("push", {"before": BASE, "after": HEAD}, (BASE, HEAD)),
        ("push", {"before": "0" * 40, "after": HEAD}, ("", HEAD)),  # a new branch
    ],
)
def test_the_revisions_come_from_the_event(
    name: str, event: dict[str, Any], expected: tuple[str, str]
) -> None:
    from cleveragents.safety_toolkit.git.github_event import revisions

    assert revisions({"GITHUB_EVENT_NAME": name, "GITHUB_SHA": HEAD}, event) == expected


@pytest.mark.parametrize(
    ("name", "event", "words"),
    [
        ("workflow_dispatch", {}, "names no two revisions to compare; give the action's base"),
        # A branch name, which the pull request's author chooses, is never taken for a commit.
        (
            "pull_request",
            {"pull_request": {"base": {"sha": "main; rm -rf /"}}},
            "pull_request.base.sha is not a commit id",
        ),
        ("push", {"before": BASE, "after": "--upload-pack=evil"}, "after is not a commit id"),
    ],
)
def test_an_event_without_two_commits_stops_the_review(
    tmp_path: Path, name: str, event: dict[str, Any], words: str
) -> None:
    (tmp_path / "event.json").write_text(json.dumps(event), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "cleveragents.safety_toolkit.git.github_event", "", ""],
        env={
            **os.environ,
            "GITHUB_EVENT_NAME": name,
            "GITHUB_EVENT_PATH": str(tmp_path / "event.json"),
            "GITHUB_SHA": HEAD,
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert words in result.stderr


@pytest.mark.parametrize(
    ("name", "event", "expected"),
    [
        ("pull_request", {"pull_request": {"head": {"sha": HEAD}}}, HEAD),
        ("pull_request_target", {"pull_request": {"head": {"sha": HEAD}}}, HEAD),
        ("merge_group", {"merge_group": {"base_sha": BASE, "head_sha": HEAD}}, ""),
        ("push", {"before": BASE, "after": HEAD}, ""),
    ],
)
def test_a_pull_requests_merge_commit_must_merge_the_head_the_event_names(
    name: str, event: dict[str, Any], expected: str
) -> None:
    from cleveragents.safety_toolkit.git.github_event import merged_head

    assert merged_head({"GITHUB_EVENT_NAME": name}, event) == expected


def test_a_pull_request_event_without_its_head_commit_stops_the_review() -> None:
    from cleveragents.safety_toolkit.git.github_event import EventError, merged_head

    with pytest.raises(EventError, match=r"pull_request\.head\.sha is not a commit id"):
        merged_head({"GITHUB_EVENT_NAME": "pull_request"}, {"pull_request": {"head": {}}})
