"""The end of a match's notices heal like boards (issue 22): the dice seed revealed in the
group, the timeout and the review told privately come from the outbox, so a 502 or a lost
answer on their send leaves each one in its chat exactly once, after the back-offs boards
have. The back-offs pass on delivery's clock, moved to each retry as the worker waits for it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select, update

from bot.delivery.worker import backoff
from standin import Chat, StandIn, User
from standin.players import live_board, play_turn, start_group_match, start_the_bot
from storage.models import DeliveryRow, MatchRow
from tests.bot.conftest import Running
from tests.bot.helpers.retries import retries_come_due
from tests.clocks import Wall

MARKS = {"reveal": "The dice seed", "timeout": "did not move in time",
         "review": "Review of match #1"}
"""How each notice reads (in English)."""


def copies(chat: Chat, mark: str) -> int:
    """The bot's messages in the chat that carry ``mark``, deleted ones not counted."""
    return sum(1 for m in chat.bot_messages() if m.photo_bytes is None and mark in m.content)


def pending(bot: Running) -> int:
    """The outbox rows still to deliver."""
    with bot.uc.kernel.sessions() as session:
        return len(session.scalars(select(DeliveryRow.id).where(
            DeliveryRow.pending.is_(True))).all())


async def a_played_group_match(standin: StandIn) -> tuple[User, User, Chat]:
    """A 3-point match in a group between two players who started the bot, one turn played:
    the mover and the other player."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "3 points")
    first = alice if board.mentions(alice) else bob
    await play_turn(standin, first, group)
    await standin.idle()
    return (bob, alice, group) if first is alice else (alice, bob, group)


async def end_by(how: str, standin: StandIn, bot: Running, mover: User, group: Chat,
                 fault: Callable[[], None]) -> None:
    """End the match (``how``: the mover resigns it, or never moves), ``fault`` injected
    right before."""
    if how == "timeout":
        fault()
        bot.clock.advance(days=7, minutes=1)
        return
    cmd = mover.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    fault()
    await mover.tap(menu, "🏳 Resign the match")


@pytest.mark.parametrize("fault", ["502", "lost"])
@pytest.mark.parametrize(("kind", "how"), [("reveal", "resign"), ("timeout", "timeout"),
                                           ("review", "resign")])
async def test_a_notice_whose_send_fails_arrives_exactly_once(
    standin: StandIn, make_bot: Any, kind: str, how: str, fault: str
) -> None:
    wall = Wall()
    bot = await make_bot(wall=wall)
    limiter = bot.app.bot.rate_limiter
    limiter.clock, limiter.sleep = wall, wall.sleep
    mover, other, group = await a_played_group_match(standin)
    chat = group if kind == "reveal" else other.private
    before = len(standin.calls("sendMessage", chat_id=chat.id, ok=True))
    # Given Telegram fails the next message the bot sends there: a 502 (nothing sent), or
    # the message sent and its answer lost (the bot cannot know it was)
    def inject() -> None:
        standin.inject_error("sendMessage", 502, chat_id=chat.id, description="Bad Gateway",
                             times=2 if fault == "502" else 1, applied=fault == "lost")
    async with retries_come_due(bot.uc, wall, bot.app.bot_data["portes"].delivery.poll) as retries:
        # When the match ends
        await end_by(how, standin, bot, mover, group, inject)
        # Then the notice arrives, once, and every other notice of the match too
        await standin.wait_for(lambda: copies(chat, MARKS[kind]) >= 1, timeout=30,
                               what=f"the {kind}")
        await standin.wait_for(lambda: copies(group, MARKS["reveal"]) >= 1, timeout=30,
                               what="the seed revealed")
        for user in (mover, other):
            await standin.wait_for(lambda u=user: copies(u.private, MARKS["review"]) >= 1,
                                   timeout=60, what="the reviews")
        # a lost answer's copy is in the chat already: what heals it is the send made again
        # and the copy then found and deleted, which a quiet spell does not wait for (under
        # load the retry came after 0.3 s of quiet, and the test ended before it)
        await standin.wait_for(
            lambda: len(standin.calls("sendMessage", chat_id=chat.id, ok=True)) > before
            and copies(chat, MARKS[kind]) == 1, timeout=30, what=f"the {kind} sent again")
        await standin.idle(quiet=0.3)
    assert copies(chat, MARKS[kind]) == 1
    assert copies(group, MARKS["reveal"]) == 1
    for user in (mover, other):
        assert copies(user.private, MARKS["review"]) == 1
        assert copies(user.private, MARKS["timeout"]) == (1 if how == "timeout" else 0)
    failed = standin.calls("sendMessage", chat_id=chat.id, ok=False)
    assert len(failed) == (2 if fault == "502" else 1)
    assert len(standin.calls("sendMessage", chat_id=chat.id, ok=True)) > before
    # healed within the back-offs boards have: tried again after half a second (later
    # back-offs: another retry; the looks for a copy of an attempt of unknown outcome follow)
    assert retries.delays[:1] == [backoff(0)], retries
    assert all("dice seed" not in (m.caption or "") for m in [live_board(group)] if m)


@pytest.mark.parametrize("fault", ["502", "lost"])
async def test_an_expired_card_whose_edit_fails_says_so_all_the_same(
    standin: StandIn, make_bot: Any, fault: str
) -> None:
    """The card of a challenge nobody accepted is edited from an outbox row the expiry wrote:
    a failed edit is tried again (an edit made twice changes nothing)."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    alice = standin.user("Alice")
    group = standin.group("Kafeneio", alice, standin.user("Bob"))
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    await alice.tap(card, "5 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    await standin.idle()
    shown = [m.message_id for m in group.bot_messages()]
    edits = len(standin.calls("editMessageText", chat_id=group.id))
    standin.inject_error("editMessageText", 502, chat_id=group.id, description="Bad Gateway",
                         times=2 if fault == "502" else 1, applied=fault == "lost")
    # the edits to come: two refused and the one made (502); the one applied whose answer was
    # lost, and the one made again (lost): the card reads "expired" before the second
    attempts = 3 if fault == "502" else 2
    async with retries_come_due(bot.uc, wall, bot.app.bot_data["portes"].delivery.poll) as retries:
        bot.clock.advance(hours=24, minutes=1)
        await standin.wait_for(lambda: card.refresh().text == "This challenge has expired.",
                               timeout=30, what="the card expired")
        await standin.wait_for(
            lambda: len(standin.calls("editMessageText", chat_id=group.id)) - edits >= attempts,
            timeout=30, what=f"{attempts} attempts at the card's edit")
        await standin.idle(quiet=0.3)
    assert [m.message_id for m in group.bot_messages()] == shown  # the card, nothing more
    failed = [c.error_code for c in standin.calls("editMessageText", chat_id=group.id, ok=False)]
    # the lost answer's edit is made again: "not modified" (400), nothing changes
    assert failed == ([502, 502] if fault == "502" else [502, 400])
    assert retries.delays[:1] == [backoff(0)], retries


MOVED = {"moved": "was removed from the group of match #1", "cancelled": "Match #1 is cancelled",
         "stranded": "Match #1 cannot be played in this group"}


@pytest.mark.parametrize("fault", ["502", "lost"])
@pytest.mark.parametrize("kind", ["moved", "cancelled", "stranded"])
async def test_a_match_moved_out_of_its_group_is_said_once(
    standin: StandIn, make_bot: Any, kind: str, fault: str
) -> None:
    """``moved``: the bot removed from the group, each player who started it is told the
    match goes on in private; ``cancelled``: one never did, so the match is cancelled and the
    other is told why; ``stranded``: the group's board refused while the group still reads
    text, the group is asked to start the bot. Each such notice is sent from the outbox."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(*{"moved": (alice, bob), "cancelled": (alice,), "stranded": ()}[kind])
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "3 points")
    await standin.idle()
    chat = group if kind == "stranded" else alice.private
    standin.inject_error("sendMessage", 502, chat_id=chat.id, description="Bad Gateway",
                         times=2 if fault == "502" else 1, applied=fault == "lost")
    async with retries_come_due(bot.uc, wall, bot.app.bot_data["portes"].delivery.poll) as retries:
        if kind == "stranded":
            standin.inject_error("sendPhoto", 403, chat_id=group.id,
                                 description="Forbidden: not enough rights to send photos")
            await play_turn(standin, alice if board.mentions(alice) else bob, group, wait=False)
        else:
            alice.remove_bot(group)
        await standin.wait_for(lambda: copies(chat, MOVED[kind]) >= 1, timeout=30,
                               what=f"the {kind} notice")
        await standin.idle(quiet=0.3)
    assert copies(chat, MOVED[kind]) == 1
    assert retries.delays[:1] == [backoff(0)], retries
    if kind == "stranded":  # who started the bot: nobody; the button starts it
        notice = next(m for m in group.bot_messages() if MOVED[kind] in m.content)
        assert notice.mentions(alice) and notice.mentions(bob)
        assert [b.text for row in notice.buttons for b in row] == ["▶ Start the bot"]


@pytest.mark.parametrize("fault", ["502", "lost"])
async def test_an_inline_card_whose_edit_fails_follows_the_match_all_the_same(
    standin: StandIn, make_bot: Any, fault: str
) -> None:
    """The inline card of a match is a place of the outbox: a failed edit is tried again."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    standin.set_inline_feedback(True)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    query = alice.inline_query("3")
    await query
    card = alice.choose_inline_result(query, "3t", standin.direct_chat(alice, bob))
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    await bob.tap(card.refresh(), "🎲 Accept")
    await standin.wait_for(lambda: "to move" in (card.refresh().text or ""), what="the card")
    await standin.idle()
    mover, other = (alice, bob) if "Alice to move" in card.refresh().text else (bob, alice)
    standin.inject_error("editMessageText", 502, description="Bad Gateway",
                         times=2 if fault == "502" else 1, applied=fault == "lost")
    async with retries_come_due(bot.uc, wall, bot.app.bot_data["portes"].delivery.poll) as retries:
        await play_turn(standin, mover, mover.private)
        await standin.wait_for(lambda: f"{other.first_name} to move" in card.refresh().text,
                               timeout=30, what="the card to follow the turn")
        # (a lost answer: the card changed, and the worker, not knowing, edits it again)
        await standin.wait_for(lambda: not pending(bot), timeout=30, what="no work left")
    assert retries.delays[:1] == [backoff(0)], retries


async def test_a_seed_still_to_reveal_follows_its_group_to_the_supergroup(
    standin: StandIn, make_bot: Any
) -> None:
    """The group becomes a supergroup while the seed's reveal waits to be tried again: it is
    revealed in the new chat."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "1 point")
    cmd = alice.send(group, "/resign")
    menu = await group.wait_for_answer(cmd)
    standin.inject_error("sendMessage", 502, chat_id=group.id, description="Bad Gateway")
    await alice.tap(menu, "🏳 Resign the match")
    await standin.wait_for(lambda: standin.calls("sendMessage", chat_id=group.id, ok=False),
                           what="the reveal's first try")
    await standin.idle()
    supergroup = alice.upgrade_group(group)
    await standin.idle()
    wall.advance(1.0)  # the reveal's retry is due
    await bot.app.bot_data["portes"].delivery.poll()
    await standin.wait_for(lambda: copies(supergroup, MARKS["reveal"]) >= 1, timeout=30,
                           what="the seed revealed in the supergroup")
    await standin.idle(quiet=0.3)
    assert copies(supergroup, MARKS["reveal"]) == 1 and copies(group, MARKS["reveal"]) == 0


@pytest.mark.parametrize("fault", ["502", "lost"])
async def test_the_opponent_of_a_match_closed_unread_is_told_once(
    standin: StandIn, make_bot: Any, fault: str
) -> None:
    """A match whose record cannot be read, closed by one player: the other is told by a
    notice rendered from the players alone (the match cannot be drawn)."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group)
    await standin.idle()
    with bot.uc.kernel.sessions.begin() as session:
        session.execute(update(MatchRow).values(state="damaged"))
    cmd = bob.send(bob.private, "/games")
    games = await bob.private.wait_for_bot_message(after=cmd)
    standin.inject_error("sendMessage", 502, chat_id=alice.private.id, description="Bad Gateway",
                         times=2 if fault == "502" else 1, applied=fault == "lost")
    mark = "Bob closed match #1: its record could not be read"
    async with retries_come_due(bot.uc, wall, bot.app.bot_data["portes"].delivery.poll) as retries:
        await bob.tap(games, "✖ Close #1: it cannot be read")
        await standin.wait_for(lambda: copies(alice.private, mark) >= 1, timeout=30,
                               what="Alice told")
        await standin.idle(quiet=0.3)
    assert copies(alice.private, mark) == 1
    assert "It counts for nobody" in games.refresh().text
    assert retries.delays[:1] == [backoff(0)], retries
