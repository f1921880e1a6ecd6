"""A throw-away PostgreSQL cluster for tests: ``initdb`` into a temp dir, ``pg_ctl`` on loopback.

The real server runs (not a fake): the binaries come from ``PATH`` or Debian's
``/usr/lib/postgresql/<version>/bin``. initdb refuses to run as root, so under root the
binaries run as the ``postgres`` system user, who owns the temporary directory.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from tests.fakes.net import free_port

# Characters that must be percent-encoded in a URL: the DSN must be parsed, not split.
PASSWORD = "pg:S3cr3t/p@ss%word"
SUPERUSER = "finagent"
SYSTEM_USER = "postgres"


class PostgresUnavailableError(RuntimeError):
    """The server binaries (or the system user to run them under root) are missing."""


def find_bindir() -> Path | None:
    """Directory holding ``initdb``, ``pg_ctl`` and ``pg_isready``, newest version first."""
    candidates: list[Path] = []
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)

    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(p) for p in re.findall(r"\d+", path.parent.name))

    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    candidates.extend(debian)
    for bindir in candidates:
        if all((bindir / tool).is_file() for tool in ("initdb", "pg_ctl", "pg_isready")):
            return bindir
    return None


class PostgresCluster:
    """One cluster in its own temp dir, listening on 127.0.0.1 and a unix socket in that dir."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self._as_root = os.geteuid() == 0
        if self._as_root:
            try:
                self._owner = pwd.getpwnam(SYSTEM_USER)
            except KeyError as exc:
                raise PostgresUnavailableError(
                    f"running as root needs the '{SYSTEM_USER}' system user "
                    "(initdb refuses root); install the postgresql package"
                ) from exc
        # /tmp rather than pytest's tmp dir: the latter is private to root, and a unix
        # socket path must stay short.
        self.root = Path(tempfile.mkdtemp(prefix="finagent-pg-"))
        if self._as_root:
            os.chown(self.root, self._owner.pw_uid, self._owner.pw_gid)
        self.data_dir = self.root / "data"
        self.log_file = self.root / "server.log"
        self.port = 0
        self._running = False

    def _run(self, tool: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / tool), *args]
        if self._as_root:
            command = ["runuser", "-u", SYSTEM_USER, "--", *command]
        return subprocess.run(
            command, cwd=self.root, capture_output=True, text=True, timeout=timeout, check=False
        )

    def _check(self, result: subprocess.CompletedProcess[str], what: str) -> None:
        if result.returncode != 0:
            raise RuntimeError(
                f"{what} failed ({result.returncode}): {result.stderr.strip()}\n{self.log_tail()}"
            )

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def start(self, timeout: float = 60.0) -> None:
        """initdb, then start on a free loopback port and wait until it accepts connections."""
        pwfile = self.root / "pwfile"
        pwfile.write_text(PASSWORD + "\n", encoding="utf-8")
        pwfile.chmod(0o600)
        if self._as_root:
            os.chown(pwfile, self._owner.pw_uid, self._owner.pw_gid)
        try:
            self._check(
                self._run(
                    "initdb",
                    "-D",
                    str(self.data_dir),
                    "-U",
                    SUPERUSER,
                    f"--pwfile={pwfile}",
                    "--auth-local=trust",
                    "--auth-host=scram-sha-256",
                    "--encoding=UTF8",
                    "--no-locale",
                    "--no-sync",
                ),
                "initdb",
            )
        finally:
            pwfile.unlink(missing_ok=True)
        for _attempt in range(3):  # another process may take the free port first
            self.port = free_port()
            options = (
                f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            )
            started = self._run(
                "pg_ctl",
                "start",
                "-D",
                str(self.data_dir),
                "-l",
                str(self.log_file),
                "-o",
                options,
                "-w",
                "-t",
                str(int(timeout)),
                timeout=timeout + 10,
            )
            if started.returncode == 0:
                self._running = True
                self._wait_ready(timeout)
                return
            if "already in use" not in self.log_tail():
                self._check(started, "pg_ctl start")
        raise RuntimeError(f"PostgreSQL found no free port:\n{self.log_tail()}")

    def _wait_ready(self, timeout: float) -> None:
        """Poll ``pg_isready`` over TCP until the server accepts connections (bounded)."""
        deadline = time.monotonic() + timeout
        while True:
            ready = self._run("pg_isready", "-h", "127.0.0.1", "-p", str(self.port), "-t", "5")
            if ready.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL is not ready: {ready.stdout}\n{self.log_tail()}")
            time.sleep(0.05)  # readiness polling, not synchronisation by delay

    def dsn(self, dbname: str = "postgres", password: str = PASSWORD) -> str:
        """A URL DSN for the superuser over TCP, the password percent-encoded."""
        return f"postgresql://{SUPERUSER}:{quote(password, safe='')}@127.0.0.1:{self.port}/{dbname}"

    def stop(self) -> None:
        """Stop the server and delete the cluster."""
        try:
            if self._running:
                stopped = self._run("pg_ctl", "stop", "-D", str(self.data_dir), "-m", "fast", "-w")
                self._running = False
                self._check(stopped, "pg_ctl stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
