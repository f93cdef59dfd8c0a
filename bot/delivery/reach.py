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

from bot.delivery.publish import HTML, Publisher
from bot.delivery.telegram import quietly
from bot.state import Portes, is_group_match, mention
from bot.views.i18n import tr
from bot.views.keyboards import url_keyboard
from storage.results import MatchView, PlayerView

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
    start it; a match with a player who can be told neither way is cancelled."""
    t = tr(await p.lang_for_chat(chat_id, None))
    old_boards = await p.uc.live_boards_in(chat_id)
    moved = await p.uc.move_to_private(chat_id)
    pub = Publisher(p, bot)
    for board in old_boards:  # their buttons are stale: gone, where the group still lets us
        if any(board.match_id == mv.id for mv in moved):
            await quietly(pub.retire(board))
    for mv in moved:
        p.remember(mv)
        unreached = [s.player for s in mv.seats
                     if s.player is not None and not s.player.can_message]
        link = p.link(f"m{mv.id}")
        if unreached and await quietly(bot.send_message(
                chat_id, t._("⚠️ Match #{id} cannot be played in this group any more: the bot "
                             "cannot post its board here. It goes on in private chats. "
                             "{players}: start the bot with the button below to get your "
                             "board.", id=mv.id,
                             players=", ".join(mention(x) for x in unreached)),
                parse_mode=HTML, reply_markup=url_keyboard("▶ " + t._("Start the bot"),
                                                           link))) is None:
            await cancel_unreached(p, bot, mv, unreached)
            continue
        await moved_to_private(p, bot, mv)


async def moved_to_private(p: Portes, bot: Bot, mv: MatchView) -> None:
    """Each player of a match moved out of its group who started the bot is told, and gets
    their board in private."""
    for seat in mv.seats:
        player = seat.player
        if player is None or not player.can_message:
            continue
        t = p.t_user(player)
        await quietly(bot.send_message(player.id, t._(
            "The bot was removed from the group of match #{id}. The match goes on here, "
            "in private: your board follows (/games brings it back, /resign ends the "
            "match).", id=mv.id)))
    pub = Publisher(p, bot)
    for i, seat in enumerate(mv.seats):
        if seat.player is not None and seat.player.can_message:
            await pub.bring_back(mv, i, shared=False)


async def cancel_unreached(p: Portes, bot: Bot, mv: MatchView,
                           unreached: list[PlayerView]) -> None:
    """No board can reach ``unreached`` (their group removed the bot, they never started it,
    and the group could not be told): the match is cancelled, counting for nobody; its
    private boards are retired and the other players are told why."""
    ended = await p.uc.cancel_unreachable(mv.id)
    if ended is None:
        return
    p.remember(ended)
    pub = Publisher(p, bot)
    for board in ended.board_messages:
        await quietly(pub.retire(board))
    who = ", ".join(x.display_name for x in unreached)
    for seat in ended.seats:
        player = seat.player
        if player is None or not player.can_message:
            continue
        t = p.t_user(player)
        await quietly(bot.send_message(player.id, t._(
            "Match #{id} is cancelled: the bot cannot post in its group any more, and "
            "{players} never started the bot, so no board can reach them. It counts for "
            "nobody.", id=ended.id, players=who)))


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
                keys = await p.uc.redeliver(mv.id, seat=None, shared=True)
                if p.delivery is not None:
                    p.delivery.kick(*keys)
            continue
        async with p.locks.hold(mv.id):
            res = await p.uc.forfeit_blocked(mv.id, player_id)
            if res.ok and res.match is not None:
                log.info("match %s: player %s blocked the bot and loses it", mv.id, player_id)
                await Publisher(p, bot).show(res.match, res.events)
