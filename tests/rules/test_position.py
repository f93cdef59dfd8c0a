"""One test per rule of the rules page, on hand-built positions."""

from __future__ import annotations

import pytest

from rules.common.errors import IllegalPlay
from rules.portes.notation import format_moves
from rules.position import (
    ALL_ROLLS,
    Dice,
    Move,
    Position,
    apply_move,
    legal_plays,
    parse_fixture,
)
from tests.rules.conftest import pos


def texts(position: Position, dice: tuple[int, int]) -> set[str]:
    return {format_moves(p.moves) for p in legal_plays(position, dice)}


# -- the board -------------------------------------------------------------------------------


def test_start_position_has_fifteen_each_in_mirror_image() -> None:
    start = Position.start()
    assert start.mover_points() == {24: 2, 13: 5, 8: 3, 6: 5}
    assert start.opponent_points() == {24: 2, 13: 5, 8: 3, 6: 5}
    assert start.board[1] == -2  # their 24 is our 1
    assert start.mover_off == start.opponent_off == 0
    assert start.pips() == (167, 167)


def test_flip_hands_the_board_to_the_other_side() -> None:
    p = pos("x 24:1 6:3 bar:1; o 13:2 2:1 bar:2")
    flipped = p.flip()
    assert flipped.mover_points() == {13: 2, 2: 1, 25: 2}
    assert flipped.opponent_points() == {24: 1, 6: 3, 25: 1}
    assert flipped.flip() == p
    assert p.pips() == (24 + 18 + 25, 26 + 2 + 50)


def test_positions_are_immutable_and_hashable() -> None:
    p = Position.start()
    with pytest.raises(AttributeError):
        p.board = ()  # type: ignore[misc]
    assert {p, Position.start()} == {p}


def test_fixture_round_trip_and_repr() -> None:
    p = pos("x 24:2 13:4 bar:1; o 6:5 5:2")
    assert parse_fixture(p.to_fixture()) == p
    assert eval(repr(p), {"Position": Position}) == p
    assert p.mover_off == 15 - 7 and p.opponent_off == 15 - 7


def test_no_point_is_shared_by_both_sides() -> None:
    with pytest.raises(ValueError):
        pos("x 6:2; o 19:1")


def test_more_than_fifteen_checkers_is_refused() -> None:
    with pytest.raises(ValueError):
        pos("x 6:16; o 6:1")


# -- moving ----------------------------------------------------------------------------------


def test_opening_six_five_runs_a_back_checker() -> None:
    assert "24/13" in texts(Position.start(), (6, 5))
    assert len(legal_plays(Position.start(), (6, 5))) == 7


def test_doubles_are_played_four_times() -> None:
    plays = legal_plays(Position.start(), (3, 3))
    assert all(len(p.moves) == 4 for p in plays)
    assert "8/5(2) 6/3(2)" in texts(Position.start(), (3, 3))


def test_a_closed_point_cannot_be_landed_on() -> None:
    # Their 7 and 6 are our 18 and 19: with 6-5 the lone back checker is stuck.
    p = pos("x 24:1; o 7:2 6:2 12:11")
    assert texts(p, (6, 5)) == {"-"}


def test_a_blot_is_hit_and_goes_to_the_bar() -> None:
    p = pos("x 13:1 6:14; o 17:1 2:14")  # their 17 is our 8: a blot
    plays = {format_moves(pl.moves): pl for pl in legal_plays(p, (5, 1))}
    assert plays["13/8* 6/5"].position.opponent_bar == 1
    assert plays["13/8* 6/5"].position.board[8] == 1


def test_a_hit_in_passing() -> None:
    p = pos("x 13:1 2:14; o 15:1 20:14")  # their 15 is our 10: a blot on the way
    plays = texts(p, (3, 2))
    assert "13/10*/8" in plays  # hits in passing
    assert "13/8" in plays  # the other route


# -- the bar ---------------------------------------------------------------------------------


def test_bar_checker_must_enter_before_anything_else() -> None:
    p = pos("x bar:1 13:5 6:9; o 24:15")
    for play in legal_plays(p, (6, 1)):
        assert play.moves[0].from_point == 25
    assert "bar/24 13/7" in texts(p, (6, 1))


def test_entry_on_the_point_the_die_shows() -> None:
    p = pos("x bar:1 6:14; o 12:15")
    assert texts(p, (1, 2)) >= {"bar/24 6/4", "bar/23 6/5", "bar/22"}


def test_entry_with_one_entry_point_closed_uses_the_other_die() -> None:
    p = pos("x bar:1 6:14; o 1:2 12:13")  # their 1 is our 24: a 1 cannot enter
    assert texts(p, (1, 3)) == {"bar/21", "bar/22 6/5"}


def test_all_entry_points_closed_loses_the_turn() -> None:
    p = pos("x bar:1 6:14; o 1:2 2:2 3:2 4:2 5:2 6:2")
    for roll in ALL_ROLLS:
        plays = legal_plays(p, roll)
        assert len(plays) == 1 and plays[0].moves == () and plays[0].position == p


def test_two_on_the_bar_with_one_entry_open() -> None:
    p = pos("x bar:2 6:13; o 1:2 2:2 3:2 4:2 5:2 15:5")  # only our 19 (a 6) is open
    assert texts(p, (6, 1)) == {"bar/19"}
    for play in legal_plays(p, (6, 6)):
        assert len(play.moves) == 4
        assert [m.from_point for m in play.moves[:2]] == [25, 25]


