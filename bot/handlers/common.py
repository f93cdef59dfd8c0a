"""What the handlers of every feature share: the publisher, the refusal alert, the end of an
action that changed the turn."""

from __future__ import annotations

from telegram import Chat
from telegram.constants import ChatType, ParseMode
from telegram.ext import ContextTypes

from bot import texts
from bot.core import portes
from bot.i18n import Tr
from bot.publish import Publisher
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
    await publisher(context).show(mv, res.events)
