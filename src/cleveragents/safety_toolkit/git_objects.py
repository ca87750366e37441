"""What git holds, asked by object id and read as bytes: no file name is ever given to git as
revision syntax (`REV:PATH` reads `0:x` as stage 0 of `x`), a pathspec or an option.

Names are bytes on disk and in git; here they are `str` decoded with `os.fsdecode`
(surrogateescape), so a name that is not UTF-8 goes through unchanged and `os.fsencode` gives
the bytes back. Every listing is read with `-z`, so newlines, tabs and quotes are plain bytes.

A side of a comparison is a `Tree` (a revision or the index: path -> mode and object id) or the
working tree on disk; `resolve` follows links inside the repository on either, component by
component as the kernel does, so `diff --git` reads a link exactly as `check` reads the file a
checkout writes.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from cleveragents.reading.files import read_regular_file
from cleveragents.reading.limits import DEFAULT_LIMITS
from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule
from cleveragents.reading.terminal_text import visible

__all__ = [
    "GITLINK",
    "LINK",
    "Entry",
    "GitError",
    "LinkError",
    "Tree",
    "WorkTree",
    "attribute_message",
    "checkout_problems",
    "folder_aliases",
    "folder_with_git",
    "git",
    "git_command",
    "git_program",
    "limit_git_time",
    "quoted",
    "read_blobs",
    "stuck_repositories",
    "transformed_paths",
]

LINK, GITLINK = "120000", "160000"
MAX_LINKS = 40  # Linux's limit on links followed in one path (ELOOP)
PATH_MAX = 4096  # Linux's limit on a link's target, its closing NUL included
FOLDER_LINK_DEPTH, MAX_ALIASES = 8, 100_000  # names through links to folders, in a row / all

# Attributes that make the file a checkout writes differ from the committed blob in more than
# line endings: a filter's smudge command (Git LFS puts a pointer in the commit), a re-encoding,
# `$Id$` expansion. `text`/`eol`/`crlf` only put CR before LF, which YAML reads as the same line
# break (and a lone CR is refused by the reader either way), so they change no value.
# `export-subst` expands `$Format:...$` in what `git archive` writes (GitHub's source
# archives), and `export-ignore` leaves the file out of it: the archive then differs too.
TRANSFORMING_ATTRIBUTES = (
    "filter",
    "working-tree-encoding",
    "ident",
    "export-subst",
    "export-ignore",
)
ARCHIVE_ATTRIBUTES = ("export-subst", "export-ignore")


MAX_QUOTED = 200  # characters of a name a message quotes (a link's target may be megabytes)


def quoted(name: str) -> str:
    """A name in a message: in quotes, escaped as reports escape names (a byte that is not
    UTF-8 as `\\xe9`, a control character as `\\x1b`), a long one cut short."""
    if len(name) > MAX_QUOTED:
        return f"'{visible(name[:MAX_QUOTED])}...' ({len(name)} characters)"
    return f"'{visible(name)}'"


class GitError(Exception):
    """git cannot answer: not a repository, an unknown revision, git missing. The message says
    what to do; the CLI reports it as a usage error."""


class LinkError(Exception):
    """A path whose links lead outside the repository, to nothing, or round in a loop."""


# What a repository's configuration may make git run, switched off for every git we start: a
# repository opened in an editor, or checked in CI, is data, never a program. Each `-c` is given
# on git's command line, which wins over every configuration file. Measured with git 2.39 on the
# commands this package runs: `ls-files`, `diff` and `check-attr` start `core.fsmonitor`;
# `read-tree` (even into a temporary index) and `diff` (refreshing the index) run the
# `post-index-change` hook; `diff` against the working tree runs a file's `clean` filter (or
# `process`); reading an object missing from a partial clone fetches it from the promisor
# remote, whose URL may be `ext::COMMAND` or use `core.sshCommand`. Filters are switched off
# by name (`filter_overrides`); `diff` never looks inside a submodule's work tree, which is
# another repository with its own configuration (`--ignore-submodules=dirty` in
# `git_versions`). Kept from the repository: what says where and how its files are
# (`core.worktree`, `core.ignorecase`, `core.symlinks`, `core.autocrlf`, `extensions.*`, the
# index's format), which changes no command; `include` and `includeIf` (git cannot be told to
# skip them; they only read files, and nothing git is given can hold it: see `_run`).
GIT_CONFIG_OVERRIDES = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "credential.helper=",  # empties the list of helpers
    "submodule.recurse=false",
    # Every transport, so nothing is fetched (git 2.39 has no --no-lazy-fetch); a
    # protocol's own setting wins over `protocol.allow`, so each is named too.
    "protocol.allow=never",
    *(
        f"protocol.{name}.allow=never"
        for name in ("file", "git", "ssh", "http", "https", "ftp", "ftps", "ext", "fd")
    ),
)
GIT_ENVIRONMENT = {
    "GIT_TERMINAL_PROMPT": "0",  # never ask for a password
    "GIT_OPTIONAL_LOCKS": "0",  # a read never rewrites the index (nor races the user's git)
    # Replacement objects (refs/replace/) are local: a clone reads the objects themselves.
    "GIT_NO_REPLACE_OBJECTS": "1",
}
_EMPTY = "SAFETY_PROFILE_GIT_EMPTY"  # an empty variable: `--config-env=KEY=_EMPTY` empties KEY
GIT_TIMEOUT = 120.0  # seconds: a git that has not answered by then is stuck (a FIFO included)
# How long a git may take in this process (`limit_git_time`), and the repositories where one
# did not answer in time: git is not asked there again (each of a command's gits, or each file
# a language server opens, would wait as long again).
_time_limit = [GIT_TIMEOUT]
_stuck: set[str] = set()
# Commands that never run a filter (they hash no file of the work tree): no need to look up
# the repository's filter drivers first.
_NO_FILTERS = frozenset(
    {
        "rev-parse",
        "ls-files",
        "ls-tree",
        "cat-file",
        "check-attr",
        "read-tree",
        "hash-object",
        "config",
    }
)


def git_command(
    root: str | os.PathLike[str], args: Sequence[str], *, literal_pathspecs: bool = True
) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that run `git ARGS` in `root` with every command the
    repository's configuration names switched off (GIT_CONFIG_OVERRIDES, and each filter
    driver for a command that may run one); one function for every git this package starts.
    `literal_pathspecs`: no pathspec magic, so a name is only itself."""
    command = [git_program(), "--no-pager"]
    for setting in GIT_CONFIG_OVERRIDES:
        command += ["-c", setting]
    if not args or args[0] not in _NO_FILTERS:
        command += [f"--config-env={key}={_EMPTY}" for key in filter_overrides(root)]
    if literal_pathspecs:
        command.append("--literal-pathspecs")
    return [*command, *args], {**os.environ, **GIT_ENVIRONMENT, _EMPTY: ""}