# -- using the dice ---------------------------------------------------------------------------


def test_both_dice_must_be_played_when_possible() -> None:
    p = pos("x 13:2; o 24:15")
    assert all(len(play.moves) == 2 for play in legal_plays(p, (6, 3)))


def test_only_the_smaller_die_when_the_larger_cannot_be_played() -> None:
    p = pos("x 13:1; o 18:2 19:2 11:11")  # our 7 and 6 closed
    assert texts(p, (6, 1)) == {"13/12"}


def test_only_the_larger_die_when_the_smaller_cannot_be_played() -> None:
    p = pos("x 8:1; o 18:2 24:2 12:11")  # our 7 and our 1 closed
    assert texts(p, (6, 1)) == {"8/2"}


def test_larger_die_must_be_played_when_either_but_not_both() -> None:
    p = pos("x 13:1; o 19:2 10:13")  # our 6 closed: 13/8/6 and 13/11/6 both fail
    assert texts(p, (5, 2)) == {"13/8"}


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("x 13:1; o 16:2 10:13", {"-"}),  # our 9 closed: no 4 at all
        ("x 13:1; o 20:2 10:13", {"13/9"}),  # our 5 closed: one 4
        ("x 17:1; o 20:2 10:13", {"17/9"}),  # our 5 closed: two 4s
        ("x 17:1; o 24:2 10:13", {"17/5"}),  # our 1 closed: three 4s
        ("x 24:1; o 10:15", {"24/8"}),  # all four
    ],
)
def test_doubles_played_as_many_times_as_possible(fixture: str, expected: set[str]) -> None:
    assert texts(pos(fixture), (4, 4)) == expected


# -- bearing off ------------------------------------------------------------------------------


def test_bear_off_with_the_exact_die() -> None:
    p = pos("x 6:2 3:1; o 24:15")
    assert "6/off 3/off" in texts(p, (6, 3))


def test_bear_off_with_a_higher_die_from_the_highest_point() -> None:
    assert texts(pos("x 4:1 2:1; o 24:15"), (6, 5)) == {"4/off 2/off"}


def test_higher_die_cannot_bear_off_a_lower_point_while_a_higher_one_is_occupied() -> None:
    assert texts(pos("x 5:1 2:1; o 12:15"), (4, 1)) == {"5/off", "5/1 2/1"}


def test_no_bear_off_with_a_checker_outside_home() -> None:
    p = pos("x 7:1 6:1 1:1; o 12:15")
    # 7/6 then 6/off: the 6 may bear off only once the 7 has come home.
    assert texts(p, (6, 1)) == {"7/off", "7/1 6/5"}
    for play in legal_plays(p, (6, 1)):
        for i, move in enumerate(play.moves):
            if move.to_point == 0:
                assert any(m.from_point == 7 for m in play.moves[:i])
    assert all(m.to_point != 0 for pl in legal_plays(p, (5, 4)) for m in pl.moves)


def test_no_bear_off_with_a_checker_on_the_bar() -> None:
    p = pos("x bar:1 6:5 5:5 4:4; o 1:2 2:2 3:2 4:2 5:2 6:2 24:3")
    for roll in ALL_ROLLS:
        assert legal_plays(p, roll)[0].moves == ()


def test_hit_during_bear_off() -> None:
    p = pos("x 6:3 5:2 2:2; o 21:1 12:14")  # their 21 is our 4: a blot in our home
    assert "6/4*" in " ".join(texts(p, (2, 1)))


def test_a_hit_checker_must_come_home_before_bearing_off_again() -> None:
    p = pos("x bar:1 6:2 5:2 2:2; o 12:10 21:2")
    for roll in ALL_ROLLS:
        for play in legal_plays(p, roll):
            assert all(m.to_point != 0 for m in play.moves)


def test_bearing_off_all_fifteen_ends_the_game() -> None:
    p = pos("x 1:1; o 12:15")
    (play,) = legal_plays(p, (1, 2))
    assert play.position.mover_off == 15
    assert play.position.is_game_over()


# -- single moves ---------------------------------------------------------------------------


def test_apply_move_checks_the_rules() -> None:
    p = Position.start()
    assert apply_move(p, Move(24, 18, 6)).mover_points()[18] == 1
    with pytest.raises(IllegalPlay):
        apply_move(p, Move(24, 19, 5))  # their 6-point = our 19: closed
    with pytest.raises(IllegalPlay):
        apply_move(p, Move(6, 0, 6))


def test_dice_values() -> None:
    assert Dice(6, 6).values() == (6, 6, 6, 6)
    assert Dice(6, 5).values() == (6, 5)
    assert len(ALL_ROLLS) == 21
    with pytest.raises(IllegalPlay):
        Dice.of(0, 7)


def test_a_roll_is_written_the_higher_die_first() -> None:
    # players say "6-2", whichever die was drawn first
    assert (str(Dice(2, 6)), str(Dice(6, 2)), str(Dice(3, 3))) == ("6-2", "6-2", "3-3")
    assert Dice(2, 6).values() == (2, 6)  # the order drawn is kept for playing


def test_positions_pickle() -> None:
    import pickle

    p = pos("x bar:1 6:3; o 12:2")
    assert pickle.loads(pickle.dumps(p)) == p
