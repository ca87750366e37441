"""An organisation's floor: a safety profile that every checked profile must be at least as
strict as, field by field, in the order `diff` uses (`strictness`).

Where it comes from:

* `--floor FILE` or `--floor pkg:PACKAGE/RESOURCE` on the command line: that floor alone;
* else `floor = "..."` in `[tool.safety-profile]` of every `pyproject.toml` from the checked
  file's folder upwards to the repository root (the folder holding `.git`); a path there is
  relative to that `pyproject.toml`. A file is held to each of them: a `pyproject.toml` nearer
  the file (a sub-project's, or one a change adds) can add a floor, never lift one set above it.

`pkg:` names a file inside an installed Python package, so an organisation ships its floor as a
small package that pre-commit installs through `additional_dependencies`. The package is found
by importlib's finders, as `importlib.resources` would, but never imported: a name in a
configuration file must not run the code of whatever module it names.

A floor a `pyproject.toml` sets must be part of the repository that file is in (outside any
repository: at or below its folder): a path or a link that leaves it, one into git's own
folder, or a file git ignores is refused (`floor.outside`), never read; `--floor PATH` on the
command line may name any file. `--add-floor FLOOR` holds files to FLOOR as well as to the
configured floors (the organisation's floor in CI, which the repository cannot lift).

Where files are read from is a `FloorFiles`: the working tree by default; `diff --git` reads
each side's `pyproject.toml` and floor files from that side's revision.

A floor is read with the same strict loader and checked by the same validator as any profile
(without pydantic), and held as its effective values. A floor that cannot be used
(missing, unreadable, invalid, its package not installed, a broken `pyproject.toml`) raises
FloorError, which every command reports with exit status 2: never "no floor". `--no-floor` is
refused where the configuration sets a floor unless the environment sets
`SAFETY_PROFILE_ALLOW_NO_FLOOR=1`, so a command line alone cannot talk CI out of it.

This module finds and reads floors; `comparison.py` holds a profile to them (imported only
where a floor is set: `check` of a valid file with none needs no rendering, nor json).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence

from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple
from cleveragents.reading.rules import Rule
from cleveragents.reading.terminal_text import visible

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ALLOW_NO_FLOOR_VARIABLE",
    "CONFIG_FILE",
    "WORKING_TREE",
    "Configured",
    "Floor",
    "FloorError",
    "FloorFiles",
    "FloorSetting",
    "Floors",
    "load_floor",
    "parse_config",
]

ALLOW_NO_FLOOR_VARIABLE = "SAFETY_PROFILE_ALLOW_NO_FLOOR"
PACKAGE_PREFIX = "pkg:"
CONFIG_FILE = "pyproject.toml"
CONFIG_TABLE = "safety-profile"  # [tool.safety-profile]
_CONFIG_KEYS = frozenset({"floor"})
_PACKAGE_NAME = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$"  # compiled when used


class FloorError(Exception):
    """The floor cannot be used; the message says which, why and what to do (exit 2). `rule`:
    floor.unusable, or floor.outside for a floor that leaves the repository."""

    def __init__(self, message: str, rule: Rule = Rule.FLOOR_UNUSABLE) -> None:
        super().__init__(message)
        self.rule = rule


class Floor(NamedTuple):
    """A loaded floor and where it comes from, as reports name it."""

    profile: Mapping[str, Any]  # its effective values (`document_values`)
    source: str  # `pkg:acme_policies/floor.safety_profile.yaml`, or the file's path
    # The file read, resolved, and its bytes' digest: two settings naming one file are one
    # floor (never two files whose names merely read alike), and so is one file read from two
    # revisions where it holds the same bytes.
    identity: str = ""
    data: bytes = b""  # the file's bytes, for `diff --git` to compare a floor like a profile


class FloorSetting(NamedTuple):
    """What the command line says: a floor (`--floor`), none (`--no-floor`), or, by default,
    the configuration's; and floors every file is held to as well (`--add-floor`)."""

    given: str | None = None
    refused: bool = False
    added: tuple[str, ...] = ()

    @property
    def configured(self) -> bool:
        """Whether the floors the repository's pyproject.toml files set are the ones used."""
        return self.given is None and not self.refused


class Configured(NamedTuple):
    """The floor one pyproject.toml sets."""

    spec: str  # as written: a path relative to the pyproject.toml, or `pkg:...`
    pyproject: str  # its absolute path


def _shown_path(path: str) -> str:
    """A path as messages show it: relative to the current folder, as git shows paths."""
    return os.path.relpath(os.path.abspath(path))