_found_git: list[str] = []  # the git program, once found


def git_program() -> str:
    """git, found on PATH as the shell finds it, but in absolute folders only: git runs in the
    repository's folders, and with `.` (or an empty entry) in PATH a `git` the repository holds
    would be the one that runs. GitError when there is none."""
    if not _found_git:
        for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
            candidate = os.path.join(folder, "git")
            executable = os.path.isfile(candidate) and os.access(candidate, os.X_OK)
            if os.path.isabs(folder) and executable:
                _found_git.append(candidate)
                break
        else:
            raise GitError("git is not installed or not on PATH; install git")
    return _found_git[0]


_FILTER_SETTINGS = ("clean", "smudge", "process", "required")


def filter_overrides(root: str | os.PathLike[str]) -> list[str]:
    """The settings that switch off each filter driver the configuration defines for `root`:
    `filter.NAME.clean`, `smudge` and `process` empty (no command), `required` empty (false).
    Looked up on every call: a long-running server sees the configuration as it is now. A
    driver's name may hold any character but a newline, `=` included: `--config-env` takes
    the key up to its last `=`."""
    pattern = r"^filter\..*\.(clean|smudge|process)$"
    command, environment = git_command(root, ["config", "-z", "--get-regexp", pattern])
    listing = _run(root, command, environment, what="config", found_nothing=1)
    names = set()
    for entry in filter(None, listing.split(b"\0")):
        key = os.fsdecode(entry.split(b"\n", 1)[0])  # KEY, then a newline and the value
        names.add(key[len("filter.") : key.rindex(".")])
    return [f"filter.{name}.{setting}" for name in sorted(names) for setting in _FILTER_SETTINGS]


