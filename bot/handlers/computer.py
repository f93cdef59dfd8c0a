"""The computer's buttons and command: Hint (games against the computer only), Review (any
finished Portes match) and /review. The engine's work is done by the computer player service
(:class:`bot.state.ComputerService`, installed on :class:`bot.state.Portes`)."""

from __future__ import annotations

import logging

from telegram import Bot, Message, Update, User

from bot.computer_player import REVIEWED_STATUSES
from bot.delivery.telegram import is_group, quietly
from bot.handlers.common import HTML, Ctx
from bot.state import ComputerService, Portes, command_sender, tapped
from bot.views import review as review_texts
from bot.views import texts
from bot.views.callbacks import Callback, parse_id
from bot.views.games import portes_only_text
from bot.views.i18n import Tr
from bot.views.keyboards import finished_matches_keyboard, url_keyboard
from computer.engine import available as engine_available
from computer.evaluators import needs_engine
from rules.game import find_kind, reviewed_kinds
from rules.match import Phase

log = logging.getLogger("bot.computer")


def the_computer(p: Portes) -> ComputerService:
    """The computer player installed at start-up (raises before that: answered as a failure)."""
    if p.computer is None:
        raise RuntimeError("the computer player is not installed")
    return p.computer


async def on_hint(update: Update, context: Ctx, cb: Callback) -> None:
    """The Hint button (games against the computer only): the best play and its chances."""
    p, q, t = await tapped(update, context)
    mv, code = await p.view(cb.match_id, cb.version)
    if mv is None:
        await q.answer(texts.error_text(t, code or "not_found"), show_alert=True)
        return
    seat = mv.seat_of(q.from_user.id)
    if seat is None:
        await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
        return
    if not mv.seats[1 - seat].is_computer:
        await q.answer(t._("Hints are only for games against the computer."), show_alert=True)
        return
    state = mv.state
    if not find_kind(state.game_type).reviews:
        await q.answer(portes_only_text(t), show_alert=True)
        return
    if mv.to_act != seat or state.phase != Phase.PLAYING or state.dice is None:
        await q.answer(texts.error_text(t, "not_your_turn"), show_alert=True)
        return
    if needs_engine(state.position) and not engine_available():
        await q.answer(t._(texts.NO_ENGINE_HINT), show_alert=True)
        return
    try:
        h = await the_computer(p).hint(mv, seat)
    except Exception:
        log.exception("match %s: no hint", mv.id)
        await q.answer(t._("The computer cannot give a hint just now; try again."),
                       show_alert=True)
        return
    await q.answer(review_texts.hint_text(t, h), show_alert=True)


async def on_review(update: Update, context: Ctx, cb: Callback) -> None:
    """The Review button (any finished match): the review, sent where the button was."""
    p, q, t = await tapped(update, context)
    loaded = await p.uc.load_match(cb.match_id)
    mv = loaded.match
    if mv is None or mv.seat_of(q.from_user.id) is None:
        await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
        return
    if mv.status not in REVIEWED_STATUSES:
        await q.answer(t._("The review is ready when the match is over."), show_alert=True)
        return
    if not find_kind(mv.state.game_type).reviews:
        await q.answer(portes_only_text(t), show_alert=True)
        return
    msg = q.message if isinstance(q.message, Message) else None
    if msg is not None and is_group(msg.chat):
        # the review is the tapper's: to their private chat, or a link to start the bot there
        if await may_write(p, q.from_user.id):
            await q.answer(t._("📊 Your review is on its way to our private chat."))
            await send_review(p, context.bot, mv.id, q.from_user.id, t)
        else:
            await q.answer(url=p.link(review_payload(mv.id)))
        return
    await q.answer(t._("Reviewing the match…"))
    chat_id = msg.chat_id if msg is not None else q.from_user.id
    thread = msg.message_thread_id if msg is not None and msg.is_topic_message else None
    await send_review(p, context.bot, mv.id, chat_id, t, thread_id=thread)


REVIEW_PAYLOAD = "review"
"""The deep link ``t.me/<bot>?start=review<id>``: the review of match ``id``, in private."""


