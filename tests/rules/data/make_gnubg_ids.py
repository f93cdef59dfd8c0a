"""Regenerate gnubg_ids.json: Position IDs and Match IDs produced by GNU Backgammon itself.

Run with the test extra installed: ``python tests/rules/data/make_gnubg_ids.py``. Boards are
written in gnubg's own layout (``[not on roll, on roll]``, 25 counts each, index 24 the bar) and
the IDs are what gnubg's ``position_id`` / ``match_id`` return for them, so the test compares
our encoders against gnubg's, not against ourselves.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import gnubg


def random_board(rng: random.Random) -> list[list[int]]:
    board = [[0] * 25, [0] * 25]
    occupied: set[int] = set()  # in the on-roll player's numbering
    for side in (1, 0):
        for _ in range(rng.randint(0, 15)):
            while True:
                i = rng.randrange(25)
                mirror = i if side == 1 else (23 - i if i < 24 else 99)
                if (
                    i == 24
                    or (side == 1 and i not in occupied)
                    or (side == 0 and mirror not in occupied)
                ):
                    break
                if side == 1 and board[1][i]:
                    break
                if side == 0 and board[0][i]:
                    break
            board[side][i] += 1
            if i < 24:
                occupied.add(i if side == 1 else 23 - i)
    # Drop any point both sides ended up on (keeps the board legal).
    for i in range(24):
        if board[1][i] and board[0][23 - i]:
            board[0][23 - i] = 0
    return board


def main() -> None:
    rng = random.Random(20261129)
    positions = []
    for _ in range(40):
        board = random_board(rng)
        positions.append({"board": board, "id": gnubg.position_id(board)})
    start = gnubg.position_from_id("4HPwATDgc/ABMA")
    positions.append({"board": [list(start[0]), list(start[1])], "id": "4HPwATDgc/ABMA"})

    matches = []
    for _ in range(16):
        length = rng.choice((1, 3, 5, 7))
        score = (rng.randrange(length), rng.randrange(length))
        on_roll = rng.randrange(2)
        resigned = rng.choice((0, 0, 1, 2, 3))
        turn = 1 - on_roll if resigned else on_roll
        dice = (0, 0) if rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6))
        cube = gnubg.cube_info(1, -1, on_roll, length, score, 0, 0)
        info = gnubg.pos_info(on_roll, resigned, 0, 1, dice)
        info["turn"] = turn
        matches.append(
            {
                "length": length,
                "score": list(score),
                "on_roll": on_roll,
                "turn": turn,
                "dice": list(dice),
                "resigned": resigned,
                "id": gnubg.match_id(cube, info),
            }
        )
    out = Path(__file__).with_name("gnubg_ids.json")
    out.write_text(json.dumps({"positions": positions, "matches": matches}, indent=1) + "\n")


if __name__ == "__main__":
    main()
