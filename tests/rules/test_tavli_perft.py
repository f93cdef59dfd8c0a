"""Counts of distinct legal plays for known Plakoto, Fevga and Long Nardy positions and rolls
(``data/tavli_perft.txt``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.common.dice import Dice
from rules.steps.board import parse_steps
from rules.steps.legal import legal_plays


def cases() -> list[tuple[str, str, Dice, int]]:
    out = []
    for line in (Path(__file__).parent / "data" / "tavli_perft.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        game, fixture, roll, count = (part.strip() for part in line.split("|"))
        a, b = roll.split("-")
        out.append((game, fixture, Dice(int(a), int(b)), int(count)))
    return out


CASES = cases()


def test_the_file_covers_every_start_and_roll() -> None:
    assert len(CASES) >= 63


@pytest.mark.parametrize(("game", "fixture", "roll", "count"), CASES)
def test_number_of_distinct_plays(game: str, fixture: str, roll: Dice, count: int) -> None:
    assert len(legal_plays(parse_steps(game, fixture), roll)) == count
