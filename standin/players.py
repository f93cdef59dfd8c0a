"""Simulated players: they read the board the bot sent and tap its buttons, nothing else."""

from __future__ import annotations

from bot.views.callbacks import Action, decode
from standin import Chat, Message, StandIn, StandInError, User
from standin.sim import HANG_GUARD

CONFIRM = "✅ Confirm"
UNDO = "⟲ Undo"


async def start_the_bot(*users: User, timeout: float = HANG_GUARD) -> None:
    """Each user presses START in the bot's private chat and gets the welcome (``timeout``:
    the hang guard of each welcome; a bot process just started may take longer)."""
    for user in users:
        hello = user.start_bot()
        await user.private.wait_for_bot_message(after=hello, timeout=timeout)


def live_board(chat: Chat) -> Message | None:
    """The newest bot photo message in the chat (the live board)."""
    boards = [m for m in chat.bot_messages() if m.photo_bytes is not None]
    return boards[-1] if boards else None


def live_boards(chat: Chat) -> list[Message]:
    """The bot's photos in the chat that still carry buttons (boards that look live)."""
    return [m for m in chat.bot_messages() if m.photo_bytes is not None and m.has_keyboard]


async def start_group_match(
    standin: StandIn, author: User, acceptor: User, group: Chat, length: str = "1 point"
) -> Message:
    """``author`` posts ``/new`` in the group and picks ``length``; ``acceptor`` accepts once
    the card shows the dice commitment. The first board."""
    cmd = author.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    await author.tap(card, length)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    await acceptor.tap(card.refresh(), "🎲 Accept")
    board: Message = await standin.wait_for(lambda: live_board(group), what="the first board")
    return board


async def private_players_match(
    standin: StandIn, length: str = "3 points"
) -> tuple[User, User, Chat, Message]:
    """Alice and Bob, who both started the bot, in a group match of ``length`` that Alice
    challenged (they play their turns on their private boards): the one to move first, the
    other, the group and its first board."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, length)
    mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
    return mover, other, group, board


def is_play_button(text: str) -> bool:
    return "/" in text


async def tap_and_wait(standin: StandIn, user: User, board: Message, text: str) -> str | None:
    """Tap a button; return the alert text if the bot refused, else wait until the tapped
    board changed (new keyboard, or gone) and return None."""
    before = board.refresh()
    answer = await user.tap(before, text)
    if answer is not None and answer.show_alert:
        alert: str | None = answer.text
        return alert

    def changed() -> bool:
        try:
            now = before.refresh()
        except StandInError:
            return True
        return now.reply_markup != before.reply_markup or now.edit_count != before.edit_count

    await standin.wait_for(changed, what=f"the board to change after {text!r}")
    return None


async def new_board(standin: StandIn, chat: Chat, old: Message) -> Message:
    """Wait until a board newer than ``old`` is live in ``chat``."""
    def newer() -> Message | None:
        board = live_board(chat)
        return board if board is not None and board.message_id != old.message_id else None
    return await standin.wait_for(newer, what="a new board")  # type: ignore[no-any-return]


def turn_board(user: User, chat: Chat) -> Message | None:
    """Where ``user`` plays now: the live board of ``chat``, or in a group their private
    board when they play their turns there (the one whose turn buttons are the newest)."""
    found = [b for b in (live_board(chat), live_board(user.private) if chat.id < 0 else None)
             if b is not None and turn_actions(b)]
    return max(found, key=board_version, default=None)


def turn_actions(board: Message) -> dict[Action, list[str]]:
    """The board's buttons by what they do (their callback data's action)."""
    by_action: dict[Action, list[str]] = {}
    for row in board.buttons:
        for b in row:
            if (data := decode(b.callback_data)) is not None:
                by_action.setdefault(data.action, []).append(b.text)
    return by_action


def group_look(chat: Chat) -> tuple[int, int] | None:
    board = live_board(chat)
    return None if board is None else (board.message_id, board.edit_count)


async def play_turn(standin: StandIn, user: User, chat: Chat, *, wait: bool = True) -> Message:
    """Play one whole turn by tapping: on the live board in ``chat``, or in a group on the
    player's private board when they play there; returns the first board tapped. In a group,
    waits (unless ``wait`` is false) until the group's board shows the turn passed (a new
    board, or the board edited). Buttons are told apart by what they do (their callback
    data), so this works in any language."""
    first: Message = await standin.wait_for(lambda: turn_board(user, chat),
                                            what=f"a board for {user.first_name} to play on")
    for _ in range(12):
        current = turn_board(user, chat)
        if current is None:
            return first
        by_action = turn_actions(current)
        final = next(iter(by_action.get(Action.CONFIRM) or by_action.get(Action.PLAY) or []),
                     None)
        if final is not None:
            look = group_look(chat)
            alert = await tap_and_wait(standin, user, current, final)
            assert alert is None, alert
            if wait:
                def passed(seen: tuple[int, int] | None = look) -> bool:
                    return group_look(chat) != seen
                await standin.wait_for(passed, what="the board to show the turn passed")
            return first
        choice = next(iter(by_action.get(Action.MOVE) or by_action.get(Action.FROM) or []), None)
        assert choice is not None, current.button_texts
        alert = await tap_and_wait(standin, user, current, choice)
        assert alert is None, (alert, current.button_texts, current.caption)
    raise AssertionError("a turn took more than 12 taps")


TURN = frozenset({Action.FROM, Action.PLAY, Action.MOVE, Action.CONFIRM, Action.UNDO})
"""The buttons of a turn: they carry the match's version."""


