"""What git holds, asked by object id and read as bytes: no file name is ever given to git as
revision syntax (`REV:PATH` reads `0:x` as stage 0 of `x`), a pathspec or an option.

Names are bytes on disk and in git; here they are `str` decoded with `os.fsdecode`
(surrogateescape), so a name that is not UTF-8 goes through unchanged and `os.fsencode` gives
the bytes back. Every listing is read with `-z`, so newlines, tabs and quotes are plain bytes.

A side of a comparison is a `Tree` (a revision or the index: path -> mode and object id) or the
working tree on disk; `links.py` follows a side's links inside the repository. Every blob a
side needs, links included, is read by one `git cat-file --batch` process (`Blobs`).

Every git process is started from one place (`git_command`): `git` for a command's whole
output, `Blobs` for the long-lived `cat-file`.
"""

from __future__ import annotations

import contextlib
import os
import select
import stat
import subprocess
from collections.abc import Collection, Iterable, Mapping, Sequence

from cleveragents.reading.files import read_regular_file
from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple
from cleveragents.reading.limits import DEFAULT_LIMITS
from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule
from cleveragents.reading.terminal_text import visible

from .located import (
    Located,
    collision_problems,
    inside,
    locate,
    outside_problems,
    work_tree_of,
)
from .paths import (
    GitError,
    _stuck,
    _time_limit,
    folder_with_git,
    limit_git_time,
    quoted,
    stuck_repositories,
)

if TYPE_CHECKING:
    from typing import IO

# A work tree's top folder, as a str or a Path (`pathlib` is not imported here: `check` in a
# repository imports this module, and pathlib costs it urllib and ipaddress).
Root = str | os.PathLike[str]

__all__ = [
    "GITLINK",
    "LINK",
    "Blobs",
    "Entry",
    "GitError",
    "LinkError",
    "Located",
    "Tree",
    "WorkTree",
    "WorkTreeListing",
    "attribute_message",
    "checkout_problems",
    "collision_problems",
    "folder_with_git",
    "git",
    "git_command",
    "git_program",
    "head_commit",
    "head_listing",
    "inside",
    "limit_git_time",
    "locate",
    "no_attribute_can_apply",
    "no_attribute_in_tree",
    "outside_problems",
    "quoted",
    "read_blobs",
    "stuck_repositories",
    "transformed_paths",
    "work_tree_of",
]