def _looks_like_ours(name: str) -> bool:
    """`safety_profile`, `Safety-Profile`, `safety` U+2010 `profile`: a name a reader takes for
    [tool.safety-profile] at a glance."""
    letters = "".join(character for character in name.casefold() if character.isalnum())
    return letters in ("safetyprofile", "safetyprofiles")


def parse_config(data: bytes, pyproject: str, shown: str) -> Configured | None:
    """The floor the pyproject.toml `pyproject` (its bytes `data`; `shown` as messages name
    it) sets in [tool.safety-profile], if any."""
    import tomllib

    try:
        document = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise FloorError(f"{shown}: invalid TOML: not UTF-8 ({error.reason})") from None
    except tomllib.TOMLDecodeError as error:
        raise FloorError(f"{shown}: invalid TOML: {error}") from None
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise FloorError(f"{shown}: tool must be a table, [tool]; found {tool!r}")
    # A misspelt table (`[tool.safety_profile]`, a look-alike dash) must not pass for no floor.
    near = sorted(name for name in tool if name != CONFIG_TABLE and _looks_like_ours(name))
    if near:
        raise FloorError(
            f"{shown}: [tool.{visible(near[0])}] is not a table safety-profile reads; "
            f"write it [tool.{CONFIG_TABLE}]"
        )
    table = tool.get(CONFIG_TABLE)
    if table is None:
        return None
    if not isinstance(table, dict):
        raise FloorError(f"{shown}: tool.{CONFIG_TABLE} must be a table, [tool.{CONFIG_TABLE}]")
    unknown = sorted(set(table) - _CONFIG_KEYS)
    if unknown:
        # A misspelt `floor` must not pass for no floor at all.
        names = ", ".join(repr(key) for key in unknown)
        raise FloorError(
            f"{shown}: [tool.{CONFIG_TABLE}] has unknown keys {names}; the one key is 'floor'"
        )
    if "floor" not in table:
        return None
    spec = table["floor"]
    # A NUL: no file name holds one (the file system calls would stop the command).
    if not isinstance(spec, str) or not spec.strip() or "\0" in spec:
        raise FloorError(
            f"{shown}: [tool.{CONFIG_TABLE}] floor must be a path relative to this file or "
            f"'{PACKAGE_PREFIX}PACKAGE/RESOURCE', as a string; found {spec!r}"
        )
    return Configured(spec, pyproject)


def floor_outside(shown: str, where: str, what: str) -> FloorError:
    return FloorError(
        f"the floor {visible(shown)} ({where}) {what}, so it is not read: a floor a repository "
        "sets must be a file of that repository (or pkg:PACKAGE/RESOURCE); --floor PATH on the "
        "command line may name any file",
        Rule.FLOOR_OUTSIDE,
    )


def floor_identity(path: str, data: bytes) -> str:
    """One floor, whichever side or name it is read by: its file and its bytes."""
    import hashlib

    return f"{path}\0{hashlib.sha256(data).hexdigest()}"


