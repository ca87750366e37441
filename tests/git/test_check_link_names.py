"""`check` judges where each file it is given leads, however its name is spelled: a link as
the file, a link to a folder on the way, a link to `..`, a dangling link, `dir/..`, a trailing
slash, relative and absolute names. `check` resolves each folder once for many files, and only
looks at each file's own name (issue 29); these are the spellings where that could go wrong, and
a wrong answer is a file out of the repository read and printed (file.outside)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from git_repos import new_repository, write_files
from programs import run_program

from cleveragents.safety_toolkit.git.located import locate

STRICT = "require_sandbox: true\n"
SECRET = "token: hunter2-not-yaml: [\n"  # what a file out of bounds holds: never printed


def _tree(tmp_path: Path, repository: bool) -> Path:
    """`outside/secret.yaml`, and beside it `project` (a repository, or a plain folder) whose
    links lead in and out of it by every route."""
    write_files(tmp_path / "outside", {"secret.yaml": SECRET})
    project = tmp_path / "project"
    files = {"data/prod.yaml": STRICT, "data/sub/keep": "", "plain.safety_profile.yaml": STRICT}
    project.mkdir(parents=True)
    if repository:
        new_repository(project, files)
    else:
        write_files(project, files)
    links = {
        "in.safety_profile.yaml": "data/prod.yaml",
        "out.safety_profile.yaml": "../outside/secret.yaml",
        "abs.safety_profile.yaml": str(tmp_path / "outside" / "secret.yaml"),
        "gone.safety_profile.yaml": "../outside/nowhere.yaml",  # dangling, out
        "dangling.safety_profile.yaml": "nowhere.yaml",  # dangling, in
        "chain.safety_profile.yaml": "out.safety_profile.yaml",  # a link to a link out
        "via": "../outside",  # a folder out, on the way
        "up": "..",
        "here": ".",
        "data/sub/back": "../..",
    }
    for name, target in links.items():
        os.symlink(target, project / name)
    return project


# Each name, as given from the project's folder, and whether it leads out of the bounds.
NAMES = {
    "plain.safety_profile.yaml": False,
    "in.safety_profile.yaml": False,
    "out.safety_profile.yaml": True,
    "abs.safety_profile.yaml": True,
    "gone.safety_profile.yaml": True,
    "dangling.safety_profile.yaml": False,
    "chain.safety_profile.yaml": True,
    "via/secret.yaml": True,
    "up/outside/secret.yaml": True,
    "up/project/in.safety_profile.yaml": False,
    "here/out.safety_profile.yaml": True,
    "here/in.safety_profile.yaml": False,
    "data/../out.safety_profile.yaml": True,
    "data/../in.safety_profile.yaml": False,
    "data/sub/back/out.safety_profile.yaml": True,
    "data/sub/back/plain.safety_profile.yaml": False,
    "via/../project/plain.safety_profile.yaml": False,
    "out.safety_profile.yaml/": True,
    "./out.safety_profile.yaml": True,
    ".//out.safety_profile.yaml": True,
    "{project}/out.safety_profile.yaml": True,
    "{project}/via/secret.yaml": True,
    "{project}/in.safety_profile.yaml": False,
}
# Outside a repository the folder a file is named in bounds it: these name files in `outside`.
NAMED_OUTSIDE = {"via/secret.yaml", "up/outside/secret.yaml", "{project}/via/secret.yaml"}


@pytest.mark.parametrize("repository", [True, False], ids=["repository", "no repository"])
def test_every_spelling_of_a_link_out_is_refused_and_of_one_in_is_read(
    tmp_path: Path, repository: bool
) -> None:
    project = _tree(tmp_path, repository)
    given = [name for name in NAMES if repository or name not in NAMED_OUTSIDE]
    names = [name.format(project=project) for name in given]
    result = run_program("safety-profile", "check", *names, cwd=project)
    assert "hunter2" not in result.stdout + result.stderr
    refused = {
        line.split(": error: ")[0]
        for line in result.stdout.splitlines()
        if line.endswith("[file.outside]")
    }
    expected = {name.format(project=project) for name in given if NAMES[name]}
    assert refused == expected
    # Each name alone is judged as among the others.
    for name in ("out.safety_profile.yaml/", "data/sub/back/out.safety_profile.yaml"):
        alone = run_program("safety-profile", "check", name, cwd=project)
        assert alone.stdout.rstrip().endswith("1 of 1 file invalid")
        assert "[file.outside]" in alone.stdout


def test_each_file_resolves_as_realpath_resolves_it(tmp_path: Path) -> None:
    """What each name leads to is exactly `os.path.realpath`'s answer (the file git and the
    reader open), for names made of links, missing names, `.`, `..`, loops and empty parts,
    relative and absolute, inside a repository and out of one."""
    for repository in (True, False):
        project = _tree(tmp_path / str(repository), repository)
        os.symlink("loop.b", project / "loop.a")
        os.symlink("loop.a", project / "loop.b")
        os.symlink("in.safety_profile.yaml/x", project / "notdir")
        parts = [
            *("data", "sub", "back", "via", "up", "here", "loop.a", "notdir", "missing"),
            *("in.safety_profile.yaml", "out.safety_profile.yaml", "secret.yaml", "..", ".", ""),
        ]
        names = set()
        for count in (1, 2, 3):
            for combination in itertools.product(parts, repeat=count):
                name = "/".join(combination)
                names.update([name, f"{name}/", f"./{name}", f"{project}/{name}"])
                names.add(f"/{project}/{name}")  # `//` at the start: POSIX keeps it
        before = os.getcwd()
        os.chdir(project)
        try:
            located = locate(sorted(names))
            assert {name: found.real for name, found in located.items()} == {
                name: os.path.realpath(name) for name in names
            }
        finally:
            os.chdir(before)
