"""A typed play delivered again is not played again (webhook mode, the real ``python -m bot``).

The webhook answers Telegram only once an update was handled, so an instance killed after its
commit, before it answered, leaves Telegram to deliver the same update again, to another
instance, maybe much later. A tap carries the match version and is refused as stale; a play
typed in the private chat carries none, so its copy used to be played a second time when the
player's turn came round again (or answered "It is not your turn in any match." meanwhile).
Here the same update (same JSON, same message id) is POSTed again, at both moments."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from rules.match import Match
from standin import Message, StandIn, User
from standin.cluster import open_computer_match, until
from standin.forked import popen
from standin.players import board_version, live_board
from standin.typed_play import racing_play
from standin.webhook import WebhookPusher
from storage.db import make_engine
from storage.models import MatchRow
from tests.bot.helpers.processes import env_for, migrated
from tests.bot.helpers.webhook import SECRET, free_port, listening


class Bot:
    """The bot process in webhook mode, Telegram's side POSTing to it, and its database."""

    def __init__(self, standin: StandIn, tmp_path: Path) -> None:
        self.port = free_port()
        env = env_for(standin, tmp_path, PORTES_WEBHOOK_URL="https://portes.example.org/",
                      PORTES_WEBHOOK_LISTEN="127.0.0.1", PORTES_WEBHOOK_PORT=str(self.port),
                      PORTES_WEBHOOK_SECRET=SECRET, PORTES_COMPUTER_DELAY="2")
        self.db_url = env["DATABASE_URL"]
        self.log_path = tmp_path / "bot.log"
        log = self.log_path.open("a")
        migrated(tmp_path)
        self.proc = popen([sys.executable, "-m", "bot"], env=env, stdout=log)
        self.pusher = WebhookPusher(standin, f"http://127.0.0.1:{self.port}/telegram", SECRET,
                                    connections=4)
        self.engine: Any = None

    async def start(self) -> None:
        for _ in range(600):
            if await listening(self.port):
                break
            assert self.proc.poll() is None, self.log_path.read_text()[-3000:]
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the webhook listener never came up")
        self.pusher.start()

    def match(self, match_id: int = 1) -> tuple[int, int | None, Match]:
        """The match as the database has it: version, seat to act, state."""
        if self.engine is None:
            self.engine = make_engine(self.db_url)
        with self.engine.connect() as conn:
            version, to_act, state = conn.execute(
                select(MatchRow.version, MatchRow.to_act, MatchRow.state)
                .where(MatchRow.id == match_id)).one()
        return version, to_act, Match.from_json(state)

    def update_of(self, sent: Message) -> dict[str, Any]:
        """The update Telegram made of this message (as the pusher took it)."""
        return next(u for u in self.pusher.taken
                    if u.get("message", {}).get("message_id") == sent.message_id)

    async def settled(self) -> None:
        assert await until(lambda: self.pusher.idle, timeout=20)
        await self.pusher.standin.idle(quiet=0.5, timeout=20)

    def stop(self) -> None:
        self.pusher.stop()
        if self.engine is not None:
            self.engine.dispose()
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


def texts_after(user: User, sent: Message) -> list[str]:
    """The bot's text messages (not boards) in the private chat after ``sent``."""
    return [m.text or "" for m in user.private.bot_messages()
            if m.message_id > sent.message_id and m.photo_bytes is None]


async def alice_to_move(bot: Bot, alice: User, after: int) -> tuple[int, Match, Message]:
    """Wait until Alice (seat 0) is to move past version ``after`` and her board shows it."""
    found: list[Any] = []

    def ready() -> bool:
        board = live_board(alice.private)
        if board is None or board_version(board) <= after:
            return False
        version, to_act, state = bot.match()
        if to_act != 0 or version != board_version(board):
            return False
        found[:] = [version, state, board]
        return True

    assert await until(ready, timeout=60, step=0.1), "Alice never got her turn"
    return found[0], found[1], found[2]


@pytest.mark.long
async def test_a_typed_play_delivered_again_is_not_played_again(
        standin: StandIn, webhook: Bot) -> None:
    await webhook.start()
    alice = standin.user("Alice", username="alice")
    await open_computer_match(standin, alice)
    version, state, _ = await alice_to_move(webhook, alice, 0)

    # Alice types her play; the computer is to move (it pauses 2 s before its move)
    typed = alice.send(alice.private, racing_play(state))
    assert await until(lambda: webhook.match()[1] == 1, timeout=20), "the play was not played"
    played_version = webhook.match()[0]
    # When Telegram delivers that update again while the computer is to move
    webhook.pusher.redeliver(webhook.update_of(typed))
    assert await until(lambda: webhook.pusher.idle, timeout=20)
    # Then the bot says nothing (not "It is not your turn in any match.")
    assert webhook.match()[0] >= played_version

    # When the computer has replied and Alice is to move again
    version, state, board = await alice_to_move(webhook, alice, played_version)
    await webhook.settled()
    assert texts_after(alice, typed) == []
    messages = len(alice.private.bot_messages())
    caption = board.refresh().caption
    # and Telegram delivers the same update once more
    webhook.pusher.redeliver(webhook.update_of(typed))
    await webhook.settled()
    # Then nothing is played: the match, the board and the chat are as they were
    now_version, to_act, now_state = webhook.match()
    assert (now_version, to_act) == (version, 0)
    assert now_state.to_json() == state.to_json()
    assert len(alice.private.bot_messages()) == messages
    assert live_board(alice.private) == board.refresh()
    assert board.refresh().caption == caption
    assert texts_after(alice, typed) == []

    # And a play she types now is played as usual
    again = alice.send(alice.private, racing_play(state))
    assert await until(lambda: webhook.match()[0] > version, timeout=20), (
        f"the new play was not played: {texts_after(alice, again)}")
    assert texts_after(alice, again) == []
