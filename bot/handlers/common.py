"""What the handlers of every feature share: the publisher, the refusal alert, the end of an
action that changed the turn."""

from __future__ import annotations

import re

from telegram import CallbackQuery, Chat, Message
from telegram.constants import ChatType, ParseMode
from telegram.ext import ContextTypes

from bot.delivery.publish import Publisher
from bot.state import Portes, portes
from bot.views import texts
from bot.views.callbacks import ON_BOARD, decode
from bot.views.i18n import Tr
from bot.views.keyboards import url_keyboard
from storage.results import ActionResult, MatchView

HTML = ParseMode.HTML
Ctx = ContextTypes.DEFAULT_TYPE


def publisher(context: Ctx) -> Publisher:
    """The publisher for this update's bot."""
    return Publisher(portes(context), context.bot)


def is_group_chat(chat: Chat | None) -> bool:
    """A group or a supergroup (where matches are played on one shared board)."""
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


def refusal(t: Tr, res: ActionResult) -> str:
    """The alert for an action the use case refused."""
    if res.outcome == "stale":
        return texts.error_text(t, "stale")
    return texts.error_text(t, res.code or "error")


async def finish(context: Ctx, mv: MatchView, res: ActionResult) -> None:
    """After an action that changed the turn: new boards, notices, the end of the match."""
    await publisher(context).show(mv, res.events, res.chat_keys)


def board_buttons_of(message: object) -> int | None:
    """The match whose board buttons (:data:`ON_BOARD`) a message Telegram shows us carries:
    only a board of that match carries them. ``None``: none (an inline message, one too old
    to be shown, a board whose keyboard is gone)."""
    if isinstance(message, Message) and message.reply_markup is not None:
        for row in message.reply_markup.inline_keyboard:
            for button in row:
                cb = decode(button.callback_data if isinstance(button.callback_data, str)
                            else None)
                if cb is not None and cb.action in ON_BOARD:
                    return cb.match_id
    return None


async def from_its_board(p: Portes, q: CallbackQuery, mv: MatchView) -> bool:
    """Whether a tap on a board button came from a board of this match: a button of match A
    sent from any other message (say the board of match B, with forged data) is refused, or the
    edit that follows would rewrite that message. A message Telegram shows us carries its
    keyboard, and only a board of A carries A's board buttons (:data:`ON_BOARD`): that answers
    at once, with no race against a board just posted and not yet recorded. A message without
    them (an inline message, one too old to be shown, a board whose keyboard is gone) is looked
    up among the match's boards: the view's, else the database's, live or superseded."""
    shows = board_buttons_of(q.message)
    if shows is not None:
        return shows == mv.id
    inline_id = q.inline_message_id
    where = (q.message.chat.id, q.message.message_id) if q.message is not None else None
    for board in mv.board_messages:
        if inline_id is not None and board.inline_message_id == inline_id:
            return True
        if inline_id is None and where == (board.chat_id, board.message_id):
            return True
    if inline_id is not None:
        return await p.uc.is_board_of(mv.id, inline_message_id=inline_id)
    if where is None:
        return False
    return await p.uc.is_board_of(mv.id, chat_id=where[0], message_id=where[1])


async def point_to_private(p: Portes, msg: Message, t: Tr, text: str, link: str) -> None:
    """A command that is one's own business, sent in a group: answered there with ``text``
    and a button that opens the private chat (``link``: a deep link or the bot's chat)."""
    await msg.reply_text(text, reply_markup=url_keyboard("▶ " + t._("Open the private chat"),
                                                         link), do_quote=True)


def message_parts(text: str, limit: int = 4096) -> list[str]:
    """``text`` (HTML) in as few messages as Telegram takes (``limit`` characters once the tags
    are read), cut between paragraphs: /help grows with the games and translations."""
    parts: list[str] = []
    for paragraph in text.split("\n\n"):
        joined = parts[-1] + "\n\n" + paragraph if parts else paragraph
        if parts and len(re.sub(r"<[^>]+>", "", joined)) <= limit:
            parts[-1] = joined
        else:
            parts.append(paragraph)
    return parts
