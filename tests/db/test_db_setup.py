"""The README's database set-up, followed as written.

From an empty folder: the README's shell blocks run in bash, its edits made exactly where it
says, with real `alembic` commands, on SQLite and on PostgreSQL. The package comes from its
wheel, unpacked into a folder of its own as site-packages would hold it, so a revision that
went astray lands in that copy, never in this checkout. Then the README's queries run, as
written, on the database the steps created.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from db_demo import APP_VERSIONS, PACKAGE_VERSIONS, Database, make_demo_app
from readme import code_blocks

from cleveragents.persistence.migrations import HEAD_REVISION, SHIPPED_REVISION_FILES

SECTION = "Persistence (optional [db] extra)"
STEPS = "A new application, step by step"
STORAGE = "JSONB on PostgreSQL, JSON text elsewhere"
BIN = Path(sys.executable).parent  # alembic, as the application's virtual environment has it
sqlite_only = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@dataclass(frozen=True)
class Steps:
    """The README's blocks for a new application, in the order it shows them."""

    init: str
    version_lines: str
    url_line: str
    env_import: str
    env_argument: str
    first_revision: str
    tables: str
    upgrade: str
    model_line: str
    refusal: str


def readme_steps() -> Steps:
    blocks = code_blocks(SECTION, STEPS)
    languages = ["sh", "ini", "ini", "python", "python", "sh", "python", "sh", "python", "text"]
    assert [language for language, _ in blocks] == languages
    return Steps(*(text for _, text in blocks))


def readme_queries() -> dict[str, str]:
    """The README's SQL, by what it is for."""
    blocks = [text for language, text in code_blocks(SECTION, STORAGE) if language == "sql"]
    postgresql, index, sqlite = blocks
    return {"postgresql": postgresql, "index": index, "sqlite": sqlite}


@pytest.fixture
def site_packages(built_wheel: Path, tmp_path: Path) -> Path:
    """The package installed from its wheel into a folder of its own."""
    folder = tmp_path / "site-packages"
    zipfile.ZipFile(built_wheel).extractall(folder)
    return folder


def package_folder(site_packages: Path) -> Path:
    """The installed package's versions folder."""
    return site_packages / "cleveragents" / "persistence" / "migrations" / "versions"


def package_revision_files(site_packages: Path) -> set[str]:
    return {path.name for path in package_folder(site_packages).glob("*.py")}


class Application:
    """An application's folder, where the README's commands run with the package from
    `site_packages`."""

    def __init__(self, folder: Path, site_packages: Path) -> None:
        folder.mkdir(exist_ok=True)
        self.folder = folder
        self.environment = {
            **os.environ,
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(site_packages),
        }

    def run(self, script: str) -> subprocess.CompletedProcess[str]:
        """`script` in bash, stopping at the first failing command."""
        return subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=self.folder,
            env=self.environment,
            capture_output=True,
            text=True,
            check=False,
        )

    def run_ok(self, script: str) -> str:
        result = self.run(script)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout + result.stderr

    def replace(self, name: str, old: str, new: str, count: int = 1) -> None:
        """Replace `old` with `new` in the file `name`; it must occur `count` times."""
        path = self.folder / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == count, f"{name} has {text.count(old)} of {old!r}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    def revision_files(self) -> list[Path]:
        return sorted((self.folder / "alembic" / "versions").glob("*.py"))


def failure(result: subprocess.CompletedProcess[str]) -> str:
    """Alembic's one-line `FAILED: ...` message (it exits 255), with no traceback around it."""
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "Traceback" not in output
    (line,) = [line for line in output.splitlines() if line.startswith("FAILED: ")]
    return line


def steps_1_to_3(app: Application, database: Database, *, guard: bool) -> Steps:
    """The README's steps 1 and 2, and 3 (the guard) when `guard`; returns all the steps."""
    steps = readme_steps()
    app.run_ok(steps.init)
    app.replace("alembic.ini", "path_separator = os\n", steps.version_lines)
    url_line = (
        steps.url_line if database.dialect == "sqlite" else f"sqlalchemy.url = {database.url}\n"
    )
    app.replace("alembic.ini", "sqlalchemy.url = driver://user:pass@localhost/dbname\n", url_line)
    if guard:
        app.replace(
            "alembic/env.py",
            "from alembic import context\n",
            f"from alembic import context\n{steps.env_import}",
        )
        app.replace(
            "alembic/env.py",
            "context.configure(\n",
            f"context.configure(\n{steps.env_argument}",
            count=2,
        )
    return steps


