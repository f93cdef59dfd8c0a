"""Computer players. Each returns one of ``legal_plays(position, dice)``, always.

Players are small frozen values, safe to share between matches and to send to a worker process:
they hold no mutable state. Where a player uses chance (noise, the random player), the random
numbers come from its ``seed`` mixed with the position and the dice ("deterministic noise", as
GNU Backgammon offers), so a decision can be replayed exactly and a player may be pickled.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from computer.context import MONEY, MatchContext
from computer.engine import available, engine_best
from computer.evaluation import rank_plays
from computer.heuristic import tips_score
from rules.position import Dice, Play, Position, legal_plays

LEVELS = ("easy", "medium", "strong")
"""The levels a person can choose."""
BENCH_PLAYERS = ("random", "easy", "medium", "strong", "gnubg0")
"""Everything :func:`make_player` knows, including the two yardsticks of the benchmark."""
NEEDS_NETS = frozenset({"medium", "strong", "gnubg0"})
"""The players that need gnubg-nn (the ``computer`` extra); easy and random need nothing."""


def playable_levels() -> tuple[str, ...]:
    """The levels this installation can play: all of them with gnubg-nn, else easy alone."""
    return LEVELS if available() else tuple(x for x in LEVELS if x not in NEEDS_NETS)


@runtime_checkable
class ComputerPlayer(Protocol):
    """What the match flow needs from a computer player."""

    @property
    def name(self) -> str: ...

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        """One of ``legal_plays(position, dice)`` for the side to move."""
        ...


def decision_rng(seed: int, position: Position, dice: Dice | tuple[int, int]) -> random.Random:
    """A random source fixed by the seed, the position and the dice."""
    data = bytes(c & 0xFF for c in position.board) + bytes((dice[0], dice[1]))
    return random.Random(seed * 0x1_0000_0000 + zlib.crc32(data))


def _by_position(plays: list[Play], target: Position) -> Play:
    for play in plays:
        if play.position == target:
            return play
    raise RuntimeError(f"engine chose a position not among our legal plays: {target.to_fixture()}")


@dataclass(frozen=True, slots=True)
class RandomPlayer:
    """A uniformly random legal play (a yardstick for the benchmark, not a level)."""

    seed: int = 0
    name: str = "random"

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        plays = legal_plays(position, dice)
        return decision_rng(self.seed, position, dice).choice(plays)


@dataclass(frozen=True, slots=True)
class NetPlayer:
    """GNU Backgammon's neural net, judged by what a play is worth at the match score.

    ``plies``: 0 = the plain net on every play; 1 = the best few looked at one roll further.
    ``noise``: a normal error of this standard deviation (points per game) added to every play's
    value before choosing, the way gnubg's weaker levels play: usually sensible, sometimes a
    mistake a person would also make (a close alternative chosen, or a blot left in the wrong
    place), never nonsense, because plays far worse than the best stay far worse.
    """

    plies: int = 1
    noise: float = 0.0
    seed: int = 0
    name: str = "strong"
    candidates: int = 5
    threshold: float = 0.16

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        plays = legal_plays(position, dice)
        if len(plays) == 1:
            return plays[0]
        ranked = rank_plays(
            position,
            dice,
            context,
            plies=self.plies,
            candidates=self.candidates,
            threshold=self.threshold,
            plays=plays,
        )
        if self.noise <= 0:
            return ranked[0].play
        rng = decision_rng(self.seed, position, dice)
        return max(ranked, key=lambda r: r.equity + rng.gauss(0.0, self.noise)).play


@dataclass(frozen=True, slots=True)
class Gnubg0Player:
    """Plain GNU Backgammon: its own ``best_move`` at 0-ply, cubeless money play, no match sense.

    The engine's choice is mapped back to our play by the resulting position.
    """

    plies: int = 0
    name: str = "gnubg0"

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        plays = legal_plays(position, dice)
        if len(plays) == 1:
            return plays[0]
        return _by_position(plays, engine_best(position, dice, self.plies))


@dataclass(frozen=True, slots=True)
class TipsPlayer:
    """A club player who knows the six tips on the rules page and nothing else.

    Every play is scored by :func:`computer.heuristic.tips_score` (make points, mind your blots,
    the 5, 4 and 7 points, get the back checkers moving, run when far ahead, count the shots);
    ``noise`` adds a little human inconsistency.
    """

    noise: float = 1.0
    seed: int = 0
    name: str = "easy"

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        plays = legal_plays(position, dice)
        if len(plays) == 1:
            return plays[0]
        rng = decision_rng(self.seed, position, dice)
        return max(plays, key=lambda p: tips_score(p.position) + rng.gauss(0.0, self.noise))


MEDIUM_NOISE = 0.05


def make_player(level: str, seed: int = 0) -> ComputerPlayer:
    """A player by name: ``easy``, ``medium``, ``strong`` (the levels), ``random``, ``gnubg0``.

    ``seed`` only matters for players that use chance (easy, medium, random).
    """
    if level == "strong":
        return NetPlayer(plies=1, name="strong")
    if level == "medium":
        return NetPlayer(plies=0, noise=MEDIUM_NOISE, seed=seed, name="medium")
    if level == "easy":
        return TipsPlayer(seed=seed, name="easy")
    if level == "random":
        return RandomPlayer(seed=seed)
    if level == "gnubg0":
        return Gnubg0Player()
    raise ValueError(f"unknown computer player {level!r}; choose from {', '.join(BENCH_PLAYERS)}")


def portes_player(level: str, seed: int) -> ComputerPlayer:
    """Portes in a tavli match: the net's medium or strong level when gnubg-nn is installed,
    else easy."""
    if level == "medium" and available():
        return NetPlayer(plies=0, noise=0.05, seed=seed, name="medium")
    if level == "strong" and available():
        return NetPlayer(plies=1, name="strong")
    return TipsPlayer(seed=seed, name=level)
