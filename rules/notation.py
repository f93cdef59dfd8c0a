"""Standard move text: printing a play so that it reads back, and reading what players type.

Printing is :func:`rules.movetext.format_moves` (GNU Backgammon's style); :func:`format_play`
adds the round trip: the short form unless it could be read as another play.

Reading is lenient (``24-18``, ``b/22``, ``25/22``, ``6/0``, ``6/o``, commas, missing stars,
``24/18 18/13`` or ``24/18/13`` or ``24/13`` for one checker playing both dice) but never
guesses: text that reads as several legal plays with different results is refused as
ambiguous, naming each reading.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.board import BAR, OFF, Position
from rules.dice import Dice
from rules.errors import AmbiguousPlay, IllegalPlay, InvalidNotation
from rules.legal import Play, legal_results
from rules.moves import Move, apply_single, single_moves
from rules.movetext import checker_paths, format_moves, point_text

__all__ = ["Hop", "format_moves", "format_play", "parse_hops", "parse_play"]

# -- printing -------------------------------------------------------------------------------


def format_play(position: Position, dice: Dice | tuple[int, int], moves: Sequence[Move]) -> str:
    """Text of a play that reads back as exactly this play in this position (round-trips).

    The short form ``24/13`` is used unless it could also be read as another play with a
    different result (a hit in passing on one route only); then every point is written.
    """
    text = format_moves(moves)
    if len(checker_paths(moves)) == len(moves):
        return text
    try:
        if parse_play(position, dice, text).position.board == _replay(position, moves):
            return text
    except InvalidNotation:
        pass
    return format_moves(moves, full_path=True)


def _replay(position: Position, moves: Sequence[Move]) -> tuple[int, ...]:
    board = position.board
    for move in moves:
        board = apply_single(board, move.from_point, move.to_point, move.hit)
    return board


# -- reading --------------------------------------------------------------------------------

_POINT = r"(?:bar|b|off|o|\d{1,2})"
_TOKEN = re.compile(
    rf"^(?P<path>{_POINT}\*?(?:[/\-]{_POINT}\*?)+)(?:\((?P<count>\d)\)|x(?P<count2>\d))?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Hop:
    """A checker going from one named point to the next, as typed; ``star``: a hit is written."""

    start: int
    end: int
    star: bool


def _hop_key(item: tuple[int, Hop]) -> tuple[int, int, int, bool]:
    cursor, hop = item
    return (cursor, hop.start, hop.end, hop.star)


def _read_point(text: str, *, first: bool) -> int:
    word = text.lower().rstrip("*")
    if word in ("bar", "b"):
        return BAR
    if word in ("off", "o"):
        return OFF
    value = int(word)
    if value == 25 and first:
        return BAR
    if value == 0 and not first:
        return OFF
    if not 1 <= value <= 24:
        raise InvalidNotation(f"There is no point {value}: points are 1-24, bar and off")
    return value


def parse_hops(text: str) -> list[Hop]:
    """Split move text into hops (a checker going from one named point to the next)."""
    cleaned = text.replace(",", " ").strip()
    if not cleaned:
        raise InvalidNotation("No move given: write it like 24/18 13/11")
    hops: list[Hop] = []
    for token in cleaned.split():
        match = _TOKEN.match(token)
        if not match:
            raise InvalidNotation(f"Cannot read {token!r}: write moves like 24/18, bar/22, 6/off")
        words = re.split(r"[/\-]", match["path"])
        points = [_read_point(w, first=i == 0) for i, w in enumerate(words)]
        stars = [w.endswith("*") for w in words]
        count = int(match["count"] or match["count2"] or "1")
        if not 1 <= count <= 4:
            raise InvalidNotation(f"Cannot repeat a move {count} times")
        for a, b in itertools.pairwise(points):
            if b == BAR or a == OFF or (b != OFF and b >= a):
                raise InvalidNotation(
                    f"{point_text(a)}/{point_text(b)}: checkers move from higher points to lower"
                )
        for _ in range(count):
            for k in range(len(points) - 1):
                hops.append(Hop(points[k], points[k + 1], stars[k + 1]))
    return hops


def _realisations(
    position: Position,
    dice: Dice,
    hops: list[Hop],
    finals: frozenset[tuple[int, ...]] | None,
) -> dict[tuple[int, ...], tuple[Move, ...]]:
    """Every way the hops can be played with the dice, by resulting board.

    With ``finals`` only results that are legal whole plays are kept; without, any complete
    realisation of the hops (used to explain why a text is refused).
    """
    results: dict[tuple[int, ...], tuple[Move, ...]] = {}
    visited: set[object] = set()
    n = len(hops)

    def walk(
        board: tuple[int, ...],
        remaining: tuple[int, ...],
        cursors: tuple[int, ...],
        moves: tuple[Move, ...],
    ) -> None:
        state = (board, remaining, tuple(sorted(zip(cursors, hops, strict=True), key=_hop_key)))
        if state in visited:
            return
        visited.add(state)
        if all(cursors[i] == hops[i].end for i in range(n)):
            if (finals is None or board in finals) and board not in results:
                results[board] = moves
            return
        for i, die in enumerate(remaining):
            if die in remaining[:i]:
                continue
            rest = remaining[:i] + remaining[i + 1 :]
            for src, dest, hit in single_moves(board, die, 25):
                for h in range(n):
                    hop = hops[h]
                    if cursors[h] != src or cursors[h] == hop.end:
                        continue
                    if h and hops[h - 1] == hop and cursors[h - 1] == cursors[h]:
                        continue  # identical hops at the same stage: try only the first
                    if dest == OFF:
                        if hop.end != OFF:
                            continue
                    elif hop.end != OFF and dest < hop.end:
                        continue
                    if dest == hop.end and hop.star and not hit:
                        continue
                    new_cursors = (*cursors[:h], dest, *cursors[h + 1 :])
                    walk(
                        apply_single(board, src, dest, hit),
                        rest,
                        new_cursors,
                        (*moves, Move(src, dest, die, hit)),
                    )

    walk(position.board, Dice(*dice).values(), tuple(h.start for h in hops), ())
    return results


def parse_play(position: Position, dice: Dice | tuple[int, int], text: str) -> Play:
    """Read a whole play typed by a player and return the legal :class:`Play` it means.

    Raises :class:`InvalidNotation` for text that is not move notation, :class:`IllegalPlay`
    when no legal play matches, and :class:`AmbiguousPlay` when several legal plays with
    different results match.
    """
    roll = Dice(*dice)
    finals = legal_results(position, roll)
    stripped = text.strip().lower()
    if stripped in ("-", "pass", "no move", ""):
        if finals == {position.board}:
            return Play((), position)
        if not stripped:
            raise InvalidNotation("No move given: write it like 24/18 13/11")
        raise IllegalPlay(f"You can move with {roll}: passing is not allowed")
    hops = parse_hops(text)
    found = _realisations(position, roll, hops, finals)
    if len(found) == 1:
        ((board, moves),) = found.items()
        return Play(moves, Position.unchecked(board))
    if len(found) > 1:
        readings = tuple(format_moves(m, full_path=True) for m in found.values())
        raise AmbiguousPlay(
            f"{text.strip()} could mean {' or '.join(readings)}: write the whole path",
            readings,
        )
    if _realisations(position, roll, hops, None):
        raise IllegalPlay(
            f"{text.strip()} is not a whole play with {roll}: you must play as many dice "
            "as you can (and the larger one if only one can be played)"
        )
    raise IllegalPlay(f"{text.strip()} is not a legal play with {roll}")
