"""Resigning and the rematch: /resign, the resignation buttons (a game for 1-3 points, the
match, cancelling an unstarted match; accepting or declining an offer), and Rematch."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup, Message, Update
from telegram.error import Forbidden

from bot.delivery.telegram import quietly
from bot.handlers.common import HTML, Ctx, finish, from_its_board, refusal
from bot.handlers.which_match import matches_here, meant
from bot.state import command_sender, is_group_match, tapped
from bot.views import texts
from bot.views.callbacks import Action, Callback
from bot.views.i18n import Tr
from bot.views.keyboards import (
    challenge_keyboard,
    computer_challenge_keyboard,
    pick_keyboard,
    resign_keyboard,
)
from rules.match import Phase
from storage.results import MatchView


def resign_card(t: Tr, mv: MatchView, user_id: int) -> tuple[str, InlineKeyboardMarkup]:
    """The resignation question and its buttons, for this player in this match."""
    seat = mv.seat_of(user_id)
    my_turn = seat is not None and mv.state.turn == seat
    game = my_turn and mv.state.phase == Phase.PLAYING
    text = texts.resign_card_text(t, mv, seat if seat is not None else 0, game=game)
    return text, resign_keyboard(t, mv.id, mv.version, mv.state, my_turn=my_turn,
                                 owner=user_id)


async def cmd_resign(update: Update, context: Ctx) -> None:
    """/resign: the resignation card of the match meant (or "which match?")."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    here = matches_here(await p.uc.list_active_matches(user.id), msg.chat)
    if not here:
        await msg.reply_text(t._("You have no match here."))
        return
    summary = await meant(p, user.id, msg, here)
    if summary is None:
        await msg.reply_text(t._("Which match do you want to resign?"), do_quote=True,
                             reply_markup=pick_keyboard(t, Action.PICK_RESIGN, here, user.id))
        return
    res = await p.uc.load_match(summary.id)
    if res.match is None:
        await msg.reply_text(texts.error_text(t, res.code or "not_found"))
        return
    p.touch(user.id, summary.id)
    text, markup = resign_card(t, res.match, user.id)
    await msg.reply_text(text, parse_mode=HTML, reply_markup=markup)


async def on_resign(update: Update, context: Ctx, cb: Callback) -> None:
    """A resignation button: offer a game, resign the match, cancel it, or answer an offer."""
    p, q, t = await tapped(update, context)
    user = q.from_user
    async with p.locks.hold(cb.match_id):
        if cb.action == Action.RESIGN and cb.arg == "m":
            res = await p.uc.resign_match(cb.match_id, user.id, None)
        elif cb.action == Action.RESIGN:
            try:
                points = cb.int_arg()
            except ValueError:
                await q.answer(texts.error_text(t, "stale"), show_alert=True)
                return
            res = await p.uc.offer_resignation(cb.match_id, user.id, cb.version, points)
        elif cb.action == Action.CANCEL:
            res = await p.uc.cancel_match(cb.match_id, user.id, None)
        else:
            mv, _ = await p.view(cb.match_id, cb.version)
            if mv is not None and not await from_its_board(p, q, mv):
                await q.answer(texts.error_text(t, "not_this_board"), show_alert=True)
                return
            res = await p.uc.answer_resignation(cb.match_id, user.id, cb.version,
                                                accept=cb.action == Action.RESIGN_ACCEPT)
        if not res.ok or res.match is None:
            await q.answer(refusal(t, res), show_alert=True)
            return
        await quietly(q.answer())  # a courtesy: the resignation is committed, the board follows
        msg = q.message if isinstance(q.message, Message) else None
        if msg is not None and cb.action in (Action.RESIGN, Action.CANCEL):
            # The /resign card is a command's answer, not a board: its buttons go as a
            # courtesy, and losing that edit (a 502, a lost answer) is harmless: each of its
            # buttons names the match and is checked again when tapped, so a second tap is
            # refused with the truth (the match is over, or the offer is made) and changes
            # nothing (tests/bot/test_card_keyboards.py). What the match shows goes through
            # the outbox (``finish``).
            await quietly(msg.edit_reply_markup(reply_markup=None))
        await finish(context, res.match, res)


async def on_rematch(update: Update, context: Ctx, cb: Callback) -> None:
    """Rematch (of a finished match, once): a new challenge with the same length, "no triple"
    and opponent."""
    p, q, t = await tapped(update, context)
    user = q.from_user
    loaded = await p.uc.load_match(cb.match_id)
    mv = loaded.match
    seat = mv.seat_of(user.id) if mv else None
    if mv is None or seat is None:
        await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
        return
    other = mv.seats[1 - seat]
    group = is_group_match(mv)
    res = await p.uc.create_challenge(
        user.id, length=mv.length, no_triple=mv.no_triple,
        chat_id=mv.place.chat_id if group else None, group=group, thread_id=mv.place.thread_id,
        target_id=other.player.id if other.player else None,
        computer_level=other.computer_level, rematch_of=mv.id, move_seconds=mv.move_seconds,
        game_type=mv.state.game_type, winner_starts=mv.state.winner_starts)
    if not res.ok or res.challenge is None:
        # a repeated tap is told quietly that its rematch is already there
        await q.answer(texts.error_text(t, res.code or "error"),
                       show_alert=res.code != "rematch_exists")
        return
    await q.answer(t._("Rematch offered."))
    c = res.challenge
    author, target = texts.challenge_names(c)
    default = p.settings.timeouts.move_timeout
    if group and mv.place.chat_id is not None:
        ct = p.t_match_chat(mv)
        sent = await context.bot.send_message(
            mv.place.chat_id, texts.challenge_card_text(ct, c, author, target, default),
            parse_mode=HTML,
            reply_markup=challenge_keyboard(ct, c.id), message_thread_id=mv.place.thread_id)
        await p.card_shown(c.id, chat_id=sent.chat_id, message_id=sent.message_id)
    elif other.is_computer:
        sent = await context.bot.send_message(
            user.id, texts.computer_challenge_text(t, c), parse_mode=HTML,
            reply_markup=computer_challenge_keyboard(t, c.id))
        await p.card_shown(c.id, chat_id=sent.chat_id, message_id=sent.message_id)
    elif other.player is not None:
        ot = p.t_user(other.player)
        try:
            sent = await context.bot.send_message(
                other.player.id, texts.challenge_card_text(ot, c, author, target, default),
                parse_mode=HTML,
                reply_markup=challenge_keyboard(ot, c.id, cancel=False))
            await p.card_shown(c.id, chat_id=sent.chat_id, message_id=sent.message_id)
        except Forbidden:
            await p.uc.set_can_message(other.player.id, False)

