"""The one module that imports ``gnubg_nn`` (GNU Backgammon's neural-net evaluator).

Everything here speaks our :class:`rules.position.Position`; the engine's own board layout never
leaves this module. Conventions, each verified by a test in ``tests/computer/test_engine.py``:

* gnubg's board is ``[opponent, mover]``: two 25-lists, index ``i`` = that side's point ``i + 1``
  in its own numbering, index 24 = that side's bar. The second list is the side **on roll**.
* ``gnubg_nn.probabilities(board, plies)`` returns ``(win, win gammon, win backgammon,
  lose gammon, lose backgammon)`` for the side on roll (before its dice are rolled); the gammon
  figures include backgammons. ``plies`` 0 is the plain net, 1 looks one roll ahead, and so on.
* ``gnubg_nn.moves(board, d1, d2)`` returns position keys of the boards after each legal play,
  from the **same** side's view (``[opponent, mover]``, not swapped); the set of boards equals our
  ``legal_plays`` (checked on 20,000 random positions).
* ``gnubg_nn.best_move(board, d1, d2, n=plies, b=1)`` returns ``(moves, key)`` where ``moves`` are
  ``(from, to)`` pairs (25 = bar, 0 = off) and ``key`` is the board after the play **swapped**
  (``[mover, opponent]``: the view of the side about to roll next).
* The extension does **not** release the GIL while it evaluates (measured: a Python thread makes
  no progress during a call), see :mod:`computer.aio`.

``gnubg_nn`` is imported on first use (:func:`nets`), not with this module: importing it loads
the nets (about 38 MB), which the bot's own process never needs (the engine runs in
:mod:`computer.aio`'s worker), and it is an optional extra (``pip install 'portes[computer]'``;
no wheels for Linux aarch64 or Python 3.14). :func:`available` says whether it is installed.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.position import CHECKERS, Dice, Position

GnubgBoard = list[list[int]]
EXTRA = "pip install 'portes[computer]'"
_nets: Any = None


class EngineMissing(RuntimeError):
    """gnubg-nn is not installed: the computer's stronger levels, hints and reviews need it."""


def available() -> bool:
    """Whether ``gnubg_nn`` can be imported (without importing it)."""
    return _nets is not None or importlib.util.find_spec("gnubg_nn") is not None


def nets() -> Any:
    """The ``gnubg_nn`` module, imported (its nets loaded) on first use."""
    global _nets
    if _nets is None:
        try:
            import gnubg_nn
        except ImportError as exc:
            raise EngineMissing(f"GNU Backgammon's nets are not installed: {EXTRA}") from exc
        _nets = gnubg_nn
    return _nets


def to_gnubg(position: Position) -> GnubgBoard:
    """Our mover-side position as gnubg's ``[opponent, mover]`` board (mover on roll)."""
    b = position.board
    opponent = [-b[25 - i] if b[25 - i] < 0 else 0 for i in range(1, 25)] + [-b[0]]
    mover = [b[i] if b[i] > 0 else 0 for i in range(1, 25)] + [b[25]]
    return [opponent, mover]


def from_gnubg(board: Sequence[Sequence[int]]) -> Position:
    """gnubg's ``[opponent, mover]`` board as our position seen from ``mover``."""
    opponent, mover = board
    slots = [0] * 26
    for i in range(24):
        slots[i + 1] += mover[i]
        slots[24 - i] -= opponent[i]
    slots[25] = mover[24]
    slots[0] = -opponent[24]
    return Position(slots)


@dataclass(frozen=True, slots=True)
class Probabilities:
    """Cubeless chances of one side, gnubg style: gammons include backgammons."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    def flipped(self) -> Probabilities:
        """The same chances seen from the other side."""
        return Probabilities(
            1.0 - self.win,
            self.lose_gammon,
            self.lose_backgammon,
            self.win_gammon,
            self.win_backgammon,
        )


def _over(position: Position) -> Probabilities:
    """Exact result of a finished game, for the side to move in ``position``."""
    if position.mover_off == CHECKERS:
        winner = position
        mover_won = True
    else:
        winner = position.flip()
        mover_won = False
    b = winner.board
    gammon = winner.opponent_off == 0
    backgammon = gammon and (b[0] < 0 or any(b[i] < 0 for i in range(1, 7)))
    won = Probabilities(1.0, float(gammon), float(backgammon), 0.0, 0.0)
    return won if mover_won else won.flipped()


def evaluate(position: Position, plies: int = 0) -> Probabilities:
    """Chances of the side to move in ``position``, before it rolls."""
    if position.is_game_over():
        return _over(position)
    w, wg, wb, lg, lb = nets().probabilities(to_gnubg(position), plies)
    return Probabilities(w, wg, wb, lg, lb)


def evaluate_after(position: Position, plies: int = 0) -> Probabilities:
    """Chances of the side that just played into ``position`` (a Play's resulting position).

    The engine evaluates the opponent on roll; the result is turned back to the player's view.
    """
    return evaluate(position.flip(), plies).flipped()


def engine_best(position: Position, dice: Dice | tuple[int, int], plies: int = 0) -> Position:
    """The position GNU Backgammon's own ``best_move`` (cubeless money play) leads to."""
    if position.is_game_over():
        return position
    result = nets().best_move(to_gnubg(position), dice[0], dice[1], n=plies, b=1)
    moves, key = result[0], result[1]
    if not moves:
        return position
    mover, opponent = nets().board_from_position_key(key)
    return from_gnubg([opponent, mover])


def engine_position_id(position: Position) -> str:
    """gnubg's Position ID of ``position`` (for cross-checks against ``Position.to_id``)."""
    return str(nets().position_id(to_gnubg(position)))
