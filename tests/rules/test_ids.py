"""Position IDs and Match IDs against the ones GNU Backgammon itself produced.

``data/gnubg_ids.json`` was written by gnubg (``data/make_gnubg_ids.py``); asymmetric
positions are included, since round trips alone cannot catch a mirrored or reversed bit order.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from oracles.gnubg_bridge import from_gnubg, to_gnubg
from rules.dice import Dice, RecordedDice
from rules.errors import InvalidNotation
from rules.match import Match, Phase
from rules.matchid import GAME_PLAYING, MatchId
from rules.position import Position
from rules.selfplay import selfplay_positions

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


# -- Match IDs at a resignation and at the match's end, as gnubg writes them ----------------

OPENING_2_1 = [1, 2, 3, 4, 5, 6] * 3
"""Opening roll 1 for player 0, 2 for player 1: player 1 starts with 2-1."""


def test_match_id_with_a_resignation_pending_keeps_the_game_playing() -> None:
    """gnubg's own Match ID for a 5-point match, player 1 on roll with 2-1, offering a single
    game: the state stays "playing" (``cCOlAAAAAAAE``, state "resigned", loads in gnubg as
    "No game is being played")."""
    match, _ = Match.new(5).start(RecordedDice(OPENING_2_1))
    offered, _ = match.offer_resignation(1, 1)
    assert offered.match_id() == "cCGlAAAAAAAE"
    fields = MatchId.from_id(offered.match_id())
    assert (fields.game_state, fields.resigned, fields.on_roll, fields.turn) == (1, 1, 1, 0)


def test_match_id_after_a_match_won_past_its_length() -> None:
    """A 1-point match won 3-0 by an accepted triple: gnubg keeps 3-0, the resignation and the
    roll (``cGMlADAAAAAE``); capping the score at 1-0 lost what happened."""
    source = RecordedDice(OPENING_2_1)
    match, _ = Match.new(1).start(source)
    offered, _ = match.offer_resignation(1, 3)
    over, _ = offered.accept_resignation(0, source)
    assert over.score == (3, 0) and over.winner == 0
    assert over.match_id() == "cGMlADAAAAAE"


def gnubg_after(gnubg: object, start_id: str, *commands: str) -> str:
    """gnubg's own ``PositionID:MatchID`` after loading ``start_id`` and running ``commands``."""
    run = gnubg.command  # type: ignore[attr-defined]
    run("set player 0 human")
    run("set player 1 human")
    run("new match 1")
    gnubg.set_gnubg_id(start_id)  # type: ignore[attr-defined]
    for command in commands:
        run(command)
    return f"{gnubg.position_id()}:{gnubg.match_id()}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("length", [1, 3, 5])
@pytest.mark.parametrize("points", [1, 2, 3])
def test_resignation_ids_against_gnubg(length: int, points: int) -> None:
    """Offer, then accept, side by side with gnubg itself (when the match goes on, both start
    a new game with their own opening roll, so only the offer and a match's end compare)."""
    gnubg = pytest.importorskip("gnubg")
    source = RecordedDice(OPENING_2_1)
    match, _ = Match.new(length).start(source)
    offered, _ = match.offer_resignation(1, points)
    assert offered.gnubg_id() == gnubg_after(gnubg, match.gnubg_id(), f"resign {points}")
    over, _ = offered.accept_resignation(0, source)
    if over.is_over:
        assert over.gnubg_id() == gnubg_after(
            gnubg, match.gnubg_id(), f"resign {points}", "accept"
        )


def test_match_won_by_bearing_off_against_gnubg() -> None:
    gnubg = pytest.importorskip("gnubg")
    last = replace(
        Match.new(1), phase=Phase.PLAYING, game=1, turn=1, dice=Dice(2, 1),
        position=Position.from_points({1: 1}, {1: 1}),
    )
    over, _ = last.play(1, "1/off", RecordedDice([]))
    assert over.is_over and over.match_id() == MatchId.from_id(over.match_id()).to_id()
    assert over.gnubg_id() == gnubg_after(gnubg, last.gnubg_id(), "move 1/off")
