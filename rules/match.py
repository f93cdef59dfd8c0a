"""The match flow as a pure state machine.

A :class:`Match` is an immutable value. Every action (``start``, ``step``, ``undo``,
``confirm``, ``play``, resigning, cancelling) checks who may act and what the phase allows,
then returns a new :class:`Match` and the :class:`Event`\\ s that happened, which storage logs and
the bot turns into messages. Dice come from an injected :class:`~rules.dice.DiceSource`, drawn
in one numbered sequence across every game of the match (opening-roll ties included): the state
remembers only how many dice it has drawn, so the same source replays the whole match.

Rules enforced here (see the rules page): every game starts with an opening roll, one die each,
ties rolled again, the higher die moving first with both numbers; turns alternate with the dice
rolled automatically at the start of each turn (there is no cube, so nothing is ever decided
before rolling); a roll with no legal move is passed automatically; the first to bear off 15
checkers wins 1, 2 (gammon) or 3 (backgammon; 2 in a "no triple" match) points; the first to
reach the match length wins the match. A player may, on their turn, offer to resign the game for
1, 2 or 3 points (at most 2 with "no triple"), which the opponent accepts or declines; resign the
whole match at any time; and a match nobody has moved in yet may be cancelled by either player.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rules.dice import DiceSource
from rules.errors import CorruptState, GameOver, IllegalPlay, InvalidAction, NotYourTurn
from rules.matchid import GAME_OVER, GAME_PLAYING, GAME_RESIGNED, MatchId
from rules.notation import format_play, parse_play
from rules.position import (
    CHECKERS,
    Dice,
    Move,
    Play,
    Position,
    TurnInput,
    legal_plays,
    legal_results,
)

FORMAT_VERSION = 1
MATCH_LENGTHS = (1, 3, 5, 7)


class Phase(StrEnum):
    NOT_STARTED = "not_started"
    PLAYING = "playing"
    RESIGN_OFFERED = "resign_offered"
    MATCH_OVER = "match_over"
    CANCELLED = "cancelled"


class GameKind(StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"


KIND_VALUE = {GameKind.SINGLE: 1, GameKind.GAMMON: 2, GameKind.BACKGAMMON: 3}
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


# -- events ---------------------------------------------------------------------------------


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
class LastPlay:
    """The previous turn, for marking it on the board: its player, dice and moves."""

    player: int
    dice: Dice
    moves: tuple[Move, ...]
    text: str


@dataclass(frozen=True)
class GameResult:
    game: int
    winner: int
    kind: GameKind
    points: int
    resigned: bool


# -- the match ------------------------------------------------------------------------------


def _other(player: int) -> int:
    return 1 - player


@dataclass(frozen=True)
class Match:
    """One match between player 0 and player 1. Build with :meth:`new`, then :meth:`start`."""

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
    """Non-empty turns played in the whole match (a match with none may be cancelled)."""
    results: tuple[GameResult, ...] = ()
    winner: int | None = None
    end_reason: str | None = None

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def new(cls, length: int, *, no_triple: bool = False) -> Match:
        if length not in MATCH_LENGTHS:
            raise InvalidAction(f"A match is played to 1, 3, 5 or 7 points, not {length}")
        return cls(length=length, no_triple=no_triple)

    # -- views -----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase in (Phase.MATCH_OVER, Phase.CANCELLED)

    def position_for(self, player: int) -> Position:
        """The board from ``player``'s side."""
        return self.position if player == self.turn else self.position.flip()

    def legal_plays(self) -> list[Play]:
        if self.dice is None:
            return []
        return legal_plays(self.position, self.dice)

    def turn_input(self) -> TurnInput:
        if self.dice is None:
            raise InvalidAction("No dice have been rolled")
        return TurnInput(self.position, self.dice)

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
        return 2 if self.no_triple else 3

    def match_id(self) -> str:
        """GNU Backgammon's Match ID for the current state (player 0 and 1 as in the match)."""
        die1, die2 = self.dice if self.dice is not None else (0, 0)
        state = GAME_PLAYING
        if self.phase == Phase.MATCH_OVER:
            state = GAME_OVER
        elif self.phase == Phase.RESIGN_OFFERED:
            state = GAME_RESIGNED
        deciding = _other(self.turn) if self.phase == Phase.RESIGN_OFFERED else self.turn
        return MatchId(
            length=self.length,
            score0=min(self.score[0], self.length),
            score1=min(self.score[1], self.length),
            on_roll=self.turn,
            turn=deciding,
            die1=die1,
            die2=die2,
            game_state=state,
            resigned=self.resign_offer if self.phase == Phase.RESIGN_OFFERED else 0,
        ).to_id()

    def gnubg_id(self) -> str:
        """``PositionID:MatchID``, the position from the side on roll, as GNU Backgammon shows."""
        return f"{self.position.to_id()}:{self.match_id()}"

    # -- checks ----------------------------------------------------------------------------

    def _require_turn(self, player: int) -> None:
        if self.phase in (Phase.MATCH_OVER, Phase.CANCELLED):
            raise GameOver("The match is over")
        if self.phase == Phase.NOT_STARTED:
            raise InvalidAction("The match has not started")
        if self.phase == Phase.RESIGN_OFFERED:
            raise InvalidAction("A resignation is waiting for an answer")
        if player != self.turn:
            raise NotYourTurn("It is not your turn")

    # -- the flow --------------------------------------------------------------------------

    def start(self, dice: DiceSource) -> tuple[Match, list[Event]]:
        """Begin the first game with its opening roll."""
        if self.phase != Phase.NOT_STARTED:
            raise InvalidAction("The match has already started")
        events: list[Event] = []
        match = self._begin_game(dice, events)
        return match, events

    def _roll(self, dice: DiceSource) -> tuple[Dice, int]:
        n = self.dice_drawn
        return Dice.of(dice.die(n), dice.die(n + 1)), n + 2

    def _begin_game(self, dice: DiceSource, events: list[Event]) -> Match:
        n = self.dice_drawn
        ties = 0
        while True:
            a, b = dice.die(n), dice.die(n + 1)
            n += 2
            if a != b:
                break
            ties += 1
        starter = 0 if a > b else 1
        game = self.game + 1
        events.append(GameStarted(game=game, opening=(a, b), ties=ties, starter=starter))
        match = replace(
            self,
            phase=Phase.PLAYING,
            game=game,
            turn=starter,
            turn_number=0,
            position=Position.start(),
            dice=Dice(a, b) if starter == 0 else Dice(b, a),
            chosen=(),
            dice_drawn=n,
            opening=(a, b),
            last_play=None,
            resign_offer=0,
        )
        return match

    def step(self, player: int, move: Move) -> Match:
        """Add one single move to the turn being entered (validated tap by tap)."""
        self._require_turn(player)
        checked = self.turn_input().check_step(self.chosen, move)
        return replace(self, chosen=(*self.chosen, checked))

    def undo(self, player: int) -> Match:
        """Take back the last single move chosen this turn."""
        self._require_turn(player)
        if not self.chosen:
            raise InvalidAction("There is no move to take back")
        return replace(self, chosen=self.chosen[:-1])

    def reset_turn(self, player: int) -> Match:
        """Take back every single move chosen this turn."""
        self._require_turn(player)
        return replace(self, chosen=())

    def confirm(self, player: int, dice: DiceSource) -> tuple[Match, list[Event]]:
        """End the turn with the moves chosen, which must make a whole legal play."""
        self._require_turn(player)
        play = self.turn_input().play(self.chosen)
        return self._finish_turn(play, dice, forced=False)

    def play(
        self, player: int, play: Play | str, dice: DiceSource, *, forced: bool = False
    ) -> tuple[Match, list[Event]]:
        """Play a whole turn at once: a :class:`Play` from :meth:`legal_plays`, or move text."""
        self._require_turn(player)
        assert self.dice is not None
        if isinstance(play, str):
            chosen = parse_play(self.position, self.dice, play)
        else:
            # The moves themselves must lead, legally, to a legal final position.
            chosen = TurnInput(self.position, self.dice).play(play.moves)
            if chosen.position != play.position:
                raise IllegalPlay(f"{play.to_text()} is not a legal play with {self.dice}")
        return self._finish_turn(chosen, dice, forced=forced)

    def forced_play(self) -> Play | None:
        """The only legal play, when there is exactly one (the bot plays it for the player)."""
        if self.phase != Phase.PLAYING or self.chosen:
            return None
        assert self.dice is not None
        if len(legal_results(self.position, self.dice)) != 1:
            return None
        (play,) = self.legal_plays()
        return play if play.moves else None

    def _finish_turn(
        self, play: Play, dice: DiceSource, *, forced: bool
    ) -> tuple[Match, list[Event]]:
        events: list[Event] = []
        match = self
        while True:
            assert match.dice is not None
            player = match.turn
            after = play.position
            winner_done = after.mover_off == CHECKERS
            text = format_play(match.position, match.dice, play.moves)
            nxt = replace(
                match,
                position=after.flip(),
                turn=_other(player),
                turn_number=match.turn_number + 1,
                dice=None,
                chosen=(),
                last_play=LastPlay(player, match.dice, play.moves, text),
                plays_made=match.plays_made + (1 if play.moves else 0),
            )
            events.append(
                TurnPlayed(
                    player=player,
                    game=match.game,
                    turn=match.turn_number + 1,
                    dice=match.dice,
                    moves=play.moves,
                    text=text,
                    position_before=match.position,
                    gnubg_id=nxt.gnubg_id(),
                    forced=forced,
                )
            )
            if winner_done:
                kind = game_kind(after)
                return nxt._end_game(player, kind, dice, events, resigned=False)
            rolled, drawn = nxt._roll(dice)
            match = replace(nxt, dice=rolled, dice_drawn=drawn)
            events.append(Rolled(player=match.turn, dice=rolled))
            if legal_results(match.position, rolled) != {match.position.board}:
                return match, events
            # Nothing can be played: the turn is lost, and the next roll is the opponent's.
            play = Play((), match.position)
            forced = True

    def _end_game(
        self,
        winner: int,
        kind: GameKind,
        dice: DiceSource,
        events: list[Event],
        *,
        resigned: bool,
        points: int | None = None,
    ) -> tuple[Match, list[Event]]:
        value = points if points is not None else points_for(kind, no_triple=self.no_triple)
        score = list(self.score)
        score[winner] += value
        new_score = (score[0], score[1])
        result = GameResult(self.game, winner, kind, value, resigned)
        events.append(GameEnded(self.game, winner, kind, value, resigned, new_score))
        ended = replace(
            self,
            score=new_score,
            results=(*self.results, result),
            dice=None,
            chosen=(),
            resign_offer=0,
            phase=Phase.PLAYING,
        )
        if new_score[winner] >= self.length:
            events.append(MatchEnded(winner, "score", new_score))
            return replace(ended, phase=Phase.MATCH_OVER, winner=winner, end_reason="score"), events
        return ended._begin_game(dice, events), events

    # -- resigning and cancelling ----------------------------------------------------------

    def offer_resignation(self, player: int, points: int) -> tuple[Match, list[Event]]:
        """On their turn, a player offers to resign the game for 1, 2 or 3 points."""
        self._require_turn(player)
        if not 1 <= points <= self.max_resign_points():
            raise InvalidAction(
                f"You can resign for 1 to {self.max_resign_points()} points, not {points}"
            )
        match = replace(self, phase=Phase.RESIGN_OFFERED, resign_offer=points)
        return match, [ResignationOffered(player, points)]

    def _require_answer(self, player: int) -> None:
        if self.phase != Phase.RESIGN_OFFERED:
            raise InvalidAction("No resignation is on the table")
        if player != _other(self.turn):
            raise NotYourTurn("Only your opponent can answer your resignation")

    def accept_resignation(self, player: int, dice: DiceSource) -> tuple[Match, list[Event]]:
        """The opponent accepts: the game ends and they score the points offered."""
        self._require_answer(player)
        points = self.resign_offer
        return self._end_game(
            player, KIND_OF_POINTS[points], dice, [], resigned=True, points=points
        )

    def decline_resignation(self, player: int) -> tuple[Match, list[Event]]:
        """The opponent declines: play goes on from where it was."""
        self._require_answer(player)
        points = self.resign_offer
        match = replace(self, phase=Phase.PLAYING, resign_offer=0)
        return match, [ResignationDeclined(player, points)]

    def resign_match(self, player: int, *, reason: str = "resigned") -> tuple[Match, list[Event]]:
        """A player gives up the whole match (at any time); the opponent wins it."""
        if player not in (0, 1):
            raise NotYourTurn("Not a player of this match")
        if self.is_over:
            raise GameOver("The match is over")
        winner = _other(player)
        match = replace(
            self,
            phase=Phase.MATCH_OVER,
            winner=winner,
            end_reason=reason,
            dice=self.dice,
            chosen=(),
            resign_offer=0,
        )
        return match, [MatchEnded(winner, reason, self.score)]

    def cancel(self, player: int) -> tuple[Match, list[Event]]:
        """Either player may cancel a match nobody has moved in yet, with no result."""
        if player not in (0, 1):
            raise NotYourTurn("Not a player of this match")
        if self.is_over:
            raise GameOver("The match is over")
        if self.plays_made:
            raise InvalidAction("The match cannot be cancelled once a move has been played")
        return replace(self, phase=Phase.CANCELLED, end_reason="cancelled"), [Cancelled(player)]

    # -- serialisation ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        def moves(ms: tuple[Move, ...]) -> list[list[int]]:
            return [[m.from_point, m.to_point, m.die, int(m.hit)] for m in ms]

        return {
            "format": FORMAT_VERSION,
            "length": self.length,
            "no_triple": self.no_triple,
            "phase": self.phase.value,
            "score": list(self.score),
            "game": self.game,
            "turn": self.turn,
            "turn_number": self.turn_number,
            "board": list(self.position.board),
            "dice": list(self.dice) if self.dice else None,
            "chosen": moves(self.chosen),
            "dice_drawn": self.dice_drawn,
            "opening": list(self.opening) if self.opening else None,
            "last_play": (
                {
                    "player": self.last_play.player,
                    "dice": list(self.last_play.dice),
                    "moves": moves(self.last_play.moves),
                    "text": self.last_play.text,
                }
                if self.last_play
                else None
            ),
            "resign_offer": self.resign_offer,
            "plays_made": self.plays_made,
            "results": [
                [r.game, r.winner, r.kind.value, r.points, int(r.resigned)] for r in self.results
            ],
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        try:
            return cls._from_dict(data)
        except CorruptState:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise CorruptState(f"The stored match state cannot be read: {exc!r}") from exc

    @classmethod
    def _from_dict(cls, data: Any) -> Match:
        if not isinstance(data, dict):
            raise CorruptState("The stored match state is not an object")
        version = data.get("format")
        if version != FORMAT_VERSION:
            raise CorruptState(f"Unknown match state format {version!r}")

        def player(value: Any) -> int:
            if value not in (0, 1) or isinstance(value, bool):
                raise ValueError(f"bad player {value!r}")
            return int(value)

        def move_list(raw: Any) -> tuple[Move, ...]:
            out = []
            for item in raw:
                src, dest, die, hit = (int(x) for x in item)
                if not (0 <= dest < src <= 25 and 1 <= die <= 6):
                    raise ValueError(f"bad move {item!r}")
                out.append(Move(src, dest, die, bool(hit)))
            return tuple(out)

        def dice(raw: Any) -> Dice | None:
            return None if raw is None else Dice.of(int(raw[0]), int(raw[1]))

        last = data["last_play"]
        opening = data["opening"]
        score = data["score"]
        winner = data["winner"]
        match = cls(
            length=int(data["length"]),
            no_triple=bool(data["no_triple"]),
            phase=Phase(data["phase"]),
            score=(int(score[0]), int(score[1])),
            game=int(data["game"]),
            turn=player(data["turn"]),
            turn_number=int(data["turn_number"]),
            position=Position(int(x) for x in data["board"]),
            dice=dice(data["dice"]),
            chosen=move_list(data["chosen"]),
            dice_drawn=int(data["dice_drawn"]),
            opening=(int(opening[0]), int(opening[1])) if opening else None,
            last_play=(
                LastPlay(
                    player(last["player"]),
                    Dice.of(*last["dice"]),
                    move_list(last["moves"]),
                    str(last["text"]),
                )
                if last
                else None
            ),
            resign_offer=int(data["resign_offer"]),
            plays_made=int(data["plays_made"]),
            results=tuple(
                GameResult(int(g), player(w), GameKind(k), int(p), bool(r))
                for g, w, k, p, r in data["results"]
            ),
            winner=None if winner is None else player(winner),
            end_reason=data["end_reason"],
        )
        if match.length not in MATCH_LENGTHS:
            raise CorruptState(f"Bad match length {match.length}")
        if match.phase == Phase.PLAYING and match.dice is None:
            raise CorruptState("A match in play has no dice")
        if match.chosen:
            try:
                match.turn_input().next_moves(match.chosen)
            except IllegalPlay as exc:
                raise CorruptState(f"The stored partial turn is not legal: {exc}") from exc
        return match

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise CorruptState(f"The stored match state is not JSON: {exc}") from exc
        return cls.from_dict(data)
