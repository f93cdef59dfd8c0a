"""A computer player that thinks until it is let go (holding its CPU), for the not-blocking test.

It lives in its own small module so the engine's worker process can import it when the player
is sent there. It creates the file ``thinking`` when it starts, then spins until the file
``release`` exists (the test creates it once it has seen what it wanted while the computer
thinks), or, as a hang guard, for ``most`` seconds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from computer.context import MONEY, MatchContext
from rules.position import Dice, Play, Position, legal_plays


@dataclass(frozen=True)
class SlowPlayer:
    thinking: str
    release: str
    most: float = 60.0
    name: str = "slow"

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        Path(self.thinking).touch()
        gate = Path(self.release)
        give_up = time.monotonic() + self.most
        # busy, like an engine call: no sleeping
        while not gate.exists() and time.monotonic() < give_up:
            pass
        return legal_plays(position, dice)[0]
