"""The layers import down the stack only: reading -> domain -> commands (safety_toolkit) ->
formats. No package imports one above it, no two modules of domain/ import each other (type-only
imports count), and command modules do not import one another: what they share (rendering,
kinds, the rule catalogue, the format registry) is a module of its own.

Read from the source with `ast`, every import counted, lazy ones inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO_ROOT

SOURCE = REPO_ROOT / "src" / "cleveragents"
LAYERS = ["reading", "domain", "safety_toolkit", "persistence"]
# What each package may import from the project (besides itself and the generated code).
MAY_IMPORT = {
    "reading": set(),
    "domain": {"reading"},
    "safety_toolkit": {"reading", "domain"},
    "persistence": {"reading", "domain"},
}
COMMANDS = {"check", "diff", "resolve", "show", "starter", "git_versions", "cli"}


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


@pytest.mark.parametrize("package", LAYERS)
def test_no_package_imports_one_above_it(package: str) -> None:
    allowed = {package, *MAY_IMPORT[package], "schema_models", "schema_validators"}
    wrong = {
        (module, name)
        for module, names in project_imports(package).items()
        for name in names
        if name.split(".")[1] not in allowed
    }
    assert wrong == set()


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
    toolkit = "cleveragents.safety_toolkit"
    commands = {f"{toolkit}.{name}" for name in COMMANDS - {"cli"}}
    graph = project_imports("safety_toolkit")
    wrong = {
        (module, name)
        for module, names in graph.items()
        if module in commands
        for name in names & commands
        # git_versions reads the versions diff compares: diff's own source of input.
        if (module, name) != (f"{toolkit}.git_versions", f"{toolkit}.diff")
    }
    assert wrong == set()
    # The formats render reports; they import no command but for the report types.
    for module, names in graph.items():
        if module.startswith(f"{toolkit}.formats"):
            assert names & {f"{toolkit}.cli", f"{toolkit}.check"} == set(), module
