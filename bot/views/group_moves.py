"""The turn's keyboard on a group's board its mover plays on (they never started the bot), in
as few taps as the turn allows (pure): each tap there is a call in a group that gets 20 a
minute (issue 27, item 5).

- Every single move is a button at once, "24 → 18", one row per checker: no checker to choose
  first (that tap was an edit of the board of its own).
- A move after which the play is complete ends the turn too ("24 → 18 ✅": Confirm with that
  move): the board's interim state (the move shown, waiting for Confirm) and the next turn's
  board are one edit, not two.
- With more moves than fit (:data:`MOST_MOVES` buttons), the turn is entered checker by checker
  as on a private board; a turn with a few whole plays offers them whole, as everywhere.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.views.callbacks import Action, encode, move_arg
from bot.views.i18n import Tr
from bot.views.keyboards import point_name
from bot.views.turn_choices import Destination, destinations, direct_plays, sources
from rules.match import Match, Phase

MOST_MOVES = 24
"""At most this many move buttons on one group board (more: checker by checker)."""
PER_ROW = 4


def completes(match: Match, dest: Destination) -> bool:
    """Whether the play is complete (nothing left to move) once ``dest`` is taken."""
    turn = match.turn_input()
    after = (*match.chosen, *dest.moves)
    return turn.is_complete(after) and not turn.next_moves(after)


def move_button(t: Tr, match_id: int, version: int, match: Match, source: int,
                dest: Destination) -> Btn:
    """One move's button; a move that completes the play is Confirm with that move."""
    arg = move_arg(source, dest.to_point) + (f"-{dest.route}" if dest.route else "")
    steps = " → ".join(f"{point_name(t, m.to_point)}{'*' if m.hit else ''}" for m in dest.moves)
    text = f"{point_name(t, source)} → {steps}"
    if completes(match, dest):
        return Btn(text + " ✅", callback_data=encode(Action.CONFIRM, match_id, version, arg))
    return Btn(text, callback_data=encode(Action.MOVE, match_id, version, arg))


def group_moves_keyboard(t: Tr, match_id: int, version: int, match: Match, *,
                         direct_limit: int, most: int = MOST_MOVES) -> Markup | None:
    """The keyboard of every single move at once (see the module's docstring), or ``None``
    when this turn is not entered so: whole plays offered, no turn, or too many moves."""
    if match.phase != Phase.PLAYING or match.dice is None or most <= 0:
        return None
    if direct_plays(match, direct_limit):
        return None
    by_source = [(s, destinations(match, s)) for s in sources(match)]
    if not by_source or sum(len(d) for _, d in by_source) > most:
        return None
    rows: list[list[Btn]] = []
    for source, dests in by_source:
        buttons = [move_button(t, match_id, version, match, source, d) for d in dests]
        rows.extend(buttons[i:i + PER_ROW] for i in range(0, len(buttons), PER_ROW))
    last: list[Btn] = []
    if match.chosen:
        last.append(Btn("⟲ " + t._("Undo"), callback_data=encode(Action.UNDO, match_id, version)))
    if match.can_confirm():
        last.append(Btn("✅ " + t._("Confirm"),
                        callback_data=encode(Action.CONFIRM, match_id, version)))
    if last:
        rows.append(last)
    return Markup(rows)
