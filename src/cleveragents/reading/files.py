"""Reading the files a user names: regular files only, bounded, never blocking on a FIFO."""

from __future__ import annotations

import errno
import os
import stat

from .lean_typing import NamedTuple
from .limits import DEFAULT_LIMITS, LoadLimits
from .problems import Problem
from .rules import Rule


class RegularFile(NamedTuple):
    data: bytes  # at most `limits.max_bytes + 1` bytes: enough to see the file is too large
    size: int  # the file's true size, for the message when it is too large


def read_regular_file(path: str, limits: LoadLimits = DEFAULT_LIMITS) -> RegularFile:
    """The first `limits.max_bytes + 1` bytes of a regular file, and its size.

    Raises OSError for a missing path, a directory, a FIFO or device (opened without blocking,
    then refused) or an unreadable file."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        status = os.fstat(descriptor)
        mode = status.st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "Not a regular file", path)
        # Plain reads on the descriptor: no buffered file object to build for a small file.
        wanted = limits.max_bytes + 1
        chunks = []
        while wanted > 0:
            chunk = os.read(descriptor, wanted)
            if not chunk:
                break
            chunks.append(chunk)
            wanted -= len(chunk)
        data = b"".join(chunks)
        # A file still being written may have grown since fstat.
        return RegularFile(data, max(status.st_size, len(data)))
    finally:
        os.close(descriptor)


def file_problem(error: OSError, filename: str) -> Problem:
    if isinstance(error, FileNotFoundError):
        message, rule = "no such file; check the path", Rule.FILE_MISSING
    elif isinstance(error, IsADirectoryError):
        message, rule = "is a directory; pass the YAML files inside it", Rule.FILE_DIRECTORY
    elif isinstance(error, PermissionError):
        message, rule = "permission denied; make the file readable", Rule.FILE_UNREADABLE
    else:
        reason = (error.strerror or str(error)).lower()
        message, rule = f"cannot be read ({reason}); pass a regular YAML file", Rule.FILE_UNREADABLE
    return Problem(filename, 0, 0, "", message, rule)
