"""What a game is worth: single, gammon or backgammon, and the points it scores.

Rules enforced (see the rules page): the first to bear off 15 checkers wins 1 point, 2 for a
gammon (the loser has borne off nothing), 3 for a backgammon (and the loser still has a checker
on the bar or in the winner's home board); a match played "no triple" counts a backgammon as 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.common.errors import InvalidAction
from rules.portes.board import CHECKERS, Position


class GameKind(StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    MOTHER = "mother"
    """Plakoto: the loser's mother (last checker on his start) is pinned there; worth 2."""


KIND_VALUE = {GameKind.SINGLE: 1, GameKind.GAMMON: 2, GameKind.BACKGAMMON: 3, GameKind.MOTHER: 2}
KIND_OF_POINTS = {1: GameKind.SINGLE, 2: GameKind.GAMMON, 3: GameKind.BACKGAMMON}


def game_kind(position: Position) -> GameKind:
    """How a game was won, seen from the side that has just borne off its last checker.

    Gammon: the loser has borne off no checker. Backgammon: and the loser still has a checker on
    the bar or in the winner's home board (the winner's points 1-6).
    """
    if position.mover_off != CHECKERS:
        raise InvalidAction("The game is not over")
    if position.opponent_off > 0:
        return GameKind.SINGLE
    b = position.board
    if b[0] < 0 or any(b[p] < 0 for p in range(1, 7)):
        return GameKind.BACKGAMMON
    return GameKind.GAMMON


def points_for(kind: GameKind, *, no_triple: bool) -> int:
    """Points a game scores: 1, 2, or 3 (2 for a backgammon when the match counts no triple)."""
    value = KIND_VALUE[kind]
    return min(value, 2) if no_triple else value


@dataclass(frozen=True)
class GameResult:
    """A finished game: its winner, how it was won, the points scored, and whether it ended by an
    accepted resignation."""

    game: int
    winner: int
    kind: GameKind
    points: int
    resigned: bool
    game_key: str = "portes"
    """The game played (``rules.steps.board.Variant``'s value): a tavli match plays several."""

