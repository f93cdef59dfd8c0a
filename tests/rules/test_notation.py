"""Standard move text: printing, lenient reading, refusals with reasons, round trips."""

from __future__ import annotations

import pytest

from rules.common.errors import AmbiguousPlay, IllegalPlay, InvalidNotation, PlayTooLong
from rules.portes.notation import format_moves, format_play, parse_play
from rules.position import ALL_ROLLS, Move, Position, legal_plays
from rules.selfplay import selfplay_positions
from tests.rules.conftest import pos
from tests.sampling import sample_or_full

START = Position.start()


@pytest.mark.parametrize(
    ("moves", "text"),
    [
        ((Move(24, 18, 6), Move(13, 11, 2)), "24/18 13/11"),
        ((Move(25, 22, 3, True),), "bar/22*"),
        ((Move(6, 0, 6),), "6/off"),
        ((Move(8, 5, 3), Move(8, 5, 3), Move(6, 3, 3), Move(6, 3, 3)), "8/5(2) 6/3(2)"),
        ((Move(24, 18, 6), Move(18, 13, 5)), "24/13"),
        ((Move(24, 18, 6, True), Move(18, 13, 5)), "24/18*/13"),
        ((Move(13, 7, 6, True), Move(6, 1, 5)), "13/7* 6/1"),
        ((), "-"),
    ],
)
def test_format(moves: tuple[Move, ...], text: str) -> None:
    assert format_moves(moves) == text


def test_full_path_format() -> None:
    assert format_moves((Move(24, 18, 6), Move(18, 13, 5)), full_path=True) == "24/18/13"


@pytest.mark.parametrize(
    "text",
    ["24/18 13/11", "24-18 13-11", "13/11, 24/18", " 24/18   13/11 ", "24/18 13/11*"[:-1]],
)
def test_lenient_reading(text: str) -> None:
    play = parse_play(START, (6, 2), text)
    assert format_moves(play.moves) == "24/18 13/11"


@pytest.mark.parametrize("text", ["24/13", "24/18/13", "24/18 18/13", "24/18, 18/13"])
def test_one_checker_playing_both_dice(text: str) -> None:
    play = parse_play(START, (6, 5), text)
    assert play.position.mover_points()[13] == 6


def test_doubles_with_a_count() -> None:
    play = parse_play(START, (3, 3), "8/5(2) 6/3(2)")
    assert play.position.mover_points()[5] == 2 and play.position.mover_points()[3] == 2
    assert parse_play(START, (3, 3), "8/5x2 6/3x2").position == play.position


def test_bar_and_off_spellings() -> None:
    p = pos("x bar:1 6:14; o 12:15")
    expected = parse_play(p, (3, 1), "bar/22 6/5").position
    for text in ("b/22 6/5", "25/22 6/5", "BAR/22 6/5", "bar-22 6-5"):
        assert parse_play(p, (3, 1), text).position == expected
    q = pos("x 6:1 1:1; o 12:15")
    assert parse_play(q, (6, 1), "6/off 1/0").position.mover_off == 15
    assert parse_play(q, (6, 1), "6/o 1/off").position.mover_off == 15


def test_the_greek_words_the_boards_show_read_as_bar_and_off() -> None:
    # Greek boards write "μπάρα/22" and "6/έξω": typed back, they read the same
    p = pos("x bar:1 6:14; o 12:15")
    expected = parse_play(p, (3, 1), "bar/22 6/5").position
    for text in ("μπάρα/22 6/5", "ΜΠΑΡΑ/22 6/5", "μπαρα-22 6-5"):
        assert parse_play(p, (3, 1), text).position == expected
    q = pos("x 6:1 1:1; o 12:15")
    assert parse_play(q, (6, 1), "6/έξω 1/εξω").position.mover_off == 15


