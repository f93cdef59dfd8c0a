"""Webhook mode: the real ``python -m bot`` process registers its webhook with the stand-in,
answers updates POSTed to its listener with the right secret token, and refuses the others."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from standin import StandIn
from tests.bot.test_process import ROOT, env_for

SECRET = "s3cret-Token_123"
PUBLIC_URL = "https://portes.example.org/telegram"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def webhook_bot(standin: StandIn, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    port = free_port()
    env = env_for(standin, tmp_path, PORTES_WEBHOOK_URL="https://portes.example.org/",
                  PORTES_WEBHOOK_LISTEN="127.0.0.1", PORTES_WEBHOOK_PORT=str(port),
                  PORTES_WEBHOOK_SECRET=SECRET)
    log = (tmp_path / "bot.log").open("a")
    proc = subprocess.Popen([sys.executable, "-m", "bot"], env=env, cwd=ROOT, stdout=log,
                            stderr=subprocess.STDOUT, text=True)
    yield proc, port
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
    text = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in text, text[-3000:]


async def post(port: int, update: dict[str, Any], secret: str | None) -> int:
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    async with httpx.AsyncClient() as client:
        response = await client.post(f"http://127.0.0.1:{port}/telegram",
                                     content=json.dumps(update), headers=headers)
    return response.status_code


async def listening(port: int) -> bool:
    try:
        async with httpx.AsyncClient() as client:
            await client.get(f"http://127.0.0.1:{port}/telegram", timeout=0.5)
    except httpx.TransportError:
        return False
    return True


async def test_webhook_mode_end_to_end(standin: StandIn,
                                       webhook_bot: tuple[subprocess.Popen[str], int]) -> None:
    proc, port = webhook_bot
    # the bot registered its webhook: the public URL (ending in the path) and the secret
    await standin.wait_for(lambda: standin.webhook.get("url"), timeout=30, what="setWebhook")
    assert standin.webhook["url"] == PUBLIC_URL
    assert standin.webhook["secret_token"] == SECRET
    (call,) = standin.calls("setWebhook")
    assert call.ok and call.params["url"] == PUBLIC_URL and call.params["secret_token"] == SECRET
    for _ in range(200):
        if await listening(port):
            break
        assert proc.poll() is None, "the bot exited"
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the webhook listener never came up")

    # an update with the right secret: the bot answers /start
    alice = standin.user("Alice")
    hello = alice.start_bot()
    (update,) = standin.take_updates()
    assert await post(port, update, SECRET) == 200
    welcome = await alice.private.wait_for_bot_message(after=hello)
    assert "Portes" in welcome.text and "/new" in welcome.text

    # a wrong or a missing secret: refused, and nothing happens
    carol = standin.user("Carol")
    hers = carol.start_bot()
    (update,) = standin.take_updates()
    assert await post(port, update, "wrong-secret") == 403
    assert await post(port, update, None) == 403
    await standin.idle(quiet=0.5)
    assert carol.private.bot_messages() == []
    assert all(str(c.params.get("chat_id")) != str(carol.id) for c in standin.calls())
    # the same update with the secret is answered: it was refused for the secret alone
    assert await post(port, update, SECRET) == 200
    await carol.private.wait_for_bot_message(after=hers)
    # in webhook mode the bot never polls
    assert standin.calls("getUpdates") == []


@pytest.mark.parametrize(("secret", "said"), [(None, "PORTES_WEBHOOK_SECRET is not set"),
                                              ("no spaces", "must be 1-256 of")])
def test_webhook_mode_refuses_to_start_without_a_good_secret(
        standin: StandIn, tmp_path: Path, secret: str | None, said: str) -> None:
    extra = {"PORTES_WEBHOOK_URL": "https://portes.example.org/",
             "PORTES_WEBHOOK_PORT": str(free_port())}
    if secret is not None:
        extra["PORTES_WEBHOOK_SECRET"] = secret
    result = subprocess.run([sys.executable, "-m", "bot"], env=env_for(standin, tmp_path, **extra),
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert said in result.stderr and "Traceback" not in result.stderr
    # it never told Telegram to post anywhere
    assert standin.calls("setWebhook") == [] and standin.webhook.get("url") is None