def steps_4_and_5(app: Application, steps: Steps) -> str:
    """Your first revision, its tables, the upgrades; returns the revision's id."""
    app.run_ok(steps.first_revision)
    (first,) = app.revision_files()
    text = first.read_text(encoding="utf-8")
    first.write_text(text[: text.index("def upgrade")] + steps.tables, encoding="utf-8")
    app.run_ok(steps.upgrade)
    match = re.search(r"^revision: str = '(\w+)'$", text, re.MULTILINE)
    assert match is not None
    return match.group(1)


def app_database(folder: Path, database: Database) -> Database:
    """Where the application's alembic.ini points: the README's SQLite file, or the test
    server's database."""
    return Database(f"sqlite:///{folder / 'app.db'}") if database.dialect == "sqlite" else database


@pytest.fixture
def app(tmp_path: Path, site_packages: Path) -> Application:
    """A new application: an empty folder."""
    return Application(tmp_path / "app", site_packages)


def test_the_readme_steps_from_an_empty_folder(
    app: Application, site_packages: Path, database: Database
) -> None:
    steps = steps_1_to_3(app, database, guard=True)

    # The command: the guard refuses it, writes nothing, and says what to run.
    refused = failure(app.run('alembic revision -m "create actions"'))
    shown = " ".join(
        refused.replace(
            str(package_folder(site_packages)),
            ".../site-packages/cleveragents/persistence/migrations/versions",
        ).split()
    )
    assert shown == " ".join(steps.refusal.split())
    assert steps.first_revision.strip() in refused
    assert package_revision_files(site_packages) == SHIPPED_REVISION_FILES
    assert app.revision_files() == []

    first = steps_4_and_5(app, steps)
    migrated = app_database(app.folder, database)
    assert migrated.revisions() == {first, HEAD_REVISION}
    assert migrated.columns("actions") == ["id", "name", "safety_profile_json"]
    assert migrated.column_type("actions", "safety_profile_json") == (
        "TEXT" if database.dialect == "sqlite" else "JSONB"
    )

    # Later revisions: plain `alembic revision` stops; --head=app@head goes to your folder.
    assert "Multiple heads are present" in failure(app.run('alembic revision -m "add owner"'))
    app.run_ok('alembic revision -m "add owner" --head=app@head')
    (later,) = [path for path in app.revision_files() if path.name.endswith("_add_owner.py")]
    assert f"down_revision: Union[str, Sequence[str], None] = '{first}'" in later.read_text()
    assert package_revision_files(site_packages) == SHIPPED_REVISION_FILES

    # Step 6's column declaration, and the README's query for unsafe tools, exactly as written.
    (app.folder / "models.py").write_text(
        "from sqlalchemy import String\n"
        "from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column\n\n"
        "from cleveragents.domain.models.core.safety_profile import SafetyProfile\n"
        "from cleveragents.persistence import SafetyProfileJSON\n\n\n"
        "class Base(DeclarativeBase):\n    pass\n\n\n"
        "class Action(Base):\n"
        '    __tablename__ = "actions"\n\n'
        "    id: Mapped[int] = mapped_column(primary_key=True)\n"
        "    name: Mapped[str] = mapped_column(String(200))\n"
        f"    {steps.model_line}",
        encoding="utf-8",
    )
    store_profiles = (
        "import sys\n"
        "from sqlalchemy import create_engine\n"
        "from sqlalchemy.orm import Session\n"
        "from cleveragents.domain.models.core.safety_profile import SafetyProfile\n"
        "from models import Action\n"
        "unsafe = {2: True, 5: True, 1: False}  # 4: every default (unsafe tools not allowed)\n"
        "with Session(create_engine(sys.argv[1])) as session:\n"
        "    for key in range(1, 6):\n"
        "        profile = SafetyProfile(allow_unsafe_tools=unsafe.get(key, False))\n"
        "        if key == 3:\n"
        "            profile = None  # no profile of its own\n"
        "        session.add(Action(id=key, name=f'a{key}', safety_profile_json=profile))\n"
        "    session.commit()\n"
    )
    app.run_ok(f"python -c {shlex.quote(store_profiles)} {shlex.quote(migrated.url)}")
    with migrated.engine() as engine, engine.begin() as connection:
        query = readme_queries()[database.dialect]
        assert [tuple(row) for row in connection.exec_driver_sql(query)] == [(2, "a2"), (5, "a5")]
        if database.dialect == "postgresql":
            connection.exec_driver_sql(readme_queries()["index"])
            assert [row[0] for row in connection.exec_driver_sql(query)] == [2, 5]


