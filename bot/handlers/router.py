"""The callback router: every button's data is decoded here, checked against the message it was
tapped on (:mod:`bot.handlers.guard`), and sent to its feature's handler."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from telegram import Update

from bot.handlers.challenges import on_accept, on_new_card, on_new_computer, on_withdraw
from bot.handlers.commands import on_close_unreadable, on_lang, on_notices, on_show
from bot.handlers.common import Ctx
from bot.handlers.competitions import on_tournament, on_tournament_new
from bot.handlers.computer import on_hint, on_review
from bot.handlers.guard import Passed, admit
from bot.handlers.history import on_download, on_position, on_replay
from bot.handlers.ladder import on_ladder, on_vacation
from bot.handlers.play import on_block, on_find
from bot.handlers.player_settings import on_settings
from bot.handlers.resigning import on_rematch, on_resign
from bot.handlers.social import on_forget, on_stats_game, on_top_game
from bot.handlers.turn import on_pick, on_turn_tap
from bot.state import portes
from bot.views import texts
from bot.views.callbacks import BOARD_ACTIONS, Action, Callback, decode

ButtonHandler = Callable[[Update, Ctx, Callback], Awaitable[None]]


class ViewHandler(Protocol):
    """A handler that can also answer in a new message (``anew``) instead of editing the card."""

    def __call__(self, update: Update, context: Ctx, cb: Callback, *,
                 anew: bool = ...) -> Awaitable[None]: ...


ROUTES: dict[Action, ButtonHandler] = {
    Action.FROM: on_turn_tap, Action.MOVE: on_turn_tap, Action.BACK: on_turn_tap,
    Action.PLAY: on_turn_tap, Action.UNDO: on_turn_tap, Action.CONFIRM: on_turn_tap,
    Action.RESIGN: on_resign, Action.RESIGN_ACCEPT: on_resign,
    Action.RESIGN_DECLINE: on_resign, Action.CANCEL: on_resign,
    Action.ACCEPT: on_accept, Action.WITHDRAW: on_withdraw, Action.REMATCH: on_rematch,
    Action.NEW: on_new_card, Action.NEW_CANCEL: on_new_card, Action.SHOW: on_show,
    Action.LANG: on_lang, Action.NOTICES: on_notices,
    Action.CLOSE_UNREADABLE: on_close_unreadable,
    Action.NEW_COMPUTER: on_new_computer, Action.HINT: on_hint, Action.REVIEW: on_review,
    Action.PICK_PLAY: on_pick, Action.PICK_RESIGN: on_pick,
    Action.DOWNLOAD: on_download, Action.REPLAY: on_replay, Action.POSITION: on_position,
    Action.FORGET: on_forget,
    Action.SETTINGS: on_settings,
    Action.TOP_GAME: on_top_game, Action.STATS_GAME: on_stats_game,
    Action.TOURNAMENT: on_tournament, Action.TOURNAMENT_NEW: on_tournament_new,
    Action.FIND: on_find, Action.BLOCK: on_block, Action.LADDER: on_ladder,
    Action.VACATION: on_vacation,
}

VIEWS: dict[Action, ViewHandler] = {
    Action.TOP_GAME: on_top_game, Action.STATS_GAME: on_stats_game, Action.REPLAY: on_replay,
}
"""The personal cards' buttons that show something: tapped on someone else's card in a group,
the tapper gets it in a new message of their own (see :mod:`bot.handlers.guard`)."""


async def on_callback(update: Update, context: Ctx) -> None:
    """Every button tap: decode its data, check it against the message it was tapped on
    (refusing forged, foreign or old data, and taps on someone else's card), and route it."""
    q = update.callback_query
    if q is None:
        return
    p = portes(context)
    cb = decode(q.data)
    if cb is None:
        await q.answer(texts.error_text(p.t_user(q.from_user), "stale"), show_alert=True)
        return
    passed = await admit(p, q, cb, p.t_user(q.from_user), views=VIEWS.keys())
    if passed is None:
        return
    if cb.action in BOARD_ACTIONS:
        p.touch(q.from_user.id, cb.match_id)
    if passed is Passed.ANEW:
        await VIEWS[cb.action](update, context, cb, anew=True)
        return
    await ROUTES[cb.action](update, context, cb)
