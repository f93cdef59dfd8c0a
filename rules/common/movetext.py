"""Printing moves in standard text, GNU Backgammon's style: ``24/18 13/11``, ``bar/22*``,
``6/off``, ``8/5(2)``, ``24/13``.

Moves are sorted from the back, a checker that plays several dice is written once (``24/13``;
with a hit in passing ``24/18*/13``), identical moves are grouped (``8/5(2)``), and a ``*``
follows each point where a blot is hit. Reading what players type is :mod:`rules.portes.notation`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.portes.board import BAR, OFF
from rules.portes.moves import Move


def point_text(point: int) -> str:
    """A point as move text names it: ``bar``, ``off`` or its number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def checker_paths(moves: Sequence[Move]) -> list[list[Move]]:
    """Group single moves into checker paths: a move continues a path that ends where it starts."""
    chains: list[list[Move]] = []
    for move in moves:
        for chain in chains:
            last = chain[-1]
            if last.to_point == move.from_point and last.to_point != OFF:
                chain.append(move)
                break
        else:
            chains.append([move])
    return chains


def _chain_text(chain: Sequence[Move], full_path: bool) -> str:
    parts = [point_text(chain[0].from_point)]
    for i, move in enumerate(chain):
        last = i == len(chain) - 1
        if last or full_path or move.hit:
            parts.append(point_text(move.to_point) + ("*" if move.hit else ""))
    return "/".join(parts)


def format_moves(moves: Sequence[Move], *, full_path: bool = False) -> str:
    """Standard text of a play: ``24/18 13/11``, ``bar/22*``, ``6/off``, ``8/5(2)``, ``24/13``.

    ``full_path`` writes every intermediate point (``24/18/13``), which is how two readings
    of the same short text are told apart. An empty play is written ``-`` (no move possible).
    """
    if not moves:
        return "-"
    chains = checker_paths(moves)
    chains.sort(key=lambda c: (-c[0].from_point, -c[-1].to_point))
    texts = [_chain_text(c, full_path) for c in chains]
    out: list[str] = []
    i = 0
    while i < len(texts):
        j = i
        while j < len(texts) and texts[j] == texts[i]:
            j += 1
        out.append(texts[i] if j - i == 1 else f"{texts[i]}({j - i})")
        i = j
    return " ".join(out)

