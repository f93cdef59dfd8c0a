"""Several matches at once between the same players: opened by link, told apart by version."""

from __future__ import annotations

from bot.views.callbacks import decode
from standin import Message, StandIn, User
from standin.players import play_turn
from tests.bot.conftest import Running


async def challenge_by_link(standin: StandIn, bot: Running, alice: User, friend: User) -> int:
    """Alice sends a deep link for a 3-point match, the friend accepts; the match's id."""
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    await alice.tap(card, "3 points")
    card = await standin.wait_for(
        lambda: (c := card.refresh()).text and "Send this link" in c.text and c, what="the link")
    link = next(e for e in card.text.split() if e.startswith("https://t.me/"))
    opened = friend.follow(link)
    invite = await friend.private.wait_for_bot_message(after=opened)
    await friend.tap(invite, "🎲 Accept")
    await standin.wait_for(lambda: "the match has started" in (card.refresh().text or ""))
    await standin.idle()
    (match,) = await bot.uc.list_active_matches(friend.id)
    return match.id


def is_text(message: Message) -> bool:
    return message.photo_bytes is None


def board_of(user: User, match_id: int) -> Message | None:
    """The user's newest board of this match that offers buttons."""
    for m in reversed(user.private.bot_messages()):
        if m.photo_bytes is None:
            continue
        if any((data := decode(b.callback_data)) is not None and data.match_id == match_id
               for row in m.buttons for b in row):
            return m
    return None


async def alice_to_move(standin: StandIn, bot: Running, alice: User, match_id: int,
                        friend: User) -> None:
    """The friend plays (by tapping) until Alice is to move in this match."""
    for _ in range(6):
        await standin.idle()
        mv = (await bot.uc.load_match(match_id)).match
        assert mv is not None
        if mv.to_act == mv.seat_of(alice.id):
            await standin.wait_for(lambda: board_of(alice, match_id), what="Alice's board")
            # the bot notes which board it sent after Telegram answered: let it finish
            await standin.idle()
            return
        await play_turn(standin, friend, friend.private, wait=False)
    raise AssertionError("Alice never got to move")


async def version(bot: Running, match_id: int) -> int:
    mv = (await bot.uc.load_match(match_id)).match
    assert mv is not None
    return mv.version


async def a_legal_play(bot: Running, match_id: int) -> str:
    from rules.portes.notation import format_play

    mv = (await bot.uc.load_match(match_id)).match
    assert mv is not None and mv.state.dice is not None
    state = mv.state
    return format_play(state.position, state.dice, state.legal_plays()[0].moves)
