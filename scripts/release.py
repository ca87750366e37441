"""Cut a release: bump the version, date the changelog, build and check both distributions, tag.

    python scripts/release.py 0.2.0

From a clean checkout of the branch to release, with `build` and `twine` installed (the `test`
extra has them). In order, stopping at the first failure with a message that says what to do:

1. the new version must be a valid version above the one in pyproject.toml, and the changelog's
   Unreleased section must list something;
2. pyproject.toml gets the new version, and so does the VS Code extension (editors/vscode's
   package.json and package-lock.json, which the release workflow packages); CHANGELOG.md's
   Unreleased entries move under `## [VERSION] - TODAY` (Keep a Changelog), with an empty
   Unreleased section above; the schemas' `$id`s (the output schemas' too, and their `$ref`s to
   the profile schema), the SchemaStore entry's `url` and the page that shows them name the new
   tag (`.../cleveragents-safety-profile/vVERSION/...`), as tests/editors/test_editor_files.py
   requires, and so does the modeline `safety-profile init` writes (`SCHEMA_REVISION` in starter.py,
   the default branch until the first release);
3. `python -m build` writes the sdist and the wheel to dist/;
4. `twine check --strict` checks their metadata, and the script checks what they hold: the
   LICENSE in both, the changelog in the sdist, and in the wheel the schemas (byte for byte as in
   schema/), the output schemas, the rule examples' text (`rules ID`) and every package's
   py.typed (when a step fails, the two files
   are put back as they were: nothing is committed or tagged);
5. one commit, "Release VERSION", and an annotated tag `vVERSION` on it.

Nothing is pushed or uploaded: docs/releasing.md gives the remaining steps, which the release
workflow (.github/workflows/release.yaml) runs.
"""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
UNRELEASED = "## [Unreleased]"
# Packages of the wheel that carry a py.typed marker (PEP 561).
TYPED_PACKAGES = ("domain", "persistence", "reading", "safety_toolkit", "safety_profile")
OUTPUT_SCHEMAS = ("check", "diff", "resolve", "show")
# Files naming the schemas' published URLs, whose path holds the release tag.
REPOSITORY_URL = "https://raw.githubusercontent.com/cleveragents/cleveragents-safety-profile"
VERSIONED_URL_FILES = (
    *sorted((ROOT / "schema").glob("*.schema.json")),
    *sorted((ROOT / "src" / "cleveragents" / "safety_toolkit" / "output_schemas").glob("*.json")),
    ROOT / "editors" / "schemastore-catalog-entry.json",
    ROOT / "docs" / "editor-schema.md",
)
# The revision whose schema `safety-profile init`'s modeline names (see its comment there).
STARTER = ROOT / "src" / "cleveragents" / "safety_toolkit" / "core" / "starter.py"
SCHEMA_REVISION_LINE = re.compile(r'^SCHEMA_REVISION = "[^"\n]*"$', re.MULTILINE)


class ReleaseError(Exception):
    """A check failed; the message says what to do."""


def run(*command: str) -> str:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ReleaseError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def current_version() -> Version:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return Version(project["version"])


def new_version(text: str) -> Version:
    try:
        version = Version(text)
    except InvalidVersion:
        raise ReleaseError(f"{text!r} is not a version (PEP 440), e.g. 0.2.0") from None
    if str(version) != text:
        raise ReleaseError(f"write the version as {version}, its normal form")
    if version <= current_version():
        raise ReleaseError(f"{version} is not above the current version {current_version()}")
    return version


def require_clean_tree() -> None:
    if run("git", "status", "--porcelain", "--untracked-files=no").strip():
        raise ReleaseError("the working tree has uncommitted changes: commit or stash them")


def bump_pyproject(version: Version) -> None:
    path = ROOT / "pyproject.toml"
    text = path.read_text(encoding="utf-8")
    bumped, count = re.subn(
        r'^version = "[^"]+"$', f'version = "{version}"', text, count=1, flags=re.MULTILINE
    )
    if count != 1:
        raise ReleaseError('pyproject.toml has no `version = "..."` line in [project]')
    path.write_text(bumped, encoding="utf-8")


EXTENSION_FILES = (
    # The VS Code extension's version, and in the lock file the project's own two entries.
    (ROOT / "editors" / "vscode" / "package.json", 1),
    (ROOT / "editors" / "vscode" / "package-lock.json", 2),
)


def bump_extension(old: Version, new: Version) -> None:
    """The VS Code extension gets the package's version (a test keeps them equal)."""
    if not re.fullmatch(r"\d+\.\d+\.\d+", str(new)):
        raise ReleaseError(
            f"{new}: the VS Code extension's version must be MAJOR.MINOR.PATCH (the Marketplace "
            "takes no pre-release suffix); release a version of that form"
        )
    for path, count in EXTENSION_FILES:
        text = path.read_text(encoding="utf-8")
        bumped, found = re.subn(
            rf'^(\s*)"version": "{re.escape(str(old))}",$',
            rf'\1"version": "{new}",',
            text,
            count=count,
            flags=re.MULTILINE,
        )
        if found != count:
            raise ReleaseError(f"{path.relative_to(ROOT)} does not hold the version {old}")
        path.write_text(bumped, encoding="utf-8")


def bump_schema_urls(old: Version, new: Version) -> None:
    """Point the schemas' published URL at the new tag: `$id`s, the SchemaStore entry, the docs."""
    for path in VERSIONED_URL_FILES:
        text = path.read_text(encoding="utf-8")
        if f"{REPOSITORY_URL}/v{old}/" not in text:
            raise ReleaseError(
                f"{path.relative_to(ROOT)} does not name the schemas' URL at v{old}: "
                "put it back as tests/editors/test_editor_files.py expects"
            )
        bumped = text.replace(f"{REPOSITORY_URL}/v{old}/", f"{REPOSITORY_URL}/v{new}/")
        path.write_text(bumped, encoding="utf-8")


