"""What the turn keyboard offers, computed from a :class:`rules.match.Match` value (pure).

Tap-by-tap: the points a checker may leave, then the points it may reach with one die or several
(the same checker going on), always from :meth:`Match.next_moves`, which offers a single move
exactly when some completion reaches a legal final position. When a turn has only a few legal
plays in all, they are offered whole instead.
"""

from __future__ import annotations

from rules.games import format_play
from rules.match import Match, Phase
from rules.offers import Destination, offered_plays
from rules.offers import destinations as rules_destinations
from rules.position import Play

__all__ = ["Destination", "destinations", "direct_plays", "example_play", "find_destination",
           "point_label", "sources"]


def sources(match: Match) -> list[int]:
    """The points (25 = bar) a checker may leave next, highest first."""
    seen: list[int] = []
    for move in match.next_moves():
        if move.from_point not in seen:
            seen.append(move.from_point)
    return sorted(seen, reverse=True)


def destinations(match: Match, from_point: int) -> list[Destination]:
    """Every point the checker on ``from_point`` may reach (the rules' own
    :func:`rules.offers.destinations`)."""
    return rules_destinations(match, from_point)


def find_destination(match: Match, from_point: int, to_point: int, route: int = 0) -> Destination:
    for dest in destinations(match, from_point):
        if dest.to_point == to_point and dest.route == route:
            return dest
    raise LookupError(f"{from_point}/{to_point} is not offered")


def direct_plays(match: Match, limit: int) -> list[tuple[Play, str]]:
    """The whole legal plays with their text, when they are offered at once
    (:func:`rules.offers.offered_plays`); else an empty list (tap by tap)."""
    dice = match.dice
    return [(p, format_play(match.position, dice, p.moves, match.options))
            for p in offered_plays(match, limit) if dice is not None]


def example_play(match: Match) -> str | None:
    """One legal play of the turn in notation (to show how one is written), or ``None``
    when there is no turn to play."""
    if match.phase != Phase.PLAYING or match.dice is None:
        return None
    plays = [p for p in match.legal_plays() if p.moves]
    if not plays:
        return None
    return format_play(match.position, match.dice, plays[0].moves, match.options)


def point_label(point: int) -> str:
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(point)
