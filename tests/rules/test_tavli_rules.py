"""One test per rule of Plakoto, Fevga and Long Nardy (``tavli-rules.md``), on crafted boards.

Fixtures: ``x ...; o ...`` with each side's points in its own numbering (x moves 24 -> 1);
``20:2p`` means those checkers pin one of the other side beneath them.
"""

from __future__ import annotations

from rules.common.scoring import GameKind
from rules.games import (
    GameOutcome,
    format_moves_so_far,
    format_play,
    game_outcome,
    legal_plays,
    parse_play,
    start_position,
)
from rules.portes.legal import Play
from rules.steps.board import StepsPosition, Variant, parse_steps
from rules.steps.options import FevgaOptions, NardyOptions, PlakotoOptions, RuleOptions

P, F, N = Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY


def results(variant: Variant, fixture: str, dice: tuple[int, int],
            options: RuleOptions | None = None) -> set[str]:
    position = parse_steps(variant, fixture)
    return {p.position.to_fixture() for p in legal_plays(position, dice, options)}


def texts(variant: Variant, fixture: str, dice: tuple[int, int],
          options: RuleOptions | None = None) -> set[str]:
    position = parse_steps(variant, fixture)
    return {p.to_text() for p in legal_plays(position, dice, options)}


# -- Plakoto ----------------------------------------------------------------------------------


def test_plakoto_starts_with_all_fifteen_on_the_opponents_one_point() -> None:
    start = start_position(P)
    assert start.to_fixture() == "x 24:15; o 24:15"
    assert start.board[24] == 15 and start.board[1] == -15  # their 24 is my 1: contrary moves


def test_plakoto_landing_on_a_lone_checker_pins_it() -> None:
    # Given a lone o checker on x's 8 (o's 17)
    # When x plays 13/8 with a 5
    # Then the o checker is pinned under x's, written with a star
    fixture = "x 13:1 6:14; o 17:1 24:14"
    assert "13/8* 6/5" in texts(P, fixture, (5, 1))
    assert "x 8:1p 6:13 5:1; o 24:14" in results(P, fixture, (5, 1))


def test_plakoto_a_checker_passing_over_a_lone_checker_does_not_pin_it() -> None:
    # Given a lone o checker on x's 8 (o's 17), and x's checker on 13
    fixture = "x 13:1 6:14; o 17:1 24:14"
    position = parse_steps(P, fixture)
    by_result = {p.position.to_fixture(): p for p in legal_plays(position, (5, 2))}
    # When x's checker lands on 8 with the 5 and goes on with the 2
    passing = by_result["x 6:15; o 24:14 17:1"]
    assert any(m.hit for m in passing.moves)  # the step on 8 pinned it for a moment
    # Then the o checker is free, and the play is written with no star
    assert format_play(position, (5, 2), passing.moves) == "13/6"
    assert parse_play(position, (5, 2), "13/6").position == passing.position
    # But when the checker stays on 8, the pin is written
    pinning = by_result["x 8:1p 6:13 4:1; o 24:14"]
    assert format_play(position, (5, 2), pinning.moves) == "13/8* 6/4"
    # And mid-turn, after 13/8 and 8/6, the moves so far have no star either
    assert format_moves_so_far(position, (5, 2), passing.moves) == "13/6"
    assert format_moves_so_far(position, (5, 2), pinning.moves[:1]) == "13/8*"


def test_plakoto_a_pinned_checker_cannot_move() -> None:
    # x's checker on 10 lies under an o checker: only the checker on 20 may move
    plays = texts(P, "x 20:1; o 15:1p 24:13", (2, 1))
    assert plays == {"20/17"}


def test_plakoto_the_pinned_checker_is_free_once_the_pinner_has_left() -> None:
    # o's lone checker on x's 8 is pinned by x's one checker; x moves it on
    after = results(P, "x 8:1p 2:14; o 24:14", (3, 1))
    assert "x 4:1 2:14; o 24:14 17:1" in after  # 8/5/4: the o checker stands alone again


def test_plakoto_stacking_on_ones_own_pinning_point_is_allowed() -> None:
    assert "13/8 6/5" in texts(P, "x 13:1 8:1p 6:13; o 24:14", (5, 1))


def test_plakoto_a_point_with_an_opposing_checker_on_a_pinned_one_is_closed() -> None:
    # o pins x's checker on x's 8 (o's 17): x cannot land there
    assert "13/8" not in " ".join(texts(P, "x 13:1 2:13; o 17:1p 24:14", (5, 1)))


def test_plakoto_two_opposing_checkers_close_a_point() -> None:
    assert texts(P, "x 13:1; o 17:2 24:13", (5, 5)) == {"-"}


def test_plakoto_a_pinned_checker_at_home_counts_as_home_for_bearing_off() -> None:
    # x's checker on 3 is pinned (o on top), the rest home: x may bear off
    fixture = "x 5:2 1:12; o 22:1p 10:14"
    assert "5/off(2)" in texts(P, fixture, (5, 5))
    # ... unless the option says a pinned checker at home stops bearing off (Ludii)
    blocks = RuleOptions(plakoto=PlakotoOptions(plakoto_pinned_blocks_bearoff=True))
    assert not any("off" in t for t in texts(P, fixture, (5, 5), blocks))


