"""Benchmark of the board image: milliseconds per full-size board, encoding included, and size.

    python bench/render.py [--rounds N]

Renders a fixed set of scenes (start, mid-game with every kind of mark, doubles, bear-off,
fifteen on a point, both themes, both orientations, both perspectives) as the bot would: JPEG,
1280 x 908. The cached empty boards and sprites are built once before timing (the cold first
render is printed separately). Tavli boards drawn from a ``TableView`` (Plakoto with pins,
Fevga, with the game's name: 1280 x 972) come first, on the line
``render tavli: median_ms=<x> p95_ms=<x> max_kb=<x>``. The last line is exactly
``render: median_ms=<x> p95_ms=<x> max_kb=<x>`` (the Portes boards).

Reference figures (the project's 2-core machine, one run; runs vary with the machine's load)::

    render tavli: median_ms=5.11 p95_ms=6.69 max_kb=135.5
    render: median_ms=3.90 p95_ms=5.50

The first render in a process takes up to about half a second, while the caches fill.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rendering import CLASSIC, HIGH_CONTRAST, render_board
from rendering.table import OPPONENT, SAME_WAY, VIEWER, TableView, points_of, render_table
from rules.position import Move, Position, parse_fixture

MIDGAME = parse_fixture("x 24:1 22:1 13:4 8:2 6:3 5:2; o 2:12 6:1 13:1 bar:1")
SCENES: list[tuple[str, Position, dict[str, Any]]] = [
    ("start", Position.start(), {"opening_roll": (6, 5), "score": (0, 0, 5)}),
    ("start 6-5", Position.start(), {"dice": (6, 5), "score": (0, 0, 5)}),
    (
        "midgame, every mark",
        MIDGAME,
        {
            "dice": (3, 3),
            "score": (3, 1, 5),
            "last_play": [Move(13, 7, 6, True), Move(7, 6, 1)],
            "moves_made": [Move(25, 22, 3)],
            "chosen_point": 13,
            "targets": [10, 7],
        },
    ),
    ("midgame, high contrast", MIDGAME, {"dice": (4, 2), "theme": HIGH_CONTRAST}),
    (
        "midgame, other side, home left",
        MIDGAME.flip(),
        {"viewer_on_roll": False, "viewer_color": "black", "home": "left", "dice": (5, 1)},
    ),
    ("bar", parse_fixture("x 13:5 8:3 6:5 bar:2; o 24:2 13:5 8:3 6:4 bar:1"), {"dice": (2, 1)}),
    (
        "bear-off",
        parse_fixture("x 6:2 5:3 4:1; o 6:1 bar:1 22:2"),
        {"dice": (6, 6), "chosen_point": 6, "targets": [0], "score": (6, 6, 7)},
    ),
    ("fifteen on a point", parse_fixture("x 6:15; o 6:15"), {"dice": (1, 1)}),
    ("all off", parse_fixture("x ; o 6:3 5:2"), {"theme": CLASSIC, "score": (4, 2, 5)}),
]

V, B = VIEWER, OPPONENT
PLAKOTO = points_of({
    24: [V] * 6, 20: [B, V], 17: [V] * 3, 16: [V], 13: [V, B, B], 8: [V, B], 6: [V, V],
    1: [B] * 8, 9: [B, B], 3: [B],
})
FEVGA = points_of({
    24: [V] * 11, 20: [V], 18: [V], 15: [V], 9: [V], 12: [B] * 11, 10: [B], 7: [B], 5: [B], 2: [B],
})
TAVLI: list[tuple[str, TableView]] = [
    ("plakoto, three pins", TableView(PLAKOTO, title="Plakoto · Πλακωτό", dice=(5, 3),
                                      score=(2, 1, 5), chosen_point=17, targets={12, 14})),
    ("plakoto, high contrast, home left", TableView(
        PLAKOTO, title="Plakoto · Πλακωτό", theme=HIGH_CONTRAST, home="left",
        viewer_color="black", viewer_on_roll=False, dice=(6, 6))),
    ("fevga", TableView(FEVGA, title="Fevga · Φεύγα", courses=SAME_WAY, dice=(6, 6),
                        dice_used=(6,), score=(0, 0, 5))),
]


def bench_tavli(rounds: int) -> None:
    """Time the tavli boards and print their line."""
    start = time.perf_counter()
    for _, view in TAVLI:
        render_table(view)
    cold_ms = (time.perf_counter() - start) * 1000
    print(f"cold tavli (first render of each scene, caches built): {cold_ms:.0f} ms")
    times: list[float] = []
    sizes: dict[str, int] = {}
    for _ in range(rounds):
        for name, view in TAVLI:
            t0 = time.perf_counter()
            data = render_table(view)
            times.append((time.perf_counter() - t0) * 1000)
            sizes[name] = len(data)
    for name, size in sizes.items():
        print(f"  {name:34} {size / 1024:6.1f} KB")
    times.sort()
    median = statistics.median(times)
    p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
    max_kb = max(sizes.values()) / 1024
    print(f"{len(times)} renders of {len(TAVLI)} tavli scenes, 1280x972 JPEG")
    print(f"render tavli: median_ms={median:.2f} p95_ms={p95:.2f} max_kb={max_kb:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    bench_tavli(args.rounds)

    start = time.perf_counter()
    for _, position, options in SCENES:
        render_board(position, **options)
    cold_ms = (time.perf_counter() - start) * 1000
    print(f"cold (first render of each scene, caches built): {cold_ms:.0f} ms")

    times: list[float] = []
    sizes: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, position, options in SCENES:
            t0 = time.perf_counter()
            data = render_board(position, **options)
            times.append((time.perf_counter() - t0) * 1000)
            sizes[name] = len(data)
    for name, size in sizes.items():
        print(f"  {name:34} {size / 1024:6.1f} KB")
    times.sort()
    median = statistics.median(times)
    p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
    max_kb = max(sizes.values()) / 1024
    print(f"{len(times)} renders of {len(SCENES)} scenes, 1280x908 JPEG")
    print(f"render: median_ms={median:.2f} p95_ms={p95:.2f} max_kb={max_kb:.1f}")


if __name__ == "__main__":
    main()
