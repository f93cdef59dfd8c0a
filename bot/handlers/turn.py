"""The turn: taps on the turn's keyboard (a checker, a destination, a whole play, Undo,
Confirm), a play typed in notation in the private chat (one sent to the bot in a group is told
to go there), and the answer to "which match?".

Order of work for a tap: decide and commit through the use case (which also records what each
chat should show), kick the delivery worker, and answer the callback query in the background
(an alert when refused; a failed answer is logged and forgotten, never "Something went wrong").
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import CallbackQuery, Message, Update

from bot.delivery.publish import Publisher
from bot.delivery.telegram import quietly
from bot.handlers.common import (
    HTML,
    Ctx,
    board_buttons_of,
    finish,
    point_to_private,
    refusal,
)
from bot.handlers.resigning import resign_card
from bot.handlers.which_match import meant_besides_reply, replied_board
from bot.state import Portes, answer_soon, portes, tapped
from bot.views import texts
from bot.views.callbacks import Action, Callback
from bot.views.echo import echoed
from bot.views.i18n import Tr
from bot.views.keyboards import pick_keyboard
from bot.views.turn_choices import example_play
from rules.portes.notation import looks_like_play
from storage.results import ActionResult, MatchView
from storage.usecases.turns import (
    BackToList,
    Checker,
    Confirm,
    Intent,
    MoveTo,
    OfferedPlay,
    TappedBoard,
    Undo,
)

log = logging.getLogger("bot.views.turn_choices")

ALREADY_PLAYED = "already_played"
"""The code of a typed play refused as a copy of one already played (Telegram delivered its
update again): nothing is said, the player sent it once."""


AppliedTap = tuple[int, Action, str | None, int, int]
"""A tap that changed a match: who tapped, its action, argument, the version it was tapped on,
and the version it produced."""


def applied_taps(context: Ctx) -> dict[int, AppliedTap]:
    """The last tap applied to each match by this instance."""
    taps: dict[int, AppliedTap] = context.application.bot_data.setdefault("applied_taps", {})
    return taps


def is_repeat(last: AppliedTap | None, mv: MatchView | None, cb: Callback, user_id: int
              ) -> bool:
    """Whether a stale tap repeats the tap just applied (an honest double tap): by the same
    player, the same action and argument, on the version that tap was made on, with the match
    still showing what it produced. Such a tap is answered quietly; any other stale tap gets
    the alert (the opponent tapping the same button a moment later is not a double tap)."""
    return (last is not None and mv is not None
            and last == (user_id, cb.action, cb.arg, cb.version, mv.version))


async def on_turn_tap(update: Update, context: Ctx, cb: Callback) -> None:
    """A tap on the turn's keyboard (a checker, a destination, a whole play, Back, Undo,
    Confirm): its intent goes to the use case, which checks, decides and commits it once
    (:meth:`~storage.usecases.UseCases.tap`); then the chats it wrote to are kicked."""
    p, q, t = await tapped(update, context, see=True)
    try:
        intent = intent_of(cb, p.settings.plays_direct)
    except ValueError:
        intent = None
    if intent is None:
        answer_soon(p, q, texts.error_text(t, "stale"), show_alert=True)
        return
    async with p.locks.hold(cb.match_id):
        res = await p.uc.tap(cb.match_id, q.from_user.id, cb.version, intent, tapped_board(q))
        p.remember(res.match)
        if res.code == "stale" and is_repeat(applied_taps(context).get(cb.match_id), res.match,
                                             cb, q.from_user.id):
            # a double tap: its first was applied; quiet, unless it ended the turn and the new
            # board is still to come
            answer_soon(p, q, None if res.match is None else await on_its_way_text(
                p, q, t, cb, res.match, played_only=True))
            return
        if res.code == "stale" and res.match is not None and (
                coming := await on_its_way_text(p, q, t, cb, res.match)) is not None:
            answer_soon(p, q, coming)
            return
        if not res.ok or res.match is None:
            if res.code == "stale" and res.match is None:
                p.views.pop(cb.match_id, None)  # older than the database's
            answer_soon(p, q, refusal(t, res), show_alert=True)
            return
        if res.keyboard is not None:
            kick(p, res.chat_keys)
            message_id = q.message.message_id if q.message is not None else 0
            text, alert = Publisher.where_chosen(t, cb.match_id, res.keyboard, message_id)
            answer_soon(p, q, text, show_alert=alert)
            return
        applied_taps(context)[cb.match_id] = (q.from_user.id, cb.action, cb.arg, cb.version,
                                              res.match.version)
        await finish(context, res.match, res)
        answer_soon(p, q, played_text(t) if isinstance(intent, Confirm | OfferedPlay) else None)


def played_text(t: Tr) -> str:
    """The toast a turn's last tap (Confirm, a whole play) gets: its board changes a moment
    later, when the delivery worker gets there."""
    return t._("✅ Played.")


async def on_its_way_text(p: Portes, q: CallbackQuery, t: Tr, cb: Callback,
                          mv: MatchView, *, played_only: bool = False) -> str | None:
    """The answer to a stale tap on a board whose update is still to come (the turn was just
    played on it, or a move made, and the new board is not there yet): a toast that says so,
    not the "earlier turn" alert, since no newer board exists yet. Read from the database
    (whichever instance played), it costs the chat no call: the keyboard stays as it is
    until the new board comes. ``None``: the board was brought up to date since, or the tap
    is not the mover's (``played_only``: unless the turn was played)."""
    msg = q.message
    if msg is None or q.inline_message_id is not None:
        return None
    way = await p.uc.delivery.on_its_way(mv.id, version=cb.version, chat_id=msg.chat.id,
                                         message_id=msg.message_id)
    seat = mv.seat_of(q.from_user.id)
    # only the player whose turn the board showed is told: anyone else's tap is refused as
    # before (the opponent, a spectator: not theirs)
    if way is None or seat != (way.played if way.played is not None else mv.to_act):
        return None
    if way.played is not None:
        return t._("✅ Played: the new board is on its way.")
    if played_only:
        return None
    return t._("⏳ This board is being updated: the new one is on its way.")


