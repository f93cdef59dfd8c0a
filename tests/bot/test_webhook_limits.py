"""The webhook refuses before it reads (the real ``python -m bot`` in webhook mode): a POST
without the secret token is refused on its headers, a body over 1 MB is refused even with the
secret, and the refusals are counted in ``/metrics`` instead of filling the log."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from standin import StandIn
from standin.forked import Process
from tests.bot.helpers.service import get, value
from tests.bot.helpers.webhook import (
    SECRET,
    listening,
    post,
)

MB = 1_000_000


def memory_kb(pid: int) -> tuple[int, int]:
    """The process's resident memory now and at its highest so far (``VmRSS``, ``VmHWM``)."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(rest.split()[0])
    return found["VmRSS"], found["VmHWM"]


async def post_raw(port: int, body: bytes, secret: str | None, *, chunked: bool = False) -> int:
    """POST ``body`` as it is; ``chunked``: in pieces, with no length announced."""
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret

    async def pieces() -> AsyncIterator[bytes]:
        for i in range(0, len(body), 64_000):
            yield body[i:i + 64_000]

    async with httpx.AsyncClient(timeout=30) as client:
        response = await client.post(f"http://127.0.0.1:{port}/telegram", headers=headers,
                                     content=pieces() if chunked else body)
    return response.status_code


async def up(proc: Process, port: int) -> None:
    for _ in range(600):
        if await listening(port):
            return
        assert proc.poll() is None, "the bot exited"
        await asyncio.sleep(0.05)
    raise AssertionError("the webhook listener never came up")


def padded(update: dict[str, Any], size: int) -> bytes:
    """``update`` as JSON, made ``size`` bytes long by a field Telegram never sends."""
    body = json.dumps(update).encode()
    filler = size - len(body) - len(b', "padding": ""')
    return body[:-1] + b', "padding": "' + b"x" * filler + b'"}'


async def test_a_50_mb_post_without_the_secret_is_refused_unread(
        standin: StandIn, webhook_bot: tuple[Process, int]
) -> None:
    proc, port = webhook_bot
    await up(proc, port)
    alice = standin.user("Alice")
    hello = alice.start_bot()
    (update,) = standin.take_updates()
    assert await post(port, update, None) == 403  # the refusal's path, once
    assert await post(port, update, SECRET) == 200
    await alice.private.wait_for_bot_message(after=hello, timeout=20)
    rss, peak = memory_kb(proc.pid)

    # When 50 MB come without the secret token
    assert await post_raw(port, padded(update, 50 * MB), None) == 403

    # Then the bot read none of it: its memory is as it was (within 10 MB), at its peak too
    now, peak_now = memory_kb(proc.pid)
    assert peak_now - peak < 10_000, (peak, peak_now)
    assert now - rss < 10_000, (rss, now)
    page = (await get(port, "/metrics")).text
    assert value(page, 'portes_webhook_refused_total{reason="bad_secret"}') == 2
    assert value(page, 'portes_webhook_refused_total{reason="too_large"}') == 0
    # and it still answers
    assert await post(port, update, SECRET) == 200


async def test_a_body_over_1_mb_is_refused_with_the_secret_and_counted(
        standin: StandIn, webhook_bot: tuple[Process, int],
        tmp_path: Path) -> None:
    proc, port = webhook_bot
    await up(proc, port)
    page = (await get(port, "/metrics")).text
    for reason in ("bad_secret", "too_large", "malformed"):
        assert value(page, f'portes_webhook_refused_total{{reason="{reason}"}}') == 0
    alice = standin.user("Alice")
    hello = alice.start_bot()
    (update,) = standin.take_updates()

    # When her /start comes with the secret but 2 MB long: its length announced, or not
    assert await post_raw(port, padded(update, 2 * MB), SECRET) == 413
    assert await post_raw(port, padded(update, 2 * MB), SECRET, chunked=True) == 413
    # and unreadable updates, and wrong secrets, a dozen times
    assert await post_raw(port, b'{"update_id": ', SECRET) == 400
    assert await post_raw(port, b"null", SECRET) == 400
    for _ in range(12):
        assert await post(port, update, "wrong-secret") == 403

    # Then none of it was handled: Alice got no answer
    await standin.idle(quiet=0.5)
    assert alice.private.bot_messages() == []
    # and each refusal is counted by its reason
    page = (await get(port, "/metrics")).text
    assert value(page, 'portes_webhook_refused_total{reason="too_large"}') == 2
    assert value(page, 'portes_webhook_refused_total{reason="malformed"}') == 2
    assert value(page, 'portes_webhook_refused_total{reason="bad_secret"}') == 12
    # but the log has no line per refusal: one summary at most
    log = (tmp_path / "bot.log").read_text()
    warnings = [line for line in log.splitlines() if "WARNING" in line]
    assert len(warnings) <= 1, warnings
    assert "refused" in warnings[0] and "portes_webhook_refused_total" in warnings[0]

    # And the same update within the limit is handled
    assert await post(port, update, SECRET) == 200
    welcome = await alice.private.wait_for_bot_message(after=hello, timeout=20)
    assert "Portes" in welcome.text


def test_refusals_are_summed_up_in_the_log_at_most_once_a_minute(
        caplog: pytest.LogCaptureFixture) -> None:
    from bot.ops.metrics import Metrics
    from bot.ops.webhook import Refusals

    now = [1000.0]
    metrics = Metrics()
    refusals = Refusals(metrics, every=60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="bot.ops.webhook"):
        # Given 4,000 refused POSTs in 59 s: the first is said at once, the rest are not
        for i in range(4000):
            now[0] = 1000.0 + 59.0 * i / 4000
            refusals.refused("bad_secret" if i % 4 else "too_large")
        assert len(caplog.records) == 1
        assert "refused 1 POST(s) (too_large 1)" in caplog.records[0].getMessage()
        # When one more comes a minute after the first summary
        now[0] = 1060.0
        refusals.refused("malformed")
    # Then one line sums up what came since
    assert len(caplog.records) == 2
    said = caplog.records[1].getMessage()
    assert "refused 4000 POST(s) in the last 60 s" in said
    assert "bad_secret 3000, too_large 999, malformed 1" in said
    page = metrics.render().decode()
    assert 'portes_webhook_refused_total{reason="bad_secret"} 3000.0' in page
    assert 'portes_webhook_refused_total{reason="too_large"} 1000.0' in page
