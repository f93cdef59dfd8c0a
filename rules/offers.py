"""What a turn offers tap by tap (pure): the points one checker may reach, and the whole plays
offered at once when a turn has only a few.

A checker's destinations come from the turn input's :meth:`next_moves`, which offers a single
move exactly when some completion reaches a legal final position; a point reached by one die
or several in a row (the same checker going on) is one destination, and two routes to it that
end in different positions (one hits on the way) are two, the later with a higher ``route``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.match import Match, Phase
from rules.position import Move, Play


@dataclass(frozen=True)
class Destination:
    """Where the checker on a point may go, and the single moves that take it there."""

    to_point: int
    moves: tuple[Move, ...]
    route: int = 0

    @property
    def hit(self) -> bool:
        return any(m.hit for m in self.moves)


def destinations(match: Match, from_point: int) -> list[Destination]:
    """Every point the checker on ``from_point`` may reach this turn, highest first (none
    outside a turn)."""
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
    return [Destination(to_point, path, route)
            for to_point in sorted(found, reverse=True)
            for route, (path, _) in enumerate(found[to_point])]


def offered_plays(match: Match, limit: int) -> list[Play]:
    """The whole legal plays offered at once, when there are between 2 and ``limit`` of them
    and no move has been chosen yet; else none (the turn is entered tap by tap)."""
    if match.phase != Phase.PLAYING or match.dice is None or match.chosen or limit < 2:
        return []
    plays = match.legal_plays()
    if not 2 <= len(plays) <= limit or not plays[0].moves:
        return []
    return list(plays)
