"""The operator's endpoints: ``/healthz``, ``/readyz`` (the database, never Telegram) and
``/metrics`` (Prometheus text), on the side port in polling mode and beside the webhook in
webhook mode, with the real bot against the stand-in."""

from __future__ import annotations

import asyncio
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from standin import StandIn
from standin.errors import BLOCKED
from standin.forked import Process
from standin.players import board_version, next_private_turn, play_turn
from tests.bot.helpers.computer import start_computer_match
from tests.bot.helpers.processes import ROOT, env_for, run
from tests.bot.helpers.service import get, value
from tests.bot.helpers.webhook import (
    SECRET,
    free_port,
    listening,
    post,
)

SERIES = (
    "portes_updates_total", "portes_taps_total", "portes_tap_seconds_bucket",
    "portes_telegram_errors_total", "portes_telegram_reachable", "portes_delivery_backlog",
    "portes_active_matches", "portes_computer_think_seconds_bucket",
)






async def metrics_once(port: int, series: str, at_least: float) -> str:
    """The metrics page once ``series`` reached ``at_least`` (counted when the handling or the
    answer is over, a moment after what the players see), or as it is after 5 s."""
    for _ in range(100):
        page = (await get(port, "/metrics")).text
        if re.search(rf"^{re.escape(series)} ", page, re.M) and value(page, series) >= at_least:
            break
        await asyncio.sleep(0.05)
    return page


async def test_polling_mode_serves_health_readiness_and_metrics_on_the_side_port(
        standin: StandIn, make_bot: Callable[..., Any], db_url: str) -> None:
    port = free_port()
    await make_bot(metrics_port=port)
    assert (await get(port, "/healthz")).status_code == 200
    ready = await get(port, "/readyz")
    assert ready.status_code == 200 and ready.text.strip() == "ok"

    before = (await get(port, "/metrics")).text
    assert value(before, "portes_taps_total") == 0
    assert value(before, "portes_active_matches") == 0

    alice = standin.user("Alice", username="alice")
    await start_computer_match(standin, alice)  # four taps on the card, then the match
    page = await get(port, "/metrics")
    assert page.headers["content-type"].startswith("text/plain")
    after = await metrics_once(port, "portes_tap_seconds_count", 4)
    assert value(after, "portes_taps_total") >= 4
    assert value(after, "portes_tap_seconds_count") >= 4
    assert value(after, 'portes_updates_total{kind="callback_query"}') >= 4
    assert value(after, 'portes_updates_total{kind="message"}') >= 2  # /start, /new
    assert value(after, "portes_active_matches") == 1
    assert value(after, "portes_telegram_reachable") == 1
    assert value(after, "portes_telegram_requests_total") > value(
        before, "portes_telegram_requests_total")
    for series in SERIES:
        assert re.search(rf"^{series}[ {{]", after, re.M), series

    # Alice plays a turn; the computer thinks and answers
    _, board = await next_private_turn(standin, [alice], 0)
    version = board_version(board)
    await play_turn(standin, alice, alice.private, wait=False)
    await next_private_turn(standin, [alice], version)
    thought = await metrics_once(port, "portes_computer_think_seconds_count", 1)
    assert value(thought, "portes_computer_think_seconds_count") >= 1
    assert value(thought, "portes_taps_total") > value(after, "portes_taps_total")

    # Telegram's refusals, counted by kind: a 429 (retried), a 502 (retried), a 403
    standin.inject_error("sendMessage", 429, retry_after=1, chat_id=alice.id)
    hello = alice.send(alice.private, "/help")
    await alice.private.wait_for_bot_message(after=hello, timeout=10)
    bob = standin.user("Bob")
    bob.start_bot()
    standin.inject_error("sendMessage", 403, description=BLOCKED, chat_id=bob.id)
    await standin.wait_for(lambda: standin.calls("sendMessage", chat_id=bob.id),
                           what="the refused welcome")
    errors = await metrics_once(port, 'portes_telegram_errors_total{kind="403"}', 1)
    assert value(errors, 'portes_telegram_errors_total{kind="429"}') == 1
    assert value(errors, 'portes_telegram_errors_total{kind="403"}') == 1
    assert value(errors, 'portes_telegram_errors_total{kind="network"}') == 0

    # the database file disappears: not ready (while alive); back: ready again
    path = Path(db_url.removeprefix("sqlite:///"))
    moved = path.with_name("elsewhere.sqlite3")
    path.rename(moved)
    try:
        gone = await get(port, "/readyz")
        assert gone.status_code == 503 and "missing" in gone.text
        assert (await get(port, "/healthz")).status_code == 200
    finally:
        moved.rename(path)
    assert (await get(port, "/readyz")).status_code == 200


