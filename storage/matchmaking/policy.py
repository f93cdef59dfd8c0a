"""How "find me an opponent" pairs: the rating window and how it widens, the cap on waiting
requests, the vacation allowance. One frozen value, given to :class:`storage.usecases.UseCases`
(``play=``); the bot builds it from its settings.

The window: two requests of the same game and time per move are paired when their players'
global ratings in that game differ by at most the window of the one that has waited longer::

    window(waited) = base + step * floor(waited / every)     while waited < anyone_after
    window(waited) = any difference                          from anyone_after on

With the defaults: 100 points at once, 200 after ten minutes, 300 after twenty... 600 after
fifty minutes, and anyone after an hour. A request just made is paired at once with a waiting
one whose window covers it; the periodic job (:meth:`MatchmakingCases.pair_waiting`) pairs the
requests whose windows have widened since.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True)
class PlayPolicy:
    base: float = 100.0
    """The rating difference accepted at once."""
    step: float = 100.0
    """Added to the window every :attr:`every` of waiting."""
    every: timedelta = timedelta(minutes=10)
    anyone_after: timedelta = timedelta(hours=1)
    """From this wait on, any rating is accepted."""
    cap: int = 3
    """Waiting requests one player may have at once (different games or times)."""
    stuck_after: timedelta = timedelta(minutes=2)
    """A pairing whose challenge was not made by then (its instance died) waits again."""
    vacation_days: int = 14
    """Vacation days each player has per calendar year (UTC)."""
    vacation_longest: int = 14
    """The longest single vacation, in days."""

    def window(self, waited: timedelta) -> float | None:
        """The rating difference accepted after waiting ``waited``; ``None``: any."""
        if waited >= self.anyone_after:
            return None
        steps = max(0, int(waited / self.every))
        return self.base + self.step * steps

    def levels(self) -> list[tuple[timedelta, float | None]]:
        """Each wait at which the window widens, with the window from then on (the last:
        ``anyone_after``, any rating)."""
        found: list[tuple[timedelta, float | None]] = []
        waited = timedelta(0)
        while waited < self.anyone_after:
            found.append((waited, self.window(waited)))
            waited += self.every
        found.append((self.anyone_after, None))
        return found