class FloorFiles:
    """Where `pyproject.toml` files and the floor files they name are read from: here, the
    working tree (`diff --git` reads a revision's through `core/git_diff.py`)."""

    label = ""  # after a pyproject.toml's name in messages: " in REV" for a revision

    def upwards(self, folder: str) -> Iterator[str]:
        """`folder`, then each folder above it, up to the repository root (the nearest holding
        `.git`) or, outside any repository, the file system's root."""
        while True:
            yield folder
            parent = os.path.dirname(folder)
            if os.path.exists(os.path.join(folder, ".git")) or parent == folder:
                return
            folder = parent

    def config(self, folder: str) -> Configured | None:
        """The floor the pyproject.toml in `folder` sets, if there is one and it sets one."""
        pyproject = os.path.join(folder, CONFIG_FILE)
        shown = visible(_shown_path(pyproject))
        if os.path.lexists(pyproject) and not os.path.isfile(pyproject):
            # A folder, a FIFO or a link to nothing in pyproject.toml's place: it may have held
            # a floor, so it is no floor only when it is no file at all.
            raise FloorError(
                f"{shown}: not a regular file, so the floor it may set cannot be read; make it a "
                "file or remove it"
            )
        if not os.path.isfile(pyproject):
            return None
        root = _repository_root(folder)
        if root is not None and not _inside(os.path.realpath(pyproject), os.path.realpath(root)):
            raise FloorError(
                f"{shown}: a link out of the repository, so it is not read; make it a file",
                Rule.FLOOR_OUTSIDE,
            )
        try:
            with open(pyproject, "rb") as file:
                data = file.read()
        except OSError as error:
            reason = (error.strerror or str(error)).lower()
            raise FloorError(f"{shown}: cannot be read ({reason})") from None
        return parse_config(data, pyproject, shown)

    def floor_file(self, spec: str, base: str, shown: str, where: str) -> tuple[bytes, int, str]:
        """The bytes, size and identity of the floor file `spec` (a path relative to `base`),
        set in a pyproject.toml in the folder `base`: refused (floor.outside) when it leaves
        that file's repository (or, outside one, its folder), lies in git's own folder or is
        a file git ignores."""
        path = os.path.join(base, spec)
        root = _repository_root(base)
        bound = os.path.realpath(base if root is None else root)
        real = os.path.realpath(path)
        if not _inside(real, bound):
            where_to = "the repository" if root is not None else "the folder of its pyproject.toml"
            raise floor_outside(shown, where, f"leads outside {where_to}")
        if root is not None:
            git_folder = os.path.join(bound, ".git")
            if os.path.isdir(git_folder) and _inside(real, os.path.realpath(git_folder)):
                raise floor_outside(shown, where, "is in git's own folder (.git)")
            relative = os.path.relpath(real, bound)
            if _ignored_by_git(bound, relative):
                raise floor_outside(shown, where, "is a file git ignores")
            transformed = _transformed_by_git(bound, relative)
            if transformed:  # a smudge filter may write what no commit holds (a secret)
                raise FloorError(f"the floor {visible(shown)} ({where}): {transformed}")
        data, size = _file_floor(path, shown, where)
        return data, size, floor_identity(real, data)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _ignored_by_git(root: str, relative: str) -> bool:
    """Whether git ignores the untracked file `relative` in the work tree `root` (a tracked
    file never is): a local file (`.env`, credentials), not part of what is reviewed."""
    from ..git.objects import GitError, git

    try:
        listed = git(
            root,
            "ls-files",
            "-z",
            "--others",
            "--ignored",
            "--exclude-standard",
            "--",
            relative.replace(os.sep, "/"),
        )
    except GitError as error:
        raise FloorError(f"git cannot read the repository {visible(root)}: {error}") from None
    return bool(listed)


def _transformed_by_git(root: str, relative: str) -> str:
    """Why a checkout of the file `relative` in the work tree `root` differs from what is
    committed (the words `check` says of such a profile), or "" when it does not. What only
    an archive changes (`export-ignore`, `export-subst`) is no matter: a floor is read from
    the repository, never from an archive of it."""
    from pathlib import Path

    from ..git.objects import ARCHIVE_ATTRIBUTES, GitError, attribute_message, transformed_paths

    path = relative.replace(os.sep, "/")
    try:
        found = transformed_paths(Path(root), [path], None, False).get(path, [])
    except GitError as error:
        raise FloorError(f"git cannot read the repository {visible(root)}: {error}") from None
    attributes = [a for a in found if a.split("=")[0] not in ARCHIVE_ATTRIBUTES]
    return attribute_message(attributes) if attributes else ""


WORKING_TREE = FloorFiles()


def _package_folders(package: str) -> list[str] | None:
    """The folders of an installed package, found without importing it: a name in a
    configuration file must not run the code of whatever module it names. None: no such
    package installed; an empty list: a module, not a package."""
    import sys
    from importlib.util import find_spec

    top, *inner = package.split(".")
    # Not from the current folder, which `python -m` (or PYTHONPATH=.) puts first: a folder of
    # that name in the repository being checked would stand in for the installed package.
    here = os.path.realpath(os.curdir)
    saved = sys.path[:]
    sys.path[:] = [entry for entry in saved if entry and os.path.realpath(entry) != here]
    try:
        spec = find_spec(top)  # a top-level name: finding it imports nothing
    except ValueError:  # a module already imported without a spec (__main__)
        return None
    finally:
        sys.path[:] = saved
    if spec is None:
        return None
    if spec.submodule_search_locations is None:
        return []
    folders = list(spec.submodule_search_locations)
    for part in inner:
        folders = [os.path.join(folder, part) for folder in folders]
        folders = [folder for folder in folders if os.path.isdir(folder)]
    return folders or None  # an inner package that is not there


def _repository_root(folder: str) -> str | None:
    """The nearest folder from `folder` upwards that holds `.git`, or None."""
    *_, top = WORKING_TREE.upwards(os.path.realpath(folder))
    return top if os.path.exists(os.path.join(top, ".git")) else None