def limit_git_time(seconds: float) -> None:
    """Stop each git this process starts after `seconds` (GIT_TIMEOUT unless told): the language
    server waits less than a command in CI, since nothing else is answered meanwhile."""
    _time_limit[0] = seconds


def stuck_repositories() -> frozenset[str]:
    """The repositories where a git did not answer in time (and is not asked again)."""
    return frozenset(_stuck)


def folder_with_git(folder: str | os.PathLike[str]) -> str | None:
    """The nearest folder at or above `folder` (its real path, where git starts looking)
    holding `.git`: where git finds the repository of a git run in `folder`, unless `GIT_DIR`
    names one. None: git finds none there (it says `not a git repository`)."""
    return _work_tree(os.path.realpath(folder), {})


def _repository_of(root: str | os.PathLike[str]) -> str:
    """What a git run in `root` reads, as far as can be told without git: the repository
    `GIT_DIR` names, else the nearest folder at or above `root` holding `.git`, else `root`."""
    if os.environ.get("GIT_DIR"):
        return os.path.abspath(os.environ["GIT_DIR"])
    return folder_with_git(root) or os.path.realpath(root)


def _not_stuck(root: str | os.PathLike[str], what: str) -> str:
    """The repository of `root` (`_repository_of`); GitError when a git did not answer there."""
    repository = _repository_of(root)
    if repository in _stuck:
        raise GitError(
            f"git did not answer in {visible(repository)} within {_time_limit[0]:.0f} s before "
            f"(asked for {what}), so it is not asked there again; does the repository's "
            "configuration include a file that never ends, such as a FIFO?"
        )
    return repository


def _timed_out(repository: str, what: str) -> GitError:
    _stuck.add(repository)
    return GitError(
        f"git {what} did not answer within {_time_limit[0]:.0f} s (does the repository's "
        "configuration include a file that never ends, such as a FIFO?)"
    )


def _run(
    root: str | os.PathLike[str],
    command: Sequence[str],
    environment: Mapping[str, str],
    input: bytes | None = None,
    *,
    what: str,
    found_nothing: int | None = None,
) -> bytes:
    """Run a git `command` from `git_command`: its output; GitError with git's own words.
    `found_nothing`: an exit status that means an empty answer (`git config`'s 1)."""
    # Nothing git is given can hold it, whatever file its configuration includes: its standard
    # input is never ours (the language server's is the editor's messages) and what it is asked
    # is a file, not a pipe (a configuration that includes `/dev/stdin` reads a copy, which the
    # overrides above win over, instead of consuming the question); its output goes to files,
    # not pipes (including `/dev/stdout` or `/proc/self/fd/2` would read from the pipe git
    # itself writes to, and wait for ever); and it runs in a session of its own, with no
    # terminal (`/dev/tty` would wait for the user to type). A file that blocks when opened (a
    # FIFO) is left to the timeout.
    repository = _not_stuck(root, what)
    stdin = subprocess.DEVNULL if input is None else _input_file(input)
    stdout, stderr = _input_file(b""), _input_file(b"")
    try:
        result = subprocess.run(
            list(command),
            cwd=root,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            check=False,
            env=environment,
            timeout=_time_limit[0],
            start_new_session=True,
        )
        output, words = _read_all(stdout), _read_all(stderr)
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH; install git") from None
    except subprocess.TimeoutExpired:
        raise _timed_out(repository, what) from None
    finally:
        for descriptor in (stdout, stderr) if input is None else (stdin, stdout, stderr):
            os.close(descriptor)
    if result.returncode == found_nothing:
        return b""
    if result.returncode != 0:
        raise GitError(os.fsdecode(words).strip() or f"git {what} failed")
    return output