def intent_of(cb: Callback, plays_direct: int) -> Intent | None:
    """What a tap on the turn's keyboard asks for (``None``: not a turn's button). Raises
    ``ValueError`` for an argument that cannot be read."""
    if cb.action == Action.FROM:
        return Checker(cb.int_arg())
    if cb.action == Action.MOVE:
        src, dest, route = cb.move()
        return MoveTo(src, dest, route)
    if cb.action == Action.PLAY:
        return OfferedPlay(cb.int_arg(), plays_direct)
    if cb.action == Action.BACK:
        return BackToList()
    if cb.action == Action.UNDO:
        return Undo()
    if cb.action == Action.CONFIRM:
        if cb.arg is None:
            return Confirm()
        src, dest, route = cb.move()  # a move that completes the play, then Confirm
        return Confirm(MoveTo(src, dest, route))
    return None


def tapped_board(q: CallbackQuery) -> TappedBoard:
    """The message tapped, and the match its board buttons belong to (see
    :func:`bot.handlers.common.board_buttons_of`)."""
    if q.inline_message_id is not None:
        return TappedBoard(inline_message_id=q.inline_message_id)
    if q.message is None:
        return TappedBoard()
    return TappedBoard(q.message.chat.id, q.message.message_id,
                       shows=board_buttons_of(q.message))


def kick(p: Portes, chat_keys: Sequence[str] | None) -> None:
    if p.delivery is not None and chat_keys:
        p.delivery.kick(*chat_keys)


async def on_pick(update: Update, context: Ctx, cb: Callback) -> None:
    """The answer to "which match?": resign that one, or play the typed play there (the
    question replies to the player's message, so the play is read back from it)."""
    p, q, t = await tapped(update, context)
    user = q.from_user
    msg = q.message if isinstance(q.message, Message) else None
    asked = msg.reply_to_message if msg is not None else None
    if msg is None or (asked is not None and asked.from_user is not None
                       and asked.from_user.id != user.id):
        await q.answer(t._("This question is for someone else."), show_alert=True)
        return
    mv, code = await p.view(cb.match_id, cb.version)
    if mv is None or mv.seat_of(user.id) is None:
        await q.answer(texts.error_text(t, code or "not_a_player"), show_alert=True)
        return
    if cb.action == Action.PICK_RESIGN:
        await q.answer()
        text, markup = resign_card(await p.t_in(msg.chat, user), mv, user.id)
        await quietly(msg.edit_text(text, parse_mode=HTML, reply_markup=markup))
        return
    play = asked.text.strip() if asked is not None and asked.text else ""
    if not looks_like_play(play):
        await q.answer(t._("Type your play again."), show_alert=True)
        return
    # the id of the typed message: the play is played once, whichever way it comes
    typed = asked.message_id if asked is not None else None
    async with p.locks.hold(mv.id):
        res = await p.uc.play(mv.id, user.id, cb.version, play, typed=typed)
        p.remember(res.match)
        if res.code == ALREADY_PLAYED:
            answer_soon(p, q)
            return
        if not res.ok or res.match is None:
            answer_soon(p, q, refusal(t, res), show_alert=True)
            return
        await finish(context, res.match, res)
        answer_soon(p, q)
        await quietly(msg.edit_text(t._("Match #{id}: {play}", id=mv.id, play=echoed(play))))


PLAY_ERRORS = frozenset({"invalid_notation", "play_too_long", "ambiguous_play", "illegal_play",
                         "unreadable_play"})
"""The refusals of a typed play that are about what was typed (not the turn or the match)."""


