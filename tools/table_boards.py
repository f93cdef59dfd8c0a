"""The sample tavli boards in docs/rendering.md: a Plakoto game with pins, a Fevga game.

    python tools/table_boards.py     # rewrites docs/board-plakoto.png and docs/board-fevga.png

(with the project's virtual environment, from the repository's root). Then look at them and
commit them.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rendering import SAME_WAY, TableView, points_of, render_table  # noqa: E402
from rendering.table import OPPONENT, VIEWER  # noqa: E402

V, B = VIEWER, OPPONENT

# The viewer (white) pins a black checker on 20; black pins white on 13 (under two) and has
# just pinned the white checker on 8, coming from 3.
PLAKOTO = TableView(
    points_of({
        24: [V] * 6, 20: [B, V], 17: [V] * 3, 16: [V], 13: [V, B, B], 8: [V, B], 6: [V, V],
        1: [B] * 9, 9: [B, B],
    }),
    title="Plakoto · Πλακωτό",
    last_play=((3, 8),),
    dice=(5, 3),
    score=(2, 1, 5),
)
# Both sides have started round the same way; black is on roll with 6-6.
FEVGA = TableView(
    points_of({
        24: [V] * 11, 20: [V], 18: [V], 15: [V], 9: [V],
        12: [B] * 11, 10: [B], 7: [B], 5: [B], 2: [B],
    }),
    title="Fevga · Φεύγα",
    courses=SAME_WAY,
    viewer_on_roll=False,
    dice=(6, 6),
    score=(3, 2, 5),
)


def main() -> None:
    for name, view in (("plakoto", PLAKOTO), ("fevga", FEVGA)):
        path = ROOT / "docs" / f"board-{name}.png"
        path.write_bytes(render_table(view, image_format="png"))
        print(path)


if __name__ == "__main__":
    main()
