"""A group match played up to the tap that ends a turn, and the live boards it leaves."""

from __future__ import annotations

from bot.views.callbacks import Action, decode
from standin import Chat, Message, StandIn, StandInError, User
from standin.players import live_board, start_group_match, tap_and_wait


async def players_in_a_group(standin: StandIn, *, started: bool = True
                             ) -> tuple[User, User, Chat, Message]:
    """A 3-point match in a group; ``started``: both players started the bot (so each plays
    their turns on a private board), else they play on the group's board."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    if started:
        alice.start_bot()
        bob.start_bot()
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, length="3 points")
    await standin.idle()
    return alice, bob, group, board


def final_button(board: Message) -> str | None:
    """The button that ends the turn (Confirm, or a whole play), if offered."""
    for action in (Action.CONFIRM, Action.PLAY):
        for row in board.buttons:
            for b in row:
                if (data := decode(b.callback_data)) is not None and data.action is action:
                    return b.text
    return None


async def up_to_the_last_tap(standin: StandIn, user: User, chat: Chat) -> tuple[Message, str]:
    """Tap through the turn on the live board until only the tap that ends it is left. The live
    board is looked up anew before each tap: the turn's first board may be posted again meanwhile
    (a send whose answer came too late is healed by a new post, the orphan deleted)."""
    for _ in range(12):
        board = live_board(chat)
        assert board is not None
        final = final_button(board)
        if final is not None:
            return board, final
        choices = [b.text for row in board.buttons for b in row
                   if (data := decode(b.callback_data)) is not None
                   and data.action in (Action.MOVE, Action.FROM)]
        assert choices, board.button_texts
        assert await tap_and_wait(standin, user, board, choices[0]) is None
    raise AssertionError("a turn took more than 12 taps")


def boards(chat: Chat) -> list[Message]:
    """The bot's photos in the chat that still carry buttons (live-looking boards)."""
    return [m for m in chat.bot_messages() if m.photo_bytes is not None and m.has_keyboard]


def mover(board: Message, alice: User, bob: User) -> tuple[User, User]:
    return (alice, bob) if board.mentions(alice) else (bob, alice)


def deleted(message: Message) -> bool:
    """Whether ``message`` is gone from its chat (taken down by the bot, or never kept)."""
    try:
        message.refresh()
    except StandInError:
        return True
    return False