def board_version(board: Message) -> int:
    """The match version the board's buttons carry (-1 without a turn keyboard)."""
    for row in board.buttons:
        for b in row:
            data = decode(b.callback_data)
            if data is not None and data.action in TURN:
                return data.version
    return -1


async def next_private_turn(
    standin: StandIn, users: list[User], after: int
) -> tuple[User, Message]:
    """Wait until one player's private board offers a turn newer than version ``after``
    (or the match is over: then the board with the result)."""
    def find() -> tuple[User, Message] | None:
        for user in users:
            board = live_board(user.private)
            if board is None:
                continue
            if board_version(board) > after or "wins the match" in (board.caption or ""):
                return user, board
        return None
    return await standin.wait_for(find, what="a private board to play")  # type: ignore[no-any-return]


async def ask(user: User, chat: Chat, text: str, mark: str, *,
              reply_to: Message | None = None, button: str | None = None) -> Message:
    """``user`` sends ``text`` in ``chat``; the bot's answer (the first with ``mark``, and
    with ``button`` if given)."""
    sent = user.send(chat, text, reply_to=reply_to)
    answer: Message = await chat.wait_for_bot_message(
        after=sent, predicate=lambda m: mark in m.content and (
            button is None or button in m.button_texts))
    return answer


async def start_match(standin: StandIn, author: User, acceptor: User, group: Chat,
                      length: str = "1 point") -> Message:
    """``author`` challenges in ``group``, ``acceptor`` accepts: the match's first board (a
    board newer than the card: the group may show the last match's board still)."""
    card = await ask(author, group, "/new", "", button=length)
    await author.tap(card, length)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    await acceptor.tap(card.refresh(), "🎲 Accept")
    board: Message = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and b.message_id > card.message_id and b,
        what="the first board")
    return board


async def resign_in(standin: StandIn, loser: User, group: Chat, board: Message) -> str:
    """``loser`` resigns the match of ``board`` in ``group``; its last board's caption."""
    menu = await ask(loser, group, "/resign", "", button="🏳 Resign the match")
    await loser.tap(menu, "🏳 Resign the match")
    final: Message = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and b.message_id >= board.message_id
        and "📈" in (b.caption or "") and b, what="the end with ratings")
    return final.caption or ""


async def won_by_resignation(standin: StandIn, winner: User, loser: User, group: Chat) -> None:
    """A 1-point match in ``group``: ``loser`` resigns it."""
    board = await start_match(standin, winner, loser, group)
    await resign_in(standin, loser, group, board)
