"""How the game's calls are spaced in a group whose board a match is played on (pure): each tap
of its player is a call there, in a budget of 20 calls a minute (issue 27, item 5).

Up to three quarters of the window a call goes at once: the quiet seconds of an opponent's turn
in private leave room, and a tap just after them waits for nothing (each one waited a whole
spacing when the spacing began at half full: a tap on the group's board then took 2-3.4 s
however much room the minute had). From there the calls are spaced, more the fuller the
window (for 16 calls a minute: 0.9 s after the last with 13 in the window, 1.9 with 14, 2.8
with 15), up to its average rate (3.75 s) when it is full: the board's minute is not spent in
a burst followed by a wait of up to a minute for its first calls to leave the window.

A model of the bench's game (a player on the group's board tapping every 1.5 s, one or two
taps a turn, the other's turn 3-5 taps in private) put the 95th percentile of a tap's wait at
3.9 s spacing from half full, 2.7 s from three quarters at the next call's share, 1.2 s as
here; a player tapping without end waits 3.9 s in all three.
"""

from __future__ import annotations

from collections.abc import Iterable

FROM = 0.75
"""The share of the window's calls from which the calls are spaced."""


def spacing(times: Iterable[float], most: int, seconds: float, now: float,
            margin: float = 0.0) -> float:
    """Seconds until the next call may go: ``times`` are the calls counted in the window (of
    ``most`` calls in ``seconds``, widened by ``margin``)."""
    if most < 4 or seconds <= 0:
        return 0.0
    recent = [t for t in times if t > now - seconds - margin]
    start = int(most * FROM)
    if len(recent) < start:
        return 0.0
    fuller = min(1.0, (len(recent) - start) / (most - start))
    return max(0.0, max(recent) + fuller * seconds / most - now)