def review_payload(match_id: int) -> str:
    return f"{REVIEW_PAYLOAD}{match_id}"


async def may_write(p: Portes, user_id: int) -> bool:
    """Whether the bot may write to ``user_id`` in private (they started it, never blocked it)."""
    player = await p.uc.get_player(user_id)
    return player is not None and player.can_message


async def send_review(p: Portes, bot: Bot, match_id: int, chat_id: int, t: Tr, *,
                      thread_id: int | None = None) -> None:
    """Send a finished match's review to ``chat_id`` (or say there is none)."""
    record = await p.uc.match_record(match_id)
    if (record is not None and find_kind(record.match.state.game_type).has_gnubg_games
            and not engine_available()):
        await quietly(bot.send_message(chat_id, t._(texts.NO_ENGINE_REVIEW),
                                       message_thread_id=thread_id))
        return
    try:
        found = await the_computer(p).review(match_id)
    except Exception:
        log.exception("match %s: the review failed", match_id)
        found = None
    if found is None:
        await quietly(bot.send_message(chat_id, t._("No review is available for this match."),
                                       message_thread_id=thread_id))
        return
    final, review = found
    await quietly(bot.send_message(chat_id, review_texts.review_text(t, final, review),
                                   parse_mode=HTML, message_thread_id=thread_id))


async def cmd_review(update: Update, context: Ctx) -> None:
    """``/review``: the player's recent finished matches, each with a Review button;
    ``/review <match id>``: that match's review at once."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    if context.args:
        await review_one(p, context.bot, msg, user, t, context.args[0])
        return
    # only Portes matches have a review (GNU Backgammon's): the others are not listed
    matches = await p.uc.finished_matches(user.id, 10, game_types=reviewed_kinds())
    if not matches:
        others = await p.uc.finished_matches(user.id, 1)
        await msg.reply_text(no_review_text(t) if others
                             else t._("You have no finished match yet."))
        return
    await msg.reply_text(review_texts.finished_matches_text(t, matches), parse_mode=HTML,
                         reply_markup=finished_matches_keyboard(t, matches))


async def review_one(p: Portes, bot: Bot, msg: Message, user: User, t: Tr, ref: str) -> None:
    """``/review <id>`` (and the deep link ``review<id>``): that match's review, if the sender
    played it and it is over. In a group the review goes to the sender's private chat, and the
    group gets one short line (with a link to start the bot when it may not write there)."""
    match_id = parse_id(ref)
    if match_id is None:
        await msg.reply_text(t._("There is no such match."))
        return
    loaded = await p.uc.load_match(match_id)
    mv = loaded.match
    if mv is None:
        await msg.reply_text(t._("There is no match #{id}.", id=match_id)
                             if loaded.code == "not_found"
                             else texts.error_text(t, loaded.code or "error"))
        return
    if mv.seat_of(user.id) is None:
        await msg.reply_text(texts.error_text(t, "not_a_player"))
        return
    if mv.status not in REVIEWED_STATUSES:
        await msg.reply_text(t._("The review is ready when the match is over."))
        return
    if not find_kind(mv.state.game_type).reviews:
        await msg.reply_text(portes_only_text(t))
        return
    if not is_group(msg.chat):
        thread = msg.message_thread_id if msg.is_topic_message else None
        await send_review(p, bot, mv.id, msg.chat_id, t, thread_id=thread)
    elif await may_write(p, user.id):
        await msg.reply_text(t._("📊 Your review of match #{id} is in our private chat.",
                                 id=mv.id))
        await send_review(p, bot, mv.id, user.id, p.t_user(user))
    else:
        await msg.reply_text(t._("📊 Your review of match #{id} waits in our private chat.",
                                 id=mv.id),
                             reply_markup=url_keyboard(t._("📊 Open the review"),
                                                       p.link(review_payload(mv.id))))


def no_review_text(t: Tr) -> str:
    """/review for a player whose finished matches are all of other games than Portes."""
    return t._("Reviews are for Portes matches: GNU Backgammon, which writes them, does not "
               "play the other games. You have no finished Portes match yet.")