def _shipped_in(repository: str | None, path: str) -> bool:
    """Whether the file `path` is part of `repository` itself, not installed into an
    environment that happens to live in it (a `.venv` keeps packages under site-packages): a
    file git tracks is the repository's wherever it lies (git is asked: a committed copy under
    a folder named `site-packages` is still a copy), and so is any other file in it outside
    site-packages."""
    if repository is None:
        return False
    real = os.path.realpath(path)
    if not _inside(real, repository):
        return False
    relative = os.path.relpath(real, repository)
    if not {"site-packages", "dist-packages"} & set(relative.split(os.sep)):
        return True
    from ..git.objects import GitError, git

    try:
        tracked = git(repository, "ls-files", "-z", "--cached", "--", relative.replace(os.sep, "/"))
    except GitError as error:  # what git would say is unknown: not the installed package
        raise FloorError(f"git cannot read the repository {visible(repository)}: {error}") from None
    return bool(tracked)


def _package_floor(spec: str, where: str, base: str | None) -> tuple[bytes, int, str]:
    """The bytes of `pkg:PACKAGE/RESOURCE`, the file's size and its path. `base`: the folder
    of the configuration that names it (None: the current folder)."""
    package, _, resource = spec.removeprefix(PACKAGE_PREFIX).partition("/")
    parts = resource.split("/")
    shown = f"the floor {visible(spec)} ({where})"
    if not re.match(_PACKAGE_NAME, package) or any(part in ("", ".", "..") for part in parts):
        raise FloorError(
            f"{shown} is not of the form {PACKAGE_PREFIX}PACKAGE/RESOURCE, e.g. "
            f"{PACKAGE_PREFIX}acme_policies/floor.safety_profile.yaml"
        )
    folders = _package_folders(package)
    if folders is None:
        raise FloorError(
            f"{shown}: the package {package!r} is not installed; install it beside "
            "safety-profile (in pre-commit: the hook's additional_dependencies)"
        )
    if not folders:
        raise FloorError(f"{shown}: {package!r} is a module, not a package that holds files")
    found = [path for folder in folders if os.path.isfile(path := os.path.join(folder, *parts))]
    if not found:
        raise FloorError(f"{shown}: the package {package!r} has no file {resource!r}")
    repository = _repository_root(os.curdir if base is None else base)
    if _shipped_in(repository, found[0]):
        # The repository a floor polices must not supply it: a change could loosen both.
        raise FloorError(
            f"{shown}: {visible(_shown_path(found[0]))} is a file of the repository it checks, "
            f"not of the installed package {package!r}; install the package (in pre-commit: "
            "the hook's additional_dependencies) and remove the copy from the repository"
        )
    return (*_file_floor(found[0], spec, where), found[0])


def _file_floor(path: str, shown: str, where: str) -> tuple[bytes, int]:
    from cleveragents.reading.files import file_problem, read_regular_file

    try:
        file = read_regular_file(path)
    except OSError as error:
        reason = file_problem(error, shown).message
        raise FloorError(f"the floor {visible(shown)} ({where}): {reason}") from None
    return file.data, file.size


def load_floor(spec: str, base: str | None, where: str, files: FloorFiles = WORKING_TREE) -> Floor:
    """The floor `spec` names: `pkg:PACKAGE/RESOURCE`, or a file path relative to the folder
    `base` of the pyproject.toml that sets it, read from `files` and refused when it leaves
    that file's repository (None: given on the command line, relative to the current folder,
    named in messages as given, any file). `where` says where it was set, for messages.
    Raises FloorError."""
    from cleveragents.domain.models.core.document_check import PROFILE, check_loaded
    from cleveragents.domain.models.core.document_values import profile_values
    from cleveragents.reading.loaded_file import load_bytes
    from cleveragents.reading.problems import with_rule_id

    if spec.startswith(PACKAGE_PREFIX):
        source = spec
        data, size, path = _package_floor(spec, where, base)
        identity = floor_identity(os.path.realpath(path), data)
    else:
        path = spec if base is None else os.path.join(base, spec)
        source = spec if base is None else _shown_path(path)
        if source.startswith(PACKAGE_PREFIX):  # a file's name must not read as a package's
            source = os.path.join(os.curdir, source)
        if base is None:
            data, size = _file_floor(path, source, where)
            identity = floor_identity(os.path.realpath(path), data)
        else:
            data, size, identity = files.floor_file(spec, base, source, where)
            source += files.label
    result = check_loaded(load_bytes(data, source, file_size=size), PROFILE, source)
    if result.valid is None:
        problems = "\n".join(
            f"  {with_rule_id(problem.render(), problem.rule)}" for problem in result.problems
        )
        raise FloorError(
            f"the floor {visible(source)} ({where}) is not a valid safety profile; fix it:\n"
            f"{problems}"
        )
    return Floor(profile_values(result.valid).values, source, identity, data)


