"""The notices of "find me an opponent", the ladders and vacations (their rows:
:mod:`storage.matchmaking.cases`, :mod:`storage.ladder`, :mod:`storage.vacation`), rendered
when sent, in the reader's language then: who was paired with whom (with Start for the one who
starts it), an opponent's vacation, a group's ladder card with the day's pairings."""

from __future__ import annotations

from datetime import datetime

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.state import Portes
from bot.views.callbacks import Action, encode
from bot.views.i18n import Tr
from bot.views.ladder import plays_line, setup_keyboard, setup_text
from bot.views.play import (
    block_button,
    ladder_keyboard,
    ladder_state,
    ladder_text,
    paired_text,
    vacation_notice,
)
from rules.game import DEFAULT_KIND
from storage.matchmaking.cases import PAIRED_NOTICE
from storage.play_notices import LADDER, VACATION
from storage.results import MatchView
from storage.usecases import DeliveryWork

PLAY_KINDS = frozenset({PAIRED_NOTICE, LADDER, VACATION})
Look = tuple[str, Markup | None]


async def play_notice(p: Portes, work: DeliveryWork, mv: MatchView, t: Tr) -> Look | None:
    """The text and buttons of one of :data:`PLAY_KINDS`."""
    notice = work.notice or {}
    kind = notice.get("kind")
    if kind == PAIRED_NOTICE:
        return await _paired(p, work, mv, t)
    if kind == VACATION:
        by = await p.uc.get_player(int(notice["by"]))
        until = datetime.fromisoformat(str(notice["until"]))
        return vacation_notice(t, by.display_name if by else "?", mv.id, until), None
    if kind == LADDER and work.chat_id is not None:
        return await ladder_card(p, t, work.chat_id)
    return None


async def _paired(p: Portes, work: DeliveryWork, mv: MatchView, t: Tr) -> Look | None:
    notice = work.notice or {}
    challenge = await p.uc.get_challenge(int(notice["challenge"]))
    if challenge is None or challenge.target is None or work.for_seat is None:
        return None
    seat = work.for_seat
    other = challenge.target if seat == 0 else challenge.author
    ratings = notice.get("ratings") or [0, 0]
    start = notice.get("role") == "start"
    text = paired_text(t, challenge.game_type, challenge.length, other.display_name,
                       float(ratings[1 - seat]), start=start)
    rows = []
    if start and challenge.status == "open":
        start_data = encode(Action.ACCEPT, challenge.id, 0)
        rows.append([Btn("▶ " + t._("Start"), callback_data=start_data)])
    rows.append([block_button(t, other.id)])
    return text, Markup(rows)


async def ladder_card(p: Portes, t: Tr, chat_id: int) -> Look:
    """The group's ladder card as it is now: what it plays, its last day's pairings and
    their Start buttons, the rungs; the setup card when the group has no ladder yet."""
    settings = await p.uc.ladder_settings(chat_id)
    if settings is None:
        return setup_text(t, DEFAULT_KIND, 3), setup_keyboard(t)
    day = settings.last_day
    entries = await p.uc.ladder(chat_id)
    names = {e.player_id: e.name for e in entries}
    pairs = [] if day is None else await p.uc.ladder_pairs(chat_id, day)

    async def name(pid: int) -> str:
        if pid in names:
            return names[pid]
        player = await p.uc.get_player(pid)
        return player.display_name if player else "?"

    shown = [(await name(a), await name(b), ladder_state(t, s)) for _, a, b, s in pairs]
    starts = [(cid, t._("{first} vs {second}: Start", first=an, second=bn))
              for (cid, _, _, s), (an, bn, _) in zip(pairs, shown, strict=True)
              if s == "challenge"]
    plays = plays_line(t, settings.game_type, settings.length)
    return (ladder_text(t, entries, day=day, pairs=shown, plays=plays),
            ladder_keyboard(t, starts))
