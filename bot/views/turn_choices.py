"""What the turn keyboard offers, computed from a :class:`rules.match.Match` value (pure).

Tap-by-tap: the points a checker may leave, then the points it may reach with one die or several
(the same checker going on), always from :meth:`Match.next_moves`, which offers a single move
exactly when some completion reaches a legal final position. When a turn has only a few legal
plays in all, they are offered whole instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.games import format_play
from rules.match import Match, Phase
from rules.position import Move, Play


@dataclass(frozen=True)
class Destination:
    """Where the checker on ``from_point`` may go, and the single moves that take it there."""

    to_point: int
    moves: tuple[Move, ...]
    variant: int = 0

    @property
    def hit(self) -> bool:
        return any(m.hit for m in self.moves)


def sources(match: Match) -> list[int]:
    """The points (25 = bar) a checker may leave next, highest first."""
    seen: list[int] = []
    for move in match.next_moves():
        if move.from_point not in seen:
            seen.append(move.from_point)
    return sorted(seen, reverse=True)


def destinations(match: Match, from_point: int) -> list[Destination]:
    """Every point the checker on ``from_point`` may reach, with one die or several in a row.

    When two routes to the same point end in different positions (one hits on the way), both
    are offered, the later with a higher ``variant``.
    """
    if match.phase != Phase.PLAYING or match.dice is None:
        return []
    turn_input = match.turn_input()
    found: dict[int, list[tuple[tuple[Move, ...], object]]] = {}
    frontier: list[tuple[tuple[Move, ...], int]] = [((), from_point)]
    while frontier:
        nxt: list[tuple[tuple[Move, ...], int]] = []
        for path, point in frontier:
            for move in turn_input.next_moves((*match.chosen, *path)):
                if move.from_point != point:
                    continue
                new_path = (*path, move)
                board = turn_input.position_after((*match.chosen, *new_path))
                routes = found.setdefault(move.to_point, [])
                if any(result == board for _, result in routes):
                    continue
                routes.append((new_path, board))
                if move.to_point != 0:
                    nxt.append((new_path, move.to_point))
        frontier = nxt
    out: list[Destination] = []
    for to_point in sorted(found, reverse=True):
        for variant, (path, _) in enumerate(found[to_point]):
            out.append(Destination(to_point, path, variant))
    return out


def find_destination(match: Match, from_point: int, to_point: int, variant: int = 0) -> Destination:
    for dest in destinations(match, from_point):
        if dest.to_point == to_point and dest.variant == variant:
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
