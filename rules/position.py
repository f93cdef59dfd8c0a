"""Positions, dice, moves and plays, and the legal-play generator, under one name.

``from rules.position import Position, Dice, Move, Play, legal_plays, TurnInput`` is how the
rest of Portes reaches them. Each lives in its own module, bottom layer first:

* :mod:`rules.portes.board`: :class:`Position` (the 26 signed slots, the Position ID, fixtures);
* :mod:`rules.common.dice`: :class:`Dice`, a roll, and :data:`ALL_ROLLS`;
* :mod:`rules.portes.moves`: :class:`Move` and the single moves a die allows (entering, bearing
off);
* :mod:`rules.portes.legal`: :class:`Play` and :func:`legal_plays`, the one source of truth;
* :mod:`rules.portes.turninput`: :class:`TurnInput`, which single move may come next (the keyboard).
"""

from rules.common.dice import ALL_ROLLS, Dice
from rules.portes.board import BAR, CHECKERS, OFF, Position, parse_fixture
from rules.portes.legal import Play, legal_plays, legal_results
from rules.portes.moves import Move, apply_move
from rules.portes.turninput import TurnInput, next_moves

__all__ = [
    "ALL_ROLLS",
    "BAR",
    "CHECKERS",
    "OFF",
    "Dice",
    "Move",
    "Play",
    "Position",
    "TurnInput",
    "apply_move",
    "legal_plays",
    "legal_results",
    "next_moves",
    "parse_fixture",
]