def _read_all(descriptor: int, limit: int | None = None) -> bytes:
    """What a process wrote to the unnamed file `descriptor` (from its start; its first
    `limit` bytes)."""
    os.lseek(descriptor, 0, os.SEEK_SET)
    chunks, left = [], limit
    while left is None or left > 0:
        chunk = os.read(descriptor, 1 << 20 if left is None else min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left = None if left is None else left - len(chunk)
    return b"".join(chunks)


def _input_file(data: bytes) -> int:
    """A file descriptor of an unnamed file holding `data`, at its start."""
    if hasattr(os, "memfd_create"):
        descriptor = os.memfd_create("safety-profile-git")
    else:  # macOS: a temporary file, unlinked at once
        import tempfile

        descriptor, name = tempfile.mkstemp(prefix="safety-profile-")
        os.unlink(name)
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]
    os.lseek(descriptor, 0, os.SEEK_SET)
    return descriptor


def git(
    root: str | os.PathLike[str],
    *args: str,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    literal_pathspecs: bool = True,
) -> bytes:
    """`git ARGS` run in `root` (see `git_command`), its output as bytes; GitError with git's
    own words. `env`: variables to set for this run."""
    command, environment = git_command(root, args, literal_pathspecs=literal_pathspecs)
    return _run(root, command, {**environment, **(env or {})}, input, what=args[0])


def _fields(output: bytes) -> list[str]:
    return [os.fsdecode(field) for field in output.split(b"\0")]


class Entry(NamedTuple):  # not a dataclass: `check` starts without importing dataclasses
    mode: str  # "100644", "100755", LINK or GITLINK
    oid: str


class Tree:
    """A revision's files or the index's: repository path -> Entry."""

    def __init__(self, root: Path, entries: dict[str, Entry], revision: str | None) -> None:
        self.root = root
        self.entries = entries
        self.revision = revision  # None: the index
        self.label = "in the index" if revision is None else f"in {revision}"  # for messages
        self._links: dict[str, str] = {}
        self._folders: set[str] | None = None

    @classmethod
    def of_revision(cls, root: Path, revision: str) -> Tree:
        fields = _fields(git(root, "ls-tree", "-r", "-z", "--full-tree", revision))
        entries = {}
        for field in filter(None, fields):
            info, path = field.split("\t", 1)
            mode, _, oid = info.split(" ")
            entries[path] = Entry(mode, oid)
        return cls(root, entries, revision)

    @classmethod
    def of_index(cls, root: Path) -> Tree:
        entries = {}
        for field in filter(None, _fields(git(root, "ls-files", "-s", "-z", "--full-name"))):
            info, path = field.split("\t", 1)
            mode, oid, stage = info.split(" ")
            if stage in ("0", "2"):  # during a merge: ours
                entries[path] = Entry(mode, oid)
        return cls(root, entries, None)

    def paths(self) -> Iterable[str]:
        return self.entries

    def kind_of(self, path: str) -> str | None:
        """LINK, GITLINK, "file", "dir" or None."""
        entry = self.entries.get(path)
        if entry is not None:
            return entry.mode if entry.mode in (LINK, GITLINK) else "file"
        if self._folders is None:  # implicit in a tree: every entry's parent folders
            self._folders = {""}
            for name in self.entries:
                parts = name.split("/")
                self._folders.update("/".join(parts[:end]) for end in range(1, len(parts)))
        return "dir" if path in self._folders else None

    def read_link(self, path: str) -> str:
        if path not in self._links:
            oid = self.entries[path].oid
            self._links.update(
                {p: os.fsdecode(data) for p, data in read_blobs(self.root, {path: oid}).items()}
            )
        return self._links[path]

    def resolve(self, path: str) -> str:
        return resolve(path, self.kind_of, self.read_link)

    def read(self, paths: Sequence[str]) -> dict[str, bytes]:
        """The committed bytes of resolved paths."""
        return read_blobs(self.root, {path: self.entries[path].oid for path in paths})


