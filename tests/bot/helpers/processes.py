"""The real process: ``python -m bot`` with its settings in the environment."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from standin import StandIn
from standin.crashing import command
from standin.forked import Process, popen
from storage.db import make_engine
from storage.migrate import upgrade

ROOT = Path(__file__).resolve().parents[3]


def env_for(standin: StandIn, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PORTES_"))}
    env.update(
        TELEGRAM_BOT_TOKEN=standin.token,
        TELEGRAM_API_URL=standin.base_url,
        TELEGRAM_FILE_URL=standin.base_file_url,
        DATABASE_URL=f"sqlite:///{tmp_path / 'bot.sqlite3'}",
        PORTES_RATE_OVERALL="0",
        PORTES_RATE_GROUP="0",
        PORTES_RATE_CHAT="0",
        PORTES_TIMER_POLL="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


@functools.cache
def _migrated() -> Path:
    """An SQLite file at the head revision, made once per test process."""
    folder = tempfile.mkdtemp(prefix="portes-template-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = Path(folder) / "template.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


def migrated(tmp_path: Path) -> None:
    """The bot's database in ``tmp_path`` starts at the head revision (a copy), unless the
    test made one already: a process started on a new file would migrate it in a child first,
    a second and a half of CPU per test. Migrating at start is tested on its own
    (test_check_applies_migrations_and_says_ok, tests/storage/test_storage_schema.py)."""
    target = tmp_path / "bot.sqlite3"
    if not target.exists():
        shutil.copy(_migrated(), target)


def delivered(tmp_path: Path) -> bool:
    """Whether the outbox of the bot process on ``tmp_path``'s database has nothing left to
    send (a process cannot tell the stand-in it is busy: its database can)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    try:
        with engine.connect() as conn:
            return not conn.execute(text("SELECT count(*) FROM deliveries WHERE pending")
                                    ).scalar()
    finally:
        engine.dispose()


def run(
    args: list[str], env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def start_at(standin: StandIn, tmp_path: Path, crash_at: str | None) -> Process:
    """``python -m bot`` through :mod:`standin.crashing`: with ``crash_at``, the process ends
    itself at that step (:mod:`bot.faults`); its output goes to ``bot.log`` in ``tmp_path``."""
    log = (tmp_path / "bot.log").open("a")
    # the default lease: the restarted process releases the dead one's claims at start
    extra = {}
    if crash_at:
        extra["PORTES_TEST_CRASH_AT"] = crash_at
    env = env_for(standin, tmp_path, **extra)
    migrated(tmp_path)
    return polling(standin, popen(command(env), env=env, stdout=log))


def start(standin: StandIn, tmp_path: Path) -> Process:
    """``python -m bot`` itself; its output goes to ``bot.log`` in ``tmp_path``."""
    log = (tmp_path / "bot.log").open("a")
    migrated(tmp_path)
    return polling(standin, popen([sys.executable, "-m", "bot"],
                                  env=env_for(standin, tmp_path), stdout=log))


def polling(standin: StandIn, proc: Process, timeout: float = 180.0) -> Process:
    """``proc`` once it is up: it has asked Telegram to drop any webhook, the last call
    before it polls (a cold start on a loaded machine takes many seconds; what the test does
    next must not race it). Returns at once if the process exits meanwhile (the test looks)."""
    seen = len(standin.calls("deleteWebhook"))
    for _ in range(int(timeout / 0.05)):  # a hang guard
        if len(standin.calls("deleteWebhook")) > seen or proc.poll() is not None:
            return proc
        time.sleep(0.05)
    raise AssertionError(f"the bot process did not start polling in {timeout:.0f} s")
