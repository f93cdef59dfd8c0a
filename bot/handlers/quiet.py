"""A group's noise: ``/quiet`` (its admins quiet the bot there: boards come silently, the seed
is revealed in the players' private chats), and the whole seed reveal asked for from the
group's short one (its button, a ``seed<id>`` deep link), sent privately as a notice."""

from __future__ import annotations

from telegram import Message, Update

from bot.delivery.telegram import is_group
from bot.handlers.chats import is_group_admin
from bot.handlers.common import Ctx
from bot.state import Portes, command_sender
from bot.views import texts
from bot.views.callbacks import parse_id
from bot.views.i18n import Tr

SEED_PAYLOAD = "seed"
"""The deep link under a group's short reveal: ``seed<match id>``."""


def quiet_state_text(t: Tr, quiet: bool) -> str:
    if quiet:
        return t._("🔕 This group is quiet: the boards come silently, and the dice seed of a "
                   "finished match goes to its players in private. /quiet off undoes it.")
    return t._("🔔 The boards notify this group when a match starts or a player is "
               "reminded, and a finished match's dice seed is shown here. /quiet on makes "
               "the bot quiet here (admins only).")


async def cmd_quiet(update: Update, context: Ctx) -> None:
    """/quiet [on|off]: in a group, its admins quiet the bot there (anyone may ask how it is);
    elsewhere it says what it is for."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    if not is_group(msg.chat):
        await msg.reply_text(t._("/quiet is for groups: there, an admin can make the bot "
                                 "quiet. Here, /notices turns your notifications off."))
        return
    arg = (context.args[0].lower() if context.args else "")
    if arg not in ("on", "off"):
        await msg.reply_text(quiet_state_text(t, await p.uc.chat_quiet(msg.chat.id)),
                             do_quote=True)
        return
    if not await is_group_admin(context, msg.chat, user, msg):
        await msg.reply_text(t._("Only the group's admins can make the bot quiet here, or "
                                 "not."), do_quote=True)
        return
    await p.uc.set_chat_quiet(msg.chat.id, arg == "on")
    await msg.reply_text(quiet_state_text(t, arg == "on"), do_quote=True)


async def send_full_reveal(p: Portes, t: Tr, msg: Message, ref: str, user_id: int) -> None:
    """``seed<id>``: the whole seed reveal of a finished match, sent here as a notice (once;
    asked again, it points to the one sent)."""
    match_id = parse_id(ref)
    keys = (await p.uc.delivery.ask_full_reveal(match_id, user_id)
            if match_id is not None else None)
    if keys is None:
        await msg.reply_text(texts.error_text(t, "not_found"))
        return
    if not keys:
        await msg.reply_text(t._("The dice seed of match #{id} was sent to you in this chat "
                                 "already.", id=match_id))
        return
    if p.delivery is not None:
        p.delivery.kick(*keys)
