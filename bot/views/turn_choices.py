"""What the turn keyboard offers, computed from a :class:`rules.match.Match` value (pure).

Tap-by-tap: the points a checker may leave, then the points it may reach with one die or several
(the same checker going on), always from :meth:`Match.next_moves`, which offers a single move
exactly when some completion reaches a legal final position. When a turn has only a few legal
plays in all, they are offered whole instead.
"""

from __future__ import annotations

from rules.games import format_play
from rules.match import Match, Phase
from rules.portes.turninput import Destination
from rules.portes.turninput import destinations as rules_destinations
from rules.position import Play


def sources(match: Match) -> list[int]:
    """The points (25 = bar) a checker may leave next, highest first."""
    seen: list[int] = []
    for move in match.next_moves():
        if move.from_point not in seen:
            seen.append(move.from_point)
    return sorted(seen, reverse=True)


def destinations(match: Match, from_point: int) -> list[Destination]:
    """Every point the checker on ``from_point`` may reach this turn (the rules' own
    :func:`rules.portes.turninput.destinations`; none outside a turn)."""
    if match.phase != Phase.PLAYING or match.dice is None:
        return []
    return rules_destinations(match.turn_input(), match.chosen, from_point)


def find_destination(match: Match, from_point: int, to_point: int, route: int = 0) -> Destination:
    for dest in destinations(match, from_point):
        if dest.to_point == to_point and dest.route == route:
            return dest
    raise LookupError(f"{from_point}/{to_point} is not offered")


def direct_plays(match: Match, limit: int) -> list[tuple[Play, str]]:
    """The whole legal plays with their text, when there are between 2 and ``limit`` of them and
    no move has been chosen yet; else an empty list (tap by tap)."""
    if match.phase != Phase.PLAYING or match.dice is None or match.chosen or limit < 2:
        return []
    plays = match.legal_plays()
    if not 2 <= len(plays) <= limit or not plays[0].moves:
        return []
    return [(p, format_play(match.position, match.dice, p.moves, match.options)) for p in plays]


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
