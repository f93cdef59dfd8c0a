"""Standard move text: printing a play so that it reads back, and reading what players type.

Printing is :func:`rules.common.movetext.format_moves` (GNU Backgammon's style); :func:`format_play`
adds the round trip: the short form unless it could be read as another play.

Reading is lenient (``24-18``, ``b/22``, ``25/22``, ``6/0``, ``6/o``, commas, missing stars,
``24/18 18/13`` or ``24/18/13`` or ``24/13`` for one checker playing both dice) and reads GNU
Backgammon's own text (``8/5*(2)``, ``24/20*/16(2)``: the star belongs to the first checker, the
count to the whole path). It never guesses: when text reads as several legal plays with different
results, the one reading that hits exactly where stars are written is taken (``24/13`` passes a
blot by, ``24/18*/13`` hits it, as gnubg writes them); otherwise it is refused as ambiguous,
naming each reading.

Reading costs time linear in the text: commas and runs of spaces are folded in one pass, and text
longer than :data:`MAX_PLAY_TEXT` (every legal play written in full fits) is refused before
anything else is done with it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rules.common.dice import Dice
from rules.common.errors import (
    AmbiguousPlay,
    IllegalPlay,
    InvalidNotation,
    PlayTooLong,
    UnreadablePlay,
)
from rules.common.movetext import checker_paths, format_moves, point_text
from rules.portes.board import BAR, OFF, Position, require_portes
from rules.portes.legal import Play, legal_results
from rules.portes.moves import Move, apply_single, single_moves

__all__ = [
    "MAX_PLAY_TEXT",
    "Hop",
    "format_moves",
    "format_play",
    "looks_like_play",
    "parse_hops",
    "parse_play",
]

# -- printing -------------------------------------------------------------------------------


def format_play(position: Position, dice: Dice | tuple[int, int], moves: Sequence[Move]) -> str:
    """Text of a play that reads back as exactly this play in this position (round-trips).

    The short form ``24/13`` is used unless it could also be read as another play with a
    different result (a hit in passing on one route only); then every point is written.
    """
    require_portes(position)
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

MAX_MOVES = 4
"""A play is at most four single moves (doubles)."""
LONGEST_MOVE = "bar/22*"
"""The longest single move written in full: a 3-letter start, a slash, a 2-digit point and a star
(``off`` never takes a star, and no move goes from the bar straight off)."""
MAX_PLAY_TEXT = MAX_MOVES * len(LONGEST_MOVE) + (MAX_MOVES - 1)
"""31 characters: four moves of the longest kind, one space between. Every legal play written in
full fits (a path such as ``bar/24*/23*/22*/21*`` and a count such as ``8/5(2)`` are shorter
than its moves one by one); text is measured after commas and runs of spaces are folded into
single spaces."""

_POINT = r"(?:bar|b|off|o|μπάρα|μπαρα|έξω|εξω|\d{1,2})"
"""A point as typed: its number, ``bar`` or ``off``, or the Greek words boards show for them
(``μπάρα/22*``, ``6/έξω``)."""
_TOKEN = re.compile(
    rf"(?P<path>{_POINT}\*?(?:[/\-]{_POINT}\*?)+)(?:\((?P<count>\d)\)|x(?P<count2>\d))?",
    re.IGNORECASE,
)
_PASS = ("-", "pass", "no move")


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
    if word in ("bar", "b", "μπάρα", "μπαρα"):
        return BAR
    if word in ("off", "o", "έξω", "εξω"):
        return OFF
    value = int(word)
    if value == 25 and first:
        return BAR
    if value == 0 and not first:
        return OFF
    if not 1 <= value <= 24:
        raise InvalidNotation(f"There is no point {value}: points are 1-24, bar and off")
    return value


def _folded(text: str) -> str:
    """The text with commas and runs of spaces folded into single spaces, refused past the cap."""
    folded = " ".join(text.replace(",", " ").split())
    if len(folded) > MAX_PLAY_TEXT:
        raise PlayTooLong(
            f"That is {len(folded)} characters; a play written in full takes at most "
            f"{MAX_PLAY_TEXT} (four moves like bar/22*)"
        )
    return folded


def looks_like_play(text: str) -> bool:
    """Whether text is written as moves (``24/18 13/11``), whatever its length: a cheap check,
    linear in the text, before a chat message is taken as a play."""
    words = text.replace(",", " ").split()
    return bool(words) and all(_TOKEN.fullmatch(word) for word in words)


def parse_hops(text: str) -> list[Hop]:
    """Split move text into hops (a checker going from one named point to the next).

    A count repeats the whole path (``24/20*/16(2)``: two checkers 24/20/16); its stars belong
    to the first checker only, since the second finds the point already taken.
    """
    cleaned = _folded(text)
    if not cleaned:
        raise InvalidNotation("No move given: write it like 24/18 13/11")
    hops: list[Hop] = []
    for token in cleaned.split(" "):
        match = _TOKEN.fullmatch(token)
        if not match:
            raise InvalidNotation(f"Cannot read {token!r}: write moves like 24/18, bar/22, 6/off")
        words = re.split(r"[/\-]", match["path"])
        points = [_read_point(w, first=i == 0) for i, w in enumerate(words)]
        stars = [w.endswith("*") for w in words]
        count = int(match["count"] or match["count2"] or "1")
        if not 1 <= count <= MAX_MOVES:
            raise InvalidNotation(f"Cannot repeat a move {count} times")
        for a, b in itertools.pairwise(points):
            if b == BAR or a == OFF or (b != OFF and b >= a):
                raise InvalidNotation(
                    f"{point_text(a)}/{point_text(b)}: checkers move from higher points to lower"
                )
        for copy in range(count):
            for k in range(len(points) - 1):
                hops.append(Hop(points[k], points[k + 1], stars[k + 1] and copy == 0))
    return hops


def _advances(
    board: tuple[int, ...], remaining: tuple[int, ...], hops: list[Hop], cursors: tuple[int, ...]
) -> Iterator[tuple[Move, int, tuple[int, ...]]]:
    """Each single move that takes hop ``h`` one die further: (move, h, dice left)."""
    for i, die in enumerate(remaining):
        if die in remaining[:i]:
            continue
        rest = remaining[:i] + remaining[i + 1 :]
        for src, dest, hit in single_moves(board, die, 25):
            for h, hop in enumerate(hops):
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
                yield Move(src, dest, die, hit), h, rest


Reading = dict[tuple[int, ...], tuple[tuple[Move, ...], bool]]
"""Ways of playing the hops, by resulting board: (moves, literal), literal when every hit is
where a star is written."""


def _realisations(
    position: Position,
    dice: Dice,
    hops: list[Hop],
    finals: frozenset[tuple[int, ...]] | None,
) -> Reading:
    """Every way the hops can be played with the dice, by resulting board.

    With ``finals`` only results that are legal whole plays are kept; without, any complete
    realisation of the hops (used to explain why a text is refused).
    """
    results: Reading = {}
    visited: set[object] = set()

    def walk(
        board: tuple[int, ...],
        remaining: tuple[int, ...],
        cursors: tuple[int, ...],
        moves: tuple[Move, ...],
        literal: bool,
    ) -> None:
        key = tuple(sorted(zip(cursors, hops, strict=True), key=_hop_key))
        if (board, remaining, literal, key) in visited:
            return
        visited.add((board, remaining, literal, key))
        if all(c == hop.end for c, hop in zip(cursors, hops, strict=True)):
            known = results.get(board)
            if (finals is None or board in finals) and (known is None or literal > known[1]):
                results[board] = (moves, literal)
            return
        for move, h, rest in _advances(board, remaining, hops, cursors):
            written = not move.hit or (move.to_point == hops[h].end and hops[h].star)
            walk(
                apply_single(board, move.from_point, move.to_point, move.hit),
                rest,
                (*cursors[:h], move.to_point, *cursors[h + 1 :]),
                (*moves, move),
                literal and written,
            )

    if len(hops) <= len(Dice(*dice).values()):  # each hop takes a die at least
        walk(position.board, Dice(*dice).values(), tuple(h.start for h in hops), (), True)
    return results


def _the_reading(text: str, found: Reading) -> Play:
    """The one play ``found`` means: the only reading, or the only literal one; else refused."""
    if len(found) > 1:
        literal = {board: read for board, read in found.items() if read[1]}
        if len(literal) == 1:
            found = literal
    if len(found) == 1:
        ((board, (moves, _)),) = found.items()
        return Play(moves, Position.unchecked(board))
    readings = tuple(format_moves(moves, full_path=True) for moves, _ in found.values())
    raise AmbiguousPlay(
        f"{text} could mean {' or '.join(readings)}: write the whole path", readings
    )


def parse_play(position: Position, dice: Dice | tuple[int, int], text: str) -> Play:
    """Read a whole play typed by a player and return the legal :class:`Play` it means.

    Raises :class:`InvalidNotation` for text that is not move notation (:class:`PlayTooLong`
    past :data:`MAX_PLAY_TEXT`), :class:`IllegalPlay` when the moves can be made but are not a
    whole legal play, :class:`UnreadablePlay` (an :class:`IllegalPlay` that does not call the
    text illegal) when no legal play reads as it, and :class:`AmbiguousPlay` when several legal
    plays with different results match.
    """
    roll = Dice(*dice)
    cleaned = _folded(text)
    finals = legal_results(position, roll)
    if cleaned.lower() in (*_PASS, ""):
        if finals == {position.board}:
            return Play((), position)
        if not cleaned:
            raise InvalidNotation("No move given: write it like 24/18 13/11")
        raise IllegalPlay(f"You can move with {roll}: passing is not allowed")
    hops = parse_hops(cleaned)
    found = _realisations(position, roll, hops, finals)
    if found:
        return _the_reading(cleaned, found)
    if _realisations(position, roll, hops, None):
        raise IllegalPlay(
            f"{cleaned} is not a whole play with {roll}: you must play as many dice "
            "as you can (and the larger one if only one can be played)"
        )
    raise UnreadablePlay(f"{cleaned} could not be read as a legal play with {roll}")
