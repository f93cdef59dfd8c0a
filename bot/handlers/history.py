"""/history: a player's recent finished matches, each with Replay and Download (.mat).

The replay is one board message stepped in place (``edit_message_media``) with ⏮ ◀ ▶ ⏭; the
step index travels in the callback data, and every step is rebuilt from the stored move log
(:func:`storage.replay.replay`), so nothing about a replay is kept between taps. Position
answers with the GNU Backgammon Position ID and Match ID of the step shown.
"""

from __future__ import annotations

import asyncio
import html
import io
import logging

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup
from telegram import InputFile, InputMediaPhoto, Message, Update
from telegram.constants import ChatType

from bot.delivery.telegram import quietly
from bot.handlers.common import HTML, Ctx
from bot.state import command_sender, tapped
from bot.views.board_image import SHARED_SIDE, Look, draw_board_async
from bot.views.callbacks import Action, Callback, encode
from bot.views.competitions import history_lines
from bot.views.games import portes_only_text
from bot.views.i18n import Tr
from bot.views.mat import mat_caption, mat_comment
from bot.views.texts import move_words, opponent_name
from rules.common.fairdice import FairDice
from rules.game import find_kind
from rules.match import Match
from storage.matfile import match_text
from storage.ratings import deleted_player
from storage.replay import replay
from storage.results import LoggedTurn, MatchRecord, MatchView
from storage.usecases.reading import REVIEWABLE

log = logging.getLogger("bot")

Step = tuple[LoggedTurn, Match]


def seat_names(t: Tr, mv: MatchView) -> tuple[str, str]:
    """The two players' names as plain text (the computer's in the reader's language)."""
    out = [t._("Computer") if s.is_computer else (s.player.display_name if s.player else "?")
           for s in mv.seats]
    out = [t._("a deleted player") if s.player is not None and deleted_player(s.player.id)
           else name for s, name in zip(mv.seats, out, strict=True)]
    return out[0], out[1]


def history_keyboard(t: Tr, record_ids: list[int], owner: int,
                     portes: set[int] | None = None) -> Markup:
    """``owner``'s /history: Replay for each match; Download (.mat) for those of ``portes``
    (None: all), the matches with games GNU Backgammon reads (a tavli match's Portes games)."""
    return Markup([[Btn(t._("▶ Replay #{id}", id=i),
                        callback_data=encode(Action.REPLAY, i, 0, 0, owner=owner)),
                    *([Btn(t._("📄 Download #{id}", id=i),
                           callback_data=encode(Action.DOWNLOAD, i, 0))]
                      if portes is None or i in portes else [])] for i in record_ids])


async def cmd_history(update: Update, context: Ctx) -> None:
    """``/history``: the caller's ten most recent finished matches, each with its buttons."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    matches = await p.uc.finished_matches(user.id, 10)
    competitions = history_lines(t, await p.uc.competitions_of(user.id))
    if competitions:  # each one's card again: /tournament <id>
        head = html.escape(t._("Your competitions (/tournament <id> shows one again):"))
        await msg.reply_text("\n".join([head, *competitions]), parse_mode=HTML)
    if not matches:
        await msg.reply_text(t._("You have no finished match yet."))
        return
    lines = [t._("Your recent matches:")]
    for s in matches:
        me, them = s.score[s.my_seat], s.score[1 - s.my_seat]
        lines.append(f"#{s.id} · {opponent_name(t, s)} · {me}–{them}/{s.length}")
    await msg.reply_text("\n".join(lines),
                         reply_markup=history_keyboard(t, [s.id for s in matches], user.id, {
                             s.id for s in matches if find_kind(s.game_type).has_gnubg_games}))


async def _own_record(update: Update, context: Ctx, cb: Callback) -> MatchRecord | None:
    """The tapped match's record when the tapper played it and it is over; else an alert."""
    p, q, t = await tapped(update, context)
    record = await p.uc.match_record(cb.match_id)
    if record is None or record.match.seat_of(q.from_user.id) is None:
        await q.answer(t._("This is not your match."), show_alert=True)
        return None
    if record.match.status not in REVIEWABLE:
        await q.answer(t._("The match is not over yet."), show_alert=True)
        return None
    return record


async def on_download(update: Update, context: Ctx, cb: Callback) -> None:
    """Download: the match as a .mat document, sent where the button was (a tavli match: its
    Portes games, the file and the caption saying which games are left out)."""
    record = await _own_record(update, context, cb)
    if record is None:
        return
    _, q, t = await tapped(update, context)
    if not find_kind(record.match.state.game_type).has_gnubg_games:
        await q.answer(portes_only_text(t), show_alert=True)
        return
    await q.answer()
    names = seat_names(t, record.match)
    text = match_text(record, names, mat_comment(t, record, names))
    chat_id, thread = _where(update)
    await quietly(context.bot.send_document(
        chat_id, InputFile(io.BytesIO(text.encode()), filename=f"match-{record.match.id}.mat"),
        caption=mat_caption(t, record), message_thread_id=thread))


