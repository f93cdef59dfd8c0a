"""Chat events and group rights: a group that becomes a supergroup, the bot added to a group
(a short welcome) or removed from it or blocked by a player, and whether a group member is one
of its admins."""

from __future__ import annotations

import logging

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

from bot.delivery.reach import left_group, player_blocked
from bot.delivery.telegram import quietly
from bot.handlers.common import Ctx
from bot.handlers.competitions import competition_left
from bot.state import portes
from bot.views import help as help_texts
from bot.views.i18n import tr

log = logging.getLogger("bot.handlers")

OUT = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
IN = (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR)
ADMINS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


async def on_migrate(update: Update, context: Ctx) -> None:
    """A group became a supergroup: its matches (and its language) follow the new chat id."""
    p = portes(context)
    msg = update.effective_message
    if msg is None or not msg.migrate_to_chat_id:
        return
    await p.uc.migrate_chat(msg.chat.id, msg.migrate_to_chat_id)  # the group's language too
    if p.delivery is not None:  # the boards of its active matches, posted in the new chat
        p.delivery.kick(str(msg.migrate_to_chat_id))


async def on_my_member(update: Update, context: Ctx) -> None:
    """The bot was added to a group: a two-line welcome, in the group's language (the one who
    added the bot gives it its first one). Removed from a group: its matches go on in the
    players' private chats. Blocked by a player: see :mod:`bot.delivery.reach`."""
    change = update.my_chat_member
    if change is None:
        return
    old, new = change.old_chat_member.status, change.new_chat_member.status
    if change.chat.type == ChatType.PRIVATE:
        if new == ChatMemberStatus.BANNED:
            log.info("blocked by user %s", change.chat.id)
            await player_blocked(portes(context), context.bot, change.chat.id)
            # their competitions' matches are forfeits, as for leaving the group
            await competition_left(portes(context), context.bot, None, change.chat.id)
        return
    if new in OUT:
        log.info("removed from chat %s", change.chat.id)
        await left_group(portes(context), context.bot, change.chat.id)
    elif new in IN and old in OUT:
        p = portes(context)
        adder = change.from_user
        await p.see_user(adder)
        t = tr(await p.lang_for_chat(change.chat.id, None if adder.is_bot else adder))
        await quietly(context.bot.send_message(change.chat.id, help_texts.group_welcome_text(t)))


async def is_group_admin(context: Ctx, chat: Chat, user: User,
                         msg: Message | None = None) -> bool:
    """Whether ``user`` is an admin (or the creator) of the group ``chat``. A message an
    anonymous admin sends comes from the group itself (``sender_chat``), which counts. When
    Telegram cannot tell, the answer is no (nothing is changed)."""
    if msg is not None and msg.sender_chat is not None and msg.sender_chat.id == chat.id:
        return True
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError as exc:
        log.warning("could not read the member %s of chat %s: %s", user.id, chat.id, exc)
        return False
    return member.status in ADMINS
