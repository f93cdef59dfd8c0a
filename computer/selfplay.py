"""Computer-against-computer games with seeded dice (for the benchmark and the tests)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from computer.context import MONEY, MatchContext
from computer.players import ComputerPlayer
from computer.review import Decision
from rules.position import CHECKERS, Dice, Play, Position, legal_plays


def game_points(position: Position, no_triple: bool = False) -> int:
    """Points the winner of a finished game scores (1, 2 or 3), ``position`` from either side."""
    winner = position if position.mover_off == CHECKERS else position.flip()
    if winner.mover_off != CHECKERS:
        raise ValueError("the game is not over")
    if winner.opponent_off > 0:
        return 1
    b = winner.board
    if not no_triple and (b[0] < 0 or any(b[p] < 0 for p in range(1, 7))):
        return 3
    return 2


def opening_roll(rng: random.Random) -> Dice:
    """The first roll of a game: one die each, rolled again while equal."""
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if d1 != d2:
            return Dice(d1, d2)


@dataclass
class GameRecord:
    """How a game went: the winner (0 or 1), the points, every decision, thinking times."""

    winner: int
    points: int
    decisions: list[Decision] = field(default_factory=list)
    think_seconds: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))


def play_game(
    players: tuple[ComputerPlayer, ComputerPlayer],
    rng: random.Random,
    *,
    first: int = 0,
    context: MatchContext = MONEY,
    check: Callable[[Position, Dice, Play], None] | None = None,
    max_turns: int = 2000,
) -> GameRecord:
    """Play one game; player ``first`` makes the opening move with a non-double opening roll.

    ``context`` is the situation of player 0 (player 1 gets it flipped). Thinking time is recorded
    for turns with a real choice (more than one legal play). ``check`` is called after every play
    (tests use it to assert legality).
    """
    record = GameRecord(winner=-1, points=0)
    position = Position.start()
    turn = first
    dice = opening_roll(rng)
    for _ in range(max_turns):
        ctx = context if turn == 0 else context.flipped()
        plays = legal_plays(position, dice)
        started = time.perf_counter()
        play = players[turn].choose_play(position, dice, ctx)
        elapsed = time.perf_counter() - started
        if len(plays) > 1:
            record.think_seconds[turn].append(elapsed)
        if check is not None:
            check(position, dice, play)
        record.decisions.append(Decision(turn, position, dice, play, ctx))
        if play.position.mover_off == CHECKERS:
            record.winner = turn
            record.points = game_points(play.position, context.no_triple)
            return record
        position = play.position.flip()
        turn = 1 - turn
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
    raise RuntimeError("game did not finish")
