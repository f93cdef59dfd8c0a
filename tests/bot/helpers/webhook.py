"""The bot in webhook mode: a free port, the secret, a POST as Telegram makes it, and the
``webhook_bot`` fixture (tests/bot/conftest.py offers it to every test)."""

from __future__ import annotations

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
from standin.forked import Process, popen
from tests.bot.helpers.processes import env_for, migrated

SECRET = "s3cret-Token_123"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def webhook_bot(standin: StandIn, tmp_path: Path) -> Iterator[tuple[Process, int]]:
    port = free_port()
    env = env_for(standin, tmp_path, PORTES_WEBHOOK_URL="https://portes.example.org/",
                  PORTES_WEBHOOK_LISTEN="127.0.0.1", PORTES_WEBHOOK_PORT=str(port),
                  PORTES_WEBHOOK_SECRET=SECRET)
    log = (tmp_path / "bot.log").open("a")
    migrated(tmp_path)
    proc = popen([sys.executable, "-m", "bot"], env=env, stdout=log)
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
