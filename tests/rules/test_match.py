"""The match flow: opening rolls, turns, passes, game ends, scoring, resigning, cancelling."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from rules.common.dice import LoggingDice, RecordedDice, SeededDice
from rules.common.errors import CorruptState, GameOver, IllegalPlay, InvalidAction, NotYourTurn
from rules.match import (
    Cancelled,
    GameEnded,
    GameKind,
    GameStarted,
    Match,
    MatchEnded,
    Phase,
    Stopped,
    TurnPlayed,
    game_kind,
    points_for,
)
from rules.position import Move, Position
from tests.rules.conftest import pos


def play_randomly(match: Match, dice: SeededDice, rng: random.Random, turns: int) -> Match:
    for _ in range(turns):
        if match.phase != Phase.PLAYING:
            break
        match, _ = match.play(match.turn, rng.choice(match.legal_plays()), dice)
    return match


# -- opening roll ----------------------------------------------------------------------------


def test_opening_roll_higher_die_starts_and_plays_both_numbers() -> None:
    match, events = Match.new(3).start(RecordedDice([2, 5]))
    assert events == [GameStarted(game=1, opening=(2, 5), ties=0, starter=1)]
    assert match.turn == 1
    assert sorted(match.dice) == [2, 5]
    assert match.position == Position.start()
    assert match.dice_drawn == 2


def test_opening_ties_are_rolled_again_from_the_same_sequence() -> None:
    match, events = Match.new(1).start(RecordedDice([4, 4, 6, 6, 3, 1]))
    assert events == [GameStarted(game=1, opening=(3, 1), ties=2, starter=0)]
    assert match.turn == 0 and match.dice_drawn == 6


def test_turns_alternate_with_an_automatic_roll() -> None:
    match, _ = Match.new(3).start(RecordedDice([6, 1, 3, 2]))
    match, events = match.play(0, "13/7 8/7", RecordedDice([6, 1, 3, 2]))
    assert match.turn == 1
    assert match.dice == (3, 2)
    assert isinstance(events[0], TurnPlayed) and events[0].text == "13/7 8/7"
    assert match.last_play is not None and match.last_play.text == "13/7 8/7"
    # The board is now from player 1's side: our 7 point is their 18.
    assert match.position.opponent_points()[7] == 2


def test_a_roll_with_no_legal_move_is_passed_automatically() -> None:
    # Player 1 is on the bar against a closed board: every roll is passed.
    closed = pos("x 1:2 2:2 3:2 4:2 5:2 7:5; o bar:1 6:14")
    match = Match(length=1, phase=Phase.PLAYING, turn=0, position=closed, dice=None)
    match = Match(**{**match.__dict__, "dice": (1, 2)})  # player 0 to play 1-2
    source = RecordedDice([1, 1, 3, 4, 5, 6])
    match, events = match.play(0, "7/6 7/5", source)
    passes = [e for e in events if isinstance(e, TurnPlayed) and e.passed]
    assert passes and passes[0].player == 1 and passes[0].dice == (1, 1)
    assert match.turn == 0 and match.dice == (3, 4)


def test_not_your_turn() -> None:
    match, _ = Match.new(3).start(RecordedDice([6, 1]))
    with pytest.raises(NotYourTurn):
        match.play(1, "13/7 8/7", RecordedDice([]))
    with pytest.raises(NotYourTurn):
        match.step(1, Move(13, 7, 6))


# -- tap by tap ------------------------------------------------------------------------------


def test_step_undo_confirm() -> None:
    source = RecordedDice([6, 5, 1, 2])
    match, _ = Match.new(3).start(source)
    assert Move(24, 18, 6) in match.next_moves()
    match = match.step(0, Move(24, 18, 6))
    assert not match.can_confirm()
    assert {m.from_point for m in match.next_moves()} >= {18, 13}
    match = match.undo(0)
    assert match.chosen == ()
    match = match.step(0, Move(24, 19, 5)) if Move(24, 19, 5) in match.next_moves() else match
    match = match.step(0, Move(24, 18, 6)).step(0, Move(18, 13, 5))
    assert match.can_confirm()
    match, events = match.confirm(0, source)
    assert isinstance(events[0], TurnPlayed) and events[0].text == "24/13"


def test_a_step_into_a_dead_end_is_refused() -> None:
    match, _ = Match.new(3).start(RecordedDice([6, 5]))
    with pytest.raises(IllegalPlay):
        match.step(0, Move(24, 19, 5))  # our 19 is their closed 6 point
    with pytest.raises(IllegalPlay):
        match.confirm(0, RecordedDice([]))  # nothing chosen yet


def test_forced_play() -> None:
    p = pos("x 8:1; o 18:2 24:2 12:11")
    match = Match(length=1, phase=Phase.PLAYING, position=p, dice=(6, 1))  # type: ignore[arg-type]
    forced = match.forced_play()
    assert forced is not None and forced.to_text() == "8/2"
    assert Match.new(1).start(RecordedDice([6, 5]))[0].forced_play() is None


# -- ending games ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "kind"),
    [
        ("x ; o 6:10", GameKind.SINGLE),  # the loser bore off five
        ("x ; o 12:15", GameKind.GAMMON),  # none off, none in our home
        ("x ; o 24:1 12:14", GameKind.BACKGAMMON),  # one still in our home (our 1)
        ("x ; o bar:1 12:14", GameKind.BACKGAMMON),  # one still on the bar
    ],
)
def test_game_kind(fixture: str, kind: GameKind) -> None:
    assert game_kind(pos(fixture)) == kind


def test_points_and_no_triple() -> None:
    assert points_for(GameKind.SINGLE, no_triple=False) == 1
    assert points_for(GameKind.GAMMON, no_triple=False) == 2
    assert points_for(GameKind.BACKGAMMON, no_triple=False) == 3
    assert points_for(GameKind.BACKGAMMON, no_triple=True) == 2


def near_end(no_triple: bool, opponent: str, length: int = 7) -> Match:
    p = pos(f"x 2:1; {opponent}")
    return Match(
        length=length, no_triple=no_triple, phase=Phase.PLAYING, game=1, position=p, dice=(2, 1)
    )  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("opponent", "no_triple", "points"),
    [
        ("o 6:5", False, 1),
        ("o 12:15", False, 2),
        ("o 24:1 12:14", False, 3),
        ("o 24:1 12:14", True, 2),
        ("o bar:1 12:14", False, 3),
    ],
)
def test_bearing_off_the_last_checker_scores(opponent: str, no_triple: bool, points: int) -> None:
    match, events = near_end(no_triple, opponent).play(0, "2/off", RecordedDice([5, 2]))
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert ended and ended[0].winner == 0 and ended[0].points == points
    assert match.score == (points, 0)
    assert match.game == 2  # the next game began with its opening roll
    assert isinstance(events[-1], GameStarted) and events[-1].opening == (5, 2)


@pytest.mark.parametrize("length", [1, 3, 5, 7])
def test_match_ends_when_the_length_is_reached(length: int) -> None:
    rng = random.Random(length)
    source = SeededDice(length)
    match, _ = Match.new(length).start(source)
    scores = [match.score]
    while match.phase != Phase.MATCH_OVER:
        match = play_randomly(match, source, rng, 1)
        assert match.score[0] >= scores[-1][0] and match.score[1] >= scores[-1][1]
        scores.append(match.score)
    assert match.winner is not None and match.score[match.winner] >= length
    assert match.score[1 - match.winner] < length
    assert sum(r.points for r in match.results) == sum(match.score)
    with pytest.raises(GameOver):
        match.play(match.turn, "24/18", source)


def test_a_recorded_dice_sequence_replays_the_whole_match() -> None:
    rng = random.Random(9)
    logged = LoggingDice(SeededDice(99))
    match, _ = Match.new(5).start(logged)
    plays = []
    while match.phase != Phase.MATCH_OVER:
        play = rng.choice(match.legal_plays())
        plays.append((match.turn, play))
        match, _ = match.play(match.turn, play, logged)
    sequence = [logged.drawn[i] for i in range(len(logged.drawn))]
    replay, _ = Match.new(5).start(RecordedDice(sequence))
    for player, play in plays:
        replay, _ = replay.play(player, play, RecordedDice(sequence))
    assert replay == match


# -- resigning and cancelling ----------------------------------------------------------------


def test_resign_offer_accepted_scores_the_points() -> None:
    source = SeededDice(1)
    match, _ = Match.new(5).start(source)
    mover = match.turn
    offered, events = match.offer_resignation(mover, 2)
    assert offered.phase == Phase.RESIGN_OFFERED
    with pytest.raises(NotYourTurn):
        offered.accept_resignation(mover, source)
    with pytest.raises(InvalidAction):
        offered.play(mover, offered.legal_plays()[0], source)
    accepted, events = offered.accept_resignation(1 - mover, source)
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert ended[0].kind == GameKind.GAMMON and ended[0].resigned
    assert accepted.score[1 - mover] == 2 and accepted.game == 2


def test_resign_offer_declined_play_goes_on() -> None:
    source = SeededDice(2)
    match, _ = Match.new(5).start(source)
    offered, _ = match.offer_resignation(match.turn, 1)
    declined, _ = offered.decline_resignation(1 - match.turn)
    assert declined.phase == Phase.PLAYING and declined.position == match.position
    assert declined.dice == match.dice


def test_resign_points_are_limited() -> None:
    match, _ = Match.new(5, no_triple=True).start(SeededDice(3))
    with pytest.raises(InvalidAction):
        match.offer_resignation(match.turn, 3)
    with pytest.raises(InvalidAction):
        match.offer_resignation(match.turn, 0)
    with pytest.raises(NotYourTurn):
        match.offer_resignation(1 - match.turn, 1)


def test_resign_the_whole_match_at_any_time() -> None:
    match, _ = Match.new(7).start(SeededDice(4))
    over, events = match.resign_match(match.turn)  # even the player not to move may
    assert over.phase == Phase.MATCH_OVER and over.winner == 1 - match.turn
    # the winner reaches the match length: 7-0
    won = (7, 0) if match.turn == 1 else (0, 7)
    assert over.score == won
    assert events == [MatchEnded(1 - match.turn, "resigned", won)]
    with pytest.raises(GameOver):
        over.resign_match(0)


@pytest.mark.parametrize("reason", ["resigned", "timeout"])
def test_a_match_given_up_is_won_with_the_points_still_missing(reason: str) -> None:
    """Given a 5-point match at 2-3, when the player with 3 gives the match up (or lets the
    clock give it up), the other wins it 5-3: the points still missing to the length are
    theirs."""
    match, _ = Match.new(5).start(SeededDice(6))
    match = replace(match, score=(2, 3))
    over, events = match.resign_match(1, reason=reason)
    assert over.winner == 0 and over.end_reason == reason
    assert over.score == (5, 3)
    assert events == [MatchEnded(0, reason, (5, 3))]


def test_cancel_only_before_the_first_play() -> None:
    source = SeededDice(5)
    match, _ = Match.new(3).start(source)
    cancelled, events = match.cancel(1 - match.turn)
    assert cancelled.phase == Phase.CANCELLED and events == [Cancelled(1 - match.turn)]
    played, _ = match.play(match.turn, match.legal_plays()[0], source)
    with pytest.raises(InvalidAction):
        played.cancel(0)



def test_stop_ends_a_match_anywhere_with_no_result() -> None:
    """A competition's deadline stops a match however far it went: cancelled, no winner,
    the reason kept (and a match over cannot be stopped)."""
    source = SeededDice(5)
    match, _ = Match.new(3).start(source)
    played, _ = match.play(match.turn, match.legal_plays()[0], source)
    stopped, events = played.stop("deadline")
    assert stopped.phase == Phase.CANCELLED and stopped.winner is None
    assert stopped.end_reason == "deadline" and events == [Stopped("deadline")]
    assert Match.from_json(stopped.to_json()).end_reason == "deadline"
    with pytest.raises(GameOver):
        stopped.stop("deadline")


def test_no_cancel_once_a_game_has_a_result() -> None:
    """A game resigned before anyone moved still has a result: cancelling would wipe it."""
    source = SeededDice(5)
    match, _ = Match.new(5).start(source)
    assert match.can_cancel
    offered, _ = match.offer_resignation(match.turn, 2)
    accepted, _ = offered.accept_resignation(1 - match.turn, source)
    assert accepted.plays_made == 0 and accepted.score[1 - match.turn] == 2
    assert not accepted.can_cancel
    for player in (0, 1):
        with pytest.raises(InvalidAction):
            accepted.cancel(player)
    played, _ = match.play(match.turn, match.legal_plays()[0], source)
    assert not played.can_cancel
    over, _ = match.resign_match(0)
    assert not over.can_cancel

def test_match_lengths() -> None:
    for length in (1, 3, 5, 7):
        assert Match.new(length).length == length
    with pytest.raises(InvalidAction):
        Match.new(2)


# -- serialisation ---------------------------------------------------------------------------


def test_state_round_trips_through_json_at_every_step() -> None:
    rng = random.Random(12)
    source = SeededDice(12)
    match, _ = Match.new(3, no_triple=True).start(source)
    while match.phase != Phase.MATCH_OVER:
        assert Match.from_json(match.to_json()) == match
        play = rng.choice(match.legal_plays())
        if play.moves:
            match = match.step(match.turn, play.moves[0])
            assert Match.from_json(match.to_json()) == match
            match = match.reset_turn(match.turn)
        match, _ = match.play(match.turn, play, source)
    assert Match.from_json(match.to_json()) == match
    assert json.loads(match.to_json())["format"] == 1


@pytest.mark.parametrize(
    "mangle",
    [
        lambda s: s[: len(s) // 2],
        lambda s: "[]",
        lambda s: s.replace('"format":1', '"format":99'),
        lambda s: s.replace('"length":3', '"length":4'),
        lambda s: s.replace('"turn":', '"turn":7,"x":'),
        lambda s: "not json",
    ],
)
def test_corrupt_state_is_a_clear_error(mangle) -> None:  # type: ignore[no-untyped-def]
    match, _ = Match.new(3).start(SeededDice(1))
    with pytest.raises(CorruptState):
        Match.from_json(mangle(match.to_json()))


def test_gnubg_id_is_from_the_side_on_roll() -> None:
    match, _ = Match.new(5).start(RecordedDice([6, 5]))
    position_id, match_id = match.gnubg_id().split(":")
    assert position_id == "4HPwATDgc/ABMA"
    assert len(match_id) == 12


def test_a_forged_play_is_refused() -> None:
    from rules.position import Play

    source = RecordedDice([6, 5, 1, 2])
    match, _ = Match.new(3).start(source)
    real = next(p for p in match.legal_plays() if p.to_text() == "24/13")
    other = next(p for p in match.legal_plays() if p.to_text() != "24/13")
    with pytest.raises(IllegalPlay):
        match.play(0, Play(real.moves, other.position), source)
    with pytest.raises(IllegalPlay):
        match.play(0, Play((Move(24, 18, 6),), real.position), source)
    with pytest.raises(IllegalPlay):
        match.play(0, Play((Move(24, 14, 6), Move(14, 9, 5)), real.position), source)
