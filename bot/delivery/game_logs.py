"""The game logs the delivery worker has read, kept while their game goes on.

A board early in a game tells the turns played so far (:meth:`bot.delivery.worker.Delivery`'s
``_game_log``). The log only grows, turn by turn, so a log read whole at a turn is what every
board of that turn tells: the boards of the moves within the turn, and its other places, do not
read it again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from storage.results import LoggedTurn

GAME_LOGS_KEPT = 256
"""The games whose log is kept (a few kB each): more than the matches played at once."""


class GameLogs:
    """The newest whole log read of each game, per match and game number (the least recently
    used dropped beyond :data:`GAME_LOGS_KEPT`)."""

    def __init__(self) -> None:
        self._logs: OrderedDict[tuple[int, int], Sequence[LoggedTurn]] = OrderedDict()

    def at(self, match_id: int, game: int, turn_number: int) -> Sequence[LoggedTurn] | None:
        """The game's log when it was read whole at ``turn_number`` turns; ``None``: not kept."""
        known = self._logs.get((match_id, game))
        if known is None or len(known) != turn_number:
            return None
        self._logs.move_to_end((match_id, game))
        return known

    def keep(self, match_id: int, game: int, turn_number: int,
             turns: Sequence[LoggedTurn]) -> None:
        """Keep ``turns`` if they are the whole log at ``turn_number`` (turns 1 to it)."""
        if [t.turn for t in turns] != list(range(1, turn_number + 1)):
            return
        self._logs[(match_id, game)] = turns
        self._logs.move_to_end((match_id, game))
        while len(self._logs) > GAME_LOGS_KEPT:
            self._logs.popitem(last=False)
