"""A computer player that thinks for a long time (holding its CPU), for the not-blocking test.

It lives in its own small module so the engine's worker process can import it when the player
is sent there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from computer.context import MONEY, MatchContext
from rules.position import Dice, Play, Position, legal_plays


@dataclass(frozen=True)
class SlowPlayer:
    seconds: float = 2.0
    name: str = "slow"

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        deadline = time.monotonic() + self.seconds
        spins = 0
        while time.monotonic() < deadline:  # busy, like an engine call: no sleeping
            spins += 1
        return legal_plays(position, dice)[0]
