"""The board image: ``render_board(position, *, ...) -> bytes`` (see :mod:`rendering.board`),
and for any tavli game ``render_table(TableView(...)) -> bytes`` (see :mod:`rendering.table`).

Pure Pillow code that knows nothing of Telegram or the database.
"""

from rendering.board import render_board
from rendering.geometry import Geometry, board_geometry
from rendering.table import (
    OPPOSITE_WAYS,
    SAME_WAY,
    Course,
    TableView,
    points_of,
    render_table,
    view_of_counts,
)
from rendering.theme import CLASSIC, HIGH_CONTRAST, THEMES, CheckerStyle, Theme

__all__ = [
    "CLASSIC",
    "HIGH_CONTRAST",
    "OPPOSITE_WAYS",
    "SAME_WAY",
    "THEMES",
    "CheckerStyle",
    "Course",
    "Geometry",
    "TableView",
    "Theme",
    "board_geometry",
    "points_of",
    "render_board",
    "render_table",
    "view_of_counts",
]
