"""The match flow as a pure state machine.

A :class:`Match` is an immutable value (its fields and views are
:class:`~rules.match.state.MatchState`). Every action (``start``, ``step``, ``undo``,
``confirm``, ``play``, resigning, cancelling) checks who may act and what the phase allows,
then returns a new :class:`Match` and the :class:`~rules.match.events.Event`\\ s that happened,
which
storage logs and the bot turns into messages. Dice come from an injected
:class:`~rules.common.dice.DiceSource`, drawn in one numbered sequence across every game of the
match
(opening-roll ties included): the state remembers only how many dice it has drawn, so the same
source replays the whole match.

Rules enforced here (see the rules page): every game starts with an opening roll, one die each,
ties rolled again, the higher die moving first with both numbers; turns alternate with the dice
rolled automatically at the start of each turn (there is no cube, so nothing is ever decided
before rolling); a roll with no legal move is passed automatically; the first to bear off 15
checkers wins the game (its points: :mod:`rules.common.scoring`); the first to reach the match
length
wins the match. A player may, on their turn, offer to resign the game for 1, 2 or 3 points (at
most 2 with "no triple"), which the opponent accepts or declines; resign the whole match at any
time (the opponent wins it, reaching the match length); and either player may cancel a match
until someone has moved or a game has a result.

The match's stored form is :mod:`rules.match.stored`. This module also re-exports the match's
vocabulary (phases, events, results) so callers need one import.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.common.dice import Dice, DiceSource
from rules.common.errors import GameOver, IllegalPlay, InvalidAction, NotYourTurn
from rules.common.scoring import (
    KIND_OF_POINTS,
    KIND_VALUE,
    GameKind,
    GameResult,
    game_kind,
    points_for,
)
from rules.game import KINDS, find_kind
from rules.games import (
    can_move,
    format_play,
    game_outcome,
    parse_play,
    result_count,
    start_position,
)
from rules.match.events import (
    Cancelled,
    Event,
    GameDrawn,
    GameEnded,
    GameStarted,
    MatchEnded,
    ResignationDeclined,
    ResignationOffered,
    Rolled,
    Stopped,
    TurnPlayed,
)
from rules.match.state import (
    MATCH_LENGTHS,
    LastPlay,
    MatchState,
    Phase,
    match_lengths,
    opponent_of,
)
from rules.match.stored import (
    FORMAT_VERSION,
    match_from_dict,
    match_from_json,
    match_to_dict,
    match_to_json,
)
from rules.portes.legal import Play
from rules.portes.moves import Move
from rules.steps.options import RuleOptions

__all__ = [
    "FORMAT_VERSION",
    "KIND_OF_POINTS",
    "KIND_VALUE",
    "MATCH_LENGTHS",
    "Cancelled",
    "Event",
    "GameDrawn",
    "GameEnded",
    "GameKind",
    "GameResult",
    "GameStarted",
    "LastPlay",
    "Match",
    "MatchEnded",
    "Phase",
    "ResignationDeclined",
    "ResignationOffered",
    "Rolled",
    "Stopped",
    "TurnPlayed",
    "game_kind",
    "match_lengths",
    "points_for",
]


class Match(MatchState):
    """One match between player 0 and player 1. Build with :meth:`new`, then :meth:`start`."""

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        length: int,
        *,
        no_triple: bool = False,
        game_type: str = "portes",
        options: RuleOptions | None = None,
        winner_starts: bool = False,
    ) -> Match:
        """A match to ``length`` of ``game_type``: a game's name or ``"tavli"`` (Portes, Plakoto
        and Fevga in turn); ``options`` the named rules of the other games (None: defaults);
        ``winner_starts`` the café habit (the previous game's winner starts the next)."""
        if length not in MATCH_LENGTHS:
            raise InvalidAction(f"A match is played to 1, 3, 5 or 7 points, not {length}")
        if game_type not in KINDS:
            raise InvalidAction(f"Unknown game {game_type!r}")
        if length not in match_lengths(game_type):
            raise InvalidAction(f"A tavli match is played to 3, 5 or 7 points, not {length}")
        game_key = find_kind(game_type).game_at(0).key
        return cls(
            length=length,
            no_triple=no_triple,
            game_type=game_type,
            game_key=game_key,
            position=start_position(game_key),
            options=options or RuleOptions(),
            winner_starts=winner_starts,
        )

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

    def _next_game_key(self) -> str:
        return find_kind(self.game_type).game_at(len(self.results)).key

    def _begin_game(self, dice: DiceSource, events: list[Event]) -> Match:
        n = self.dice_drawn
        ties = 0
        game_key = self._next_game_key()
        if self.winner_starts and self.results:
            # The café habit: the last game's winner rolls first, both dice his.
            starter = self.results[-1].winner
            a, b = dice.die(n), dice.die(n + 1)
            n += 2
            roll, opening = Dice(a, b), None
        else:
            while True:
                a, b = dice.die(n), dice.die(n + 1)
                n += 2
                if a != b:
                    break
                ties += 1
            starter = 0 if a > b else 1
            roll, opening = (Dice(a, b) if starter == 0 else Dice(b, a)), (a, b)
        game = self.game + 1
        events.append(GameStarted(game=game, opening=(a, b), ties=ties, starter=starter,
                                  game_key=game_key, winner_starts=opening is None))
        match = replace(
            self,
            phase=Phase.PLAYING,
            game=game,
            turn=starter,
            turn_number=0,
            position=start_position(game_key),
            game_key=game_key,
            dice=roll,
            chosen=(),
            dice_drawn=n,
            opening=opening,
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
            chosen = parse_play(self.position, self.dice, play, self.options)
        else:
            # The moves themselves must lead, legally, to a legal final position.
            chosen = self.turn_input().play(play.moves)
            if chosen.position != play.position:
                raise IllegalPlay(f"{play.to_text()} is not a legal play with {self.dice}")
        return self._finish_turn(chosen, dice, forced=forced)

    def forced_play(self) -> Play | None:
        """The only legal play, when there is exactly one (the bot plays it for the player)."""
        if self.phase != Phase.PLAYING or self.chosen:
            return None
        assert self.dice is not None
        if result_count(self.position, self.dice, self.options) != 1:
            return None
        (play,) = self.legal_plays()
        return play if play.moves else None

    def play_forced(self, dice: DiceSource) -> tuple[Match, list[Event]]:
        """Play the forced plays for the players until a real decision is needed (passes are
        played by :meth:`_finish_turn` itself): what follows every action that ends a turn."""
        events: list[Event] = []
        match = self
        while match.phase == Phase.PLAYING:
            forced = match.forced_play()
            if forced is None:
                break
            match, more = match.play(match.turn, forced, dice, forced=True)
            events.extend(more)
        return match, events

    def _finish_turn(
        self, play: Play, dice: DiceSource, *, forced: bool
    ) -> tuple[Match, list[Event]]:
        events: list[Event] = []
        match = self
        while True:
            assert match.dice is not None
            player = match.turn
            after = play.position
            text = format_play(match.position, match.dice, play.moves, match.options)
            nxt = replace(
                match,
                position=after.flip(),
                turn=opponent_of(player),
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
            outcome = game_outcome(after, no_triple=match.no_triple)
            if outcome is not None:
                if outcome.mover_wins is None or outcome.kind is None:
                    # Both mothers pinned: nobody scores and the game is played again.
                    events.append(GameDrawn(game=match.game, game_key=match.game_key))
                    return nxt._begin_game(dice, events), events
                winner = player if outcome.mover_wins else opponent_of(player)
                return nxt._end_game(
                    winner, outcome.kind, dice, events, resigned=False, points=outcome.points
                )
            rolled, drawn = nxt._roll(dice)
            match = replace(nxt, dice=rolled, dice_drawn=drawn)
            events.append(Rolled(player=match.turn, dice=rolled))
            if can_move(match.position, rolled, match.options):
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
        result = GameResult(self.game, winner, kind, value, resigned, self.game_key)
        events.append(GameEnded(self.game, winner, kind, value, resigned, new_score))
        ended = replace(
            self,
            score=new_score,
            results=(*self.results, result),
            # A resigned game keeps its roll on the table, as gnubg shows the match's end.
            dice=self.dice if resigned else None,
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
        if player != opponent_of(self.turn):
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
        """A player gives up the whole match (at any time; ``reason`` ``"timeout"`` when the
        clock gave it up for them); the opponent wins it, credited with the points still
        missing to reach the match length (a 5-point match given up at 2-3 ends 5-3)."""
        if player not in (0, 1):
            raise NotYourTurn("Not a player of this match")
        if self.is_over:
            raise GameOver("The match is over")
        winner = opponent_of(player)
        score = list(self.score)
        score[winner] = max(score[winner], self.length)
        match = replace(
            self,
            phase=Phase.MATCH_OVER,
            score=(score[0], score[1]),
            winner=winner,
            end_reason=reason,
            dice=self.dice,
            chosen=(),
            resign_offer=0,
        )
        return match, [MatchEnded(winner, reason, match.score)]

    def cancel(self, player: int) -> tuple[Match, list[Event]]:
        """Either player may cancel a match nobody has moved in yet and no game has ended in
        (:attr:`can_cancel`), with no result."""
        if player not in (0, 1):
            raise NotYourTurn("Not a player of this match")
        if self.is_over:
            raise GameOver("The match is over")
        if not self.can_cancel:
            raise InvalidAction(
                "The match cannot be cancelled once a move has been played or a game has ended"
            )
        return replace(self, phase=Phase.CANCELLED, end_reason="cancelled"), [Cancelled(player)]

    def stop(self, reason: str) -> tuple[Match, list[Event]]:
        """The match is stopped from outside (a competition's deadline), whoever is to act
        and however far it went, with no result: like a cancelled match, for ``reason``."""
        if self.is_over:
            raise GameOver("The match is over")
        match = replace(self, phase=Phase.CANCELLED, end_reason=reason, chosen=(),
                        resign_offer=0)
        return match, [Stopped(reason)]

    # -- the stored form (rules.match.stored) -------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return match_to_dict(self)

    def to_json(self) -> str:
        return match_to_json(self)

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        return match_from_dict(cls, data)

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        return match_from_json(cls, text)
