"""Simulated players: they read the board the bot sent and tap its buttons, nothing else."""

from __future__ import annotations

from tests.standin import Chat, Message, StandIn, User

CONFIRM = "✅ Confirm"
UNDO = "⟲ Undo"


def live_board(chat: Chat) -> Message | None:
    """The newest bot photo message in the chat (the live board)."""
    boards = [m for m in chat.bot_messages() if m.photo_bytes is not None]
    return boards[-1] if boards else None


def is_play_button(text: str) -> bool:
    return "/" in text


async def tap_and_wait(standin: StandIn, user: User, board: Message, text: str) -> str | None:
    """Tap a button; return the alert text if the bot refused, else None."""
    answer = await user.tap(board, text)
    await standin.idle(quiet=0.02)
    if answer is not None and answer.show_alert:
        return answer.text
    return None


async def new_board(standin: StandIn, chat: Chat, old: Message) -> Message:
    """Wait until a board newer than ``old`` is live in ``chat``."""
    def newer() -> Message | None:
        board = live_board(chat)
        return board if board is not None and board.message_id != old.message_id else None
    return await standin.wait_for(newer, what="a new board")  # type: ignore[no-any-return]


async def play_turn(standin: StandIn, user: User, chat: Chat, *, wait: bool = True) -> Message:
    """Play one whole turn on the live board in ``chat`` by tapping; returns the board tapped
    (in a group, after waiting for the next board unless ``wait`` is false)."""
    board = live_board(chat)
    assert board is not None, "no board"
    for _ in range(12):
        current = board.refresh()
        texts = current.button_texts
        if not texts:
            return board
        last = CONFIRM if CONFIRM in texts else next(
            (t for t in texts if is_play_button(t)), None)
        if last is not None:
            alert = await tap_and_wait(standin, user, current, last)
            assert alert is None, alert
            if wait:
                await new_board(standin, chat, board)
            return board
        arrows = [t for t in texts if "→" in t]
        if arrows:
            await tap_and_wait(standin, user, current, arrows[0])
            continue
        choices = [t for t in texts if t not in (UNDO,) and not t.startswith("↩")]
        assert choices, texts
        await tap_and_wait(standin, user, current, choices[0])
    raise AssertionError("a turn took more than 12 taps")
