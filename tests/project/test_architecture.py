"""The layers import down the stack only, exactly as docs/architecture.md draws them; the
tests' folders are its table's ("The tests").

Across the project: reading -> domain -> safety_toolkit (and persistence beside it); no package
imports one above it, and no two modules of domain/ import each other.

Inside safety_toolkit/, one folder per job, each importing only the folders its row of
`MAY_IMPORT` names (and reading/, domain/, the generated code where the row says so):

    cli/      -> lsp, formats, core, floor, git
    lsp/      -> core, floor, git
    formats/  -> core
    core/     -> floor, git
    floor/    -> git
    git/      -> (reading only)

Nothing imports cli/ but `__main__` (the package's `python -m`). The commands of core/ (check,
diff, resolve, show, starter) do not import one another: what they share is a module of its own.

Read from the source with `ast`, every import counted: lazy ones inside functions and type-only
ones too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import REPO_ROOT

SOURCE = REPO_ROOT / "src" / "cleveragents"
TOOLKIT = "cleveragents.safety_toolkit"
GENERATED = {"schema_models", "schema_validators"}

LAYERS = ["reading", "domain", "safety_toolkit", "persistence"]
# What each package may import from the project (besides itself and the generated code).
MAY_IMPORT_PACKAGE = {
    "reading": set(),
    "domain": {"reading"},
    "safety_toolkit": {"reading", "domain"},
    "persistence": {"reading", "domain"},
}

# The table of docs/architecture.md: each folder of safety_toolkit/, the folders it may import,
# and whether it may import domain/ (every folder may import reading/).
MAY_IMPORT = {
    "cli": {"lsp", "formats", "core", "floor", "git"},
    "lsp": {"core", "floor", "git"},
    "formats": {"core"},
    "core": {"floor", "git"},
    "floor": {"git"},
    "git": set(),
}
MAY_IMPORT_DOMAIN = {"cli", "lsp", "formats", "core", "floor"}
COMMANDS = {"check", "diff", "resolve", "show", "starter"}


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module `path` imports, as absolute names."""
    package = module_name(path).rsplit(".", 0 if path.name == "__init__.py" else 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                found.add(f"{base}.{node.module}" if node.module else base)
                found |= {f"{base}.{alias.name}" for alias in node.names if not node.module}
            else:
                found.add(node.module or "")
    return found


def project_imports(package: str) -> dict[str, set[str]]:
    return {
        module_name(path): {name for name in imports(path) if name.startswith("cleveragents.")}
        for path in sorted((SOURCE / package).rglob("*.py"))
    }


def folder(module: str) -> str | None:
    """The folder of safety_toolkit/ a module is in (None: the package's own `__init__`,
    `__main__`, or a module outside the toolkit)."""
    parts = module.split(".")
    if parts[:2] != TOOLKIT.split(".") or len(parts) < 3 or parts[2] == "__main__":
        return None
    return parts[2]


@pytest.mark.parametrize("package", LAYERS)
def test_no_package_imports_one_above_it(package: str) -> None:
    allowed = {package, *MAY_IMPORT_PACKAGE[package], *GENERATED}
    wrong = {
        (module, name)
        for module, names in project_imports(package).items()
        for name in names
        if name.split(".")[1] not in allowed
    }
    assert wrong == set()


def test_the_toolkit_is_the_folders_of_the_table() -> None:
    """Every module of safety_toolkit/ is in one of the table's folders, but for the package's
    own `__init__` and `__main__`: a new folder gets a row (and its line in the docs)."""
    toolkit = SOURCE / "safety_toolkit"
    folders = {path.name for path in toolkit.iterdir() if (path / "__init__.py").exists()}
    loose = {path.name for path in toolkit.glob("*.py")}
    assert (folders, loose) == (set(MAY_IMPORT), {"__init__.py", "__main__.py"})


def test_every_test_file_is_in_a_folder_of_the_tests_table() -> None:
    """docs/architecture.md, "The tests": each test file in the folder of the part it tests,
    and the folders exactly the table's rows."""
    page = (REPO_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = page.split("## The tests", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z]+)/` \|", table, flags=re.MULTILINE))
    tests = REPO_ROOT / "tests"
    holding = {path.parent.name for path in tests.glob("*/test_*.py")}
    assert sorted(path.name for path in tests.glob("test_*.py")) == []
    assert holding == listed


@pytest.mark.parametrize("name", sorted(MAY_IMPORT))
def test_each_folder_imports_only_its_row_of_the_table(name: str) -> None:
    allowed = {name, *MAY_IMPORT[name]}
    wrong = set()
    for module, names in project_imports(f"safety_toolkit/{name}").items():
        for imported in names:
            top = imported.split(".")[1]
            if top == "safety_toolkit":
                if folder(imported) not in allowed:
                    wrong.add((module, imported))
            elif top == "domain" and name not in MAY_IMPORT_DOMAIN:
                wrong.add((module, imported))
    assert wrong == set()


def test_nothing_imports_cli_but_main() -> None:
    graph = project_imports("safety_toolkit")
    importers = {
        module
        for module, names in graph.items()
        if folder(module) != "cli" and any(folder(name) == "cli" for name in names)
    }
    assert importers == {f"{TOOLKIT}.__main__"}


def test_no_import_cycle_inside_domain() -> None:
    graph = project_imports("domain")
    modules = set(graph)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for name in graph.get(start, set()) & modules:
            if name == goal or (name not in seen and reaches(name, goal, seen | {name})):
                return True
        return False

    assert {module for module in graph if reaches(module, module, {module})} == set()


def test_command_modules_do_not_import_each_other() -> None:
    commands = {f"{TOOLKIT}.core.{name}" for name in COMMANDS}
    graph = project_imports("safety_toolkit/core")
    wrong = {
        (module, name)
        for module, names in graph.items()
        if module in commands
        for name in names & commands
        if name != module
    }
    assert wrong == set()