LINK, GITLINK = "120000", "160000"
MAX_LINKS = 40  # Linux's limit on links followed in one path (ELOOP)
PATH_MAX = 4096  # Linux's limit on a link's target, its closing NUL included

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
# `core.git_diff`). Kept from the repository: what says where and how its files are
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
    root: str | os.PathLike[str],
    args: Sequence[str],
    *,
    literal_pathspecs: bool = True,
    env: Mapping[str, str] | None = None,
) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that run `git ARGS` in `root` with every command the
    repository's configuration names switched off (GIT_CONFIG_OVERRIDES, and each filter
    driver for a command that may run one); one function for every git this package starts.
    `literal_pathspecs`: no pathspec magic, so a name is only itself. `env`: variables set
    for this run too (a filter driver they may configure is looked up)."""
    command = [git_program(), "--no-pager"]
    for setting in GIT_CONFIG_OVERRIDES:
        command += ["-c", setting]
    if _subcommand(args) not in _NO_FILTERS and not _no_filter_configured(root, env or {}):
        command += [f"--config-env={key}={_EMPTY}" for key in filter_overrides(root)]
    if literal_pathspecs:
        command.append("--literal-pathspecs")
    return [*command, *args], {**os.environ, **GIT_ENVIRONMENT, **(env or {}), _EMPTY: ""}


def _subcommand(args: Sequence[str]) -> str:
    """The git command `args` run, after the `-c KEY=VALUE` settings given before it."""
    index = 0
    while index < len(args) and args[index] == "-c":
        index += 2
    return args[index] if index < len(args) else ""


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


# Words without which no configuration file defines a filter driver (`[filter "NAME"]`,
# `[filter.NAME]`, in any case) nor brings in another file that may (`include`, `includeIf`).
_FILTER_WORDS = (b"filter", b"include")


def _no_filter_configured(root: str | os.PathLike[str], env: Mapping[str, str]) -> bool:
    """Whether, for certain, no configuration git reads in `root` defines a filter driver, so
    `filter_overrides` would find none and its `git config` need not run: `root` is the top of
    a work tree with its own `.git` folder, no GIT_* variable but harmless ones is set (here
    or in `env`), and no configuration file git reads holds a word a driver needs
    (`_FILTER_WORDS`; one that cannot be read, or is not a regular file, may). When in doubt:
    False, and git is asked."""
    top = os.path.realpath(root)
    if folder_with_git(top) != top:
        return False
    files = _files_git_reads_here(top, env)
    return files is not None and not any(_holds(path, _FILTER_WORDS) for path in files[0])


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
        process = subprocess.Popen(
            list(command),
            cwd=root,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env=environment,
            start_new_session=True,
        )
        try:
            returncode = _exit_status(process, _time_limit[0])
        except BaseException:  # the time is up, or Ctrl-C: no git is left running
            process.kill()
            process.wait()
            raise
        output, words = _read_all(stdout), _read_all(stderr)
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH; install git") from None
    except subprocess.TimeoutExpired:
        raise _timed_out(repository, what) from None
    finally:
        for descriptor in (stdout, stderr) if input is None else (stdin, stdout, stderr):
            os.close(descriptor)
    if returncode == found_nothing:
        return b""
    if returncode != 0:
        raise GitError(os.fsdecode(words).strip() or f"git {what} failed")
    return output


def _exit_status(process: subprocess.Popen[bytes], timeout: float) -> int:
    """`process`'s exit status, once it ends; TimeoutExpired after `timeout` seconds. On Linux
    the wait ends when the process does (a pidfd): `Popen.wait(timeout)` looks after 1, 2, 4,
    8 ms... instead, so a git that takes 3 ms cost 7 (a tenth of a `diff --git`)."""
    try:
        descriptor = os.pidfd_open(process.pid)
    except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
        return process.wait(timeout)
    try:
        poller = select.poll()  # not select.select: a descriptor may be above 1023
        poller.register(descriptor, select.POLLIN)
        ended = poller.poll(timeout * 1000)
    finally:
        os.close(descriptor)
    if not ended:
        raise subprocess.TimeoutExpired(process.args, timeout)
    return process.wait()


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
    command, environment = git_command(root, args, literal_pathspecs=literal_pathspecs, env=env)
    return _run(root, command, environment, input, what=args[0])


# `git show-ref --verify HEAD`: HEAD's commit, read from HEAD itself (see `head_commit`).
_SHOW_HEAD = ("show-ref", "--verify", "--hash", "HEAD")


def head_commit(root: Root) -> str | None:
    """The id of the commit HEAD names, exactly; None before the first commit (a new
    repository, an orphan branch). Not `rev-parse HEAD`: where the current branch has no commit
    yet, git's name guessing takes `HEAD` for a ref named so (`refs/tags/HEAD`, which a clone
    brings from a remote, `refs/heads/HEAD`, ...), so a profile would be compared with that
    ref's; `show-ref --verify` reads HEAD itself, or fails. GitError when git cannot say."""
    return _head_commit(root, _git_or_error(root, _SHOW_HEAD))


def _head_commit(root: Root, shown: bytes | GitError) -> str | None:
    if not isinstance(shown, GitError):
        return shown.decode("ascii").strip()
    if _unborn(root):
        return None
    raise shown


def head_listing(root: Root, *args: str) -> tuple[str, bytes] | None:
    """HEAD's commit (`head_commit`) and `git ls-tree ARGS HEAD -- ...`'s output, asked at
    once (two gits, one wait: the language server's open waits on them); None before the
    first commit. `args`: ls-tree's arguments, `HEAD` among them. The listing is used only
    when `show-ref` found HEAD itself, and then git's name guessing read HEAD itself too (its
    first rule, HEAD, resolves)."""
    shown, listing = _git_each(root, _SHOW_HEAD, ("ls-tree", *args))
    commit = _head_commit(root, shown)
    if commit is None:
        return None
    if isinstance(listing, GitError):
        raise listing
    return commit, listing