async def test_readyz_fails_when_the_schema_is_behind(
        standin: StandIn, make_bot: Callable[..., Any], db_url: str) -> None:
    port = free_port()
    running = await make_bot(metrics_port=port)
    db = running.uc.db

    def set_revision(rev: str) -> str:
        from sqlalchemy import text

        with db.engine.begin() as conn:
            old = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
            conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": rev})
        return str(old)

    head = await asyncio.to_thread(set_revision, "0001")
    behind = await get(port, "/readyz")
    assert behind.status_code == 503 and "not at head" in behind.text and head in behind.text
    await asyncio.to_thread(set_revision, head)
    assert (await get(port, "/readyz")).status_code == 200


async def test_webhook_mode_serves_them_beside_the_webhook(
        standin: StandIn, webhook_bot: tuple[Process, int]
) -> None:
    proc, port = webhook_bot
    for _ in range(500):
        if await listening(port):
            break
        assert proc.poll() is None, "the bot exited"
        await asyncio.sleep(0.02)
    assert (await get(port, "/healthz")).status_code == 200
    for _ in range(100):  # ready once started (migrations run before the listener opens)
        if (await get(port, "/readyz")).status_code == 200:
            break
        await asyncio.sleep(0.05)
    assert (await get(port, "/readyz")).text.strip() == "ok"
    page = (await get(port, "/metrics")).text
    assert "portes_updates_total" in page and "portes_delivery_backlog" in page
    # an update through the webhook is counted
    alice = standin.user("Alice")
    hello = alice.start_bot()
    (update,) = standin.take_updates()
    assert await post(port, update, SECRET) == 200
    await alice.private.wait_for_bot_message(after=hello, timeout=20)
    page = await metrics_once(port, 'portes_updates_total{kind="message"}', 1)
    assert value(page, "portes_telegram_reachable") == 1
    # the webhook is still the webhook: GET is not allowed, POST without the secret refused
    assert (await get(port, "/telegram")).status_code == 405


def healthcheck(**env: str) -> subprocess.CompletedProcess[str]:
    import os
    import sys

    clean = {k: v for k, v in os.environ.items() if not k.startswith("PORTES_")}
    return subprocess.run([sys.executable, "-m", "bot.ops.healthcheck"], env={**clean, **env},
                          cwd=ROOT, capture_output=True, text=True, timeout=30)


async def test_the_container_healthcheck_asks_healthz(
        standin: StandIn, make_bot: Callable[..., Any]) -> None:
    port = free_port()
    assert healthcheck(PORTES_METRICS_PORT=str(port)).returncode == 1  # nothing listens yet
    await make_bot(metrics_port=port)
    result = await asyncio.to_thread(healthcheck, PORTES_METRICS_PORT=str(port))
    assert result.returncode == 0, result.stderr
    # in webhook mode it asks the webhook's port
    other = await asyncio.to_thread(
        healthcheck, PORTES_METRICS_PORT=str(port), PORTES_WEBHOOK_URL="https://x.example/",
        PORTES_WEBHOOK_PORT=str(free_port()))
    assert other.returncode == 1


def test_check_says_when_the_database_cannot_be_used(standin: StandIn, tmp_path: Path) -> None:
    env = env_for(standin, tmp_path,
                  DATABASE_URL="postgresql://portes:hunter2secret@127.0.0.1:1/portes")
    result = run(["--check"], env)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "cannot be used" in result.stderr and "127.0.0.1:1" in result.stderr
    assert "hunter2secret" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


@pytest.mark.long
async def test_sigterm_in_webhook_mode_finishes_the_update_in_flight(
        standin: StandIn, webhook_bot: tuple[Process, int]
) -> None:
    proc, port = webhook_bot
    for _ in range(500):
        if await listening(port):
            break
        assert proc.poll() is None, "the bot exited"
        await asyncio.sleep(0.02)
    alice = standin.user("Alice")
    hello = alice.start_bot()
    (update,) = standin.take_updates()
    # Telegram is slow to take the answer: the update is still being handled at SIGTERM
    standin.inject_delay("sendMessage", 1.5, chat_id=alice.id)
    posted = asyncio.ensure_future(post(port, update, SECRET))
    await asyncio.sleep(0.5)
    assert not posted.done()  # the webhook answers once the update was handled, not before
    proc.terminate()
    welcome = await alice.private.wait_for_bot_message(after=hello, timeout=20)
    assert "Portes" in welcome.text
    assert await posted == 200
    assert await asyncio.to_thread(proc.wait, 30) == 0
    assert not await listening(port)
