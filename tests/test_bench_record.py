"""A strength run kept on disk (``bench/steps_strength.py --record``): a run stopped and started
again plays only the games it has not played, gives the figures of one uninterrupted run, and
refuses a record of another experiment rather than mix the two."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench._strength_record import Game, Record
from bench.steps_strength import run_pair
from rules.steps.board import Variant

LEVELS = ("random", "easy")


def test_a_resumed_run_plays_only_the_missing_games_and_matches_one_run(tmp_path: Path) -> None:
    whole = run_pair(Variant.FEVGA, LEVELS, 4, seed=3, jobs=1)
    path = tmp_path / "fevga-random-easy-seed3.jsonl"
    first = run_pair(Variant.FEVGA, LEVELS, 2, seed=3, jobs=1, record=path)
    assert [g.index for g in first] == [0, 1]
    # a run killed while writing its third game leaves half a line: that game is played again
    with path.open("a") as out:
        out.write('{"i":2,"points":')
    resumed = run_pair(Variant.FEVGA, LEVELS, 4, seed=3, jobs=1, record=path)
    assert [g.points for g in resumed] == [g.points for g in whole]
    assert [len(g.think_b) for g in resumed] == [len(g.think_b) for g in whole]
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 4 + 1  # the header, four games, the broken line kept apart
    again = Record.open(path, Variant.FEVGA, LEVELS, 3)
    assert sorted(g.index for g in again.games) == [0, 1, 2, 3]


def test_a_record_of_another_experiment_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "record.jsonl"
    Record.open(path, Variant.FEVGA, LEVELS, 3).add(Game(0, 1.0, [], [(12.34, 5.0)]))
    with pytest.raises(SystemExit, match="seed"):
        Record.open(path, Variant.FEVGA, LEVELS, 4)
    kept = Record.open(path, Variant.FEVGA, LEVELS, 3).games
    assert kept == [Game(0, 1.0, [], [(12.3, 5.0)])]  # think times in tenths of a millisecond
