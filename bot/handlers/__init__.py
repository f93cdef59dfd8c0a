"""Telegram handlers, one module per feature: decode the update, read what they need (the player,
the match), call the feature's use cases (a step of a match is one use case, one transaction),
then show the result: a match's boards through the delivery worker, cards and answers directly
(see docs/architecture.md for the map).

- :mod:`~bot.handlers.commands`: /start, /help, /rules, /lang, /notices, /new, /games
- :mod:`~bot.handlers.challenges`: the /new card's choices, Accept, Withdraw, inline mode
- :mod:`~bot.handlers.turn`: taps on the turn's keyboard, typed plays, "which match?"
- :mod:`~bot.handlers.resigning`: /resign, the resignation buttons, Rematch
- :mod:`~bot.handlers.computer`: Hint, Review, /review
- :mod:`~bot.handlers.history`: /history, Download (.mat), Replay, Position
- :mod:`~bot.handlers.social`: /top (and hiding from it), /stats (and head to head), /forgetme
- :mod:`~bot.handlers.player_settings`: /settings and its buttons
- :mod:`~bot.handlers.competitions`: /tournament, a league's or cup's card, a member who left
- :mod:`~bot.handlers.play`: /play (find me an opponent), blocking a player, the pairing job
- :mod:`~bot.handlers.ladder`: /ladder and the daily ladder job, /vacation
- :mod:`~bot.handlers.chats`: a group migrating to a supergroup, the bot removed from a chat
- :mod:`~bot.handlers.errors`: the error handler
- :mod:`~bot.handlers.guard`: whether a tap may act on the message it was tapped on
- :mod:`~bot.handlers.router`: every button tap, checked by the guard and routed by its action

The entry points :mod:`bot.app` registers are re-exported here.
"""

from bot.handlers.chats import on_migrate, on_my_member
from bot.handlers.commands import (
    cmd_games,
    cmd_help,
    cmd_lang,
    cmd_new,
    cmd_notices,
    cmd_rules,
    cmd_start,
)
from bot.handlers.competitions import cmd_tournament, on_member_left
from bot.handlers.computer import cmd_review
from bot.handlers.errors import on_error
from bot.handlers.history import cmd_history
from bot.handlers.inline import on_chosen_inline, on_inline_query
from bot.handlers.ladder import cmd_ladder, cmd_vacation, ladder_tick
from bot.handlers.play import cmd_play, play_tick
from bot.handlers.player_settings import cmd_settings
from bot.handlers.quiet import cmd_quiet
from bot.handlers.resigning import cmd_resign
from bot.handlers.router import on_callback
from bot.handlers.social import cmd_forgetme, cmd_stats, cmd_top
from bot.handlers.turn import on_group_text, on_private_text

__all__ = [
    "cmd_forgetme",
    "cmd_games",
    "cmd_help",
    "cmd_history",
    "cmd_ladder",
    "cmd_lang",
    "cmd_new",
    "cmd_notices",
    "cmd_play",
    "cmd_quiet",
    "cmd_resign",
    "cmd_review",
    "cmd_rules",
    "cmd_settings",
    "cmd_start",
    "cmd_stats",
    "cmd_top",
    "cmd_tournament",
    "cmd_vacation",
    "ladder_tick",
    "on_callback",
    "on_chosen_inline",
    "on_error",
    "on_group_text",
    "on_inline_query",
    "on_member_left",
    "on_migrate",
    "on_my_member",
    "on_private_text",
    "play_tick",
]