def _git_or_error(root: Root, args: Sequence[str]) -> bytes | GitError:
    try:
        return git(root, *args)
    except GitError as error:
        return error


def _git_each(root: Root, *commands: Sequence[str]) -> list[bytes | GitError]:
    """Each of `commands` run by `git` at the same time, each with its own time limit: its
    output, or its GitError."""
    import threading

    results: list[bytes | GitError | BaseException] = [b""] * len(commands)

    def run(index: int) -> None:
        try:
            results[index] = _git_or_error(root, commands[index])
        except BaseException as error:  # said in the caller's thread
            results[index] = error

    others = [threading.Thread(target=run, args=(index,)) for index in range(1, len(commands))]
    for thread in others:
        thread.start()
    run(0)
    for thread in others:
        thread.join()
    said: list[bytes | GitError] = []
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, GitError):
            raise result
        said.append(result)
    return said


def _unborn(root: Root) -> bool:
    """Whether HEAD names a branch that has no commit yet: HEAD is a symbolic ref to a valid
    branch name, and no ref of that name exists by any of git's rules. Anything else (a
    detached HEAD, a branch whose commit git cannot read, a repository git refuses) is not:
    the caller then says git's error, never "before the first commit"."""
    try:
        said = git(root, "symbolic-ref", "--quiet", "HEAD")
    except GitError:  # a detached HEAD (or a repository git refuses)
        return False
    # Git's closing newline only: a branch name may hold any other byte (not UTF-8, a
    # no-break space), and is given back to git as the same bytes.
    branch = os.fsdecode(said.removesuffix(b"\n"))
    try:
        git(root, "check-ref-format", branch)
    except GitError:  # a name git would not make a branch of
        return False
    try:
        # The ref's value, read without the object (a commit git cannot read is not "no
        # commit"); a ref that name guessing finds for it counts as existing: not unborn.
        git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", branch)
    except GitError:  # no such ref
        return True
    return False


def _fields(output: bytes) -> list[str]:
    return [os.fsdecode(field) for field in output.split(b"\0")]


class _BatchProcess(NamedTuple):
    """A running `git cat-file --batch`, and our ends of its input and output."""

    process: subprocess.Popen[bytes]
    requests: IO[bytes]
    answers: IO[bytes]
    words: int  # a file holding what git says on its standard error


