"""Old boards taken down through the outbox (issue 22): a board replaced by a newer one is
deleted, or edited to a stub ("⤵", no buttons) when Telegram refuses to delete it after 48 h;
a group's boards when its match moves to private chats, and a player's private boards when
their match is cancelled, are taken down from notice rows written in the move's or the
cancel's transaction. A 502 or a lost answer on that call is tried again after the back-off
boards have, and the board is taken down exactly once (a stub made twice is "not modified",
a message deleted twice "not found": nothing changes)."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.delivery.publish import STUB
from bot.delivery.worker import backoff
from standin import Chat, Message, StandIn, User
from standin.forked import Process
from standin.players import (
    live_board,
    play_turn,
    private_players_match,
    start_group_match,
    start_the_bot,
)
from storage.models import DeliveryRow
from tests.bot.conftest import Running
from tests.bot.helpers.delivery import deleted, up_to_the_last_tap
from tests.bot.helpers.processes import delivered, start_at
from tests.bot.helpers.retries import retries_come_due
from tests.clocks import Wall
from tests.sampling import sample_or_full

TWO_DAYS = 49 * 3600
"""Past Telegram's window for deleting a message (48 h)."""


def inject(standin: StandIn, method: str, chat: Chat, fault: str, *, times: int = 2) -> None:
    """Telegram fails the next ``method`` call in ``chat``: a 502 ``times`` times (nothing
    done), or the call done and its answer lost (the bot cannot know it was)."""
    standin.inject_error(method, 502, chat_id=chat.id, description="Bad Gateway",
                         times=times if fault == "502" else 1, applied=fault == "lost")


def pending(bot: Running) -> int:
    """The outbox rows still to deliver (a retry, a probe)."""
    with bot.uc.kernel.sessions() as session:
        return len(session.scalars(select(DeliveryRow.id).where(
            DeliveryRow.pending.is_(True))).all())


def started(bot: Running) -> Any:
    return bot.app.bot_data["portes"].delivery


@pytest.mark.parametrize("fault", ["502", "lost"])
async def test_a_board_too_old_to_delete_becomes_a_stub_exactly_once(
    standin: StandIn, make_bot: Any, fault: str
) -> None:
    """A player's private board of a group match, posted more than 48 h before their next
    turn: the new board comes, and the old one is edited to the stub."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    first, second, group, _board = await private_players_match(standin)
    old = await standin.wait_for(lambda: live_board(first.private), what="the first board")
    await play_turn(standin, first, group)
    await standin.wait_for(lambda: live_board(second.private), what="the second board")
    board, final = await up_to_the_last_tap(standin, second, second.private)
    await standin.idle()
    # Given the first player's board is two days old, and the edit that makes it a stub fails
    standin.advance_clock(TWO_DAYS)
    # (once: the board's place is tried again as a whole, its new board's edit first, also
    # an editMessageCaption in that chat)
    inject(standin, "editMessageCaption", first.private, fault, times=1)
    async with retries_come_due(bot.uc, wall, started(bot).poll) as retries:
        # When their next turn comes (a new board for them)
        await second.tap(board, final)
        await standin.wait_for(lambda: live_board(first.private).message_id != old.message_id,  # type: ignore[union-attr]
                               timeout=30, what="the new board")
        # Then the old board becomes the stub, without buttons
        await standin.wait_for(lambda: old.refresh().caption == STUB, timeout=30,
                               what="the stub")
        await standin.wait_for(lambda: not pending(bot), timeout=30, what="no work left")
        await standin.idle(quiet=0.3)
    stub = old.refresh()
    assert stub.caption == STUB and not stub.has_keyboard
    edits = [c.error_code for c in standin.calls("editMessageCaption", chat_id=first.private.id)
             if str(c.params.get("message_id")) == str(old.message_id)]
    # a 502, then the stub; a lost answer: the stub made, then "not modified" (400)
    assert edits == ([502, None] if fault == "502" else [502, 400]), edits
    assert [m.message_id for m in first.private.bot_messages() if m.has_keyboard] == [
        live_board(first.private).message_id]  # type: ignore[union-attr]
    assert retries.delays[:1] == [backoff(0)], retries


async def group_match_to_move(standin: StandIn, *, alice_started: bool
                              ) -> tuple[User, User, Chat, Message]:
    """A group match, Bob never started the bot; Alice did when ``alice_started`` (it is then
    her turn, on her private board). The board to be taken down: the group's, or hers."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    if alice_started:
        await start_the_bot(alice)
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "3 points")
    if alice_started and board.mentions(bob):
        await play_turn(standin, bob, group)
    await standin.idle()
    old = live_board(alice.private) if alice_started else live_board(group)
    assert old is not None and old.has_keyboard
    return alice, bob, group, old


