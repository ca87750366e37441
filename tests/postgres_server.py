"""A throwaway PostgreSQL server for the tests: `initdb` and `pg_ctl` in a temporary folder,
listening on a Unix socket in that folder only (no TCP port), removed when the tests end.

The binaries come from the Debian `postgresql` package (`/usr/lib/postgresql/<version>/bin`,
which `.ci/run` installs when it is missing) or from PATH. `initdb` refuses to run as root, so
as root the server runs as the `postgres` system user (which that package creates).
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SUPERUSER = "postgres"
PORT = 5432  # names the socket file only: TCP is off


def server_binaries() -> Path | None:
    """The folder holding `initdb` and `pg_ctl`, the newest version first; None when absent."""
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if debian:
        return debian[-1].parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _run_as() -> list[str]:
    """The command prefix that runs a server program as an unprivileged user."""
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", SUPERUSER, "--"]


@dataclass
class PostgresServer:
    binaries: Path
    folder: Path
    _names: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _program(self, name: str, *arguments: str) -> None:
        command = [*_run_as(), str(self.binaries / name), *arguments]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")

    def start(self) -> None:
        if os.geteuid() == 0:
            os.chown(self.folder, pwd.getpwnam(SUPERUSER).pw_uid, -1)
        # --no-sync and -F (no fsync): a test server never needs to survive a power cut.
        initdb = ["-D", str(self.data), "-A", "trust", "-U", SUPERUSER, "-E", "UTF8", "--no-sync"]
        self._program("initdb", *initdb)
        options = f"-k {self.folder} -h '' -p {PORT} -F"
        log = str(self.folder / "server.log")
        self._program("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        self._program("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        """A SQLAlchemy URL (psycopg 3) for `database`, through the socket."""
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.folder}&port={PORT}"

    def create_database(self, template: str | None = None) -> str:
        """A new, empty database (or a copy of `template`); returns its name."""
        import psycopg

        name = f"test_{next(self._names)}"
        copy = f" TEMPLATE {template}" if template else ""
        with psycopg.connect(
            host=str(self.folder), port=PORT, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(f"CREATE DATABASE {name}{copy}")  # type: ignore[arg-type]
        return name


def start_server(binaries: Path) -> PostgresServer:
    # A short path under /tmp: a Unix socket path may not exceed 107 bytes.
    server = PostgresServer(binaries, Path(tempfile.mkdtemp(prefix="pg-", dir="/tmp")))
    try:
        server.start()
    except BaseException:
        shutil.rmtree(server.folder, ignore_errors=True)
        raise
    return server


def remove_server(server: PostgresServer) -> None:
    try:
        server.stop()
    finally:
        shutil.rmtree(server.folder, ignore_errors=True)