class Blobs:
    """Blobs by object id from one `git cat-file --batch` process, started when first asked
    and kept for every later request (links, then files): however many links a revision holds,
    reading them costs one process. A blob larger than the loader's limit is kept only to one
    byte past it (enough for the loader to refuse it); the rest is read and dropped.

    Its input and output are sockets, not pipes: a configuration that includes `/dev/stdin` or
    `/dev/stdout` cannot open a socket again through /proc (git stops, saying so), where a pipe
    would let it consume our requests or wait on its own answers (see `_run`)."""

    def __init__(self, root: Root) -> None:
        self.root = root
        self._repository = ""  # what `_not_stuck` names, once started
        self._batch: _BatchProcess | None = None

    def _started(self) -> _BatchProcess:
        if self._batch is None:
            # The C module alone: `socket` builds its enums on import, a fiftieth of a
            # `diff --git`; our ends are then plain files on the sockets' descriptors.
            import _socket

            self._repository = _not_stuck(self.root, "cat-file")
            argv, environment = git_command(self.root, ["cat-file", "--batch"])
            ours_in, theirs_in = _socket.socketpair()
            ours_out, theirs_out = _socket.socketpair()
            words = _input_file(b"")
            try:
                # Its own session, as `_run`'s gits: no terminal for a configuration to read.
                process = subprocess.Popen(
                    argv,
                    cwd=self.root,
                    stdin=theirs_in.fileno(),
                    stdout=theirs_out.fileno(),
                    stderr=words,
                    env=environment,
                    start_new_session=True,
                )
            except FileNotFoundError:
                ours_in.close()
                ours_out.close()
                os.close(words)
                raise GitError("git is not installed or not on PATH; install git") from None
            finally:
                theirs_in.close()
                theirs_out.close()
            # The files own the descriptors now (and close them).
            requests = open(ours_in.detach(), "wb")  # noqa: SIM115 - kept open: `_BatchProcess`
            answers = open(ours_out.detach(), "rb")  # noqa: SIM115
            self._batch = _BatchProcess(process, requests, answers, words)
        return self._batch

    def read(
        self, oids: Collection[str], limit: int = DEFAULT_LIMITS.max_bytes
    ) -> dict[str, bytes]:
        """Each blob of `oids`, by id, kept to `limit` + 1 bytes (links need no more than a
        link can hold: a tree of large "links" must not fill the memory). GitError for an id
        that is not a blob."""
        wanted = sorted(set(oids))
        if not wanted:
            return {}
        batch = self._started()
        request = "".join(f"{oid}\n" for oid in wanted).encode()
        # git answers each request as it reads it: a thread writes while this one reads, so
        # neither waits for the other however many ids there are.
        import threading

        writer = threading.Thread(target=_write_all, args=(batch.requests, request), daemon=True)
        # A git that does not answer in the time a git may take is stopped, as `_run` stops its
        # gits: the read then fails, never hangs.
        watchdog = threading.Timer(_time_limit[0], batch.process.kill)
        writer.start()
        watchdog.start()
        try:
            return {oid: _read_blob(batch.answers, oid, limit + 1) for oid in wanted}
        except BaseException as error:
            said = ""
            if isinstance(error, GitError) and not watchdog.finished.is_set():
                # No answer: git stopped; what it said is why (a configuration it cannot read).
                with contextlib.suppress(subprocess.TimeoutExpired):
                    batch.process.wait(timeout=1)
                said = os.fsdecode(_read_all(batch.words, 2000)).strip()
            self.close(stop=True)  # the writer may be waiting on git, which waits on us
            if watchdog.finished.is_set() and isinstance(error, GitError):
                raise _timed_out(self._repository, "cat-file") from None
            if said and isinstance(error, GitError):
                raise GitError(
                    f"git cat-file stopped: {visible('; '.join(said.splitlines()))}"
                ) from None
            raise
        finally:
            watchdog.cancel()
            writer.join()

    def close(self, *, stop: bool = False) -> None:
        if self._batch is not None:
            batch, self._batch = self._batch, None
            if stop:
                batch.process.kill()
            for stream in (batch.requests, batch.answers):
                with contextlib.suppress(OSError):  # git stopped first
                    stream.close()
            batch.process.wait()
            os.close(batch.words)


def _write_all(stream: IO[bytes], data: bytes) -> None:
    try:
        stream.write(data)
        stream.flush()
    except OSError:  # git stopped (a broken pipe, a reset socket); the reader says why
        pass


def _read_blob(stream: IO[bytes], oid: str, kept: int) -> bytes:
    header = stream.readline()
    fields = header.split()
    if len(fields) != 3 or fields[1] != b"blob":
        words = os.fsdecode(header).strip() or "no answer from git cat-file"
        raise GitError(f"object {oid} is not a file ({words})")
    size = int(fields[2])
    data = stream.read(min(size, kept))
    left = size - len(data) + 1  # and the newline that closes each blob
    while left > 0:
        chunk = stream.read(min(left, 1 << 20))
        if not chunk:
            raise GitError(f"git cat-file stopped while reading {oid}")
        left -= len(chunk)
    return data


def read_blobs(root: Root, oids: Mapping[str, str]) -> dict[str, bytes]:
    """Blobs by object id (`oids`: any key -> id) with one `git cat-file --batch`."""
    blobs = Blobs(root)
    try:
        contents = blobs.read(oids.values())
    finally:
        blobs.close()
    return {key: contents[oid] for key, oid in oids.items()}


class Entry(NamedTuple):  # not a dataclass: `check` starts without importing dataclasses
    mode: str  # "100644", "100755", LINK or GITLINK
    oid: str


def _children(paths: Iterable[str]) -> dict[str, set[str]]:
    """folder -> the names in it, for every path and every folder above one ("" the root)."""
    children: dict[str, set[str]] = {"": set()}
    for path in paths:
        folder, _, name = path.rpartition("/")
        while True:
            known = folder in children
            children.setdefault(folder, set()).add(name)
            if known or not folder:
                break
            folder, _, name = folder.rpartition("/")
    return children


