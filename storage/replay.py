"""Replay a stored match from its move log (for audits, exports and the tests).

The log holds every turn (forced plays and passes included) and the games table says which games
ended by resignation; with the match's dice source (``FairDice(seed, mix)``, or the revealed dice
as ``RecordedDice``) that is enough to rebuild the match exactly. Passes are not re-applied: the
rules core plays them itself, and the replay checks that it logged the same ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules.common.dice import DiceSource
from rules.common.errors import CorruptState
from rules.games import turn_input
from rules.match import Event, Match, Phase, TurnPlayed
from rules.match.state import LastPlay
from rules.position import Play, Position
from storage.results import LoggedTurn, MatchRecord


class ReplayMismatch(CorruptState):
    """The move log does not agree with what the rules core produces from it."""

    code = "replay_mismatch"


class LogCursor:
    """Walks the move log alongside the replay: every turn the rules play must be the next one
    logged."""

    def __init__(self, turns: Sequence[LoggedTurn], played: list[TurnPlayed] | None = None) -> None:
        self.log = list(turns)
        self.position = 0
        self.played = played

    def next_in(self, game: int) -> LoggedTurn | None:
        """The next logged turn if it belongs to ``game``."""
        if self.position < len(self.log) and self.log[self.position].game == game:
            return self.log[self.position]
        return None

    def consume(self, events: Sequence[Event]) -> None:
        """Check the turns among ``events`` against the log and move past them."""
        for event in events:
            if not isinstance(event, TurnPlayed):
                continue
            if self.position >= len(self.log):
                raise ReplayMismatch(f"the rules played an unlogged turn {event.text!r}")
            logged = self.log[self.position]
            if (logged.game, logged.turn, logged.player, tuple(logged.dice), logged.moves) != (
                event.game,
                event.turn,
                event.player,
                tuple(event.dice),
                event.moves,
            ):
                raise ReplayMismatch(
                    f"turn {logged.game}.{logged.turn}: logged {logged.text!r} with "
                    f"{logged.dice}, replayed {event.text!r} with {event.dice}"
                )
            if self.played is not None:
                self.played.append(event)
            self.position += 1

    def check_done(self) -> None:
        if self.position != len(self.log):
            raise ReplayMismatch(f"{len(self.log) - self.position} logged turns were not replayed")


def _after(match: Match, turn: LoggedTurn) -> Position:
    """The board after the logged turn's moves, through the game's own turn input."""
    return turn_input(match.position, turn.dice, match.options).position_after(turn.moves)


def replay(
    record: MatchRecord, dice: DiceSource, steps: list[tuple[LoggedTurn, Match]] | None = None,
    played: list[TurnPlayed] | None = None,
) -> Match:
    """Rebuild the match from ``record``'s log with ``dice``; raise :class:`ReplayMismatch` when
    the log and the rules disagree. A resignation offer still pending, and moves chosen but not
    confirmed, are not in the log (they are not replayed).

    ``steps``, when given, receives the match as it stood right after each logged turn: the
    mover still on roll with that turn's dice, the board with the play made and marked as the
    last play (what a replay shows, one step per turn; a pass, which changes nothing, is not
    a step). ``played``, when given, receives every logged turn as the rules played it again
    (:class:`TurnPlayed`, passes included, with the position the player faced): what a review
    judges."""
    stored = record.match.state
    cursor = LogCursor(record.turns, played)
    resigned_games = {g.number: g for g in record.games if g.resigned}
    match = Match.new(stored.length, no_triple=stored.no_triple, game_type=stored.game_type,
                      options=stored.options, winner_starts=stored.winner_starts)
    if stored.phase == Phase.NOT_STARTED:
        return match
    match, events = match.start(dice)
    cursor.consume(events)
    while match.phase == Phase.PLAYING:
        turn = cursor.next_in(match.game)
        if turn is not None:
            final = _after(match, turn)
            if steps is not None:
                steps.append((turn, replace(
                    match, position=final, chosen=(), dice=turn.dice,
                    last_play=LastPlay(turn.player, turn.dice, turn.moves, turn.text))))
            match, events = match.play(
                match.turn, Play(turn.moves, final), dice, forced=turn.forced
            )
            cursor.consume(events)
        elif match.game in resigned_games:
            game = resigned_games.pop(match.game)
            assert game.points is not None and game.winner is not None
            match, events = match.offer_resignation(1 - game.winner, game.points)
            match, events = match.accept_resignation(game.winner, dice)
            cursor.consume(events)
        else:
            break
    cursor.check_done()
    if stored.phase == Phase.MATCH_OVER and match.phase != Phase.MATCH_OVER:
        assert stored.winner is not None
        match, _ = match.resign_match(1 - stored.winner, reason=stored.end_reason or "resigned")
    elif stored.phase == Phase.CANCELLED and match.phase != Phase.CANCELLED:
        match, _ = match.cancel(0)
    return match
