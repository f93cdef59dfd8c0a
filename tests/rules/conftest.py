from __future__ import annotations

from rules.position import Position, parse_fixture


def pos(text: str) -> Position:
    """Fixture position: ``"x 24:2 13:5; o 6:5 bar:1"`` (each side in its own numbering)."""
    return parse_fixture(text)