def bump_starter_revision(new: Version, starter: Path = STARTER) -> None:
    """Point `safety-profile init`'s modeline at the new tag, which this release creates."""
    text = starter.read_text(encoding="utf-8")
    bumped, count = SCHEMA_REVISION_LINE.subn(f'SCHEMA_REVISION = "v{new}"', text)
    if count != 1:
        shown = starter.relative_to(ROOT) if starter.is_relative_to(ROOT) else starter
        raise ReleaseError(f'{shown} has no `SCHEMA_REVISION = "..."` line: put it back')
    starter.write_text(bumped, encoding="utf-8")


def date_changelog(version: Version, today: datetime.date) -> None:
    """Move the Unreleased entries under a new version heading (Keep a Changelog)."""
    path = ROOT / "CHANGELOG.md"
    text = path.read_text(encoding="utf-8")
    before, found, after = text.partition(UNRELEASED + "\n")
    if not found:
        raise ReleaseError(f"CHANGELOG.md has no `{UNRELEASED}` section")
    entries, heading, rest = after.partition("\n## [")
    if not entries.strip():
        raise ReleaseError("CHANGELOG.md's Unreleased section is empty: list the changes first")
    released = f"{UNRELEASED}\n\n## [{version}] - {today.isoformat()}\n{entries.rstrip()}\n"
    path.write_text(before + released + (f"\n## [{rest}" if heading else ""), encoding="utf-8")


def build() -> tuple[Path, Path]:
    """The sdist and the wheel of this version, built afresh in dist/."""
    for old in DIST.glob("cleveragents_safety_profile-*"):
        old.unlink()
    run(sys.executable, "-m", "build", "--outdir", str(DIST))
    version = current_version()
    sdist = DIST / f"cleveragents_safety_profile-{version}.tar.gz"
    wheel = DIST / f"cleveragents_safety_profile-{version}-py3-none-any.whl"
    for built in (sdist, wheel):
        if not built.is_file():
            raise ReleaseError(f"python -m build did not write {built.name}")
    return sdist, wheel


def check_distributions(sdist: Path, wheel: Path) -> None:
    run(sys.executable, "-m", "twine", "check", "--strict", str(sdist), str(wheel))
    licence = (ROOT / "LICENSE").read_bytes()
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        licences = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
        if len(licences) != 1 or archive.read(licences[0]) != licence:
            raise ReleaseError(f"{wheel.name} does not hold the LICENSE")
        for schema in sorted((ROOT / "schema").glob("*.json")):
            name = f"cleveragents/schemas/{schema.name}"
            if name not in names or archive.read(name) != schema.read_bytes():
                raise ReleaseError(f"{wheel.name} does not hold schema/{schema.name} as it is")
        expected = {f"cleveragents/{package}/py.typed" for package in TYPED_PACKAGES} | {
            f"cleveragents/safety_toolkit/output_schemas/{command}.schema.json"
            for command in OUTPUT_SCHEMAS
        }
        # What `safety-profile rules ID` shows of its examples.
        expected.add("cleveragents/safety_toolkit/core/rule_examples.json")
        if missing := sorted(expected - names):
            raise ReleaseError(f"{wheel.name} lacks {', '.join(missing)}")
    with tarfile.open(sdist) as archive:
        top = f"{sdist.name.removesuffix('.tar.gz')}/"
        members = {name.removeprefix(top) for name in archive.getnames()}
    if missing := sorted({"LICENSE", "CHANGELOG.md", "pyproject.toml"} - members):
        raise ReleaseError(f"{sdist.name} lacks {', '.join(missing)}")


def release(text: str, today: datetime.date) -> list[str]:
    """Every step up to the tag; the lines to print when done."""
    version = new_version(text)
    tag = f"v{version}"
    if run("git", "tag", "--list", tag).strip():
        raise ReleaseError(f"the tag {tag} exists already")
    require_clean_tree()
    extension = tuple(path for path, _ in EXTENSION_FILES)
    files = (
        ROOT / "pyproject.toml",
        ROOT / "CHANGELOG.md",
        STARTER,
        *VERSIONED_URL_FILES,
        *extension,
    )
    edited = {path: path.read_bytes() for path in files}
    try:
        bump_extension(current_version(), version)
        bump_schema_urls(current_version(), version)
        bump_starter_revision(version)
        bump_pyproject(version)
        date_changelog(version, today)
        sdist, wheel = build()
        check_distributions(sdist, wheel)
    except ReleaseError:
        for path, content in edited.items():  # as it was: nothing committed, nothing tagged
            path.write_bytes(content)
        raise
    run("git", "add", *(str(path.relative_to(ROOT)) for path in files))
    run("git", "commit", "-q", "-m", f"Release {version}")
    run("git", "tag", "-a", tag, "-m", f"Release {version}")
    return [
        f"released {version}: commit {run('git', 'rev-parse', '--short', 'HEAD').strip()}, "
        f"tag {tag}",
        f"  {sdist.relative_to(ROOT)}",
        f"  {wheel.relative_to(ROOT)}",
        f"next: git push origin HEAD {tag}, then publish dist/ (see docs/releasing.md)",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("version", help="the new version, e.g. 0.2.0")
    args = parser.parse_args(argv)
    try:
        lines = release(args.version, datetime.datetime.now(datetime.UTC).date())
    except ReleaseError as error:
        print(f"release: {error}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