class Floors:
    """The floor of each checked file, each configuration and floor read once per command,
    from `files` (the working tree by default)."""

    def __init__(
        self,
        setting: FloorSetting | None = None,
        environ: Mapping[str, str] | None = None,
        files: FloorFiles = WORKING_TREE,
    ) -> None:
        self.setting = FloorSetting() if setting is None else setting
        self.environ = os.environ if environ is None else environ
        self.files = files
        # Each folder's pyproject.toml read once, however many checked folders lie below it.
        self._folder_configs: dict[str, Configured | None] = {}
        self._by_folder: dict[str, tuple[Floor, ...]] = {}  # the floors of each checked folder
        self._loaded: dict[tuple[str, str | None], Floor] = {}

    def _load(self, spec: str, base: str | None, where: str) -> Floor:
        key = (spec, base)
        if key not in self._loaded:
            self._loaded[key] = load_floor(spec, base, where, self.files)
        return self._loaded[key]

    def configured(self, folder: str) -> Configured | None:
        """What the pyproject.toml in `folder` (absolute) sets: its floor's setting, if any."""
        if folder not in self._folder_configs:
            self._folder_configs[folder] = self.files.config(folder)
        return self._folder_configs[folder]

    def _configured_floors(self, folder: str) -> list[Configured]:
        """Every pyproject.toml from `folder` (absolute) upwards to the repository root that
        sets a floor, nearest first."""
        found = []
        for above in self.files.upwards(folder):
            if (configured := self.configured(above)) is not None:
                found.append(configured)
        return found

    def configured_floor(self, setting: Configured) -> Floor:
        """The floor a pyproject.toml sets, loaded."""
        where = f"set in {visible(_shown_path(setting.pyproject))}{self.files.label}"
        return self._load(setting.spec, os.path.dirname(setting.pyproject), where)

    def for_file(self, path: str) -> tuple[Floor, ...]:
        """The floors that apply to the file at `path` (none: no floor). Raises FloorError."""
        return self._for_absolute_folder(os.path.dirname(os.path.abspath(path)))

    def for_folder(self, folder: str | os.PathLike[str]) -> tuple[Floor, ...]:
        """The floors that apply to files in `folder`: the one given with --floor, else each
        that a pyproject.toml from there up to the repository root sets, nearest first; and
        each given with --add-floor."""
        return self._for_absolute_folder(os.path.abspath(folder))

    def _for_absolute_folder(self, where: str) -> tuple[Floor, ...]:
        if where in self._by_folder:  # (its --add-floor floors were loaded for it)
            return self._by_folder[where]
        added = [self._load(spec, None, "given with --add-floor") for spec in self.setting.added]
        if self.setting.given is not None:
            return _distinct([self._load(self.setting.given, None, "given with --floor"), *added])
        self._by_folder[where] = _distinct([*self._floors_configured_for(where), *added])
        return self._by_folder[where]

    def _floors_configured_for(self, folder: str) -> tuple[Floor, ...]:
        configured = self._configured_floors(folder)
        if configured and self.setting.refused:
            if self.environ.get(ALLOW_NO_FLOOR_VARIABLE) == "1":
                return ()
            pyproject = visible(_shown_path(configured[0].pyproject))
            raise FloorError(
                f"--no-floor: {pyproject} sets a floor ({visible(configured[0].spec)}), which "
                f"applies; set {ALLOW_NO_FLOOR_VARIABLE}=1 in the environment to check without it"
            )
        return _distinct([self.configured_floor(setting) for setting in configured])

    def for_resolution(self, files: Sequence[str]) -> tuple[Floor, ...]:
        """The floors a resolved profile is held to: those of the folder the command runs in
        (the project it is resolved for) and those of each layer's file."""
        found = [*self.for_folder(os.curdir)]
        for path in files:
            found += self.for_file(path)
        return _distinct(found)


def _distinct(floors: Sequence[Floor]) -> tuple[Floor, ...]:
    """`floors` in order, each file once: the same file named twice (a sub-project's
    pyproject.toml repeating the root's) is one floor, reported once; two files are two floors,
    however alike their names read."""
    return tuple({floor.identity: floor for floor in reversed(floors)}.values())[::-1]
