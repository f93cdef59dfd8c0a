"""What a turn offers tap by tap (pure): the points one checker may reach, and the whole plays
offered at once when a turn has only a few.

A checker's destinations are the turn input's own (:func:`rules.portes.turninput.destinations`):
a point reached by one die or several in a row is one destination, and two routes to it that
end in different positions (one hits on the way) are two, the later with a higher ``route``.
"""

from __future__ import annotations

from rules.match.flow import Match, Phase
from rules.portes.legal import Play
from rules.portes.turninput import Destination
from rules.portes.turninput import destinations as input_destinations

__all__ = ["Destination", "destinations", "offered_plays"]


def destinations(match: Match, from_point: int) -> list[Destination]:
    """Every point the checker on ``from_point`` may reach this turn, highest first (none
    outside a turn)."""
    if match.phase != Phase.PLAYING or match.dice is None:
        return []
    return input_destinations(match.turn_input(), match.chosen, from_point)


def offered_plays(match: Match, limit: int) -> list[Play]:
    """The whole legal plays offered at once, when there are between 2 and ``limit`` of them
    and no move has been chosen yet; else none (the turn is entered tap by tap)."""
    if match.phase != Phase.PLAYING or match.dice is None or match.chosen or limit < 2:
        return []
    plays = match.legal_plays()
    if not 2 <= len(plays) <= limit or not plays[0].moves:
        return []
    return list(plays)
