"""A group's league or cup: ``/tournament`` (or the group /new card's button) opens its
sign-up card; its buttons join, leave, set it up (the organiser), start or cancel it;
``/tournament <id>`` shows any competition's card again (a finished one's final standings or
bracket). Once it runs, the matches are opened here through the ordinary challenge use cases
(:func:`open_match`), by the timer tick (:func:`competition_tick`); the card is then edited
by the delivery worker from the outbox (:mod:`bot.delivery.competition_card`). A member who
leaves the group forfeits what remains (:func:`on_member_left`).

The matches' dice: each is committed to its seed when its challenge is opened, and the value
mixed into the dice (:meth:`~storage.usecases.UseCases.accept_challenge`'s ``mix``) is drawn
afterwards by the bot, since no tap of a player starts a competition's match.
"""

from __future__ import annotations

import logging
import secrets

from telegram import Bot, Message, Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.delivery.competition_card import show_card
from bot.delivery.publish import Publisher
from bot.delivery.telegram import is_group, quietly
from bot.handlers.common import Ctx
from bot.state import Portes, command_sender, portes, tapped
from bot.views import competitions as views
from bot.views.callbacks import Callback, parse_id
from bot.views.games import cafe_default
from bot.views.i18n import Tr
from storage.results import Outcome
from storage.usecases.competition_views import CompetitionResult, MatchToStart

log = logging.getLogger("bot.handlers")

MEMBERS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


async def cmd_tournament(update: Update, context: Ctx) -> None:
    """``/tournament``: a new league's sign-up card in this group (or the one it has);
    ``/tournament <id>``: that competition's card again, anywhere."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    args = context.args or []
    if args:
        comp_id = parse_id(args[0])
        comp = await p.uc.get_competition(comp_id) if comp_id is not None else None
        if comp is None:
            await msg.reply_text(views.refusal_text(t, "not_found"), do_quote=True)
            return
        await show_card(p, context.bot, comp, reply_to=msg)
        return
    if not is_group(msg.chat):
        await msg.reply_text(t._("Leagues and cups are played in groups: send /tournament in "
                                 "a group."), do_quote=True)
        return
    await open_card(p, context.bot, msg, user.id, t)


async def open_card(p: Portes, bot: Bot, msg: Message, organiser: int, t: Tr) -> None:
    """A new competition's sign-up card in ``msg``'s group, or the group's open one again."""
    made = await p.uc.create_competition(
        organiser, msg.chat.id, thread_id=msg.message_thread_id if msg.is_topic_message else None,
        move_seconds=round(p.settings.timeouts.move_timeout))
    comp = made.competition
    if comp is None:
        await msg.reply_text(views.refusal_text(t, made.code), do_quote=True)
        return
    if made.outcome != Outcome.OK:
        await msg.reply_text(views.refusal_text(t, made.code), do_quote=True)
    sent = await show_card(p, bot, comp, reply_to=msg)
    if sent is not None and made.outcome == Outcome.OK:
        await p.uc.set_competition_card(comp.id, sent.message_id)


async def on_tournament_new(update: Update, context: Ctx, cb: Callback) -> None:
    """The group /new card's button: the sign-up card instead of a match."""
    p, q, t = await tapped(update, context, see=True)
    msg = q.message if isinstance(q.message, Message) else None
    if msg is None or not is_group(msg.chat):
        await q.answer(views.refusal_text(t, "not_found"), show_alert=True)
        return
    await q.answer()
    await open_card(p, context.bot, msg, q.from_user.id, t)


async def is_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramError as exc:
        log.warning("could not read the member %s of chat %s: %s", user_id, chat_id, exc)
        return False
    return member.status in MEMBERS


