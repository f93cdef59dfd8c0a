"""The registry of games: each game's rules through one interface, its capabilities asked
instead of its name, and no position reaching another game's rules."""

from __future__ import annotations

import pytest

import rules.position
from rules.common.dice import Dice
from rules.common.errors import InvalidAction, WrongGame
from rules.game import GAMES, KINDS, TAVLI, find_game, find_kind, game_of, gnubg_kinds
from rules.match import Match
from rules.portes.notation import format_play, parse_play
from rules.portes.turninput import destinations
from rules.steps.board import parse_steps

STEP_GAMES = ("plakoto", "fevga", "nardy")


def test_every_game_is_registered_with_its_letter_and_kind() -> None:
    assert list(GAMES) == ["portes", "plakoto", "fevga", "nardy"]
    assert list(KINDS) == ["portes", "plakoto", "fevga", "tavli", "nardy"]
    assert {k.letter for k in KINDS.values()} == set("pkfvn")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_games_start_belongs_to_it_and_its_plays_too(key: str) -> None:
    game = find_game(key)
    start = game.start()
    assert game_of(start) is game and game.owns(start)
    plays = game.legal_plays(start, Dice(6, 5))
    assert plays and all(game_of(p.position) is game for p in plays)
    assert game.can_move(start, Dice(6, 5))


@pytest.mark.parametrize("key", STEP_GAMES)
def test_portes_rules_refuse_another_games_board(key: str) -> None:
    board = find_game(key).start()
    with pytest.raises(WrongGame):
        rules.position.legal_plays(board, Dice(6, 5))
    with pytest.raises(WrongGame):
        rules.position.TurnInput(board, Dice(6, 5))
    with pytest.raises(WrongGame):
        parse_play(board, Dice(6, 5), "24/18 24/19")
    with pytest.raises(WrongGame):
        format_play(board, Dice(6, 5), ())


def test_the_reviews_plakoto_board_gets_no_portes_hit() -> None:
    board = parse_steps("plakoto", "x 13:1 6:14; o 17:1 24:14")
    with pytest.raises(WrongGame):
        rules.position.legal_plays(board, (5, 1))
    assert [p.to_text() for p in game_of(board).legal_plays(board, (5, 1))] == [
        "13/8*/7", "13/8* 6/5"]


@pytest.mark.parametrize("key", STEP_GAMES)
def test_one_game_refuses_another_games_board(key: str) -> None:
    other = next(g for g in STEP_GAMES if g != key)
    with pytest.raises(WrongGame):
        find_game(key).legal_plays(find_game(other).start(), Dice(6, 5))
    with pytest.raises(WrongGame):
        find_game(key).legal_plays(find_game("portes").start(), Dice(6, 5))


def test_capabilities_say_what_a_game_has() -> None:
    portes, plakoto = find_game("portes").caps, find_game("plakoto").caps
    assert portes.bar_and_hits and portes.gnubg and portes.triple and not portes.pins
    assert plakoto.pins and not plakoto.bar_and_hits and not plakoto.gnubg
    assert (portes.max_resign(), portes.max_resign(no_triple=True), plakoto.max_resign()) == (
        3, 2, 2)
    assert gnubg_kinds() == ("portes",)
    assert TAVLI.triple and not TAVLI.gnubg and TAVLI.cafe_default and TAVLI.is_rotation
    assert not find_kind("portes").cafe_start and find_kind("nardy").cafe_start


def test_the_tavli_rotation_is_a_kind_of_match_not_a_game() -> None:
    assert "tavli" not in GAMES
    assert [TAVLI.game_at(n).key for n in range(4)] == ["portes", "plakoto", "fevga", "portes"]
    assert Match.new(3, game_type="tavli").game_key == "portes"


def test_an_unknown_game_is_refused_clearly() -> None:
    with pytest.raises(InvalidAction, match="Unknown game 'chess'"):
        find_game("chess")
    with pytest.raises(InvalidAction, match="Unknown game 'chess'"):
        Match.new(3, game_type="chess")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_checkers_destinations_come_from_the_turn_input(key: str) -> None:
    game = find_game(key)
    start = game.start()
    turn = game.turn_input(start, Dice(6, 5))
    found = destinations(turn, (), 24)
    reached = {m.to_point for move in turn.next_moves() if move.from_point == 24
               for m in (move,)}
    assert reached <= {d.to_point for d in found}
    assert all(d.moves[0].from_point == 24 for d in found)
    assert all(turn.position_after(d.moves) for d in found)
