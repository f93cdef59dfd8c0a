"""Chat events: a group that becomes a supergroup, the bot removed from a group or blocked by a
player."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType

from bot.core import portes
from bot.handlers.common import Ctx
from bot.reach import left_group, player_blocked

log = logging.getLogger("bot.handlers")


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
    """The bot was removed from a group (its matches go on in the players' private chats),
    or blocked by a player (see :mod:`bot.reach`)."""
    change = update.my_chat_member
    if change is None:
        return
    status = change.new_chat_member.status
    if change.chat.type == ChatType.PRIVATE:
        if status == ChatMemberStatus.BANNED:
            log.info("blocked by user %s", change.chat.id)
            await player_blocked(portes(context), context.bot, change.chat.id)
        return
    if status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        log.info("removed from chat %s", change.chat.id)
        await left_group(portes(context), context.bot, change.chat.id)

