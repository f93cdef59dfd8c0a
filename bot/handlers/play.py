"""/play, "find me an opponent": the card's choices (game, length or any, time per move),
Search, Stop waiting; blocking a player; the periodic pairing job. The choices and texts are
:mod:`bot.views.play`'s; the pairing is :mod:`storage.matchmaking`'s. The card lives in the
private chat (the match is played across the two players' private chats); in a group /play
answers with a button to it. The pairing tells both players by outbox notices."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Message, Update, User

from bot.delivery.telegram import is_group, quietly
from bot.handlers.common import HTML, Ctx, point_to_private
from bot.intake.once import claimed
from bot.state import Portes, command_sender, portes, tapped
from bot.views.callbacks import Callback
from bot.views.i18n import Tr
from bot.views.play import (
    CANCEL_ARG_RE,
    hours_default,
    parse_play_arg,
    play_card_text,
    play_error,
    play_keyboard,
)
from rules.game import DEFAULT_KIND
from storage.matchmaking.results import Pairing

log = logging.getLogger("bot.handlers.play")


async def cmd_play(update: Update, context: Ctx) -> None:
    """/play: the card in the private chat; in a group, a button to it."""
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, user, t = sender
    if is_group(msg.chat):
        await point_to_private(p, msg, t, t._(
            "Finding an opponent happens in our private chat: tap below, or send /play "
            "there."), p.link("play"))
        return
    await show_play_card(p, msg, user, t)


async def show_play_card(p: Portes, msg: Message, user: User, t: Tr, *, game: str = DEFAULT_KIND,
                         length: int | None = None, hours: int | None = None,
                         edit: bool = False) -> None:
    hours = hours or hours_default(p.settings.timeouts.move_timeout)
    waiting = await p.uc.waiting_for(user.id)
    text = play_card_text(t, game, length, hours, waiting)
    blocked = await p.uc.blocked_players(user.id)
    markup = play_keyboard(t, game, length, hours, waiting, owner=user.id, blocked=blocked)
    if edit:
        await quietly(msg.edit_text(text, reply_markup=markup, parse_mode=HTML))
    else:
        await msg.reply_text(text, reply_markup=markup, parse_mode=HTML, do_quote=True)


async def on_find(update: Update, context: Ctx, cb: Callback) -> None:
    """A /play card's button: a choice (the card drawn again), Search, or Stop waiting."""
    p, q, t = await tapped(update, context, see=True)
    user = q.from_user
    msg = q.message if isinstance(q.message, Message) else None
    if msg is None or msg.chat.id != user.id:
        await q.answer(t._("That button is not for you."), show_alert=True)
        return
    cancel = CANCEL_ARG_RE.fullmatch(cb.arg or "")
    if cancel is not None:
        which = None if cancel.group(1) == "a" else int(cancel.group(1))
        stopped = await p.uc.cancel_requests(user.id, which)
        await q.answer(t._("You stopped waiting.") if stopped else
                       t._("You were not waiting for that any more."), show_alert=not stopped)
        await show_play_card(p, msg, user, t, edit=True)
        return
    choice = parse_play_arg(cb.arg)
    if choice is None:
        await q.answer(play_error(t, "invalid_action"), show_alert=True)
        return
    game, length, hours, search = choice
    if not search:
        await q.answer()
        await show_play_card(p, msg, user, t, game=game, length=length, hours=hours, edit=True)
        return
    # Search carries no version: a copy of its update (Telegram delivering it again, to any
    # instance) must not make a second request once the first was paired
    if not await claimed(p, update.update_id):
        return
    try:
        res = await p.uc.request_opponent(user.id, game_type=game, length=length,
                                          move_seconds=hours * 3600)
    finally:
        await p.uc.mark_update_handled(update.update_id)
    if not res.ok:
        await q.answer(play_error(t, res.code), show_alert=True)
        return
    if res.pairing is not None:
        await q.answer(t._("Opponent found!"))
        told(p, res.pairing)
    else:
        await q.answer(t._("You are waiting for an opponent. You will be told here."))
    await show_play_card(p, msg, user, t, game=game, length=length, hours=hours, edit=True)


def told(p: Portes, pairing: Pairing) -> None:
    """Kick the delivery worker for the two players' chats (their notices are written)."""
    if p.delivery is not None:
        p.delivery.kick(str(pairing.author_id), str(pairing.acceptor_id))


async def on_block(update: Update, context: Ctx, cb: Callback) -> None:
    """Never pair me with this player again (the button's subject is their id)."""
    p, q, t = await tapped(update, context, see=True)
    other = cb.match_id
    if other == q.from_user.id:
        await q.answer(play_error(t, "invalid_action"), show_alert=True)
        return
    if cb.arg == "u":
        gone = await p.uc.unblock_player(q.from_user.id, other)
        await q.answer(t._("You may be paired with them again.") if gone else
                       t._("You had not blocked them."), show_alert=not gone)
        msg = q.message if isinstance(q.message, Message) else None
        if gone and msg is not None and msg.chat.id == q.from_user.id:
            await show_play_card(p, msg, q.from_user, t, edit=True)
        return
    if cb.arg is not None:
        await q.answer(play_error(t, "invalid_action"), show_alert=True)
        return
    added = await p.uc.block_player(q.from_user.id, other)
    await q.answer(t._("You will not be paired with them again.") if added else
                   t._("You had blocked them already."), show_alert=True)


async def play_tick(context: Any) -> None:
    """The periodic pairing: requests whose windows have widened since they were made."""
    p = portes(context)
    try:
        made = await p.uc.pair_waiting()
    except Exception:
        log.exception("pairing the waiting requests failed")
        return
    for pairing in made:
        told(p, pairing)
