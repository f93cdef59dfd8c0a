"""Bot processes for the tests, forked from a process that imported the bot once.

A ``python -m bot`` spends most of its start importing: executed, a bot process costs 1.15 CPU s
until it polls, forked 0.35 s (measured), and a run of the suite starts some seventy.
:func:`popen` starts ``python -m <module> <args>`` as a child of a *zygote*, a process (one per
test process, started on first use) that imported the bot and then only forks: the child runs
the module as ``python -m`` would (:mod:`runpy`), with its own environment, working directory
and output file. It is a process of its own: its pid, a SIGKILL or SIGTERM sent to it, its exit
status, the files and sockets it opens. What it shares with the zygote is the imported code,
never a running state: the zygote opens no database, starts no thread or event loop, and a
child's ``random`` is seeded anew at the fork (Python does so).

:class:`Forked` answers as much of :class:`subprocess.Popen` as the tests use (``pid``,
``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``, ``returncode``). Set
``PORTES_TEST_EXEC=1`` to start every bot with a real ``exec`` instead (``subprocess.Popen``);
the tests of the command line itself (``--check``, ``--help``) always do.

Run as ``python -m standin.forked <fd>``, this module is the zygote, serving the socket ``fd``.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
EXEC = "PORTES_TEST_EXEC"
PRELOAD = ("bot.app", "bot.__main__", "standin.crashing", "bot.computer_player", "computer.aio",
           "bot.accuracy_job", "bot.ops.http", "storage.health", "storage.schema",
           "storage.migrate", "sqlalchemy.dialects.sqlite.pysqlite",
           "sqlalchemy.dialects.postgresql.psycopg", "psycopg", "httpcore",
           "httpcore._async.connection_pool",
           "anyio._backends._asyncio", "h11", "certifi", "apscheduler.triggers.interval",
           "PIL.JpegImagePlugin", "PIL.PngImagePlugin", "multiprocessing.popen_spawn_posix",
           "multiprocessing.synchronize", "multiprocessing.resource_tracker")
"""What the zygote imports before it forks: the bot's import graph, and what it imports as it
starts (one that cannot be imported here is left to the child)."""
_HEADER = struct.Struct("!I")


def _send(sock: socket.socket, message: Mapping[str, Any], fds: Sequence[int] = ()) -> None:
    data = json.dumps(message).encode()
    payload = _HEADER.pack(len(data)) + data
    if fds:
        sent = socket.send_fds(sock, [payload], list(fds))
        sock.sendall(payload[sent:])
    else:
        sock.sendall(payload)


def _receive(sock: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """One message and the descriptors sent with it; ``None`` at the end of the stream."""
    data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 4)
    if not data:
        return None, fds
    while len(data) < _HEADER.size:
        data += sock.recv(1 << 16)
    (length,) = _HEADER.unpack_from(data)
    while len(data) < _HEADER.size + length:
        more = sock.recv(1 << 16)
        if not more:
            return None, fds
        data += more
    message: dict[str, Any] = json.loads(data[_HEADER.size:_HEADER.size + length])
    return message, fds


class Zygote:
    """The test process's end of a zygote."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PORTES_"))}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "standin.forked", str(theirs.fileno())], cwd=ROOT, env=env,
            # nothing on the test process's stdout: a pytest-xdist worker talks to its
            # controller over it
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        theirs.close()
        self.sock = ours
        self.lock = threading.Lock()

    def ask(self, message: Mapping[str, Any], fds: Sequence[int] = ()) -> dict[str, Any]:
        with self.lock:
            _send(self.sock, message, fds)
            answer, _ = _receive(self.sock)
        if answer is None:
            raise RuntimeError(f"the bot processes' zygote is gone ({self.proc.poll()})")
        return answer

    def close(self) -> None:
        self.sock.close()  # it ends at the end of its stream
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


_zygote: Zygote | None = None
_zygote_lock = threading.Lock()


def zygote() -> Zygote:
    global _zygote
    with _zygote_lock:
        if _zygote is None or _zygote.proc.poll() is not None:
            _zygote = Zygote()
            atexit.register(_zygote.close)
        return _zygote


