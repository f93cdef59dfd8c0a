"""Competitions, pure: a group league's round robin and standings, a cup's bracket.

No I/O, no clock, no randomness: players are opaque integers (the storage layer's Telegram
user ids), results are values, and everything here is a function of its arguments::

    rounds = round_robin([11, 22, 33, 44], double=True)     # six rounds of two pairings
    table = standings([11, 22, 33, 44], results)             # ordered rows, ties broken
    bracket = Bracket.seeded([7, 3, 5, 1, 9])                # by rating, byes to the top seeds

The tie-breaks are documented in ``docs/competitions.md`` and on :func:`standings`.
"""

from rules.competition.cup import Bracket, BracketGame, bracket_size, seed_order
from rules.competition.roundrobin import Pairing, round_robin
from rules.competition.standings import (
    LEAGUE_MAX,
    LEAGUE_MIN,
    Result,
    Row,
    standings,
)

__all__ = [
    "LEAGUE_MAX",
    "LEAGUE_MIN",
    "Bracket",
    "BracketGame",
    "Pairing",
    "Result",
    "Row",
    "bracket_size",
    "round_robin",
    "seed_order",
    "standings",
]
