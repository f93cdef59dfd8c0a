"""/top (leaderboards, hiding from them), /stats (a record, or head to head) and /forgetme.

In a group, ``/top`` is that group's leaderboard (its matches only), in a private chat the
global one: a picture (:mod:`rendering.leaderboard`) with the same text as its caption, or the
text alone when a picture would not read better. ``/stats`` replying to someone's message, or
``/stats @username``, compares the caller with that player. ``/forgetme`` asks first, in the
private chat only; the button deletes (:func:`storage.social.forget`).
"""

from __future__ import annotations

import asyncio

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup
from telegram import Message, Update, User

from bot.callbacks import Action, Callback, encode
from bot.core import Portes, command_sender, quietly, tapped
from bot.handlers.common import Ctx, is_group_chat, point_to_private
from bot.i18n import Tr
from bot.social_texts import (
    forget_question,
    head_to_head_text,
    leaderboard_text,
    leaderboard_title,
    provisional_note,
    rating_text,
    stats_text,
)
from rendering.leaderboard import Line, drawable, printable, render_leaderboard
from storage.social import Forgotten, Leaderboard

GLOBAL = 0
CAPTION_LIMIT = 1024


async def cmd_top(update: Update, context: Ctx) -> None:
    """``/top``: the leaderboard here; ``/top hide`` and ``/top show`` set whether the caller
    is listed on leaderboards."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    arg = (context.args[0].lower() if context.args else "")
    if arg in ("hide", "show"):
        await p.uc.set_hidden(user.id, arg == "hide")
        await msg.reply_text(
            t._("You are hidden from leaderboards now: /top show lists you again.")
            if arg == "hide" else t._("You are listed on leaderboards again."), do_quote=True)
        return
    group = is_group_chat(msg.chat)
    board = await p.uc.leaderboard(msg.chat.id if group else GLOBAL, user.id)
    title = (msg.chat.title or "") if group else None
    text = leaderboard_text(t, board, title)
    picture = await leaderboard_picture(t, board, title, text)
    if picture is None:
        await msg.reply_text(text)
        return
    await msg.reply_photo(picture, caption=text)


async def leaderboard_picture(t: Tr, board: Leaderboard, title: str | None,
                              caption: str) -> bytes | None:
    """The leaderboard drawn (its text goes as the caption), or ``None`` when text reads as
    well: nobody listed, a caption over Telegram's limit, or a name the font cannot draw."""
    lines = picture_lines(board)
    heading = printable(leaderboard_title(t, title).removeprefix("🏆"))
    too_long = len(caption.encode("utf-16-le")) // 2 > CAPTION_LIMIT  # Telegram counts UTF-16
    if not board.top or too_long or heading is None or lines is None:
        return None
    footer = provisional_note(t) if any(line.provisional for line in lines) else ""
    if not drawable(footer):
        return None
    gap = board.mine is not None and board.mine not in board.top
    return await asyncio.to_thread(render_leaderboard, heading, lines, gap=gap, footer=footer,
                                   matches_label=t._("matches"))


def picture_lines(board: Leaderboard) -> list[Line] | None:
    """The picture's lines: the names without the symbols the font lacks (the caption keeps
    them whole); ``None`` when a name would lose a letter (then no picture)."""
    ranked = list(board.top)
    if board.mine is not None and board.mine not in board.top:
        ranked.append(board.mine)
    me = board.mine.player_id if board.mine is not None else None
    lines = []
    for r in ranked:
        name = printable(r.name)
        if name is None:
            return None
        lines.append(Line(r.rank, name, rating_text(r.rating, r.matches), r.matches,
                          mine=r.player_id == me, provisional=r.provisional))
    return lines


async def cmd_stats(update: Update, context: Ctx) -> None:
    """``/stats``: the caller's record; replying to someone, or with ``@username``: head to
    head between the caller and them."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    other: int | None = None
    if context.args:
        wanted = context.args[0]
        found = await p.uc.find_username(wanted)
        if found is None:
            shown = wanted if wanted.startswith("@") else "@" + wanted
            await msg.reply_text(t._("I do not know {username}: a player is known here once "
                                     "they have played or written to me.", username=shown),
                                 do_quote=True)
            return
        other = found[0]
    else:
        other = await _replied_to(p, msg, user)
    if other is not None and other != user.id:
        h2h = await p.uc.head_to_head(user.id, other)
        await msg.reply_text(head_to_head_text(t, h2h), do_quote=True)
        return
    group = is_group_chat(msg.chat)
    stats = await p.uc.player_stats(user.id, msg.chat.id if group else None)
    await msg.reply_text(stats_text(t, stats, group), do_quote=True)


async def _replied_to(p: Portes, msg: Message, user: User) -> int | None:
    """The person whose message ``/stats`` replies to (recorded first), if any."""
    replied = msg.reply_to_message
    other = replied.from_user if replied is not None else None
    if other is None or other.is_bot or other.id == user.id:
        return None
    await p.see_user(other)
    return other.id


def forget_keyboard(t: Tr) -> Markup:
    return Markup([[Btn(t._("🗑 Delete my data"), callback_data=encode(Action.FORGET, 0, 0, "yes")),
                    Btn(t._("Cancel"), callback_data=encode(Action.FORGET, 0, 0, "no"))]])


async def cmd_forgetme(update: Update, context: Ctx) -> None:
    """``/forgetme``: what deleting one's data means, with a button to confirm (in the
    private chat; in a group, a button to go there)."""
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, _, t = sender
    if is_group_chat(msg.chat):
        await point_to_private(p, msg, t, t._(
            "Deleting your data is done in our private chat: tap below and send /forgetme "
            "there."), f"https://t.me/{p.username}")
        return
    await msg.reply_text(forget_question(t), reply_markup=forget_keyboard(t))


async def on_forget(update: Update, context: Ctx, cb: Callback) -> None:
    """The /forgetme buttons: only the player's own, in their private chat."""
    p, q, t = await tapped(update, context)
    msg = q.message if isinstance(q.message, Message) else None
    user_id = q.from_user.id
    if msg is None or msg.chat.id != user_id or cb.arg not in ("yes", "no"):
        await q.answer(t._("That button is not for you."), show_alert=True)
        return
    if cb.arg == "no":
        await q.answer()
        await quietly(msg.edit_text(t._("Nothing was deleted.")))
        return
    done = await p.uc.forget_player(user_id)
    if done == Forgotten.PLAYING:
        await q.answer(t._("You have a match going on or an open challenge: finish or resign "
                           "the match, or withdraw the challenge, then send /forgetme again."),
                       show_alert=True)
        return
    # nothing of them stays in this instance's memory either
    p.seen.pop(user_id, None)
    p.user_lang.pop(user_id, None)
    p.focus.pop(user_id, None)
    p.tapped_at.pop(user_id, None)
    p.forget_views_of(user_id)
    await q.answer()
    await quietly(msg.edit_text(t._("Your data is deleted. If you write to me again, you start "
                                    "afresh as a new player.")))
