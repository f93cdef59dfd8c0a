"""A command delivered again is not answered again (webhook mode, the real ``python -m bot``).

Telegram delivers an update again when it got no answer: the webhook answers once an update was
handled, so an instance killed meanwhile leaves it unanswered, and its updates come again, to
another instance or to the same one restarted. A tap carries its match version and a typed play
its message id; a command carries neither, and each copy of ``/new`` used to post another card.
Here the same update (the same JSON, the same update id) is POSTed again: at once, later, after
a restart, and after the bot was killed holding it before it ran the command."""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from standin import Message, StandIn, User
from standin.cluster import Cluster, until
from standin.crashing import command as bot_command
from standin.forked import Process, popen
from standin.webhook import WebhookPusher
from tests.bot.helpers.processes import env_for, migrated
from tests.bot.helpers.webhook import SECRET, free_port, listening, post


class Bot:
    """The bot process in webhook mode on one SQLite file, started again as often as needed."""

    def __init__(self, standin: StandIn, tmp_path: Path) -> None:
        self.standin = standin
        self.tmp_path = tmp_path
        self.port = free_port()
        self.proc: Process | None = None
        self.log_path = tmp_path / "bot.log"

    async def start(self, **extra: str) -> None:
        env = env_for(self.standin, self.tmp_path, PORTES_WEBHOOK_URL="https://portes.example.org/",
                      PORTES_WEBHOOK_LISTEN="127.0.0.1", PORTES_WEBHOOK_PORT=str(self.port),
                      PORTES_WEBHOOK_SECRET=SECRET, **extra)
        log = self.log_path.open("a")
        migrated(self.tmp_path)
        self.proc = popen(bot_command(env), env=env, stdout=log)
        for _ in range(600):
            if await listening(self.port):
                return
            assert self.proc.poll() is None, self.log_path.read_text()[-3000:]
            await asyncio.sleep(0.05)
        raise AssertionError("the webhook listener never came up")

    def kill(self) -> None:
        """SIGKILL: no goodbye."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def webhook(standin: StandIn, tmp_path: Path) -> Iterator[Bot]:
    bot = Bot(standin, tmp_path)
    yield bot
    bot.stop()
    text = bot.log_path.read_text()
    assert "Traceback" not in text, text[-3000:]


def sent(standin: StandIn, user: User, text: str) -> tuple[Message, dict[str, Any]]:
    """``user`` sends ``text`` in the private chat: the message and its update."""
    message = user.send(user.private, text)
    (update,) = standin.take_updates()
    return message, update


def answers(user: User, to: Message) -> list[Message]:
    """The bot's messages in the private chat after ``to``."""
    return [m for m in user.private.bot_messages() if m.message_id > to.message_id]


async def delivered(bot: Bot, update: dict[str, Any], times: int = 1) -> None:
    """Telegram POSTs ``update`` ``times`` times at once, each until it is answered 200."""
    async def one() -> None:
        for _ in range(100):
            if await post(bot.port, update, SECRET) == 200:
                return
            await asyncio.sleep(0.1)
        raise AssertionError("never answered 200")
    await asyncio.gather(*(one() for _ in range(times)))


async def test_the_same_command_delivered_again_is_answered_once(
        standin: StandIn, webhook: Bot) -> None:
    await webhook.start()
    alice = standin.user("Alice", username="alice")
    hello, update = sent(standin, alice, "/start")
    await delivered(webhook, update)
    await alice.private.wait_for_bot_message(after=hello, timeout=20)

    # /new POSTed three times at once, then once more: one card
    new, update = sent(standin, alice, "/new")
    await delivered(webhook, update, times=3)
    await delivered(webhook, update)
    await standin.idle(quiet=0.5)
    cards = answers(alice, new)
    assert len(cards) == 1 and cards[0].reply_to_message_id == new.message_id
    assert "3 points" in cards[0].button_texts

    # commands without an effect in the database: answered once too
    for command in ("/help", "/top", "/stats"):
        asked, update = sent(standin, alice, command)
        await delivered(webhook, update)
        await standin.idle(quiet=0.5)
        once = len(answers(alice, asked))
        assert once >= 1, command
        await delivered(webhook, update, times=2)
        await standin.idle(quiet=0.5)
        assert len(answers(alice, asked)) == once, command

    # and a command sent again by Alice (a new update) is answered again
    again, update = sent(standin, alice, "/new")
    await delivered(webhook, update)
    await alice.private.wait_for_bot_message(after=again, timeout=20)


async def test_a_command_survives_its_instance_and_is_not_repeated_after_a_restart(
        standin: StandIn, webhook: Bot) -> None:
    alice = standin.user("Alice", username="alice")
    # Given a bot that dies holding /new, before it ran it (killed at that step)
    await webhook.start(PORTES_TEST_CRASH_AT="command")
    new, update = sent(standin, alice, "/new")
    with pytest.raises(httpx.TransportError):
        await post(webhook.port, update, SECRET)
    assert webhook.proc is not None and webhook.proc.wait(timeout=10) == 70
    assert answers(alice, new) == []

    # When it is started again and Telegram delivers the update again: the card comes, once
    await webhook.start()
    await delivered(webhook, update, times=2)
    card = await alice.private.wait_for_bot_message(after=new, timeout=20)
    assert card.reply_to_message_id == new.message_id

    # And killed after it answered, restarted, the same update again changes nothing
    webhook.kill()
    await webhook.start()
    await delivered(webhook, update)
    await standin.idle(quiet=0.5)
    assert answers(alice, new) == [card]


PG = os.environ.get("PORTES_TEST_POSTGRES_URL")


def taken(pusher: WebhookPusher, message: Message) -> dict[str, Any] | None:
    """The update Telegram made of ``message``, once the pusher took it."""
    return next((u for u in pusher.taken
                 if u.get("message", {}).get("message_id") == message.message_id), None)


@pytest.mark.skipif(not PG, reason="needs PORTES_TEST_POSTGRES_URL (.ci/postgres.sh)")
async def test_two_instances_answer_a_command_delivered_to_both_once(tmp_path: Path) -> None:
    assert PG is not None
    with StandIn(recompress_photos=False) as standin:
        cluster = Cluster(standin, PG, tmp_path, n=2)
        try:
            await cluster.start()
            assert cluster.pusher is not None
            pusher = cluster.pusher
            alice, bob = standin.user("Alice", username="alice"), standin.user("Bob")
            group = standin.group("Kafeneio", alice, bob)
            for command in ("/new", "/help"):
                # Telegram delivers the update three times, the copies going round the two
                # instances behind the proxy while the first is handled
                asked = alice.send(group, command)
                update = await until(functools.partial(taken, pusher, asked), timeout=20)
                assert update is not None
                pusher.redeliver(update)
                pusher.redeliver(update)
                assert await until(lambda: pusher.idle, timeout=60)
                await standin.idle(quiet=0.5)
                replies = [m for m in group.bot_messages()
                           if m.reply_to_message_id == asked.message_id]
                assert len(replies) == 1, (command, [m.text for m in replies])
            for i in range(2):
                assert "Traceback" not in cluster.log(i), cluster.log(i)[-3000:]
        finally:
            cluster.stop()
            cluster.drop()
