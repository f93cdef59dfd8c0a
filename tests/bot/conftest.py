"""Fixtures for the bot's tests: the real Application over HTTP against the Bot API stand-in."""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Executor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app import build_application
from bot.delivery.worker import Delivery
from bot.intake.lanes import ChatLanes
from bot.settings import RateLimits, Settings, Timeouts
from bot.state import Portes
from standin import StandIn
from standin.fixtures import standin  # noqa: F401
from standin.forked import Process
from storage.db import Database
from storage.migrate import upgrade
from storage.results import TimerPolicy
from storage.usecases import UseCases
from tests.bot.helpers.webhook import webhook_bot  # noqa: F401 (the bot in webhook mode)


@pytest.fixture(scope="session")
def engine_pool() -> Iterator[Executor]:
    """One engine worker process for the whole session (the computer's moves, hints and
    reviews), instead of one per bot started; the bots leave an executor they did not make."""
    from computer import aio

    pool = aio.pool()
    yield pool
    aio.use_executor(None)
    pool.shutdown(wait=False, cancel_futures=True)


@pytest.fixture(autouse=True)
def engine_worker(engine_pool: Executor) -> None:
    """Every bot test on the session's engine worker, whatever a test before it in this process
    chose: tests/computer/test_aio.py goes back to the default pool, and each bot started after
    it then spawned (and stopped) a worker of its own (measured: 36 spawns in a run, not 4)."""
    from computer import aio

    aio.use_executor(engine_pool)


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file migrated to head once; each test copies it (migrations take a while)."""
    path = tmp_path_factory.mktemp("db") / "template.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


class Clock:
    """A settable clock for the use cases (reminders and timeouts without waiting). Moved on,
    it wakes the clock's jobs of the bots on it (``TICKS``) as their next poll would."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
        self.wakers: list[Callable[[], None]] = []

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)
        for wake in self.wakers:
            wake()


TIMER_POLL = 1.0
"""The bots' poll of their timers and tickers in tests (30 s as shipped): a second, and at
once when a test moves the clock on. At 0.2 s an idle bot spent 0.056 CPU s a second on the
polls, 0.016 at a second (measured), and the bot tests are alive for some 900 s a run."""
TICKS = ("timers", "play", "ladder")
"""The jobs that act on the use cases' clock (bot/app.py's _post_init)."""


def wake_ticks(app: Any) -> None:
    """Run the bot's clock jobs now (a job already running is left to its next poll)."""
    if app.job_queue is None or not app.running:
        return
    now = datetime.now(UTC)
    for job in app.job_queue.jobs():
        if job.name in TICKS:
            job.job.modify(next_run_time=now)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_url(migrated_db: Path, tmp_path: Path) -> str:
    path = tmp_path / "portes.sqlite3"
    shutil.copy(migrated_db, path)
    return f"sqlite:///{path}"


def settings_for(server: StandIn, db_url: str, **changes: Any) -> Settings:
    settings = Settings(
        token=server.token,
        database_url=db_url,
        api_url=server.base_url,
        file_url=server.base_file_url,
        rate=RateLimits(overall_per_second=0, group_per_minute=0, chat_per_second=0,
                        max_retries=3),
        timeouts=Timeouts(timer_poll=TIMER_POLL),
        computer_delay=0.0,
        # the whole suite can run over the lean transport: PORTES_TEST_HTTP_CLIENT=lean
        http_client=os.environ.get("PORTES_TEST_HTTP_CLIENT", "httpx"),
    )
    return replace(settings, **changes)


class Running:
    def __init__(self, app: Any, uc: UseCases, clock: Clock) -> None:
        self.app = app
        self.uc = uc
        self.clock = clock


def working(app: Any) -> bool:
    """Whether the bot still works on what it was sent: an update fetched and not yet handled
    (queued, or in its chat's lane), work an update started in the background (a computer's
    turn, a review), or a chat's deliveries being sent (a board drawn and not yet sent). The
    stand-in's idle() waits for this too: a handler busy with the database has no request in
    flight, and a loaded machine made it look quiet."""
    if app.update_queue.qsize() > 0:
        return True
    processor = app.update_processor
    if isinstance(processor, ChatLanes) and (processor.lanes
                                             or processor.current_concurrent_updates > 0):
        return True
    portes = app.bot_data.get("portes")
    if not isinstance(portes, Portes):
        return False
    if any(not task.done() for task in portes.background):
        return True
    delivery = portes.delivery
    return isinstance(delivery, Delivery) and bool(delivery.running)


def replayable_seeds(name: str) -> Callable[[], bytes]:
    """A new match's dice seeds, one after another, the same on every run of the test ``name``
    (each seed distinct, as the bot's own random ones are)."""
    drawn = itertools.count()
    return lambda: hashlib.sha256(f"{name} match {next(drawn)}".encode()).digest()


@pytest.fixture
async def make_bot(standin: StandIn, db_url: str, clock: Clock,  # noqa: F811
                   request: pytest.FixtureRequest) -> AsyncIterator[Callable[..., Any]]:
    started: list[Any] = []
    dbs: list[Database] = []

    async def start(*, seed: bytes | None = None, wall: Callable[[], float] | None = None,
                    **changes: Any) -> Running:
        """A bot with these settings; ``seed``: every match's dice seed (a match replayed);
        ``wall``: the wall clock of the leases several instances share (``tests.clocks``).
        Without ``seed`` each match still rolls reproducible dice, drawn from the test's name:
        a test that fails on some dice fails on every run, not once in sixty on CI."""
        settings = settings_for(standin, db_url, **changes)
        db = Database.from_url(settings.database_url)
        dbs.append(db)
        policy = TimerPolicy()
        seeds = (replayable_seeds(f"{request.node.nodeid} bot {len(started)}") if seed is None
                 else (lambda: seed))
        uc = UseCases(db, timers=policy, clock=clock, wall=wall, seeds=seeds)
        app = build_application(settings, usecases=uc, migrate=False)
        standin.busy.append(lambda: app.running and working(app))
        await app.initialize()
        assert app.post_init is not None
        await app.post_init(app)  # what run_polling does after initialize()
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        clock.wakers.append(lambda: wake_ticks(app))
        started.append(app)
        return Running(app, uc, clock)

    yield start
    for app in started:
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
            if app.post_stop is not None:  # as run_polling does: the background work and
                await app.post_stop(app)  # the delivery worker finish, nothing left pending
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
    for db in dbs:
        await db.dispose()


@pytest.fixture
def bot_process(standin: StandIn) -> Iterator[list[Process]]:  # noqa: F811
    """The bot processes a test starts (append them): any still running is killed after it."""
    procs: list[Process] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)  # a hang guard (10 s ran out once, under py-spy)


@pytest.fixture
async def bot(make_bot: Callable[..., Any]) -> Running:
    return await make_bot()  # type: ignore[no-any-return]