def test_plakoto_a_pinned_checker_outside_home_stops_bearing_off() -> None:
    assert not any("off" in t for t in texts(P, "x 5:2 1:12; o 14:1p 10:14", (6, 5)))


def test_plakoto_a_higher_die_bears_off_only_when_no_checker_stands_higher() -> None:
    # x's pinned checker on 5 stands higher than the free one on 3: a 6 cannot bear off from 3
    assert texts(P, "x 3:1; o 20:1p 24:14", (6, 6)) == {"-"}


def test_plakoto_pinning_the_mother_wins_two_points() -> None:
    # o's last checker on its start (x's 1) is pinned and x has left his own start
    plays = [p for p in legal_plays(parse_steps(P, "x 8:1 3:1 2:13; o 24:1 10:14"), (2, 1))
             if "1*" in p.to_text()]
    assert plays
    for play in plays:
        assert game_outcome(play.position) == GameOutcome(True, GameKind.MOTHER, 2)


def test_plakoto_no_win_while_the_pinner_still_has_checkers_on_his_start() -> None:
    after = parse_steps(P, "x 24:1 1:1p 2:13; o 10:14")
    assert game_outcome(after) is None
    # ... and the win comes once he has left it, the mother still pinned
    assert game_outcome(parse_steps(P, "x 20:1 1:1p 2:13; o 10:14")) == GameOutcome(
        True, GameKind.MOTHER, 2
    )


def test_plakoto_both_mothers_pinned_is_a_draw() -> None:
    after = parse_steps(P, "x 1:1p 2:13; o 1:1p 10:13")
    assert game_outcome(after) == GameOutcome(None, None, 0)


def test_plakoto_by_default_the_whole_play_is_made_after_pinning_the_mother() -> None:
    fixture = "x 4:1 3:1 2:13; o 24:1 10:14"
    default = texts(P, fixture, (2, 1))
    assert all(len(t.split()) >= 1 for t in default)
    assert "3/1* 4/3" in default or "4/3 3/1*" in default or "4/1*" in default
    ends = RuleOptions(plakoto=PlakotoOptions(plakoto_mother_ends_turn=True))
    # The option: the pin ends the play at once, the other die lapses
    assert "3/1*" in texts(P, fixture, (2, 1), ends)


def test_plakoto_scores_two_for_a_gammon_and_never_three() -> None:
    gammon = parse_steps(P, "x ; o 3:15")  # o still has checkers in x's home: no triple
    assert game_outcome(gammon) == GameOutcome(True, GameKind.GAMMON, 2)
    single = parse_steps(P, "x ; o 3:14")
    assert game_outcome(single) == GameOutcome(True, GameKind.SINGLE, 1)


# -- Fevga ------------------------------------------------------------------------------------


def test_fevga_starts_in_opposite_corners_and_both_move_the_same_way() -> None:
    start = start_position(F)
    assert start.board[24] == 15 and start.board[12] == -15
    assert isinstance(start, StepsPosition)
    assert start.flip().board[24] == 15 and start.flip().board[12] == -15
    after = parse_steps(F, "x 24:14 18:1; o 24:15").flip()
    assert after.opponent_points() == {24: 14, 18: 1}


def test_fevga_a_single_checker_holds_a_point() -> None:
    # o's lone checker on its 5 is x's 17: x cannot land on it
    assert "24/17" not in " ".join(texts(F, "x 24:14 20:1; o 5:1 24:14", (4, 3)))
    assert texts(F, "x 20:1 1:14; o 5:1 24:14", (3, 3)) == {"-"}  # 20/17 is all there was


def test_fevga_only_one_checker_leaves_the_start_until_it_reaches_their_quarter() -> None:
    assert texts(F, "x 24:15; o 24:15", (6, 5)) == {"24/13"}
    assert texts(F, "x 24:14 20:1; o 24:15", (2, 1)) == {"20/17"}


def test_fevga_when_the_first_checker_is_blocked_nothing_else_moves() -> None:
    # The runner on 18 finds 12 (their start) and 13 (their lone checker's) closed for 6 and 5
    assert texts(F, "x 24:14 18:1; o 24:14 1:1", (6, 5)) == {"-"}


def test_fevga_once_the_first_checker_arrives_later_dice_move_others() -> None:
    # 16/11 brings the first checker into their quarter; the 3 may then leave the start
    assert "24/21 16/11" in texts(F, "x 24:14 16:1; o 24:15", (5, 3))


def test_fevga_first_until_11_makes_the_first_checker_pass_their_start() -> None:
    option = RuleOptions(fevga=FevgaOptions(fevga_first_until=11))
    # 17/12 reaches their quarter (12), not past their start (11)
    assert "24/21 17/12" in texts(F, "x 24:14 17:1; o 22:15", (5, 3))
    assert "24/21 17/12" not in texts(F, "x 24:14 17:1; o 22:15", (5, 3), option)
    # a checker on 12 has arrived by default, not with 11: it must move first
    assert "24/20 24/21" in " ".join(texts(F, "x 24:14 12:1; o 22:15", (4, 3))) or \
        "24/21 24/20" in " ".join(texts(F, "x 24:14 12:1; o 22:15", (4, 3)))
    assert all("12/" in t for t in texts(F, "x 24:14 12:1; o 22:15", (4, 3), option))


