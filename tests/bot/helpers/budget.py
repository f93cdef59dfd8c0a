"""A group at Telegram's limits, for the end-to-end tests: the stand-in enforces them, the bot
runs with its rates as shipped, and its limiter counts on the stand-in's clock. A wait for room
moves that clock on instead of sleeping, unless the test holds the gate: then the waiting call
stays queued until the test opens it (what else the bot does meanwhile shows the order its
calls go out in)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.settings import RateLimits
from standin import Chat, Message, StandIn, User
from standin.players import live_board, play_turn, start_the_bot
from tests.bot.helpers.telegrams_clock import hand_over

COUNTED = ("send", "edit", "delete")


class Gate:
    """The limiter's ``sleep``: moves the stand-in's clock on by the wait, at once while open;
    while closed, a call that must wait for room waits here."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self.opened = asyncio.Event()
        self.opened.set()
        self.waiting = 0

    def close(self) -> None:
        self.opened.clear()

    def open(self) -> None:
        self.opened.set()

    async def sleep(self, seconds: float) -> None:
        self.waiting += 1
        try:
            await self.opened.wait()
        finally:
            self.waiting -= 1
        await hand_over(self.standin)  # the taps in hand answered first (see that module)
        self.standin.advance_clock(max(0.0, seconds))
        await asyncio.sleep(0)


async def telegram_limits(standin: StandIn, make_bot: Any, **settings: Any) -> tuple[Any, Gate]:
    """The bot as shipped (with ``settings``) against a stand-in enforcing Telegram's limits:
    20 calls a minute per group, about 1 a second per chat, 30 a second overall."""
    standin.set_flood_limits()
    running = await make_bot(rate=RateLimits(), **settings)
    gate = Gate(standin)
    limiter = running.app.bot.rate_limiter
    limiter.clock, limiter.sleep = standin.now, gate.sleep
    return running, gate


def group_calls(standin: StandIn, group: Chat) -> list[str]:
    """The calls the bot made in the group that count against its budget."""
    return [c.method for c in standin.calls(chat_id=group.id)
            if c.ok and c.method.lower().startswith(COUNTED)]


def throttled(standin: StandIn) -> list[str]:
    return [f"{c.method} {c.params.get('chat_id')}" for c in standin.calls(ok=False)
            if c.error_code == 429]


def taps_answered(standin: StandIn) -> int:
    return len(standin.calls("answerCallbackQuery", ok=True))


def to_move(group: Chat, alice: User, bob: User) -> User:
    board = live_board(group)
    assert board is not None
    return alice if board.mentions(alice) else bob


async def five_points(standin: StandIn, alice: User, bob: User, group: Chat) -> Message:
    """Alice challenges the group to 5 points, Bob accepts; returns the challenge's card once
    the match's first board is there."""
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    await alice.tap(card, "5 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the card")
    await bob.tap(card.refresh(), "🎲 Accept")
    await standin.wait_for(lambda: live_board(group), what="the first board")
    return card


async def bob_on_the_group_board(standin: StandIn, make_bot: Any, **settings: Any
                                 ) -> tuple[Any, Gate, User, User, User, Chat, Message]:
    """Alice started the bot, Bob never did: he plays on the group's board. Returns with
    Bob to move (Alice's turn played first when it was hers), the bot idle; Carol watches."""
    running, gate = await telegram_limits(standin, make_bot, **settings)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol", username="carol")
    await start_the_bot(alice)
    group = standin.group("Kafeneio", alice, bob, carol)
    card = await five_points(standin, alice, bob, group)
    if to_move(group, alice, bob) is alice:
        await play_turn(standin, alice, group)
    await standin.idle()
    return running, gate, alice, bob, carol, group, card


async def spend_the_minute(standin: StandIn, running: Any, group: Chat, card: Message,
                           calls: int) -> None:
    """The group's last minute holds ``calls`` calls, the bot's own (edits of the old card,
    as if the bot had just been busy there), and its last few seconds none. (No more than
    the board's share: a call over it would wait, and the stand-in's clock move on, for the
    first of them to leave the minute.)"""
    standin.advance_clock(61.0)  # what came before is out of the window
    for i in range(calls):
        await running.app.bot.edit_message_text(f"… {i}", chat_id=group.id,
                                                message_id=card.message_id)
    standin.advance_clock(4.0)  # the chat's few seconds are free again, the minute is not
