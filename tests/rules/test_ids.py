"""Position IDs and Match IDs against the ones GNU Backgammon itself produced.

``data/gnubg_ids.json`` was written by gnubg (``data/make_gnubg_ids.py``); asymmetric
positions are included, since round trips alone cannot catch a mirrored or reversed bit order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.dice import RecordedDice
from rules.errors import InvalidNotation
from rules.match import Match
from rules.matchid import GAME_PLAYING, MatchId
from rules.position import Position
from rules.selfplay import selfplay_positions
from tests.rules.gnubg_bridge import from_gnubg, to_gnubg

DATA = json.loads((Path(__file__).parent / "data" / "gnubg_ids.json").read_text())


def test_start_position_id() -> None:
    assert Position.start().to_id() == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == Position.start()


@pytest.mark.parametrize("entry", DATA["positions"], ids=lambda e: e["id"])
def test_position_id_matches_gnubg(entry: dict) -> None:
    position = from_gnubg(entry["board"])
    assert position.to_id() == entry["id"]
    assert Position.from_id(entry["id"]) == position


def test_enough_asymmetric_positions() -> None:
    asymmetric = [e for e in DATA["positions"] if e["board"][0] != e["board"][1]]
    assert len(asymmetric) >= 20


@pytest.mark.parametrize("entry", DATA["matches"], ids=lambda e: e["id"])
def test_match_id_matches_gnubg(entry: dict) -> None:
    fields = MatchId(
        length=entry["length"],
        score0=entry["score"][0],
        score1=entry["score"][1],
        on_roll=entry["on_roll"],
        turn=entry["turn"],
        die1=entry["dice"][0],
        die2=entry["dice"][1],
        resigned=entry["resigned"],
        game_state=GAME_PLAYING,
    )
    assert fields.to_id() == entry["id"]
    decoded = MatchId.from_id(entry["id"])
    assert decoded.length == entry["length"]
    assert (decoded.score0, decoded.score1) == tuple(entry["score"])
    assert decoded.on_roll == entry["on_roll"] and decoded.turn == entry["turn"]
    assert sorted((decoded.die1, decoded.die2)) == sorted(entry["dice"])
    assert decoded.resigned == entry["resigned"]
    assert decoded.cube_log2 == 0 and decoded.cube_owner == 3 and decoded.crawford == 0


def test_at_least_ten_match_ids() -> None:
    assert len(DATA["matches"]) >= 10


def test_live_position_ids_against_gnubg() -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    for position in selfplay_positions(500, seed=3):
        assert position.to_id() == gnubg_nn.position_id(to_gnubg(position))


def test_live_match_state_against_gnubg() -> None:
    gnubg = pytest.importorskip("gnubg")
    match, _ = Match.new(5).start(RecordedDice([3, 3, 6, 2, 4, 1]))
    board = to_gnubg(match.position)
    cube = gnubg.cube_info(1, -1, match.turn, 5, match.score, 0, 0)
    info = gnubg.pos_info(match.turn, 0, 0, 1, tuple(match.dice))
    info["turn"] = match.turn
    assert match.gnubg_id() == gnubg.gnubg_id(board, cube, info)


@pytest.mark.parametrize(
    "text", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA=", "!!!!!!!!!!!!!!", "//////////////"]
)
def test_bad_position_ids_are_refused_clearly(text: str) -> None:
    with pytest.raises(InvalidNotation):
        Position.from_id(text)


@pytest.mark.parametrize("text", ["", "cAkgAAAAAAA", "cAkgAAAAAAAE=", "!!!!!!!!!!!!"])
def test_bad_match_ids_are_refused_clearly(text: str) -> None:
    with pytest.raises(InvalidNotation):
        MatchId.from_id(text)
