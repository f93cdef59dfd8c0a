"""What a match is now: :class:`MatchState`, its fields and what can be read from them.

The actions that move a match on are :class:`rules.match.Match` (a :class:`MatchState` with its
flow); its stored form is :mod:`rules.match.stored`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rules.common.dice import Dice
from rules.common.errors import InvalidAction
from rules.common.scoring import GameResult
from rules.game import find_game, find_kind
from rules.games import legal_plays, turn_input
from rules.portes.board import Position
from rules.portes.legal import Play
from rules.portes.matchid import GAME_OVER, GAME_PLAYING, GAME_RESIGNED, MatchId
from rules.portes.moves import Move
from rules.portes.turninput import TurnInputLike
from rules.steps.board import Variant
from rules.steps.options import RuleOptions

MATCH_LENGTHS = (1, 3, 5, 7)


def match_lengths(game_type: str) -> tuple[int, ...]:
    """The lengths a new match of ``game_type`` may be played to."""
    return find_kind(game_type).lengths


class Phase(StrEnum):
    NOT_STARTED = "not_started"
    PLAYING = "playing"
    RESIGN_OFFERED = "resign_offered"
    MATCH_OVER = "match_over"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class LastPlay:
    """The previous turn, for marking it on the board: its player, dice and moves."""

    player: int
    dice: Dice
    moves: tuple[Move, ...]
    text: str


def opponent_of(player: int) -> int:
    """The other player of the match (players are 0 and 1)."""
    return 1 - player


@dataclass(frozen=True)
class MatchState:
    """One match between player 0 and player 1, as it stands; see :class:`rules.match.Match`."""

    length: int
    no_triple: bool = False
    phase: Phase = Phase.NOT_STARTED
    score: tuple[int, int] = (0, 0)
    game: int = 0
    turn: int = 0
    """The player to move (or, with a resignation on the table, the one who offered it)."""
    turn_number: int = 0
    """Turns played in the current game, passes included."""
    position: Position = field(default_factory=Position.start)
    """The board from the side of :attr:`turn`."""
    dice: Dice | None = None
    chosen: tuple[Move, ...] = ()
    """Single moves chosen so far this turn (tap-by-tap input, not yet confirmed)."""
    dice_drawn: int = 0
    opening: tuple[int, int] | None = None
    last_play: LastPlay | None = None
    resign_offer: int = 0
    """Points offered by :attr:`turn` while the phase is RESIGN_OFFERED."""
    plays_made: int = 0
    """Non-empty turns played in the whole match (see :attr:`can_cancel`)."""
    results: tuple[GameResult, ...] = ()
    winner: int | None = None
    end_reason: str | None = None
    game_type: str = "portes"
    """What the match plays: a game (``portes``, ``plakoto``, ``fevga``, ``nardy``) or
    ``tavli``, the three Greek games in turn (:data:`rules.game.TAVLI`): a
    :class:`rules.game.MatchKind`'s key."""
    game_key: str = Variant.PORTES
    """The game being played now (or last, once the match is over)."""
    options: RuleOptions = field(default_factory=RuleOptions)
    """The named rules of Plakoto, Fevga and Long Nardy (defaults: the spec's)."""
    winner_starts: bool = False
    """The café habit: the winner of the previous game starts the next (no opening roll)."""

    # -- views -----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase in (Phase.MATCH_OVER, Phase.CANCELLED)

    @property
    def can_cancel(self) -> bool:
        """Whether the match may still be cancelled: nobody has moved and no game has a result
        (a game resigned before the first move counts, or cancelling would wipe its points)."""
        return not self.is_over and self.plays_made == 0 and not self.results

    def position_for(self, player: int) -> Position:
        """The board from ``player``'s side."""
        return self.position if player == self.turn else self.position.flip()

    def legal_plays(self) -> list[Play]:
        if self.dice is None:
            return []
        return legal_plays(self.position, self.dice, self.options)

    def turn_input(self) -> TurnInputLike:
        if self.dice is None:
            raise InvalidAction("No dice have been rolled")
        return turn_input(self.position, self.dice, self.options)

    def next_moves(self) -> tuple[Move, ...]:
        """The single moves the player to move may choose next (for the keyboard)."""
        if self.phase != Phase.PLAYING or self.dice is None:
            return ()
        return self.turn_input().next_moves(self.chosen)

    def can_confirm(self) -> bool:
        if self.phase != Phase.PLAYING or self.dice is None:
            return False
        return self.turn_input().is_complete(self.chosen)

    def current_position(self) -> Position:
        """The board with the moves chosen so far applied (from the mover's side)."""
        return self.turn_input().position_after(self.chosen) if self.chosen else self.position

    def max_resign_points(self) -> int:
        """3 in Portes (2 with "no triple"); 2 in the other games, which have no triple."""
        return find_game(self.game_key).caps.max_resign(self.no_triple)

    def match_id(self) -> str:
        """GNU Backgammon's Match ID for the current state (player 0 and 1 as in the match).

        As gnubg writes it: a resignation on the table leaves the game playing (only the
        offer and the player to decide are set); a match ended by an accepted resignation is
        "resigned", with the offer and the roll still shown; scores are not capped at the
        length (a 1-point match won with a triple stays 3-0).
        """
        die1, die2 = self.dice if self.dice is not None else (0, 0)
        state, resigned, deciding = GAME_PLAYING, 0, self.turn
        if self.phase == Phase.RESIGN_OFFERED:
            resigned, deciding = self.resign_offer, opponent_of(self.turn)
        elif self.phase == Phase.MATCH_OVER:
            state = GAME_OVER
            last = self.results[-1] if self.results else None
            if self.end_reason == "score" and last is not None and last.resigned:
                state, resigned, deciding = GAME_RESIGNED, last.points, last.winner
        return MatchId(
            length=self.length,
            score0=self.score[0],
            score1=self.score[1],
            on_roll=self.turn,
            turn=deciding,
            die1=die1,
            die2=die2,
            game_state=state,
            resigned=resigned,
        ).to_id()

    def gnubg_id(self) -> str:
        """``PositionID:MatchID``, the position from the side on roll, as GNU Backgammon shows;
        empty in a game GNU Backgammon does not play (:attr:`rules.game.Capabilities.gnubg`)."""
        if not find_game(self.game_key).caps.gnubg:
            return ""
        return f"{self.position.to_id()}:{self.match_id()}"
