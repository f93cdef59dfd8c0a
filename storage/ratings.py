"""The FIBS rating formula (pure arithmetic, no I/O).

From the FIBS ``help formula`` page (quoted in the Backgammon FAQ, section 14 "FIBS ratings",
and by Patti Beadles on rec.games.backgammon; bkgm.com/rgb/rgb.cgi?view+1093): two players rated
``r1`` and ``r2`` play an ``n``-point match.

- ``D = abs(r1 - r2)``
- ``P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)``: the probability that the underdog wins;
- ``P = 1 - P_upset`` if the underdog wins, ``P = P_upset`` if the favourite wins;
- for each player ``K = max(1, 5 - experience / 100)``; the winner gains ``4 * K * sqrt(n) * P``,
  the loser loses ``4 * K_loser * sqrt(n) * P``;
- ``experience`` is the sum of the lengths of every match the player finished before this one.
  Every player starts at 1500 with experience 0.

So two experienced players of equal rating exchange exactly 2 points over a 1-point match.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0
START_EXPERIENCE = 0
PROVISIONAL_BELOW = 10
"""A rating is shown as provisional until this many rated matches."""
LISTED_FROM = 3
"""``/top`` lists players with at least this many rated matches."""


def deleted_player(player_id: int) -> bool:
    """Whether this id is a deleted player's stand-in (``/forgetme``: Telegram user ids are
    positive, a stand-in's negative): their matches are rated, nothing of them is stored."""
    return player_id < 0


@dataclass(frozen=True)
class Standing:
    """One player's rating in one scope."""

    rating: float = START_RATING
    experience: int = START_EXPERIENCE
    matches: int = 0


def upset_probability(difference: float, length: int) -> float:
    """The probability that the lower rated player wins an ``length``-point match."""
    return 1.0 / (math.pow(10.0, abs(difference) * math.sqrt(length) / 2000.0) + 1.0)


def k_factor(experience: int) -> float:
    """The experience multiplier: 5 for a newcomer, down to 1 from 400 experience on."""
    return max(1.0, 5.0 - experience / 100.0)


def rate(winner: Standing, loser: Standing, length: int) -> tuple[Standing, Standing]:
    """The winner's and the loser's standings after the winner won a ``length``-point match."""
    upset = upset_probability(winner.rating - loser.rating, length)
    p = upset if winner.rating > loser.rating else 1.0 - upset
    if winner.rating == loser.rating:
        p = 0.5
    swing = 4.0 * math.sqrt(length) * p
    return (
        Standing(winner.rating + k_factor(winner.experience) * swing,
                 winner.experience + length, winner.matches + 1),
        Standing(loser.rating - k_factor(loser.experience) * swing,
                 loser.experience + length, loser.matches + 1),
    )
