"""The board image: ``render_board(position, *, ...) -> bytes`` (see :mod:`rendering.board`).

Pure Pillow code that knows nothing of Telegram or the database.
"""

from rendering.board import render_board
from rendering.geometry import Geometry, board_geometry
from rendering.theme import CLASSIC, HIGH_CONTRAST, THEMES, CheckerStyle, Theme

__all__ = [
    "CLASSIC",
    "HIGH_CONTRAST",
    "THEMES",
    "CheckerStyle",
    "Geometry",
    "Theme",
    "board_geometry",
    "render_board",
]