class WorkTree:
    """The working tree on disk: the files git tracks or would track (not ignored)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.label = "in the working tree"
        index: dict[str, Entry] = {}
        unwatched = set()
        for field in filter(None, _fields(git(root, "ls-files", "-s", "-v", "-z", "--full-name"))):
            info, path = field.split("\t", 1)
            tag, mode, oid, _ = info.split(" ")
            index[path] = Entry(mode, oid)
            if tag == "S" or tag.islower():  # skip-worktree, assume-unchanged
                unwatched.add(path)
        untracked = set(
            filter(None, _fields(git(root, "ls-files", "-z", "--others", "--exclude-standard")))
        )
        on_disk = {path for path in index.keys() | untracked if os.path.lexists(root / path)}
        # `git diff` takes the files git is told not to look at as unchanged: those on disk are
        # compared anyway (`unwatched`); those a sparse checkout leaves out hold the index's.
        self.unwatched = unwatched & on_disk
        self._index = Tree(root, {p: index[p] for p in unwatched - on_disk}, None)
        self._known = on_disk | set(self._index.entries)

    def paths(self) -> Iterable[str]:
        return self._known

    def kind_of(self, path: str) -> str | None:
        try:
            mode = os.lstat(self.root / path).st_mode
        except OSError:
            return self._index.kind_of(path)
        if stat.S_ISLNK(mode):
            return LINK
        if stat.S_ISDIR(mode):
            return GITLINK if path and os.path.lexists(self.root / path / ".git") else "dir"
        return "file" if stat.S_ISREG(mode) else None

    def read_link(self, path: str) -> str:
        if path in self._index.entries:
            return self._index.read_link(path)
        return os.readlink(self.root / path)

    def resolve(self, path: str) -> str:
        resolved = resolve(path, self.kind_of, self.read_link)
        if resolved not in self._known:
            raise LinkError(f"leads to {quoted(resolved)}, which git ignores (a checkout lacks it)")
        return resolved

    def read(self, paths: Sequence[str]) -> dict[str, bytes]:
        contents = self._index.read([p for p in paths if p in self._index.entries])
        for path in paths:
            if path not in contents:
                contents[path] = read_regular_file(str(self.root / path)).data
        return contents


def resolve(
    path: str,
    kind_of: Callable[[str], str | None],
    read_link: Callable[[str], str],
    folder: bool = False,
) -> str:
    """The repository path of the file `path` names, its links (and its folders' links)
    followed as the kernel follows them, never out of the repository. LinkError otherwise.
    With `folder`, what it names may be a folder too (a tree's folders are implicit)."""
    parts = deque(path.split("/"))
    done: list[str] = []
    links = 0
    while parts:
        name = parts.popleft()
        if name in ("", "."):
            continue
        if name == "..":
            if not done:
                raise LinkError("leads outside the repository")
            done.pop()
            continue
        current = "/".join([*done, name])
        kind = kind_of(current)
        if kind == LINK:
            links += 1
            if links > MAX_LINKS:
                raise LinkError("has too many levels of links (a loop?)")
            target = read_link(current)
            if len(os.fsencode(target)) >= PATH_MAX:
                # No checkout can make such a link (ENAMETOOLONG): the profile is missing.
                raise LinkError(f"has a target longer than a link can hold ({PATH_MAX - 1} bytes)")
            if target.startswith("/"):
                raise LinkError(f"leads outside the repository (to {quoted(target)})")
            parts.extendleft(reversed(target.split("/")))
            continue
        if parts and kind != "dir":
            # The kernel walks folders that exist: `nowhere/../x` fails when `nowhere` does
            # not (git's own diff would read it as `x`).
            what = "does not exist" if kind is None else "is not a folder"
            raise LinkError(f"leads through {quoted(current)}, which {what}")
        done.append(name)
    resolved = "/".join(done)
    kind = kind_of(resolved)
    if folder and kind != LINK:
        return resolved
    if kind == "file":
        return resolved
    if links == 0:  # no link followed: the name itself is not a file
        what = {GITLINK: "is a submodule", "dir": "is a folder"}.get(kind or "", "does not exist")
        raise LinkError(f"{what}, not a file" if kind else what)
    if kind == GITLINK:
        raise LinkError(f"leads to the submodule {quoted(resolved)}")
    if kind == "dir":
        raise LinkError(f"leads to the folder {quoted(resolved or '.')}, not a file")
    raise LinkError(f"leads to {quoted(resolved)}, which does not exist (a dangling link)")


def folder_aliases(side: Tree | WorkTree) -> set[str]:
    """The names files have through links to folders: with `actions` a link to `stuff/`, the
    file `stuff/deploy.yaml` is read as `actions/deploy.yaml` by whoever opens that, so it is an
    action by name. Links reached through other links are followed too (`conf` -> `sel/a`,
    `sel/a/sub` -> `envs/prod`: `conf/sub/x`), up to FOLDER_LINK_DEPTH in a row and
    MAX_ALIASES names: a loop (`a` -> `.`) names files without end."""
    paths = list(side.paths())
    folders: list[tuple[str, str]] = []  # a link to a folder, and that folder's prefix
    for link in paths:
        if side.kind_of(link) != LINK:
            continue
        try:
            target = resolve(link, side.kind_of, side.read_link, folder=True)
        except LinkError:
            continue
        if side.kind_of(target) not in ("file", GITLINK):
            folders.append((link, f"{target}/" if target else ""))
    aliases: set[str] = set()
    names = folders
    for _ in range(FOLDER_LINK_DEPTH):
        for name, prefix in names:
            aliases.update(f"{name}/{p[len(prefix) :]}" for p in paths if p.startswith(prefix))
        names = [
            (f"{name}/{link[len(prefix) :]}", target)
            for name, prefix in names
            for link, target in folders
            if link.startswith(prefix)
        ]
        if not names or len(aliases) > MAX_ALIASES:
            break
    return aliases


def read_blobs(root: Path, oids: Mapping[str, str]) -> dict[str, bytes]:
    """Blobs by object id with one `git cat-file --batch`; a blob larger than the loader's
    limit is read only one byte past it (enough for the loader to refuse it)."""
    wanted = sorted(set(oids.values()))
    if not wanted:
        return {}
    sizes = git(root, "cat-file", "--batch-check", input="".join(f"{o}\n" for o in wanted).encode())
    small, contents = [], {}
    for oid, line in zip(wanted, sizes.decode().splitlines(), strict=True):
        fields = line.split()
        if len(fields) != 3 or fields[1] != "blob":
            raise GitError(f"object {oid} is not a file ({line})")
        if int(fields[2]) > DEFAULT_LIMITS.max_bytes:
            contents[oid] = _blob_head(root, oid, DEFAULT_LIMITS.max_bytes + 1)
        else:
            small.append(oid)
    output = git(root, "cat-file", "--batch", input="".join(f"{o}\n" for o in small).encode())
    position = 0
    for oid in small:
        header_end = output.index(b"\n", position)
        size = int(output[position:header_end].split()[2])
        contents[oid] = output[header_end + 1 : header_end + 1 + size]
        position = header_end + 1 + size + 1  # the content is followed by a newline
    return {path: contents[oid] for path, oid in oids.items()}


def _blob_head(root: Path, oid: str, limit: int) -> bytes:
    """The first `limit` bytes of a blob (it may be gigabytes: git is stopped once it has
    written them), in the time a git may take. Written to a file, not a pipe, as in `_run`."""
    import time

    repository = _not_stuck(root, "cat-file")
    command, environment = git_command(root, ["cat-file", "blob", oid])
    deadline = time.monotonic() + _time_limit[0]
    output = _input_file(b"")
    try:
        with subprocess.Popen(
            command,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.DEVNULL,
            env=environment,
            start_new_session=True,
        ) as process:
            while process.poll() is None and os.fstat(output).st_size < limit:
                if time.monotonic() > deadline:
                    process.kill()
                    raise _timed_out(repository, "cat-file")
                time.sleep(0.005)
            process.kill()  # the rest is never needed
        return _read_all(output, limit)
    finally:
        os.close(output)


def transformed_paths(
    root: Path, paths: Iterable[str], revision: str | None, cached: bool
) -> dict[str, list[str]]:
    """path -> the attributes (`filter=lfs`, ...) that make a checkout's bytes differ from the
    committed ones, as git reads .gitattributes: from `revision`'s tree (through a temporary
    index: git 2.39 has no `check-attr --source`), from the index (`cached`) or from the
    working tree; $GIT_DIR/info/attributes and core.attributesFile apply to all three."""
    request = b"".join(os.fsencode(path) + b"\0" for path in paths)
    if not request:
        return {}
    args = ["check-attr", "-z", "--stdin", *(["--cached"] if cached or revision else [])]
    args += list(TRANSFORMING_ATTRIBUTES)
    found: dict[str, list[str]] = {}
    if revision is None:
        _attributes(root, args, request, None, found)
    else:
        import tempfile  # only a revision's attributes need it

        with tempfile.TemporaryDirectory(prefix="safety-profile-") as folder:
            env = {"GIT_INDEX_FILE": os.path.join(folder, "index")}
            git(root, "read-tree", revision, env=env)
            _attributes(root, args, request, env, found)
    return found


def _attributes(
    root: Path,
    args: list[str],
    request: bytes,
    env: Mapping[str, str] | None,
    found: dict[str, list[str]],
) -> None:
    """`git check-attr ARGS` into `found`, as every checkout would read them: patterns in any
    case too (`*.YAML` applies on macOS and Windows, where clones set core.ignorecase), and the
    .gitattributes of folders a sparse checkout leaves out (which git skips otherwise)."""
    for ignorecase in ("false", "true"):
        options = ["-c", "core.sparseCheckout=false", "-c", f"core.ignorecase={ignorecase}"]
        fields = _fields(git(root, *options, *args, input=request, env=env))
        for index in range(0, len(fields) - 2, 3):
            path, attribute, value = fields[index : index + 3]
            named = attribute if value == "set" else f"{attribute}={value}"
            if value not in ("unspecified", "unset") and named not in found.get(path, []):
                found.setdefault(path, []).append(named)


def attribute_message(attributes: Sequence[str]) -> str:
    """What `check` and `diff` say about a file an attribute transforms."""
    archive = all(a.split("=")[0] in ARCHIVE_ATTRIBUTES for a in attributes)
    return (
        f"the git attribute {', '.join(attributes)} makes "
        f"{'an archive (git archive)' if archive else 'a checkout'} of this file differ from "
        "the committed file, so what is reviewed is not what is read; remove it from "
        ".gitattributes for safety profiles and actions"
    )


def checkout_problems(paths: Sequence[str]) -> list[Problem]:
    """`check`: a problem for each file in a git work tree that an attribute transforms
    (`paths` as the user gave them; a link is judged by the file it leads to). One
    `git check-attr` per work tree the files are in (one, usually); a file in no work tree
    (no `.git` above it) costs no git process."""
    real = {path: os.path.realpath(path) for path in paths}
    by_tree: dict[str, list[str]] = {}
    if os.environ.get("GIT_DIR"):
        # git takes the files to be in that repository's work tree, wherever a `.git` is.
        top = _environment_work_tree()
        if top is not None:
            by_tree[top] = [t for t in real.values() if t.startswith(os.path.join(top, ""))]
    else:
        tops: dict[str, str | None] = {}
        for target in real.values():
            found_top = _work_tree(os.path.dirname(target), tops)
            if found_top is not None:
                by_tree.setdefault(found_top, []).append(target)
    found: dict[str, list[str]] = {}
    for top, targets in by_tree.items():
        try:
            found.update(transformed_paths(Path(top), targets, None, False))
        except GitError:  # not a work tree after all (a bare repository's folder, a submodule)
            continue
    return [
        Problem(path, 0, 0, "", attribute_message(found[real[path]]), Rule.GIT_ATTRIBUTE)
        for path in paths
        if real[path] in found
    ]


def _environment_work_tree() -> str | None:
    """The work tree of the repository `GIT_DIR` names (None: a bare one)."""
    try:
        top = git(".", "rev-parse", "--show-toplevel")[:-1]  # less git's closing newline
    except GitError:
        return None
    return os.path.realpath(os.fsdecode(top)) if top else None


def _work_tree(folder: str, known: dict[str, str | None]) -> str | None:
    """The nearest folder at or above `folder` holding `.git` (None: none), remembered."""
    walked = []
    current = folder
    while current not in known:
        walked.append(current)
        if os.path.lexists(os.path.join(current, ".git")):
            known[current] = current
            break
        parent = os.path.dirname(current)
        if parent == current:
            known[current] = None
            break
        current = parent
    for step in walked:
        known[step] = known[current]
    return known[folder]