async def on_tournament(update: Update, context: Ctx, cb: Callback) -> None:
    """A tap on a competition's card: join, leave, a setting, start, cancel."""
    p, q, t = await tapped(update, context, see=True)
    op = cb.arg or ""
    msg = q.message if isinstance(q.message, Message) else None
    if msg is None or not views.OP_RE.fullmatch(op):
        await q.answer(views.refusal_text(t, "stale"), show_alert=True)
        return
    user = q.from_user.id
    comp = await p.uc.get_competition(cb.match_id)
    if comp is None or comp.chat_id != msg.chat.id or comp.card_message_id not in (
            None, msg.message_id):
        await q.answer(views.refusal_text(t, "not_found"), show_alert=True)
        return
    res: CompetitionResult
    if op == "j":
        if not await is_member(context.bot, msg.chat.id, user):
            await q.answer(views.refusal_text(t, "not_member"), show_alert=True)
            return
        res = await p.uc.join_competition(comp.id, user)
    elif op == "v":
        res = await p.uc.leave_competition(comp.id, user)
    elif op == "go":
        res = await p.uc.start_competition(comp.id, user, cb.version)
    elif op == "x":
        res = await p.uc.cancel_competition(comp.id, user)
    else:
        changes = views.changes_of(op)
        if changes is None:
            await q.answer(views.refusal_text(t, "bad_setting"), show_alert=True)
            return
        res = await p.uc.configure_competition(comp.id, user, cb.version, changes)
    if res.outcome != Outcome.OK or res.competition is None:
        await q.answer(views.refusal_text(t, res.code), show_alert=True)
        return
    await q.answer()
    await show_card(p, context.bot, res.competition, edit=msg)
    if op == "go":
        await competition_tick(p, context.bot)  # its matches open now, not at the next tick


async def competition_tick(p: Portes, bot: Bot) -> None:
    """The timer tick's part: record results, keep deadlines (the storage tick); then show
    the cards of competitions cancelled by their sign-up's end, kick the chats of the cards'
    outbox rows, and open the matches still to open (the first opened writes the card's
    outbox row of one that started)."""
    tick = await p.uc.competition_tick()
    for comp_id in tick.changed:
        comp = await p.uc.get_competition(comp_id)
        # one started shows through the outbox, from the notices written when its first
        # match opens (:mod:`storage.usecases.competition_cards`); one cancelled has no match
        # (and so no outbox row): its card is edited here
        if comp is not None and comp.status == "cancelled":
            await quietly(show_card(p, bot, comp))
    if p.delivery is not None:
        for key in tick.chat_keys:
            p.delivery.kick(key)
    for m in tick.to_start:
        try:
            await open_match(p, bot, m)
        except Exception:
            log.exception("the match of pairing %s could not be opened", m.pairing_id)


async def open_match(p: Portes, bot: Bot, m: MatchToStart) -> None:
    """Open a pairing's match as an ordinary challenge from its first player to its second,
    linked to the pairing in the same transaction, and start it at once; a retry after a
    crash starts the challenge already made, or finds the pairing has its match."""
    challenge_id = m.challenge_id
    if m.match_id is None:
        made = await p.uc.create_challenge(
            m.home, length=m.length, chat_id=m.chat_id, group=True, thread_id=m.thread_id,
            target_id=m.away, move_seconds=m.move_seconds, game_type=m.game_type,
            winner_starts=cafe_default(m.game_type), competition_game=m.pairing_id)
        if made.challenge is None:
            return
        challenge_id = made.challenge.id
    if challenge_id is None:
        return
    res = await p.uc.accept_challenge(challenge_id, m.away, mix=secrets.token_urlsafe(16),
                                      chat_id=m.chat_id, group=True)
    if res.ok and res.match is not None:
        await Publisher(p, bot).show(res.match, res.events, res.chat_keys)


async def on_member_left(update: Update, context: Ctx) -> None:
    """A member left the group: withdrawn from a sign-up; in a running competition their
    matches in play are forfeited (the ordinary resignation, ``left``), the rest follow."""
    msg = update.effective_message
    if msg is None or msg.left_chat_member is None or msg.left_chat_member.is_bot:
        return
    await competition_left(portes(context), context.bot, msg.chat.id, msg.left_chat_member.id)


async def competition_left(p: Portes, bot: Bot, chat_id: int | None, player_id: int) -> None:
    """Forfeit what a player who left a group (``None``: blocked the bot) still plays in its
    competitions."""
    pub = Publisher(p, bot)
    for match_id, _ in await p.uc.member_left(chat_id, player_id):
        async with p.locks.hold(match_id):
            res = await p.uc.forfeit_left(match_id, player_id)
        if res.ok and res.match is not None:
            await pub.show(res.match, res.events, res.chat_keys)
    await competition_tick(p, bot)