class Forked:
    """A bot process forked by the zygote (see the module's docstring)."""

    def __init__(self, argv: list[str], pid: int, owner: Zygote) -> None:
        self.args = argv
        self.pid = pid
        self.returncode: int | None = None
        self._owner = owner

    def poll(self) -> int | None:
        if self.returncode is None:
            status = self._owner.ask({"op": "poll", "pid": self.pid})["status"]
            self.returncode = None if status is None else int(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            time.sleep(0.02)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


Process = subprocess.Popen[str] | Forked
"""A bot process a test started, forked or executed."""


def popen(argv: list[str], *, env: Mapping[str, str], cwd: Path | str = ROOT,
          stdout: IO[Any]) -> Process:
    """``argv`` (``[sys.executable, "-m", module, *args]``) with ``env`` in ``cwd``, its
    output and errors to the file ``stdout``: forked by the zygote, or executed when
    ``PORTES_TEST_EXEC=1``, when ``argv`` is not ``python -m``, or when ``env`` sets another
    ``PYTHONPATH`` than the tests'."""
    if (os.environ.get(EXEC) == "1" or argv[:2] != [sys.executable, "-m"]
            or env.get("PYTHONPATH") != os.environ.get("PYTHONPATH")):
        # another interpreter's start (a PYTHONPATH's sitecustomize) cannot be forked
        return subprocess.Popen(argv, env=dict(env), cwd=cwd, stdout=stdout,
                                stderr=subprocess.STDOUT, text=True)
    owner = zygote()
    stdout.flush()
    answer = owner.ask({"op": "spawn", "argv": argv[2:], "env": dict(env), "cwd": str(cwd)},
                       [stdout.fileno()])
    return Forked(argv, int(answer["pid"]), owner)


# -- the zygote --------------------------------------------------------------------------------


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _child(message: Mapping[str, Any], output: int) -> None:
    """In the forked child: become ``python -m <module>`` and exit with its status."""
    import io
    import runpy
    import traceback

    code = 1
    try:
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.close(output)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.chdir(message["cwd"])
        os.environ.clear()
        os.environ.update(message["env"])
        for sig in (signal.SIGTERM, signal.SIGCHLD, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        # as PYTHONUNBUFFERED: every line reaches the log file as it is written
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True,
                                      line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True,
                                      line_buffering=True, errors="backslashreplace")
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
        module, *args = message["argv"]
        sys.argv = [module, *args]
        sys.path[0] = message["cwd"]  # as ``python -m`` run there has it
        code = 0
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = _exit_code(exc.code)
        except BaseException:
            traceback.print_exc()
            code = 1
        # what an interpreter does at its exit: wait for the threads that are not daemons,
        # then the exit handlers
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def _reap(statuses: dict[int, int]) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        statuses[pid] = os.waitstatus_to_exitcode(status)


def _warm() -> None:
    """Do once what every start of the bot does first, and keep only data, no state: Babel's
    locale data (the languages' names in the bot's commands), the TLS CA bundle, SQLAlchemy's
    mappers configured (on a process's first query: 0.1 CPU s) and the renderer's warm-up
    drawn here, at once, instead of in its thread (fonts, sprites and empty boards: 0.26 CPU s).
    A child that finds them ready skips that work; what failed here it does itself."""
    try:
        from sqlalchemy.orm import configure_mappers

        from bot.ops.metrics import tls_context
        from bot.views.board_image import warm_up
        from bot.views.i18n import lang_names

        lang_names()
        tls_context()
        configure_mappers()
        warm_up(submit=lambda draw, *args: draw(*args))
    except Exception:  # the child loads them itself
        return


def serve(fd: int) -> None:
    """The zygote: import the bot, then fork a child for each request until the stream ends.
    Children are reaped as they end (a dead bot is not left a zombie that looks alive to the
    next one's check of its pid)."""
    import importlib

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    _warm()
    # what every child inherits is never garbage: kept out of its collector's scans (and its
    # pages unwritten by them, shared with the zygote)
    gc.collect()
    gc.freeze()
    sock = socket.socket(fileno=fd)
    statuses: dict[int, int] = {}
    while True:
        _reap(statuses)
        ready, _, _ = select.select([sock], [], [], 0.05)
        if not ready:
            continue
        message, fds = _receive(sock)
        if message is None:
            return
        if message["op"] == "spawn":
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                sock.close()
                _child(message, fds[0])
            for extra in fds:
                os.close(extra)
            _send(sock, {"pid": pid})
        elif message["op"] == "poll":
            _reap(statuses)
            _send(sock, {"status": statuses.get(int(message["pid"]))})


if __name__ == "__main__":
    serve(int(sys.argv[1]))
