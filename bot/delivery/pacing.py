"""How the game's calls are spaced in a group whose board a match is played on (pure): each tap
of its player is a call there, in a budget of 20 calls a minute (issue 27, item 5).

Up to half the window a call goes at once: the quiet seconds of an opponent's turn in private
leave room, and a tap just after them waits for nothing. From there the calls are spaced, more
the fuller the window, up to its average rate (3.2 s for 19 calls a minute) when it is full: the
board's minute is not spent in a burst followed by a wait of up to a minute for its first calls
to leave the window.

How full the window is counts only the calls still in it one average spacing from now: a call
about to leave frees its room before the spacing would end. Counting every call in the window
(the first version, spacing from three quarters) made a tap wait a whole average spacing (3.2 s)
whenever the window was full for a moment, although its oldest call left it a second later.

A model of the bench's game (``bench/delivery.py --only fallback``: a player on the group's
board tapping every 1.5 s, one to four taps a turn, the other's turn 1-8 taps in private; the
match's card and first board in the window at the start), 300 games of 80 turns: the 95th
percentile of a game's taps was 3.16 s in half the games counting every call and spacing from
three quarters, 2.53 s (over 3 s in 5 % of the games) counting the calls that stay and spacing
from half; without spacing, 1.5 s in half the games but over 3 s in a fifth, and 6.4 s at worst.
"""

from __future__ import annotations

from collections.abc import Iterable

FROM = 0.5
"""The share of the window's calls from which the calls are spaced."""


def spacing(times: Iterable[float], most: int, seconds: float, now: float,
            margin: float = 0.0) -> float:
    """Seconds until the next call may go: ``times`` are the calls counted in the window (of
    ``most`` calls in ``seconds``, widened by ``margin``); the window's fill counts those still
    in it one average spacing (``seconds / most``) from ``now``."""
    if most < 4 or seconds <= 0:
        return 0.0
    average = seconds / most
    staying = [t for t in times if t > now - seconds - margin + average]
    start = int(most * FROM)
    if len(staying) < start:
        return 0.0
    fuller = min(1.0, (len(staying) - start) / (most - start))
    return max(0.0, max(staying) + fuller * average - now)


def half_spent(times: Iterable[float], most: int, seconds: float, now: float,
               margin: float = 0.0) -> bool:
    """Whether the window (``most`` calls in ``seconds``, widened by ``margin``) holds at least
    the share from which the calls are spaced (:data:`FROM`): a turn's new board there (two
    calls) would keep the next mover waiting behind the second."""
    return sum(1 for t in times if t > now - seconds - margin) >= int(most * FROM)
