"""A crowd in one group: what is chatter (commands, taps that only show something), the caps on
``/new`` per player and per group, and the answer to a command the bot did not handle.

The chat lanes (:mod:`bot.intake.lanes`) run a chat's chatter apart from its game (taps on a match,
Accept, a typed play), at low priority in the chat's Telegram budget, and shed the oldest
chatter when a crowd floods it. A command not handled, shed from its lane or over the group's
``/new`` cap, is answered once, in its sender's private chat when they started the bot (a
private chat has its own budget), and not at all otherwise: a note in the group would spend
the group's 20 calls a minute, which its matches need, on the very crowd that fills them. A
shed tap is answered with an alert (answering a tap costs no budget). A player gets at most
:data:`bot.state.BUSY_NOTES_PER_MINUTE` notes a minute.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from telegram import Bot, Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.error import Forbidden

from bot.delivery.limiter import low_priority
from bot.delivery.telegram import quietly
from bot.intake.pace import Admission
from bot.state import Portes
from bot.views import texts
from bot.views.callbacks import Action
from bot.views.i18n import Tr

log = logging.getLogger("bot.intake.crowd")

GAME_ACTIONS = frozenset({
    Action.FROM, Action.MOVE, Action.BACK, Action.PLAY, Action.UNDO, Action.CONFIRM,
    Action.RESIGN, Action.RESIGN_ACCEPT, Action.RESIGN_DECLINE, Action.CANCEL,
    Action.ACCEPT, Action.WITHDRAW, Action.REMATCH, Action.HINT,
    Action.PICK_PLAY, Action.PICK_RESIGN, Action.CLOSE_UNREADABLE,
})
"""Taps that act on a match or a challenge: the game's lane, never shed for chatter. Every
other tap (the /new card's choices, /games' Show, /lang, /settings, /history, /top...) only
shows something, and is chatter."""


def action_of(data: str | None) -> Action | None:
    """A button's action, read from its data's first field (``None``: not one of ours)."""
    head = (data or "").split(":", 1)[0]
    try:
        return Action(head)
    except ValueError:
        return None


def is_command(msg: Message) -> bool:
    return any(e.type == "bot_command" and e.offset == 0 for e in msg.entities)


def is_group(chat: Chat) -> bool:
    return chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


GAME_COMMANDS = frozenset({"/resign"})
"""Commands that act on a match, the player's own: handled in the game's lane at the game's
priority (a player resigning in a group whose board is busy must not be shed as chatter)."""


def is_chatter(update: object) -> bool:
    """Whether an update is chatter: a command, a tap that only shows something, text in a
    group (no handler reads it), an edited message. Anything else (a tap on a match, a play
    typed in private, a member or migration update, inline mode) is the game's."""
    if not isinstance(update, Update):
        return False
    q = update.callback_query
    if q is not None:
        return action_of(q.data) not in GAME_ACTIONS
    if update.edited_message is not None:
        return True
    msg = update.message
    if msg is None:
        return False
    if is_command(msg):
        return command_of(msg) not in GAME_COMMANDS
    return msg.text is not None and is_group(msg.chat)


def command_of(msg: Message) -> str:
    """The command a message sends, as typed without the bot's name: ``/new``."""
    return (msg.text or "/").split(maxsplit=1)[0].split("@", 1)[0]


def busy_text(t: Tr, chat: Chat, command: str) -> str:
    if is_group(chat) and chat.title:
        return t._("The group {group} is busy right now: your {command} was not handled. Try "
                   "again in a minute.", group=chat.title, command=command)
    return t._("Too much at once: your {command} was not handled. Try again in a minute.",
               command=command)


def busy_tap_text(t: Tr) -> str:
    return t._("Too much is going on in this chat: your tap was not handled. Try again in a "
               "minute.")


async def tell_busy(p: Portes, bot: Bot, user: User, chat: Chat, command: str) -> None:
    """Tell ``user`` privately that their ``command`` in ``chat`` was not handled: only when
    they started the bot, and at most a few times a minute (see the module's docstring)."""
    if user.is_bot or not await can_tell(p, user.id):
        return  # not in the group either: its budget is its matches'
    if p.busy_pace.admit(user.id) != Admission.ALLOWED:
        return
    text = busy_text(p.t_user(user), chat, command)
    try:
        with low_priority():
            await bot.send_message(user.id, text)
    except Forbidden:  # they blocked the bot since
        p.know_reachable(user.id, False)
        await p.uc.set_can_message(user.id, False)
    except Exception as exc:
        log.info("could not tell %s that %s was not handled: %s", user.id, command, exc)


async def can_tell(p: Portes, user_id: int) -> bool:
    """Whether the player started the bot (so can be written to), read once per player."""
    known = p.reachable.get(user_id)
    if known is None:
        player = await p.uc.get_player(user_id)
        known = player is not None and player.can_message
        p.know_reachable(user_id, known)
    return known


async def answer_shed(p: Portes, bot: Bot, update: Update) -> None:
    """Answer an update the lanes shed: a tap with an alert, a command with a private note."""
    q = update.callback_query
    if q is not None:
        await quietly(bot.answer_callback_query(q.id, busy_tap_text(p.t_user(q.from_user)),
                                                show_alert=True))
        return
    msg, user = update.message, update.effective_user
    if msg is not None and user is not None and is_command(msg):
        await tell_busy(p, bot, user, msg.chat, command_of(msg))


def shed_answerer(app: Any) -> Callable[[object], None]:
    """For :attr:`bot.intake.lanes.ChatLanes.on_shed`: answer each shed update in the background."""
    def on_shed(update: object) -> None:
        p = app.bot_data.get("portes")
        if isinstance(p, Portes) and isinstance(update, Update):
            p.spawn(answer_shed(p, app.bot, update))
    return on_shed


async def admit_new(p: Portes, bot: Bot, msg: Message, user: User, t: Tr) -> bool:
    """Whether ``/new`` gets its card: under the sender's cap (``PORTES_NEW_PER_MINUTE``;
    over it, one notice a minute in the chat) and, in a group, the group's
    (``PORTES_NEW_PER_GROUP_MINUTE``: the group's cards and notices together). Over the
    group's cap, the sender is told privately (:func:`tell_busy`), never in the group."""
    mine = p.new_pace.admit(user.id)
    if mine == Admission.REFUSED:
        return False
    if is_group(msg.chat) and p.group_new_pace.admit(msg.chat.id) != Admission.ALLOWED:
        p.spawn(tell_busy(p, bot, user, msg.chat, "/new"))
        return False
    if mine == Admission.REFUSED_TELL:
        await msg.reply_text(texts.too_many_new_text(t, p.new_pace.per_minute), do_quote=True)
        return False
    return True