def test_a_path_without_a_star_passes_the_blot_by() -> None:
    # With 6-5 a blot on our 18 is hit on one route of 24/13 and not on the other. As gnubg
    # writes it, 24/13 is the route that hits nothing and 24/18*/13 the one that hits.
    p = pos("x 24:1 6:14; o 7:1 2:14")
    assert parse_play(p, (6, 5), "24/13").position.opponent_bar == 0
    assert parse_play(p, (6, 5), "24/18*/13").position.opponent_bar == 1
    assert parse_play(p, (6, 5), "24/19/13").position.opponent_bar == 0


def test_ambiguous_text_is_refused_naming_each_reading() -> None:
    # Two blots, on our 18 and our 19: 24/13 hits one of them on either route, and no
    # star says which.
    p = pos("x 24:1 6:14; o 7:1 6:1 2:13")
    with pytest.raises(AmbiguousPlay) as error:
        parse_play(p, (6, 5), "24/13")
    assert set(error.value.readings) == {"24/18*/13", "24/19*/13"}
    assert "24/18*/13" in error.value.message and "24/19*/13" in error.value.message
    hit_18 = parse_play(p, (6, 5), "24/18*/13").position
    assert hit_18 != parse_play(p, (6, 5), "24/19*/13").position


@pytest.mark.parametrize(
    ("fixture", "roll", "text", "check"),
    [
        # gnubg's most common doubles text: pointing on a blot, the star on the first checker
        ("x 13:5 8:4 6:5 24:1; o 20:1 23:14", (3, 3), "8/5*(2) 6/3(2)", {5: 2, 3: 2}),
        ("x 24:2 13:5 8:3 6:5; o 5:1 23:14", (4, 4), "24/20*/16(2)", {16: 2, 24: 0}),
        ("x 24:2 13:5 8:3 6:5; o 3:1 23:14", (2, 2), "24/22*(2) 13/11(2)", {22: 2, 11: 2}),
    ],
)
def test_gnubg_repeated_hits(
    fixture: str, roll: tuple[int, int], text: str, check: dict[int, int]
) -> None:
    play = parse_play(pos(fixture), roll, text)
    assert play.position.opponent_bar == 1
    assert {p: play.position.mover_points().get(p, 0) for p in check} == check
    again = format_play(pos(fixture), roll, play.moves)
    assert parse_play(pos(fixture), roll, again).position == play.position


def test_a_star_where_no_blot_is_hit_is_refused() -> None:
    with pytest.raises(IllegalPlay):
        parse_play(START, (6, 2), "24/18* 13/11")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", InvalidNotation),
        ("hello", InvalidNotation),
        ("24/30", InvalidNotation),
        ("13/18", InvalidNotation),
        ("24/17 13/11", IllegalPlay),
        ("24/18", IllegalPlay),  # only one of two playable dice
        ("6/off 6/off", IllegalPlay),  # bearing off with checkers outside
        ("24/19 13/11", IllegalPlay),  # the 5 lands on a closed point
        ("24/18 13/11 " * 4, PlayTooLong),
    ],
)
def test_refusals_have_reasons(text: str, error: type[Exception]) -> None:
    with pytest.raises(error) as raised:
        parse_play(START, (6, 2), text)
    assert str(raised.value)


def test_pass_text_only_when_nothing_can_be_played() -> None:
    blocked = pos("x bar:1 6:14; o 1:2 2:2 3:2 4:2 5:2 6:2")
    assert parse_play(blocked, (3, 1), "pass").moves == ()
    with pytest.raises(IllegalPlay):
        parse_play(START, (3, 1), "pass")


@pytest.mark.long
@pytest.mark.parametrize("step", sample_or_full(4, 1))
def test_every_legal_play_round_trips_through_text(step: int) -> None:
    """Every legal play of every roll in 40 seeded self-play positions (``[sample]``: every
    4th of them; ``[full]``: each)."""
    for position in selfplay_positions(40, seed=21)[::step]:
        for roll in ALL_ROLLS:
            for play in legal_plays(position, roll):
                text = format_play(position, roll, play.moves)
                assert parse_play(position, roll, text).position == play.position, (
                    position.to_fixture(),
                    roll,
                    text,
                )