def typed_refusal(t: Tr, res: ActionResult) -> str:
    """Why a typed play was refused; when it was about the play itself, the dice and one legal
    play in notation, to write the next one from."""
    text = refusal(t, res)
    mv = res.match
    if res.code not in PLAY_ERRORS or mv is None:
        return text
    example = example_play(mv.state)
    if example is None:
        return text
    return text + "\n" + t._("Your dice: {dice}. A legal play: {play}", dice=str(mv.state.dice),
                             play=example)


def played_before(user_id: int, msg: Message, last: int | None) -> bool:
    """Whether this private message is not above the player's last typed play that was played
    (``last``; message ids in a private chat only grow): a copy Telegram delivered again;
    logged."""
    if last is None or msg.message_id > last:
        return False
    log.info("user %s: message %s again (typed plays played up to %s): ignored",
             user_id, msg.message_id, last)
    return True


async def on_private_text(update: Update, context: Ctx) -> None:
    """A play typed in notation goes to the match the player means (see
    :func:`bot.handlers.which_match.meant`); when several are waiting for them and none is
    clearly meant, the bot asks which.

    A message not above the last typed play that was played (message ids in a private chat
    only grow) is a copy Telegram delivered again (the webhook answers once an update was
    handled, so an instance killed after its commit leaves it unanswered): it is ignored, and
    the play itself carries its id, so a copy racing its original is not played twice. The
    player's matches and their last typed play are read together, once
    (:meth:`~storage.usecases.UseCases.typed_play_context`)."""
    p = portes(context)
    msg = update.effective_message
    user = update.effective_user
    if msg is None or user is None or not msg.text:
        return
    t = p.t_user(user)
    if not looks_like_play(msg.text):
        if not played_before(user.id, msg, await p.uc.last_typed(user.id)):
            await msg.reply_text(t._("Type a play such as 24/18 13/11, or see /help."),
                                 do_quote=True)
        return
    play = msg.text.strip()
    # a group match too: one who writes to the bot started it, and plays on a private board
    mine, last = await p.uc.typed_play_context(user.id)
    if played_before(user.id, msg, last):
        return
    waiting = [m for m in mine if m.my_turn]
    target = await replied_board(p, msg, mine)
    if target is None:
        if not waiting:
            # (a copy whose original was played meanwhile was seen played, read after these)
            await msg.reply_text(t._("It is not your turn in any match."), do_quote=True)
            return
        target = meant_besides_reply(p, user.id, waiting)
    if target is None:
        await msg.reply_text(t._("Which match is {play} for?", play=echoed(play)), do_quote=True,
                             reply_markup=pick_keyboard(t, Action.PICK_PLAY, waiting, user.id))
        return
    p.touch(user.id, target.id)
    async with p.locks.hold(target.id):
        res = await p.uc.play(target.id, user.id, target.version, play, typed=msg.message_id)
        p.remember(res.match)
        if res.code == ALREADY_PLAYED:
            log.info("user %s: message %s already played: not again", user.id, msg.message_id)
            return
        if not res.ok or res.match is None:
            await msg.reply_text(typed_refusal(t, res), do_quote=True)
            return
        p.faults.reached("typed")  # after the commit, before Telegram got its answer
        await finish(context, res.match, res)


def addressed_text(msg: Message, bot_id: int, bot_username: str) -> str | None:
    """What a group message says to the bot (a reply to one of its messages, or a message
    mentioning it: what privacy mode lets it see besides commands), the mention left out;
    ``None`` when it is not addressed to the bot."""
    text = msg.text or ""
    replied = msg.reply_to_message
    to_bot = bool(replied and replied.from_user and replied.from_user.id == bot_id)
    mention = "@" + bot_username.lower()
    for entity, part in msg.parse_entities(["mention", "text_mention"]).items():
        if part.lower() == mention or (entity.user is not None and entity.user.id == bot_id):
            text = text.replace(part, " ")
            to_bot = True
    return text if to_bot else None


async def on_group_text(update: Update, context: Ctx) -> None:
    """A play typed in a group (replying to the bot's board, or mentioning the bot): plays
    are typed in the private chat; the answer says so, with a button there (the player's
    board, when they have a match in this group)."""
    p = portes(context)
    msg = update.effective_message
    user = update.effective_user
    if msg is None or user is None or not msg.text:
        return
    said = addressed_text(msg, context.bot.id, context.bot.username or p.username)
    if said is None or not looks_like_play(said):
        return
    t = await p.t_in(msg.chat, user)
    here = [s for s in await p.uc.list_active_matches(user.id) if s.place.chat_id == msg.chat.id]
    link = p.link(f"m{here[0].id}") if here else f"https://t.me/{p.username}"
    await point_to_private(p, msg, t, t._(
        "Plays are typed in our private chat (start me there with the button); here, play "
        "with the buttons of the board."), link)
