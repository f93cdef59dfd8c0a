"""Every game through one door: the rules of the position's own game (:func:`rules.game.game_of`).

A Portes board is a :class:`~rules.portes.board.Position`; the other games' boards are
:class:`~rules.steps.board.StepsPosition` (a Position that knows its game). Each function here
takes the position and asks the registry (:mod:`rules.game`) for its game's rules::

    position = start_position(Variant.PLAKOTO)
    plays = legal_plays(position, Dice(6, 5))               # list[Play], never empty
    keyboard = turn_input(position, Dice(6, 5))             # .next_moves(chosen), .play(chosen)
    outcome = game_outcome(plays[0].position)               # None while the game goes on

``options`` (:class:`~rules.steps.options.RuleOptions`) are the named rules where sources differ;
None means the defaults. Portes ignores them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.common.dice import Dice
from rules.game import GAMES, KINDS, TAVLI, GameOutcome, find_game, find_kind, game_of
from rules.portes.board import Position
from rules.portes.legal import Play
from rules.portes.moves import Move
from rules.portes.turninput import Destination, TurnInputLike, destinations
from rules.steps.board import Variant
from rules.steps.options import RuleOptions

__all__ = [
    "GAMES",
    "KINDS",
    "TAVLI",
    "Destination",
    "GameOutcome",
    "GameType",
    "Variant",
    "can_move",
    "destinations",
    "find_game",
    "find_kind",
    "format_moves_so_far",
    "format_play",
    "game_of",
    "game_outcome",
    "legal_plays",
    "parse_play",
    "result_count",
    "start_position",
    "turn_input",
]

GameType = str
"""What a match plays: a :class:`rules.game.MatchKind`'s key (a game's, or ``"tavli"``)."""


def start_position(game: str) -> Position:
    """The set-up of a game."""
    return find_game(game).start()


def legal_plays(
    position: Position, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> list[Play]:
    """Every distinct legal play of the position's game; never empty (a pass is one empty
    play)."""
    return game_of(position).legal_plays(position, dice, options)


def can_move(
    position: Position, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> bool:
    """Whether the roll can be played at all (else the turn is passed)."""
    return game_of(position).can_move(position, dice, options)


def result_count(
    position: Position, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> int:
    """How many distinct positions the legal plays lead to (1: a forced play or a pass)."""
    return game_of(position).result_count(position, dice, options)


def turn_input(
    position: Position, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> TurnInputLike:
    """The tap-by-tap input of a turn (the same methods in every game)."""
    return game_of(position).turn_input(position, dice, options)


def format_play(
    position: Position,
    dice: Dice | tuple[int, int],
    moves: Sequence[Move],
    options: RuleOptions | None = None,
) -> str:
    """Move text that reads back as this play (``-`` for a pass)."""
    return game_of(position).format_play(position, dice, moves, options)


def format_moves_so_far(
    position: Position,
    dice: Dice | tuple[int, int],
    moves: Sequence[Move],
    options: RuleOptions | None = None,
) -> str:
    """Move text of the moves chosen so far in a turn (not yet a whole play): a ``*`` only
    where a hit or, in Plakoto, a pin that is still there is made."""
    return game_of(position).format_moves_so_far(position, dice, moves, options)


def parse_play(
    position: Position,
    dice: Dice | tuple[int, int],
    text: str,
    options: RuleOptions | None = None,
) -> Play:
    """The legal play typed text means (errors as :func:`rules.portes.notation.parse_play`)."""
    return game_of(position).parse_play(position, dice, text, options)


def game_outcome(after: Position, *, no_triple: bool = False) -> GameOutcome | None:
    """Judge the game after the mover's play (``after`` from the mover's side); None while it
    goes on (see each game's :meth:`rules.game.Game.outcome`)."""
    return game_of(after).outcome(after, no_triple=no_triple)
