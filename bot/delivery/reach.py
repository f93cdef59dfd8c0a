"""Players the bot cannot reach: a group where a match's board cannot be posted any more (the
bot removed, or refused there), and a player who blocked the bot. Nobody is left waiting for a
board that cannot come: every player of such a match is told at once where to play, or the
match ends fairly and the other player sees the result.

- A group's board refused: its matches go on in the players' private chats. Who started the bot
  is told privately and gets the board there; who did not is asked in the group, mentioned,
  to start the bot (a button that starts it and brings their board). When the group cannot
  be written to either (the bot was removed), such a player cannot be told anything: the match
  is cancelled (it counts for nobody) and the others are told why.
- A player who blocked the bot (Telegram says so with ``my_chat_member``, or a board for them
  is refused): in a group match they play on the group's board again (posted anew, with them
  mentioned, when it is their turn); a match played in private chats cannot reach them any
  more, and they lose it, as on time (reason ``blocked``): the other player's new board says so.
"""

from __future__ import annotations

import logging

from telegram import Bot

from bot.delivery.publish import Publisher
from bot.state import Portes, is_group_match
from storage.results import MatchView

log = logging.getLogger("bot.delivery.reach")


def blocked_us(description: str) -> bool:
    """Whether a 403 says the user blocked the bot (or is gone), not that they never started
    it."""
    text = description.lower()
    return "blocked by the user" in text or "user is deactivated" in text


async def left_group(p: Portes, bot: Bot, chat_id: int) -> None:
    """The bot can no longer post a board in a group: its active matches go on in the
    players' private chats (moved once, however often this is called). Each player who
    started the bot is told and gets their board there; the others are asked in the group to
    start it; a match with a player who can be told neither way is cancelled. What they are
    told are notices the move wrote (:mod:`bot.delivery.notices`): the group's is sent first,
    and what follows it depends on whether it could be (:func:`group_told`,
    :func:`cancel_unreached`)."""
    moved = await p.uc.move_to_private(chat_id)
    p.faults.reached("committed")
    if moved:  # the old boards' buttons are stale: taken down where the group still lets us
        kick(p, str(chat_id))  # (notices the move wrote, see storage.delivery.notices.RETIRE)
    for mv in moved:
        p.remember(mv)
        if any(s.player is not None and not s.player.can_message for s in mv.seats):
            kick(p, str(chat_id))  # the group is asked to start the bot, first
            continue
        kick(p, *(str(s.player.id) for s in mv.seats if s.player is not None))
        await boards_in_private(p, bot, mv)


def kick(p: Portes, *chat_keys: str) -> None:
    if p.delivery is not None:
        p.delivery.kick(*chat_keys)


async def group_told(p: Portes, bot: Bot, mv: MatchView) -> None:
    """The group of a match moved out of it was asked to start the bot: the players who did
    are told, and get their boards in private."""
    kick(p, *await p.uc.delivery.stranded_told(mv.id))
    await boards_in_private(p, bot, mv)


async def boards_in_private(p: Portes, bot: Bot, mv: MatchView) -> None:
    """Each player of a match moved out of its group who started the bot gets their board in
    private."""
    pub = Publisher(p, bot)
    for i, seat in enumerate(mv.seats):
        if seat.player is not None and seat.player.can_message:
            await pub.bring_back(mv, i, shared=False)


async def cancel_unreached(p: Portes, bot: Bot, mv: MatchView) -> None:
    """No board can reach a player (their group removed the bot, they never started it, and
    the group could not be told): the match is cancelled, counting for nobody; its private
    boards are taken down and the other players are told why (notices the cancel wrote)."""
    ended = await p.uc.cancel_unreachable(mv.id)
    if ended is None:
        return
    p.remember(ended)
    kick(p, *(str(s.player.id) for s in ended.seats
              if s.player is not None and s.player.can_message))


async def player_blocked(p: Portes, bot: Bot, player_id: int) -> None:
    """``player_id`` blocked the bot: no private board reaches them any more. In a group
    match whose turn is theirs, the group's board is posted again with the turn's buttons
    (it mentions them); a match played in private chats is lost by them (reason
    ``blocked``), and the other player's board shows the result."""
    await p.uc.set_can_message(player_id, False)
    p.forget_views_of(player_id)
    for summary in await p.uc.list_active_matches(player_id):
        mv = (await p.uc.load_match(summary.id)).match
        seat = mv.seat_of(player_id) if mv is not None else None
        if mv is None or seat is None:
            continue
        if is_group_match(mv):
            if mv.to_act == seat:  # they play on the group's board, posted anew
                keys = await p.uc.delivery.redeliver(mv.id, seat=None, shared=True)
                if p.delivery is not None:
                    p.delivery.kick(*keys)
            continue
        async with p.locks.hold(mv.id):
            res = await p.uc.forfeit_blocked(mv.id, player_id)
            if res.ok and res.match is not None:
                log.info("match %s: player %s blocked the bot and loses it", mv.id, player_id)
                await Publisher(p, bot).show(res.match, res.events)
