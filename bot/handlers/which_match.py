"""Which match a typed play or /resign is for, when a player has several (see docs/bot.md)."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import Chat, Message

from bot.handlers.common import is_group_chat
from bot.state import Portes
from storage.results import MatchSummary


def matches_here(matches: Sequence[MatchSummary], chat: Chat) -> list[MatchSummary]:
    """The matches that can be meant in ``chat``: a group's own; in the private chat with the
    bot every one of the player's matches, a group's too (one who writes to the bot has
    started it, so their boards of a group match come to this chat; as for a typed play)."""
    if is_group_chat(chat):
        return [m for m in matches if m.place.chat_id == chat.id]
    return list(matches)


async def replied_board(p: Portes, msg: Message,
                        matches: Sequence[MatchSummary]) -> MatchSummary | None:
    """The match whose live board ``msg`` replies to, if it replies to one of ``matches``
    (one query, whatever their number)."""
    target = msg.reply_to_message
    if target is None or not target.photo or not matches:
        return None
    owner = await p.uc.board_owner(target.chat_id, target.message_id, [s.id for s in matches])
    return next((s for s in matches if s.id == owner), None)


async def meant(p: Portes, user_id: int, msg: Message,
                candidates: Sequence[MatchSummary]) -> MatchSummary | None:
    """The one of ``candidates`` the player means: the only one; the one whose board the
    message replies to; else as :func:`meant_besides_reply`."""
    if len(candidates) == 1:
        return candidates[0]
    replied = await replied_board(p, msg, candidates)
    if replied is not None:
        return replied
    return meant_besides_reply(p, user_id, candidates)


def meant_besides_reply(p: Portes, user_id: int,
                        candidates: Sequence[MatchSummary]) -> MatchSummary | None:
    """The one of ``candidates`` the player means when their message replies to none of
    their boards: the only one; the one whose board they last interacted with (unless a
    board of another match has come to them since). ``None`` when it is not clear: ask.

    The last interaction is remembered in memory; in webhook mode several instances may share
    the updates, and one instance's memory may miss a later tap handled by another, so it is
    not used there (the bot asks)."""
    if len(candidates) == 1:
        return candidates[0]
    if p.settings.webhook:
        return None
    focus = p.focused(user_id)
    return next((s for s in candidates if s.id == focus), None)

