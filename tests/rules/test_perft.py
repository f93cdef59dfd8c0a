"""Counts of distinct legal plays for known positions and rolls (``data/perft.txt``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.position import Dice, Position, legal_plays


def cases() -> list[tuple[str, Dice, int]]:
    out = []
    for line in (Path(__file__).parent / "data" / "perft.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        position_id, roll, count = line.split()
        a, b = roll.split("-")
        out.append((position_id, Dice(int(a), int(b)), int(count)))
    return out


CASES = cases()


def test_the_file_is_not_empty() -> None:
    assert len(CASES) >= 100


@pytest.mark.parametrize(("position_id", "roll", "count"), CASES)
def test_number_of_distinct_plays(position_id: str, roll: Dice, count: int) -> None:
    assert len(legal_plays(Position.from_id(position_id), roll)) == count
