"""What a group sees of its ladder before it is opened, and what the ladder plays: the setup
card (the game, any match kind of the registry, the Tavli rotation included; the length) and
the line the ladder card shows. Pure.

The setup card's buttons: ``ld:0:0:s-<game letter>-<length>`` (a choice: the card redrawn
with it ticked) and ``ld:0:0:o-<game letter>-<length>`` (open the ladder with these); the
choices travel in the data, so the card needs no state. Anything else is refused."""

from __future__ import annotations

import re

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.views.callbacks import Action, encode
from bot.views.game_choice import game_rows
from bot.views.games import GAME_LETTERS, GAME_OF_LETTER, game_name
from bot.views.i18n import Tr
from rules.game import DEFAULT_KIND, KINDS

LENGTHS = (1, 3, 5, 7)
SETUP_RE = re.compile(r"([so])-([a-z])-([1357])")


def parse_setup(arg: str | None) -> tuple[bool, str, int] | None:
    """``(open now, game, length)`` of a setup button, or ``None`` for anything the card never
    sends (an unknown game, a length the game does not offer)."""
    m = SETUP_RE.fullmatch(arg or "")
    if m is None or m.group(2) not in GAME_OF_LETTER:
        return None
    game, length = GAME_OF_LETTER[m.group(2)], int(m.group(3))
    if length not in KINDS[game].lengths:
        return None
    return m.group(1) == "o", game, length


def fitting_length(game: str, length: int) -> int:
    """``length`` if the game offers it, else its nearest (a rotation starts at 3)."""
    offered = [n for n in LENGTHS if n in KINDS[game].lengths]
    return min(offered, key=lambda n: (abs(n - length), n))


def plays_line(t: Tr, game: str, length: int) -> str:
    """What the ladder's matches play."""
    return t.ngettext("{game} · matches to {n} point", "{game} · matches to {n} points", length,
                      game=game_name(t, game))


def setup_text(t: Tr, game: str, length: int) -> str:
    return "\n".join([
        t._("🪜 This group has no ladder yet. Whoever opens it chooses what its matches play: "
            "the game and the length. Then anyone joins; once a day the players on the same "
            "rung (or the nearest) are paired at random, a win moves you one rung up, a loss "
            "one down."),
        "", t._("The ladder will play: {what}", what=plays_line(t, game, length))])


def setup_keyboard(t: Tr, game: str = DEFAULT_KIND, length: int = 3) -> Markup:
    def b(label: str, op: str, g: str, n: int) -> Btn:
        return Btn(label, callback_data=encode(Action.LADDER, 0, 0,
                                               f"{op}-{GAME_LETTERS[g]}-{n}"))

    def tick(on: bool, label: str) -> str:
        return ("✔ " if on else "") + label

    rows = [[b(tick(g == game, game_name(t, g)), "s", g, fitting_length(g, length)) for g in row]
            for row in game_rows(t)]
    rows.append([b(tick(n == length, str(n)), "s", game, n) for n in LENGTHS
                 if n in KINDS[game].lengths])
    rows.append([b("🪜 " + t._("Open the ladder"), "o", game, length)])
    return Markup(rows)