def _where(update: Update) -> tuple[int, int | None]:
    """The chat (and forum topic) of the tapped message: where the answer goes."""
    q = update.callback_query
    assert q is not None
    msg = q.message if isinstance(q.message, Message) else None
    if msg is None:
        return q.from_user.id, None
    return msg.chat_id, msg.message_thread_id if msg.is_topic_message else None


def _step(cb: Callback) -> int | None:
    """The step index in the data (``None`` when there is none: forged data)."""
    try:
        return cb.int_arg()
    except ValueError:
        return None


def replay_steps(record: MatchRecord) -> list[Step]:
    """Every step of the replay: the match right after each play (passes aside)."""
    mv = record.match
    if mv.seed_hex is None or mv.mix is None:
        return []
    steps: list[Step] = []
    replay(record, FairDice(mv.seed_hex, mv.mix), steps)
    return steps


async def replay_steps_off_loop(record: MatchRecord) -> list[Step]:
    """:func:`replay_steps` in a thread: a long match takes a while to replay."""
    return await asyncio.to_thread(replay_steps, record)


def step_caption(t: Tr, record: MatchRecord, steps: list[Step], index: int) -> str:
    turn, _ = steps[index]
    name = seat_names(t, record.match)[turn.player]
    return t._("#{id} · Game {game} · {player} played {dice}: {play} ({step}/{steps})",
               id=record.match.id, game=turn.game, player=name, dice=str(turn.dice),
               play=move_words(t, turn.text), step=index + 1, steps=len(steps))


def game_jump(steps: list[Step], index: int, forward: bool) -> int:
    """The first step of the next game (⏭), or of this game / the one before (⏮)."""
    game = steps[index][0].game
    if forward:
        later = [i for i, (turn, _) in enumerate(steps) if turn.game > game]
        return later[0] if later else len(steps) - 1
    first = next(i for i, (turn, _) in enumerate(steps) if turn.game == game)
    if first < index:
        return first
    earlier = [i for i, (turn, _) in enumerate(steps) if turn.game == game - 1]
    return earlier[0] if earlier else 0


def replay_keyboard(t: Tr, match_id: int, steps: list[Step], index: int, owner: int) -> Markup:
    """The buttons of ``owner``'s replay at step ``index``."""
    last = len(steps) - 1
    targets = (("⏮", game_jump(steps, index, False)), ("◀", max(0, index - 1)),
               ("▶", min(last, index + 1)), ("⏭", game_jump(steps, index, True)))
    return Markup([
        [Btn(label, callback_data=encode(Action.REPLAY, match_id, 0, to, owner=owner))
         for label, to in targets],
        [Btn(t._("📍 Position"), callback_data=encode(Action.POSITION, match_id, 0, index))],
    ])


async def on_replay(update: Update, context: Ctx, cb: Callback, *, anew: bool = False) -> None:
    """Replay: from the list, a new board message at the first step; on the board, that board
    edited in place to the step in the data. ``anew`` (someone tapping another's replay, see
    :mod:`bot.handlers.guard`): a new board of their own at that step, the other stays."""
    record = await _own_record(update, context, cb)
    if record is None:
        return
    p, q, t = await tapped(update, context)
    steps = await replay_steps_off_loop(record)
    index = _step(cb)
    if not steps or index is None:
        await q.answer(t._("This match has no play to replay."), show_alert=True)
        return
    index = min(index, len(steps) - 1)
    await q.answer()
    turn, shown = steps[index]
    private = q.message is not None and q.message.chat.type == ChatType.PRIVATE
    if private:  # from the side of the player who made the play shown
        photo = await draw_board_async(shown, turn.player,
                                       Look.of(await p.uc.get_player(q.from_user.id)))
    else:  # a group's replay: from one side all along, like its board, names beside colours
        photo = await draw_board_async(shown, SHARED_SIDE, Look.shared(t.lang),
                                       seat_names(t, record.match))
    caption = step_caption(t, record, steps, index)
    markup = replay_keyboard(t, record.match.id, steps, index, q.from_user.id)
    msg = q.message if isinstance(q.message, Message) else None
    if msg is not None and msg.photo and not anew:
        await quietly(msg.edit_media(InputMediaPhoto(photo, caption=caption),
                                     reply_markup=markup))
        return
    chat_id, thread = _where(update)
    await quietly(context.bot.send_photo(chat_id, photo, caption=caption, reply_markup=markup,
                                         message_thread_id=thread))


async def on_position(update: Update, context: Ctx, cb: Callback) -> None:
    """Position: the GNU Backgammon Position ID and Match ID of the step shown."""
    record = await _own_record(update, context, cb)
    if record is None:
        return
    _, q, t = await tapped(update, context)
    steps = await replay_steps_off_loop(record)
    index = _step(cb)
    if index is None or not 0 <= index < len(steps):
        await q.answer(t._("This match has no play to replay."), show_alert=True)
        return
    if not steps[index][0].gnubg_id:
        await q.answer(portes_only_text(t), show_alert=True)
        return
    position_id, match_id = steps[index][0].gnubg_id.split(":", 1)
    await q.answer(t._("GNU Backgammon\nPosition ID: {position}\nMatch ID: {match}",
                       position=position_id, match=match_id), show_alert=True)
