"""/ladder in a group (the card with Join and Leave) and the daily job that pairs every
group's ladder (:mod:`storage.ladder`); the day's card reaches the group through the outbox
(:mod:`bot.delivery.play_notices`). /vacation in the private chat (:mod:`storage.vacation`)."""

from __future__ import annotations

import logging
from typing import Any

from telegram import CallbackQuery, Message, Update

from bot.delivery.play_notices import ladder_card
from bot.delivery.telegram import is_group, quietly
from bot.handlers.common import HTML, Ctx, finish, point_to_private
from bot.handlers.competitions import is_member
from bot.state import Portes, command_sender, portes, tapped
from bot.views import texts
from bot.views.callbacks import Callback
from bot.views.i18n import Tr
from bot.views.ladder import parse_setup, setup_keyboard, setup_text
from bot.views.play import play_error, vacation_keyboard, vacation_text

log = logging.getLogger("bot.handlers.ladder")


async def cmd_ladder(update: Update, context: Ctx) -> None:
    """/ladder: the group's ladder card; in a private chat, where to find it."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, _user, t = sender
    if not is_group(msg.chat):
        await msg.reply_text(t._("Each group has its own ladder: send /ladder in the group."),
                             do_quote=True)
        return
    gt = await p.t_in(msg.chat, None)
    text, markup = await ladder_card(p, gt, msg.chat.id)
    sent = await msg.reply_text(text, reply_markup=markup, parse_mode=HTML, do_quote=True)
    if await p.uc.ladder_settings(msg.chat.id) is not None:
        await p.uc.set_ladder_card(msg.chat.id, sent.message_id)  # the newest is edited


async def on_ladder(update: Update, context: Ctx, cb: Callback) -> None:
    """Join or Leave on a ladder card: the tapper's own place on this group's ladder."""
    p, q, t = await tapped(update, context, see=True)
    msg = q.message if isinstance(q.message, Message) else None
    setup = parse_setup(cb.arg)
    if msg is None or not is_group(msg.chat) or (
            cb.arg not in ("join", "leave", "start") and setup is None):
        await q.answer(play_error(t, "invalid_action"), show_alert=True)
        return
    if cb.arg == "start":
        await start_pairing(update, context, cb)
        return
    if setup is not None:
        await _set_up(p, q, msg, t, *setup)
        return
    if cb.arg == "join":
        res = await p.uc.join_ladder(msg.chat.id, q.from_user.id)
        done = t._("You are on the ladder: your first pairing comes with the next day's.")
    else:
        res = await p.uc.leave_ladder(msg.chat.id, q.from_user.id)
        done = t._("You left the ladder.")
    if not res.ok:
        await q.answer(play_error(t, res.code), show_alert=True)
        return
    await q.answer(done, show_alert=True)
    gt = await p.t_in(msg.chat, None)
    text, markup = await ladder_card(p, gt, msg.chat.id)
    await quietly(msg.edit_text(text, reply_markup=markup, parse_mode=HTML))


async def _set_up(p: Portes, q: CallbackQuery, msg: Message, t: Tr, open_now: bool,
                  game: str, length: int) -> None:
    """A tap on the setup card: a choice redraws it; Open opens the group's ladder with the
    choices (the tapper its first player) and the card becomes the ladder's."""
    gt = await p.t_in(msg.chat, None)
    if not open_now:
        await q.answer()
        await quietly(msg.edit_text(setup_text(gt, game, length), parse_mode=HTML,
                                    reply_markup=setup_keyboard(gt, game, length)))
        return
    if not await is_member(q.get_bot(), msg.chat.id, q.from_user.id):
        await q.answer(play_error(t, "not_member"), show_alert=True)
        return
    res = await p.uc.open_ladder(msg.chat.id, q.from_user.id, game, length)
    if not res.ok:
        await q.answer(play_error(t, res.code), show_alert=True)
        return
    await q.answer(t._("The ladder is open, and you are on it."), show_alert=True)
    await p.uc.set_ladder_card(msg.chat.id, msg.message_id)
    text, markup = await ladder_card(p, gt, msg.chat.id)
    await quietly(msg.edit_text(text, reply_markup=markup, parse_mode=HTML))


async def start_pairing(update: Update, context: Ctx, cb: Callback) -> None:
    """Start on the day's card: the pairing's second player starts its match (their tap's id
    is mixed into the dice, as for every challenge). The card stays: the other pairs' buttons
    are on it; the match's boards come through the outbox."""
    p, q, t = await tapped(update, context)
    challenge = await p.uc.get_challenge(cb.match_id) if cb.match_id else None
    msg = q.message if isinstance(q.message, Message) else None
    if challenge is None or msg is None or challenge.place.chat_id != msg.chat.id:
        await q.answer(texts.error_text(t, "expired"), show_alert=True)
        return
    res = await p.uc.accept_challenge(challenge.id, q.from_user.id, mix=q.id)
    if not res.ok or res.match is None:
        code = res.code or "error"
        await q.answer(texts.error_text(t, "expired" if code == "challenge_closed" else code),
                       show_alert=True)
        return
    await q.answer(t._("The match has started."))
    await finish(context, res.match, res)


async def ladder_tick(context: Any) -> None:
    """Every ladder not paired yet today (UTC, the use cases' clock) is paired now."""
    p = portes(context)
    try:
        days = await p.uc.run_ladders()
    except Exception:
        log.exception("the daily ladders failed")
        return
    if p.delivery is not None:
        for day in days:
            p.delivery.kick(*day.chat_keys)


async def cmd_vacation(update: Update, context: Ctx) -> None:
    """/vacation: how many days are left, and buttons to take some; in a group, a button to
    the private chat."""
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, user, t = sender
    if is_group(msg.chat):
        await point_to_private(p, msg, t, t._(
            "Vacations are set in our private chat: tap below, or send /vacation there."),
            p.link("vacation"))
        return
    status = await p.uc.vacation_status(user.id)
    markup = None if status.ends_at else vacation_keyboard(t, status.days_left, owner=user.id)
    await msg.reply_text(vacation_text(t, status.ends_at, status.days_left),
                         reply_markup=markup, parse_mode=HTML, do_quote=True)


async def on_vacation(update: Update, context: Ctx, cb: Callback) -> None:
    """A /vacation button: that many days from now."""
    p, q, t = await tapped(update, context, see=True)
    msg = q.message if isinstance(q.message, Message) else None
    if msg is None or msg.chat.id != q.from_user.id or not (cb.arg or "").isdigit():
        await q.answer(play_error(t, "invalid_action"), show_alert=True)
        return
    res = await p.uc.take_vacation(q.from_user.id, int(cb.arg or 0))
    if not res.ok:
        await q.answer(play_error(t, res.code), show_alert=True)
        return
    await q.answer(t._("Enjoy your vacation!"))
    if p.delivery is not None:
        p.delivery.kick(*res.chat_keys)
    await quietly(msg.edit_text(vacation_text(t, res.ends_at, res.days_left), parse_mode=HTML))