class Tree:
    """A revision's files or the index's: repository path -> Entry, with the blobs read by one
    `git cat-file --batch` process (close it with `close`)."""

    def __init__(
        self, root: Root, entries: dict[str, Entry], revision: str | None, name: str | None = None
    ) -> None:
        self.root = root
        self.entries = entries
        self.revision = revision  # None: the index
        self.name = revision if name is None else name  # as messages name it (HEAD, not its id)
        self.label = "in the index" if revision is None else f"in {self.name}"  # for messages
        self.blobs = Blobs(root)
        self._links: dict[str, str] | None = None
        self._children: dict[str, set[str]] | None = None

    @classmethod
    def of_revision(cls, root: Root, revision: str, name: str | None = None) -> Tree:
        """`revision`'s files; `name`: what messages call it (else `revision`)."""
        fields = _fields(git(root, "ls-tree", "-r", "-z", "--full-tree", revision))
        entries = {}
        for field in filter(None, fields):
            info, path = field.split("\t", 1)
            mode, _, oid = info.split(" ")
            entries[path] = Entry(mode, oid)
        return cls(root, entries, revision, name)

    @classmethod
    def of_index(cls, root: Root) -> Tree:
        entries = {}
        for field in filter(None, _fields(git(root, "ls-files", "-s", "-z", "--full-name"))):
            info, path = field.split("\t", 1)
            mode, oid, stage = info.split(" ")
            if stage in ("0", "2"):  # during a merge: ours
                entries[path] = Entry(mode, oid)
        return cls(root, entries, None)

    def paths(self) -> Collection[str]:
        return self.entries

    def children(self, folder: str) -> Collection[str]:
        """The names in the folder `folder` ("" the root)."""
        if self._children is None:  # folders are implicit in a tree: every entry's parents
            self._children = _children(self.entries)
        return self._children.get(folder, ())

    def kind_of(self, path: str) -> str | None:
        """LINK, GITLINK, "file", "dir" or None."""
        entry = self.entries.get(path)
        if entry is not None:
            return entry.mode if entry.mode in (LINK, GITLINK) else "file"
        if self._children is None:
            self._children = _children(self.entries)
        return "dir" if path in self._children else None

    def read_link(self, path: str) -> str:
        if self._links is None:
            # Every link of the tree in one request: a tree of 10,000 links is one round.
            links = {p: e.oid for p, e in self.entries.items() if e.mode == LINK}
            data = self.blobs.read(links.values(), limit=PATH_MAX)
            self._links = {p: os.fsdecode(data[oid]) for p, oid in links.items()}
        return self._links[path]

    def read(self, paths: Sequence[str]) -> dict[str, bytes]:
        """The committed bytes of files (repository paths that are files here)."""
        data = self.blobs.read({self.entries[path].oid for path in paths})
        return {path: data[self.entries[path].oid] for path in paths}

    def same_file(self, path: str, other: Tree, other_path: str) -> bool:
        """Whether `path` here and `other_path` in `other` hold the same bytes (same blob)."""
        return self.entries[path].oid == other.entries[other_path].oid

    def close(self) -> None:
        self.blobs.close()


class WorkTreeListing(NamedTuple):
    """What one `git ls-files` says of a work tree: the index's entries (repository path ->
    Entry), those git is told not to look at on disk (skip-worktree,
    assume-unchanged), and the files it does not track and does not ignore, in its order."""

    entries: dict[str, Entry]
    unwatched: set[str]
    untracked: list[str]

    @classmethod
    def of(cls, root: Root) -> WorkTreeListing:
        """One `git ls-files --cached --others` in the work tree `root` (its top): `-s -v`
        tags each index entry (`TAG MODE OID STAGE<TAB>PATH`) and each other file (`? PATH`,
        a tag no index entry has)."""
        args = ["ls-files", "-s", "-v", "-z", "--full-name", "--cached", "--others"]
        index: dict[str, Entry] = {}
        unwatched, untracked = set(), []
        for field in filter(None, _fields(git(root, *args, "--exclude-standard"))):
            if field.startswith("? "):
                untracked.append(field[2:])
                continue
            info, path = field.split("\t", 1)
            tag, mode, oid, _ = info.split(" ")
            index[path] = Entry(mode, oid)
            if tag == "S" or tag.islower():  # skip-worktree, assume-unchanged
                unwatched.add(path)
        return cls(index, unwatched, untracked)


