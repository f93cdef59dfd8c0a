"""/settings: a player's board theme, home side, language and notices, on one card whose
buttons edit it in place (texts and keyboard: :mod:`bot.views.player_settings`).

The settings are one's own, so the card lives in the private chat with the bot; in a group
/settings answers with a button to that chat. A tap counts only from the tapper's own private
chat and only on a card showing their settings as they are (the buttons' version field is the
settings' state code); anything else changes nothing and is told so.
"""

from __future__ import annotations

from telegram import Message, Update, User

from bot.delivery.telegram import quietly
from bot.handlers.common import HTML, Ctx, is_group_chat, point_to_private
from bot.state import Portes, command_sender, tapped
from bot.views import texts
from bot.views.callbacks import Callback
from bot.views.i18n import Tr, tr
from bot.views.player_settings import (
    PlayerSettings,
    parse_change,
    settings_keyboard,
    settings_text,
    state_code,
)
from storage.results import PlayerView


async def cmd_settings(update: Update, context: Ctx) -> None:
    """/settings: the card in the private chat; in a group, a button to it."""
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, user, t = sender
    if is_group_chat(msg.chat):
        await point_to_private(p, msg, t, t._(
            "Your settings are in our private chat: tap below, or send /settings there. "
            "This group's language is set with /lang."), p.link("settings"))
        return
    await show_settings(p, msg, user)


async def current(p: Portes, user: User) -> tuple[PlayerView | None, PlayerSettings]:
    """The player as stored, and the settings their card shows."""
    player = await p.uc.get_player(user.id)
    lang = p.lang_for_user(player if player is not None else user)
    if player is None:
        return None, PlayerSettings("classic", "right", lang, True)
    return player, PlayerSettings(player.theme, player.home, lang, player.notices)


async def show_settings(p: Portes, msg: Message, user: User) -> None:
    """Post the settings card (``/settings``, or the ``settings`` deep link)."""
    _, shown = await current(p, user)
    t = tr(shown.lang)
    await msg.reply_text(settings_text(t, shown), parse_mode=HTML,
                         reply_markup=settings_keyboard(t, shown, user.id))


async def on_settings(update: Update, context: Ctx, cb: Callback) -> None:
    """A settings button: change that one setting and draw the card again, in place."""
    p, q, t = await tapped(update, context)
    user = q.from_user
    msg = q.message if isinstance(q.message, Message) else None
    if msg is None or msg.chat.id != user.id:
        await q.answer(t._("That button is not for you."), show_alert=True)
        return
    change = parse_change(cb.arg)
    player, shown = await current(p, user)
    if change is None or player is None:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    if cb.version != state_code(shown):
        # an older card: it showed settings that have changed since; show them as they are
        await q.answer(t._("Your settings had changed since this card; here they are now."),
                       show_alert=True)
        await redraw(msg, shown, user.id)
        return
    changed = await apply_change(p, user, change)
    if changed is None:
        await q.answer(texts.error_text(t, "error"), show_alert=True)
        return
    p.forget_views_of(user.id)  # the next board reads the settings from the database
    _, shown = await current(p, user)
    await q.answer()
    await redraw(msg, shown, user.id)


async def apply_change(p: Portes, user: User, change: tuple[str, str]) -> PlayerView | None:
    """Store one change; the player as they are now (``None``: never seen)."""
    what, value = change
    if what == "th":
        return await p.uc.set_board_look(user.id, theme=value)
    if what == "home":
        return await p.uc.set_board_look(user.id, home=value)
    if what == "nt":
        return await p.uc.set_notices(user.id, value == "on")
    player = await p.uc.upsert_player(user.id, user.full_name, username=user.username,
                                      language=value)
    p.user_lang[user.id] = value
    return player


async def redraw(msg: Message, shown: PlayerSettings, owner: int) -> None:
    t: Tr = tr(shown.lang)
    await quietly(msg.edit_text(settings_text(t, shown), parse_mode=HTML,
                                reply_markup=settings_keyboard(t, shown, owner)))