@pytest.mark.parametrize("fault", ["502", "lost"])
async def test_the_boards_of_a_match_moved_out_of_its_group_are_taken_down_once(
    standin: StandIn, make_bot: Any, fault: str
) -> None:
    """The group's board refused (no right to send photos), its match goes on in private
    chats: the group's old board, whose buttons act no more, is deleted."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    alice, bob, group, old = await group_match_to_move(standin, alice_started=False)
    inject(standin, "deleteMessage", group, fault)
    async with retries_come_due(bot.uc, wall, started(bot).poll) as retries:
        standin.inject_error("sendPhoto", 403, chat_id=group.id,
                             description="Forbidden: not enough rights to send photos")
        await play_turn(standin, alice if old.mentions(alice) else bob, group, wait=False)
        await standin.wait_for(lambda: deleted(old), timeout=30, what="the old board deleted")
        await standin.wait_for(lambda: any("cannot be played in this group" in m.content
                                           for m in group.bot_messages()), timeout=30,
                               what="the group told")
        await standin.wait_for(lambda: not pending(bot), timeout=30, what="no work left")
        await standin.idle(quiet=0.3)
    tries = [c.error_code for c in standin.calls("deleteMessage", chat_id=group.id)
             if str(c.params.get("message_id")) == str(old.message_id)]
    # a 502 twice, then deleted; a lost answer: deleted, then "not found" (400), no stub
    assert tries == ([502, 502, None] if fault == "502" else [502, 400]), tries
    assert not standin.calls("editMessageCaption", chat_id=group.id)
    assert not [m for m in group.bot_messages() if m.photo_bytes is not None]
    assert retries.delays[:1] == [backoff(0)], retries


@pytest.mark.parametrize("fault", ["502", "lost"])
async def test_the_private_board_of_a_cancelled_match_is_taken_down_once(
    standin: StandIn, make_bot: Any, fault: str
) -> None:
    """The bot removed from the group, and Bob never started it: the match is cancelled, and
    Alice's private board (her turn's buttons) is deleted as she is told why."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    alice, _bob, group, old = await group_match_to_move(standin, alice_started=True)
    inject(standin, "deleteMessage", alice.private, fault)
    async with retries_come_due(bot.uc, wall, started(bot).poll) as retries:
        alice.remove_bot(group)
        await standin.wait_for(lambda: deleted(old), timeout=30, what="her board deleted")
        await standin.wait_for(lambda: any("Match #1 is cancelled" in m.content
                                           for m in alice.private.bot_messages()),
                               timeout=30, what="Alice told")
        await standin.wait_for(lambda: not pending(bot), timeout=30, what="no work left")
        await standin.idle(quiet=0.3)
    tries = [c.error_code for c in standin.calls("deleteMessage", chat_id=alice.private.id)
             if str(c.params.get("message_id")) == str(old.message_id)]
    assert tries == ([502, 502, None] if fault == "502" else [502, 400]), tries
    assert not standin.calls("editMessageCaption", chat_id=alice.private.id)
    assert not [m for m in alice.private.bot_messages() if m.has_keyboard]
    assert retries.delays[:1] == [backoff(0)], retries


RETIRE_POINTS = ("committed", "notice-sending:retire", "notice-sent:retire")
"""The steps from the move's commit to a board taken down (:mod:`bot.faults`)."""
RETIRE_SAMPLE = ("notice-sending:retire",)
"""The default run's step (three process starts for each): the send begun and never answered."""


@pytest.mark.long
@pytest.mark.parametrize("points", sample_or_full(RETIRE_SAMPLE, RETIRE_POINTS))
async def test_killed_between_the_cancel_and_the_board_taken_down_it_goes_once(
    standin: StandIn, tmp_path: Path,
    bot_process: list[Process],
    points: tuple[str, ...],
) -> None:
    """The bot removed from the group of a match whose other player never started it: at
    each step from the move's commit to the call that takes Alice's private board down, the
    process ends itself there; the restarted one takes it down, and tells her, once."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    proc = start_at(standin, tmp_path, None)
    bot_process.append(proc)
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello, timeout=60)  # the process is up
    for n, step in enumerate(points, start=1):
        group = standin.group(f"Kafeneio {n}", alice, bob)
        board = await start_group_match(standin, alice, bob, group, "3 points")
        if board.mentions(bob):
            await play_turn(standin, bob, group)
        old = await standin.wait_for(lambda: live_board(alice.private), what="her board")
        await standin.wait_for(lambda o=old: o.refresh().has_keyboard, what="her buttons")
        # (killed once every board is sent: a kill mid-edit would have the next process heal
        # it, which is not this test's business)
        await standin.wait_for(lambda: delivered(tmp_path), what="every board sent")
        await standin.idle()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc = start_at(standin, tmp_path, step)
        bot_process.append(proc)
        alice.remove_bot(group)
        assert proc.wait(timeout=60) == 70, step
        proc = start_at(standin, tmp_path, None)
        bot_process.append(proc)

        def cancelled() -> int:
            return sum(1 for m in alice.private.bot_messages() if "is cancelled" in m.content)

        await standin.wait_for(lambda o=old: deleted(o), timeout=60,
                               what=f"her board taken down after {step}")
        await standin.wait_for(lambda n=n: cancelled() >= n, timeout=60,
                               what=f"Alice told after {step}")
        await standin.idle(quiet=1.0, timeout=30)
        assert cancelled() == n, step
        assert not [m for m in alice.private.bot_messages() if m.has_keyboard], step
        tries = [c.error_code for c in standin.calls("deleteMessage", chat_id=alice.private.id)
                 if str(c.params.get("message_id")) == str(old.message_id)]
        # deleted once; tried again after a kill right after it (the group's board, or hers,
        # is the first taken down): "not found", nothing changes
        assert tries[0] is None and set(tries[1:]) <= {400}, (step, tries)
        assert not standin.calls("editMessageCaption", chat_id=alice.private.id), step
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-3000:]
