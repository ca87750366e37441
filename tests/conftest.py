"""Shared paths and helpers for the test suite."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest
from pydantic import BaseModel

from cleveragents.reading.validation import check_yaml_bytes

if TYPE_CHECKING:
    from db_demo import Database
    from git_repos import HookRepository
    from postgres_server import PostgresServer

REPO_ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = REPO_ROOT / "schema"
PROFILE_SCHEMA_PATH = SCHEMA_DIR / "safety_profile.schema.json"
EXAMPLES = REPO_ROOT / "examples"
VALID_PROFILES = sorted((EXAMPLES / "valid").glob("*.yaml"))
INVALID_PROFILES = sorted((EXAMPLES / "invalid").glob("*.yaml"))


def expected_output_path(example: Path) -> Path:
    """`x.safety_profile.yaml` -> `x.safety_profile.expected`, the snapshot kept beside it."""
    return example.with_name(example.name.removesuffix(".yaml") + ".expected")


def valid_output(examples: Sequence[Path]) -> str:
    """What `check` prints for valid examples checked together, each as its own kind: their
    warnings (each one's `.expected` file, for the few that have one), then the summary."""
    warnings = "".join(
        expected_output_path(example).read_text(encoding="utf-8")
        for example in examples
        if expected_output_path(example).is_file()
    )
    return f"{warnings}ok: {len(examples)} file{'' if len(examples) == 1 else 's'} valid\n"


def relative(path: Path) -> str:
    return path.relative_to(REPO_ROOT).as_posix()


def check_example(example: Path, model: type[BaseModel]) -> tuple[BaseModel | None, str]:
    """Check an example file as the CLI does: the instance (None when invalid) and the problems
    rendered one per line as `check` prints them, as kept in the `.expected` snapshots."""
    from cleveragents.safety_toolkit.formats.text import problem_line

    result = check_yaml_bytes(example.read_bytes(), relative(example), model)
    return result.instance, "".join(problem_line(problem) + "\n" for problem in result.problems)


@pytest.fixture(scope="session")
def profile_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def console_script(name: str) -> str:
    """A console script installed beside this interpreter (the project's own venv)."""
    import shutil

    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    assert found, f"{name} is not installed: pip install '.[test]'"
    return found


def local_schema_registry(*folders: Path) -> Any:
    """A `referencing.Registry` of every `*.schema.json` in `folders` under its `$id`, which
    refuses to retrieve anything else: a `$ref` resolves locally or fails, never downloads."""
    from referencing import Registry, Resource
    from referencing.exceptions import NoSuchResource

    def refuse(uri: str) -> Any:
        raise NoSuchResource(ref=uri)

    resources = [
        Resource.from_contents(json.loads(path.read_text(encoding="utf-8")))
        for folder in folders
        for path in sorted(folder.glob("*.schema.json"))
    ]
    registry = Registry(retrieve=refuse)  # type: ignore[call-arg]
    return registry.with_resources((resource.id() or "", resource) for resource in resources)


def model_accepts(model: Any, instance: Any) -> bool:
    """The model's verdict on `instance`, to set beside the schema's."""
    from pydantic import ValidationError

    try:
        model.model_validate(instance)
    except ValidationError:
        return False
    return True


def missing_tool(reason: str) -> NoReturn:
    """Skip a test whose tool is missing; under CI=true, where everything must run, fail it."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; under CI=true this test must run, not skip")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the whole session (see tests/postgres_server.py)."""
    from postgres_server import remove_server, server_binaries, start_server

    binaries = server_binaries()
    if binaries is None:
        missing_tool("PostgreSQL's initdb is not installed (Debian: apt-get install postgresql)")
    server = start_server(binaries)
    yield server
    remove_server(server)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """An empty database: a SQLite file, or a new database on the PostgreSQL server."""
    from db_demo import Database

    if request.param == "sqlite":
        return Database(f"sqlite:///{tmp_path / 'app.db'}")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return Database(server.url(server.create_database()))


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every worker of this test run shares (pytest-xdist runs one process per
    worker, each with its own temporary folder; their parent is the run's): what one worker
    builds there, the others reuse."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if "PYTEST_XDIST_WORKER" in os.environ else base


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]
) -> Path:
    """The folder `name` in the run's shared folder, filled by `build(folder)` once per test
    run: the first worker to ask builds it under a file lock, the others wait for it and reuse
    it. Users of the folder only read it. A build that raises leaves nothing behind, so the
    next asker tries again (and fails the same way, with its own traceback)."""
    from filelock import FileLock

    shared = shared_folder(tmp_path_factory)
    folder, done = shared / name, shared / f"{name}.done"
    with FileLock(str(shared / f"{name}.lock")):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            try:
                build(folder)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            done.touch()
    return folder


def build_wheel(project: Path, out: Path, name: str) -> Path:
    """The wheel of the project folder `project`, built by pip into `out` with the build
    backend already installed here (no download); `name` is its distribution's file name."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(project),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob(f"{name}-*.whl")
    return built


def wheel_built_once(tmp_path_factory: pytest.TempPathFactory, project: Path, name: str) -> Path:
    """The wheel of `project` (see build_wheel), built once per test run for every worker."""
    folder = built_once(
        tmp_path_factory, f"wheel-{name}", lambda out: build_wheel(project, out, name)
    )
    (wheel,) = folder.glob(f"{name}-*.whl")
    return wheel


@pytest.fixture(scope="session")
def floor_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example floor package's wheel (examples/floor-package), built by pip with its own
    build backend (hatchling), once per test run."""
    return wheel_built_once(
        tmp_path_factory, REPO_ROOT / "examples" / "floor-package", "acme_policies"
    )


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once per test run from this checkout."""
    return wheel_built_once(tmp_path_factory, REPO_ROOT, "cleveragents_safety_profile")


@pytest.fixture(scope="session")
def hook_repository(tmp_path_factory: pytest.TempPathFactory) -> HookRepository:
    """This checkout at a commit, with the hook environment pre-commit built from it: built
    once per test run (about 10 s), then every hook test runs the real `pre-commit run` with
    it (see tests/git_repos.py). Tests only read it."""
    from git_repos import HookRepository, seed_hook_repository

    folder = built_once(tmp_path_factory, "hook-repository", seed_hook_repository)
    return HookRepository(folder / "repository", folder / "pre-commit-home")


# The test files that take longest, longest first (per file, from `PYTEST_ADDOPTS="--durations=0"`
# on a quiet 2-core machine: real VS Code, PostgreSQL, our language server, the review action's
# installs, pip into new environments, property tests, Neovim),
# started first so that the workers finish together: pytest-xdist hands out whole files in
# collection order (`--dist loadfile --no-loadscope-reorder` in pyproject.toml), and a long file
# handed out last would run alone at the end. Order only: every test runs either way.
START_FIRST = (
    "test_editor_vscode.py",
    "test_db_migration.py",
    "test_language_server.py",
    "test_language_server_hostile.py",
    "test_review_action.py",
    "test_db_setup.py",
    "test_install_routes.py",
    "test_command_path_agrees.py",
    "test_hardening.py",
    "test_schema_model_agreement.py",
    "test_diff_git_hostile.py",
    "test_floor.py",
    "test_walkthroughs.py",
    "test_readme_examples.py",
    "test_db_column.py",
    "test_floor_package.py",
    "test_editor_neovim.py",
    "test_yaml_loading.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of START_FIRST first, in its order; the others after, as collected."""
    rank = {name: place for place, name in enumerate(START_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(START_FIRST)))