@sqlite_only
def test_without_the_guard_every_command_names_the_stray_revision(
    app: Application, site_packages: Path, database: Database
) -> None:
    steps = steps_1_to_3(app, database, guard=False)

    # The trap, as the issue found it: the revision goes into the installed package.
    app.run_ok('alembic revision -m "create actions"')
    (stray,) = package_revision_files(site_packages) - SHIPPED_REVISION_FILES
    assert app.revision_files() == []

    for command in ("alembic upgrade heads", "alembic heads"):
        message = failure(app.run(command))
        assert message.startswith(f"FAILED: {stray} in ")
        assert "is not a revision of the installed cleveragents-safety-profile package" in message
        assert message.endswith(
            "Move it into your own versions folder, make it the base of your own branch there "
            "(down_revision = None, branch_labels = ('app',)), and create later revisions with "
            "--head=app@head"
        )

    # Doing what it says works.
    moved = app.folder / "alembic" / "versions" / stray
    shutil.move(package_folder(site_packages) / stray, moved)
    text = moved.read_text(encoding="utf-8")
    text = text.replace(f"= '{HEAD_REVISION}'", "= None").replace(
        "branch_labels: Union[str, Sequence[str], None] = None", "branch_labels = ('app',)"
    )
    moved.write_text(text[: text.index("def upgrade")] + steps.tables, encoding="utf-8")
    app.run_ok(steps.upgrade)
    assert app_database(app.folder, database).columns("actions") == [
        "id",
        "name",
        "safety_profile_json",
    ]


@sqlite_only
def test_an_existing_history_gets_a_label_and_the_guard_points_at_it(
    tmp_path: Path, site_packages: Path, database: Database
) -> None:
    """The README's existing-application case: a history without a branch label (the demo
    application's), the package's folder added; revisions then go on the application's branch."""
    demo = make_demo_app(tmp_path / "demo", [APP_VERSIONS, PACKAGE_VERSIONS], database)
    app = Application(demo, site_packages)
    app.run_ok("alembic upgrade app_001_actions && alembic upgrade heads")
    assert "Multiple heads are present" in failure(app.run('alembic revision -m "add owner"'))

    app.replace(
        "alembic/versions/app_001_actions.py", "branch_labels = None", 'branch_labels = ("app",)'
    )
    refused = failure(app.run(f'alembic revision -m "add owner" --head={HEAD_REVISION}'))
    assert refused.endswith(
        'To base it on your own branch: alembic revision -m "add owner" --head=app@head'
    )
    assert package_revision_files(site_packages) == SHIPPED_REVISION_FILES

    app.run_ok('alembic revision -m "add owner" --head=app@head')
    assert [path.name.endswith("_add_owner.py") for path in app.revision_files()].count(True) == 1


@sqlite_only
def test_the_guard_refuses_the_package_folder_as_version_path(
    app: Application, site_packages: Path, database: Database
) -> None:
    steps = steps_1_to_3(app, database, guard=True)
    folder = package_folder(site_packages)
    command = 'alembic revision -m "create actions" --head=base --branch-label=app'
    refused = failure(app.run(f"{command} --version-path={folder}"))
    assert refused == (
        "FAILED: this new revision would be written into the installed "
        f"cleveragents-safety-profile package's folder ({folder}), where reinstalling "
        "deletes it; nothing was written. To start your application's own branch in its own "
        f"folder: {steps.first_revision.strip()}; later revisions take --head=app@head"
    )
    assert package_revision_files(site_packages) == SHIPPED_REVISION_FILES