class WorkTree:
    """The working tree on disk: the files git tracks or would track (not ignored)."""

    revision = name = None

    def __init__(self, root: Root, listing: WorkTreeListing | None = None) -> None:
        """`listing`: what git says of the work tree `root`, when already asked (else git is
        asked here)."""
        self.root = root
        self.label = "in the working tree"
        listing = WorkTreeListing.of(root) if listing is None else listing
        index, unwatched, untracked = listing.entries, listing.unwatched, set(listing.untracked)
        listed = index.keys() | untracked
        on_disk = {path for path in listed if os.path.lexists(os.path.join(root, path))}
        # `git diff` takes the files git is told not to look at as unchanged: those on disk are
        # compared anyway (`unwatched`); those a sparse checkout leaves out hold the index's.
        self.unwatched = unwatched & on_disk
        self._index = Tree(root, {p: index[p] for p in unwatched - on_disk}, None)
        self._known = on_disk | set(self._index.entries)
        self._children: dict[str, set[str]] | None = None
        self._top = str(root)
        self._kinds: dict[str, str | None] = {}

    def paths(self) -> Collection[str]:
        return self._known

    def children(self, folder: str) -> Collection[str]:
        if self._children is None:
            self._children = _children(self._known)
        return self._children.get(folder, ())

    def sparse_paths(self) -> set[str]:
        """The files a sparse checkout leaves out: what they hold is the index's."""
        return set(self._index.entries)

    def known(self, path: str) -> bool:
        """Whether a checkout holds `path`: git tracks it or would (it is not ignored)."""
        return path in self._known

    def kind_of(self, path: str) -> str | None:
        if path not in self._kinds:  # asked again and again while links are followed
            self._kinds[path] = self._kind_on_disk(path)
        return self._kinds[path]

    def _kind_on_disk(self, path: str) -> str | None:
        on_disk = os.path.join(self._top, path)
        try:
            mode = os.lstat(on_disk).st_mode
        except OSError:
            return self._index.kind_of(path)
        if stat.S_ISLNK(mode):
            return LINK
        if stat.S_ISDIR(mode):
            return GITLINK if path and os.path.lexists(os.path.join(on_disk, ".git")) else "dir"
        return "file" if stat.S_ISREG(mode) else None

    def read_link(self, path: str) -> str:
        if path in self._index.entries:
            return self._index.read_link(path)
        return os.readlink(os.path.join(self._top, path))

    def read(self, paths: Sequence[str]) -> dict[str, bytes]:
        contents = self._index.read([p for p in paths if p in self._index.entries])
        for path in paths:
            if path not in contents:
                contents[path] = read_regular_file(os.path.join(self.root, path)).data
        return contents

    def close(self) -> None:
        self._index.close()


Side = Tree | WorkTree


def not_a_file(kind: str | None, path: str, *, through_link: bool) -> str:
    """Why a name is not a file: it is a folder, a submodule or nothing (through a link or
    not)."""
    if not through_link:
        what = {GITLINK: "is a submodule", "dir": "is a folder"}.get(kind or "", "does not exist")
        return f"{what}, not a file" if kind in (GITLINK, "dir") else what
    if kind == GITLINK:
        return f"leads to the submodule {quoted(path)}"
    if kind == "dir":
        return f"leads to the folder {quoted(path or '.')}, not a file"
    return f"leads to {quoted(path)}, which does not exist (a dangling link)"


