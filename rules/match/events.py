"""What happened: the events a match's actions return, which storage logs and the bot turns into
messages."""

from __future__ import annotations

from dataclasses import dataclass

from rules.common.dice import Dice
from rules.common.scoring import GameKind
from rules.portes.board import Position
from rules.portes.moves import Move


@dataclass(frozen=True)
class Event:
    """Something that happened; ``player`` is 0 or 1 where an event belongs to a player."""


@dataclass(frozen=True)
class GameStarted(Event):
    game: int
    opening: tuple[int, int]
    """The final opening roll: player 0's die, player 1's die (never equal)."""
    ties: int
    """How many tied opening rolls were rolled again before it."""
    starter: int
    game_key: str = "portes"
    """The game this one is (a tavli match plays several)."""
    winner_starts: bool = False
    """The previous game's winner starts (the café habit): ``opening`` is then his first roll,
    both dice his (it may be a double), and there were no ties."""


@dataclass(frozen=True)
class Rolled(Event):
    player: int
    dice: Dice


@dataclass(frozen=True)
class TurnPlayed(Event):
    """A turn ended: ``moves`` empty means the roll could not be played and was passed."""

    player: int
    game: int
    turn: int
    dice: Dice
    moves: tuple[Move, ...]
    text: str
    position_before: Position
    """The position the player faced, from the player's side."""
    gnubg_id: str
    """``PositionID:MatchID`` after the play, from the side then on roll."""
    forced: bool = False

    @property
    def passed(self) -> bool:
        return not self.moves


@dataclass(frozen=True)
class GameEnded(Event):
    game: int
    winner: int
    kind: GameKind
    points: int
    resigned: bool
    score: tuple[int, int]


@dataclass(frozen=True)
class GameDrawn(Event):
    """Plakoto: both mothers are pinned; nobody scores and the game is played again."""

    game: int
    game_key: str


@dataclass(frozen=True)
class MatchEnded(Event):
    winner: int
    reason: str
    """``"score"``, ``"resigned"`` or ``"timeout"``."""
    score: tuple[int, int]


@dataclass(frozen=True)
class ResignationOffered(Event):
    player: int
    points: int


@dataclass(frozen=True)
class ResignationDeclined(Event):
    player: int
    points: int


@dataclass(frozen=True)
class Cancelled(Event):
    player: int


@dataclass(frozen=True)
class Stopped(Event):
    """The match was stopped from outside, with no result (``reason``: why, e.g. a
    competition's deadline)."""

    reason: str

