"""Webhook mode: the real ``python -m bot`` process registers its webhook with the stand-in,
answers updates POSTed to its listener with the right secret token, and refuses the others."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from standin import StandIn
from standin.forked import Process
from tests.bot.helpers.processes import ROOT, env_for
from tests.bot.helpers.webhook import SECRET, free_port, listening, post

PUBLIC_URL = "https://portes.example.org/telegram"










async def test_webhook_mode_end_to_end(standin: StandIn,
                                       webhook_bot: tuple[Process, int]) -> None:
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
