"""Every game through one door: Portes, Plakoto, Fevga and Long Nardy, chosen by the position.

A Portes board is a :class:`~rules.board.Position`; the other games' boards are
:class:`~rules.tavliboard.TavliPosition` (a Position that knows its game), so each function here
takes the position and finds the game's rules itself::

    position = start_position(Variant.PLAKOTO)
    plays = legal_plays(position, Dice(6, 5))               # list[Play], never empty
    keyboard = turn_input(position, Dice(6, 5))             # .next_moves(chosen), .play(chosen)
    outcome = game_outcome(plays[0].position)               # None while the game goes on

``options`` (:class:`~rules.tavlioptions.RuleOptions`) are the named rules where sources differ;
None means the defaults. Portes ignores them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.board import CHECKERS, Position
from rules.dice import Dice
from rules.legal import Play
from rules.legal import legal_plays as portes_plays
from rules.legal import legal_results as portes_results
from rules.moves import Move
from rules.movetext import format_moves
from rules.notation import format_play as portes_format
from rules.notation import parse_play as portes_parse
from rules.scoring import GameKind, game_kind, points_for
from rules.tavliboard import TavliPosition, Variant
from rules.tavliinput import TavliTurnInput
from rules.tavlilegal import legal_finals
from rules.tavlilegal import legal_plays as tavli_plays
from rules.tavlinotation import format_tavli_play, parse_tavli_play, pins_made
from rules.tavlioptions import RuleOptions
from rules.tavlisteps import plakoto_decision
from rules.turninput import TurnInput

__all__ = [
    "GNUBG_GAME",
    "TAVLI_ROTATION",
    "GameType",
    "Outcome",
    "Variant",
    "analysed_by_gnubg",
    "can_move",
    "format_moves_so_far",
    "format_play",
    "game_outcome",
    "games_of",
    "has_gnubg_games",
    "legal_plays",
    "parse_play",
    "start_position",
    "turn_input",
    "variant_of",
]

TAVLI_ROTATION = (Variant.PORTES, Variant.PLAKOTO, Variant.FEVGA)
"""A tavli match plays these in turn, game after game (a drawn Plakoto is played again)."""

GameType = str
"""What a match plays: a :class:`Variant`'s value, or ``"tavli"`` for the rotation."""
GAME_TYPES = (*(v.value for v in Variant), "tavli")

GNUBG_GAME: GameType = Variant.PORTES.value
"""The one game GNU Backgammon's nets, its IDs and its ``.mat`` files describe (backgammon with
no cube): hints, reviews and the ``.mat`` download are for its matches only."""


def analysed_by_gnubg(game_type: GameType) -> bool:
    """Whether a match of ``game_type`` has hints, a review and a ``.mat`` (GNU Backgammon)."""
    return game_type == GNUBG_GAME


def games_of(game_type: GameType) -> tuple[Variant, ...]:
    """The games a match of ``game_type`` plays (the rotation for ``"tavli"``)."""
    return TAVLI_ROTATION if game_type == "tavli" else (Variant(game_type),)


def has_gnubg_games(game_type: GameType) -> bool:
    """Whether some game of a match of ``game_type`` goes in a ``.mat`` file (a tavli match:
    its Portes games)."""
    return any(analysed_by_gnubg(game.value) for game in games_of(game_type))


def variant_of(position: Position) -> Variant:
    return position.variant if isinstance(position, TavliPosition) else Variant.PORTES


def start_position(variant: Variant | str) -> Position:
    """The set-up of a game."""
    game = Variant(variant)
    return Position.start() if game == Variant.PORTES else TavliPosition.start_of(game)


def legal_plays(
    position: Position, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> list[Play]:
    """Every distinct legal play of the position's game; never empty (a pass is one empty
    play)."""
    if isinstance(position, TavliPosition):
        return tavli_plays(position, dice, options)
    return portes_plays(position, dice)


def can_move(
    position: Position, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> bool:
    """Whether the roll can be played at all (else the turn is passed)."""
    if isinstance(position, TavliPosition):
        return (position.board, position.pins) not in legal_finals(position, dice, options)
    return portes_results(position, dice) != {position.board}


def result_count(
    position: Position, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> int:
    """How many distinct positions the legal plays lead to (1: a forced play or a pass)."""
    if isinstance(position, TavliPosition):
        return len(legal_finals(position, dice, options))
    return len(portes_results(position, dice))


def turn_input(
    position: Position, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> TurnInput | TavliTurnInput:
    """The tap-by-tap input of a turn (the same methods in every game)."""
    if isinstance(position, TavliPosition):
        return TavliTurnInput(position, dice, options)
    return TurnInput(position, dice)


def format_play(
    position: Position,
    dice: Dice | tuple[int, int],
    moves: Sequence[Move],
    options: RuleOptions | None = None,
) -> str:
    """Move text that reads back as this play (``-`` for a pass)."""
    if isinstance(position, TavliPosition):
        return format_tavli_play(position, dice, moves, options)
    return portes_format(position, dice, moves)


def format_moves_so_far(
    position: Position,
    dice: Dice | tuple[int, int],
    moves: Sequence[Move],
    options: RuleOptions | None = None,
) -> str:
    """Move text of the moves chosen so far in a turn (not yet a whole play): a ``*`` only
    where a hit or, in Plakoto, a pin that is still there is made."""
    if isinstance(position, TavliPosition):
        return format_moves(pins_made(position, dice, moves, options))
    return format_moves(moves)


def parse_play(
    position: Position,
    dice: Dice | tuple[int, int],
    text: str,
    options: RuleOptions | None = None,
) -> Play:
    """The legal play typed text means (errors as :func:`rules.notation.parse_play`)."""
    if isinstance(position, TavliPosition):
        return parse_tavli_play(position, dice, text, options)
    return portes_parse(position, dice, text)


@dataclass(frozen=True)
class Outcome:
    """How a game ended after a play: ``mover_wins`` (None: a draw, to be played again), the kind
    and the points it scores."""

    mover_wins: bool | None
    kind: GameKind | None
    points: int


def game_outcome(after: Position, *, no_triple: bool = False) -> Outcome | None:
    """Judge the game after the mover's play (``after`` from the mover's side); None while it
    goes on.

    Portes: bearing off all 15 wins 1, 2 (gammon) or 3 (backgammon; 2 with ``no_triple``). The
    other games: 1, or 2 when the loser has borne off none; no triple. Plakoto also ends when a
    mother is pinned (:func:`rules.tavlisteps.plakoto_decision`): the pinner wins 2, or both
    mothers are pinned and the game is a draw.
    """
    if not isinstance(after, TavliPosition):
        if after.mover_off != CHECKERS:
            return None
        kind = game_kind(after)
        return Outcome(True, kind, points_for(kind, no_triple=no_triple))
    if after.mover_off == CHECKERS:
        kind = GameKind.SINGLE if after.opponent_off else GameKind.GAMMON
        return Outcome(True, kind, 1 if after.opponent_off else 2)
    if after.variant == Variant.PLAKOTO:
        decision = plakoto_decision(after.board, after.pins)
        if decision == "draw":
            return Outcome(None, None, 0)
        if decision == "mother":
            return Outcome(True, GameKind.MOTHER, 2)
    return None