def test_fevga_nobody_holds_all_six_points_of_his_starting_quarter() -> None:
    fixture = "x 24:3 23:2 22:2 21:2 20:2 10:4; o 24:15"
    quarter = range(19, 25)
    assert not any(_holds(p, quarter) for p in legal_plays(parse_steps(F, fixture), (5, 1)))
    off = RuleOptions(fevga=FevgaOptions(fevga_start_quarter=False))
    assert any(_holds(p, quarter) for p in legal_plays(parse_steps(F, fixture), (5, 1), off))


def _holds(play: Play, points: range) -> bool:
    return all(play.position.board[p] > 0 for p in points)


def test_fevga_a_block_in_front_of_all_their_checkers_must_be_opened_when_a_play_can() -> None:
    # All of o on its 20 (x's 8); x holds x's 7..2, right in front of them
    fixture = "x 7:2 6:2 5:2 4:2 3:2 2:2 1:3; o 20:15"
    six = range(2, 8)
    plays = legal_plays(parse_steps(F, fixture), (1, 1))
    assert plays and not any(_holds(p, six) for p in plays)
    off = RuleOptions(fevga=FevgaOptions(fevga_unblock=False))
    assert any(_holds(p, six) for p in legal_plays(parse_steps(F, fixture), (1, 1), off))


def test_fevga_the_nardy_reading_forbids_a_prime_with_nobody_past_it() -> None:
    fixture = "x 24:6 19:1 18:1 17:1 16:1 15:1 10:4; o 24:15"
    nardy = RuleOptions(fevga=FevgaOptions(fevga_prime="nardy"))
    six = range(15, 21)
    assert any(_holds(p, six) for p in legal_plays(parse_steps(F, fixture), (4, 4)))
    assert not any(_holds(p, six) for p in legal_plays(parse_steps(F, fixture), (4, 4), nardy))


def test_fevga_scores_two_when_the_loser_has_borne_off_none() -> None:
    assert game_outcome(parse_steps(F, "x ; o 24:15")) == GameOutcome(True, GameKind.GAMMON, 2)


# -- Long Nardy -------------------------------------------------------------------------------


def test_nardy_takes_one_checker_from_the_head_a_turn() -> None:
    assert texts(N, "x 24:14 20:1; o 24:15", (2, 1)) >= {"24/22 20/19", "20/17"}
    assert not any(t.count("24/") > 1 for t in texts(N, "x 24:14 20:1; o 24:15", (2, 2)))


def test_nardy_first_turn_doubles_take_two_from_the_head() -> None:
    assert texts(N, "x 24:15; o 24:15", (6, 6)) == {"24/18(2)"}
    assert texts(N, "x 24:15; o 24:15", (4, 4)) == {"24/16(2)"}
    assert "24/18(2)" in texts(N, "x 24:15; o 24:15", (3, 3))
    assert texts(N, "x 24:15; o 24:15", (5, 5)) == {"24/4"}
    only_6_4 = RuleOptions(nardy=NardyOptions(nardy_head_doubles=(6, 4)))
    assert texts(N, "x 24:15; o 24:15", (3, 3), only_6_4) == {"24/15"}


def test_nardy_no_six_points_in_a_row_unless_an_opposing_checker_is_ahead() -> None:
    fixture = "x 24:9 21:1 20:1 18:1 17:1 16:1 15:1; o 24:15"  # o all on its head (x's 12)
    six = range(15, 21)
    assert not any(_holds(p, six) for p in legal_plays(parse_steps(N, fixture), (5, 1)))
    ahead = "x 24:9 21:1 20:1 18:1 17:1 16:1 15:1; o 24:14 1:1"  # one of o past (x's 13)
    assert any(_holds(p, six) for p in legal_plays(parse_steps(N, ahead), (5, 1)))
    off = RuleOptions(nardy=NardyOptions(nardy_prime=False))
    assert any(_holds(p, six) for p in legal_plays(parse_steps(N, fixture), (5, 1), off))


def test_nardy_block_checked_at_the_end_lets_a_play_pass_through_one() -> None:
    fixture = "x 24:9 20:1 18:1 17:1 16:1 15:1 14:1; o 24:15"
    at_end = RuleOptions(nardy=NardyOptions(prime_check="end"))
    step = texts(N, fixture, (1, 4))
    end = texts(N, fixture, (1, 4), at_end)
    assert "20/19/15" not in step and "20/15" not in step
    assert "20/15" in end  # 20/19 makes six in a row for a moment, 19/15 breaks it


def test_nardy_scores_mars_two() -> None:
    assert game_outcome(parse_steps(N, "x ; o 18:15")) == GameOutcome(True, GameKind.GAMMON, 2)
    assert game_outcome(parse_steps(N, "x ; o 18:1")) == GameOutcome(True, GameKind.SINGLE, 1)