def transformed_paths(
    root: Root, paths: Iterable[str], revision: str | None, cached: bool
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
    root: Root,
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


# Words in a configuration file that may make an attribute apply, or git refuse the repository:
# `core.attributesFile`, `[attr]` (attr.tree), `include`/`includeIf` (another file may say
# either), `extensions` (a format git may not read). Any of them, in any case: git is asked.
_CONFIG_WORDS = (b"attr", b"include", b"extensions")


def _files_git_reads(git_dir: str) -> tuple[list[str], list[str]]:
    """The configuration files git 2.39 reads here without GIT_* variables (the system's, at
    /etc and at git's own prefix, the user's and the repository's), and the attribute files
    that apply to every path whatever is configured (the same places' defaults). GitError when
    HOME or XDG_CONFIG_HOME is not an absolute path: git reads a relative one from the top of
    the work tree, not from here, so which files it names is left to git."""
    prefix = os.path.dirname(os.path.dirname(git_program()))
    home = os.environ.get("HOME", "")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    if not (os.path.isabs(home) and os.path.isabs(xdg)):
        raise GitError("HOME or XDG_CONFIG_HOME is not an absolute path: git is asked")
    config = ["/etc/gitconfig", os.path.join(prefix, "etc", "gitconfig")]
    config += [os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config")]
    config += [os.path.join(git_dir, "config"), os.path.join(git_dir, "config.worktree")]
    attributes = ["/etc/gitattributes", os.path.join(prefix, "etc", "gitattributes")]
    attributes += [os.path.join(xdg, "git", "attributes")]
    attributes += [os.path.join(git_dir, "info", "attributes")]
    return config, attributes


def _holds(path: str, words: Sequence[bytes]) -> bool:
    """Whether the file at `path` exists and holds any of `words` in any case (unreadable, or
    not a regular file: it may, for all that can be told)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return True
        with open(path, "rb") as file:
            data = file.read().lower()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return any(word in data for word in words)


def _index_may_hold_attributes(git_dir: str) -> bool:
    """Whether the index may list a `.gitattributes` (git reads it from there for a path whose
    folder's file is missing from the working tree): its bytes are scanned for the name, in
    index versions 2 and 3, which keep each path whole; any other format, a split index or an
    index that cannot be read: it may."""
    index = os.path.join(git_dir, "index")
    try:
        with open(index, "rb") as file:
            data = file.read()
    except FileNotFoundError:
        return False  # no commit nor `git add` yet: nothing listed
    except OSError:
        return True
    if data[:4] != b"DIRC" or data[4:8] not in (b"\0\0\0\2", b"\0\0\0\3"):
        return True
    return b"gitattributes" in data.lower() or b"link" in data  # `link`: a split index


# GIT_* variables that change nothing of which repository, configuration or attributes git
# reads (transports, identities, editors, tracing); any other: git is asked.
_HARMLESS_PREFIXES = (
    *("GIT_SSL_", "GIT_HTTP_", "GIT_SSH", "GIT_PROXY_", "GIT_TRACE"),
    *("GIT_AUTHOR_", "GIT_COMMITTER_"),
)
_HARMLESS = frozenset(
    {"GIT_TERMINAL_PROMPT", "GIT_EDITOR", "GIT_PAGER", "GIT_ASKPASS", *GIT_ENVIRONMENT}
)


def _harmless(name: str) -> bool:
    return name in _HARMLESS or name.startswith(_HARMLESS_PREFIXES)


def _plain_environment(env: Mapping[str, str]) -> bool:
    """Whether no GIT_* variable but harmless ones is set, in this process or in `env`."""
    return not any(name.startswith("GIT_") and not _harmless(name) for name in (*os.environ, *env))


def _own_repository_folder(top: str, git_dir: str) -> bool:
    """Whether `git_dir` (`top/.git`) is a repository folder, not a link nor a file naming
    another, owned, as `top` is, by this user (else git may refuse it, which must be said),
    and the repository's own: with a `commondir` file (a linked worktree's, or one written by
    hand) git reads the configuration and info/attributes of the folder it names instead of
    `git_dir`'s. OSError when either cannot be looked at."""
    owner = os.geteuid()
    if os.lstat(top).st_uid != owner or os.lstat(git_dir).st_uid != owner:
        return False
    if not stat.S_ISDIR(os.lstat(git_dir).st_mode):
        return False
    if os.path.lexists(os.path.join(git_dir, "commondir")):
        return False
    return os.path.isfile(os.path.join(git_dir, "HEAD"))


def _files_git_reads_here(top: str, env: Mapping[str, str]) -> tuple[list[str], list[str]] | None:
    """`_files_git_reads` for the work tree `top`, where they can be told without git: no GIT_*
    variable but harmless ones is set (here or in `env`) and `top/.git` is the repository's
    own folder (`_own_repository_folder`). None when in doubt: git is asked. The one gate of
    both shortcuts (the filter lookup's and the attribute step's)."""
    if not _plain_environment(env):
        return None
    git_dir = os.path.join(top, ".git")
    try:
        if not _own_repository_folder(top, git_dir):
            return None
        return _files_git_reads(git_dir)
    except (OSError, GitError):
        return None


def _nothing_configured(top: str) -> bool:
    """Whether, for certain, no attribute applies to the paths of the work tree `top` but by
    a `.gitattributes` file, and git would not refuse it: no GIT_* variable but harmless ones
    is set; `top/.git` is a repository folder owned, as `top` is, by this user (else git may
    refuse it, which must be said); no attribute file that always applies; and no
    configuration file that names one (or includes another, or asks for a format git may not
    read)."""
    files = _files_git_reads_here(top, {})
    if files is None:
        return False
    config_files, attribute_files = files
    if any(os.path.lexists(path) for path in attribute_files):
        return False
    return not any(_holds(path, _CONFIG_WORDS) for path in config_files)


def no_attribute_can_apply(top: str, targets: Sequence[str]) -> bool:
    """Whether, for certain, no git attribute applies to any of `targets` (real paths in the
    work tree `top`) as the working tree's attributes are read, so `git check-attr` need not
    run: nothing configured (`_nothing_configured`) and no `.gitattributes` in the folders
    from `top` down to each target, on disk or in the index. When in doubt: False, and git
    is asked."""
    folders = set()
    for target in targets:
        folder = os.path.dirname(target)
        while inside(folder, top) and folder not in folders:
            folders.add(folder)
            folder = os.path.dirname(folder)
    if any(os.path.lexists(os.path.join(folder, ".gitattributes")) for folder in folders):
        return False
    if not _nothing_configured(top):
        return False
    return not _index_may_hold_attributes(os.path.join(top, ".git"))


def no_attribute_in_tree(top: str, listed: Collection[str]) -> bool:
    """`no_attribute_can_apply` for attributes read from a tree or the index (`listed`: its
    paths): nothing configured, and no `.gitattributes` anywhere in it (in any case)."""
    if any(os.path.basename(path).lower() == ".gitattributes" for path in listed):
        return False
    return _nothing_configured(top)


def attribute_message(attributes: Sequence[str]) -> str:
    """What `check` and `diff` say about a file an attribute transforms."""
    archive = all(a.split("=")[0] in ARCHIVE_ATTRIBUTES for a in attributes)
    return (
        f"the git attribute {', '.join(attributes)} makes "
        f"{'an archive (git archive)' if archive else 'a checkout'} of this file differ from "
        "the committed file, so what is reviewed is not what is read; remove it from "
        ".gitattributes for safety profiles and actions"
    )


def repository_refused(top: str, error: GitError) -> GitError:
    """git refused to answer about the work tree `top` (its ownership, a broken `.git`): the
    command stops, as it would with no answer at all (never "no problem")."""
    return GitError(
        f"git cannot read the repository {visible(top)}, so its attributes cannot be checked: "
        f"{error}"
    )


def checkout_problems(
    paths: Sequence[str], located: Mapping[str, Located] | None = None
) -> list[Problem]:
    """`check`: a problem for each file in a git work tree that an attribute transforms
    (`paths` as the user gave them; a link is judged by the file it leads to). One
    `git check-attr` per work tree the files are in (one, usually); a file in no work tree
    (no `.git` above it) costs no git process. GitError when git refuses a work tree: what it
    would have said is unknown, so nothing passes for checked."""
    located = locate(paths) if located is None else located
    real = {path: located[path].real for path in paths}
    by_tree: dict[str, list[str]] = {}
    for path, target in real.items():
        top = located[path].top
        if top is not None and inside(target, top):
            by_tree.setdefault(top, []).append(target)
    found: dict[str, list[str]] = {}
    for top, targets in by_tree.items():
        if no_attribute_can_apply(top, targets):
            continue  # git would say nothing: no process started
        try:
            found.update(transformed_paths(top, targets, None, False))
        except GitError as error:
            raise repository_refused(top, error) from None
    return [
        Problem(path, 0, 0, "", attribute_message(found[real[path]]), Rule.GIT_ATTRIBUTE)
        for path in paths
        if real[path] in found
    ]
