"""Matches of Plakoto, Fevga and Long Nardy, and the tavli match that plays Portes, Plakoto and
Fevga in turn: the flow is Portes's (rules.match), the game changes."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace

import pytest

from rules.common.dice import Dice, RecordedDice, SeededDice
from rules.common.errors import InvalidAction
from rules.match import GameDrawn, GameEnded, GameKind, GameResult, GameStarted, Match, Phase
from rules.steps.board import StepsPosition, Variant, parse_steps
from rules.steps.options import PlakotoOptions, RuleOptions


def play_out(match: Match, seed: int) -> tuple[Match, list[object]]:
    """Random legal plays (half typed as text, some tapped in) until the match is over."""
    dice = SeededDice(seed)
    match, events = match.start(dice)
    log: list[object] = list(events)
    rng = random.Random(seed)
    while not match.is_over:
        play = rng.choice(match.legal_plays())
        if rng.random() < 0.3:
            for move in play.moves:
                match = match.step(match.turn, move)
            match, events = match.confirm(match.turn, dice)
        else:
            match, events = match.play(match.turn, play.to_text(), dice)
        log += events
        assert Match.from_json(match.to_json()) == match
    return match, log


@pytest.mark.parametrize("game", ["plakoto", "fevga", "nardy"])
def test_a_whole_match_of_each_game(game: str) -> None:
    match, log = play_out(Match.new(3, game_type=game), seed=11)
    assert match.phase == Phase.MATCH_OVER and max(match.score) >= 3
    assert {r.game_key for r in match.results} == {game}
    assert all(r.points in (1, 2) for r in match.results)  # no triple in these games
    assert all(e.game_key == game for e in log if isinstance(e, GameStarted))


def test_the_tavli_match_rotates_portes_plakoto_fevga() -> None:
    match, log = play_out(Match.new(7, game_type="tavli"), seed=3)
    started = [e.game_key for e in log if isinstance(e, GameStarted)]
    drawn = sum(isinstance(e, GameDrawn) for e in log)
    decided = [r.game_key for r in match.results]
    cycle = ["portes", "plakoto", "fevga"]
    assert decided == [cycle[i % 3] for i in range(len(decided))]
    assert len(started) == len(decided) + drawn
    assert len(decided) >= 4  # went round at least once


def test_the_winner_of_the_previous_game_starts_the_next_with_the_cafe_option() -> None:
    _match, log = play_out(Match.new(5, game_type="tavli", winner_starts=True), seed=8)
    games = [e for e in log if isinstance(e, (GameStarted, GameEnded))]
    for before, after in itertools.pairwise(games):
        if isinstance(before, GameEnded) and isinstance(after, GameStarted):
            assert after.starter == before.winner and after.winner_starts and after.ties == 0
    first = next(e for e in log if isinstance(e, GameStarted))
    assert not first.winner_starts  # the first game still opens with one die each


def _plakoto_at(fixture: str, dice: Dice) -> Match:
    match, _ = Match.new(3, game_type="plakoto").start(RecordedDice([5, 3]))
    return replace(match, position=parse_steps(Variant.PLAKOTO, fixture), dice=dice,
                   game_key=Variant.PLAKOTO)


def test_pinning_the_mother_wins_two_points_in_a_match() -> None:
    match = _plakoto_at("x 8:1 3:1 2:13; o 24:1 10:14", Dice(2, 6))
    match, events = match.play(match.turn, "8/2 3/1*", RecordedDice([6, 1, 4, 2]))
    (ended,) = [e for e in events if isinstance(e, GameEnded)]
    assert (ended.kind, ended.points, ended.winner) == (GameKind.MOTHER, 2, 0)
    assert match.score == (2, 0)


def test_both_mothers_pinned_is_a_draw_replayed_scoring_nothing() -> None:
    # x's mother lies pinned on x's 24; x pins o's mother on x's 1
    match = _plakoto_at("x 8:1 3:1 2:12; o 24:1 10:13 1:1p", Dice(2, 6))
    assert match.position.board[24] < 0
    match, events = match.play(match.turn, "8/2 3/1*", RecordedDice([6, 1, 4, 2]))
    assert [type(e).__name__ for e in events if type(e).__name__ != "TurnPlayed"] == [
        "GameDrawn", "GameStarted"]
    assert match.score == (0, 0) and not match.results
    assert match.game_key == Variant.PLAKOTO and match.game == 2
    assert match.position == StepsPosition.start_of(Variant.PLAKOTO)


def test_a_drawn_plakoto_is_played_again_in_the_rotation() -> None:
    match, _ = Match.new(5, game_type="tavli").start(RecordedDice([5, 3]))
    won = GameResult(1, 0, GameKind.SINGLE, 1, False, "portes")
    match = replace(match, results=(won,), score=(1, 0), position=parse_steps(
        Variant.PLAKOTO, "x 8:1 3:1 2:12; o 24:1 10:13 1:1p"), dice=Dice(2, 6),
        game_key=Variant.PLAKOTO, game=2)
    match, events = match.play(match.turn, "8/2 3/1*", RecordedDice([6, 1, 4, 2]))
    started = [e for e in events if isinstance(e, GameStarted)]
    assert started and started[0].game_key == "plakoto" and match.game_key == Variant.PLAKOTO


def test_resigning_is_for_two_points_at_most_outside_portes() -> None:
    match = _plakoto_at("x 8:1 3:1 2:13; o 24:1 10:14", Dice(2, 6))
    assert match.max_resign_points() == 2
    with pytest.raises(InvalidAction):
        match.offer_resignation(match.turn, 3)
    portes, _ = Match.new(3, game_type="tavli").start(RecordedDice([5, 3]))
    assert portes.game_key == Variant.PORTES and portes.max_resign_points() == 3


def test_the_stored_form_keeps_the_game_options_and_pins() -> None:
    options = RuleOptions(plakoto=PlakotoOptions(plakoto_mother_ends_turn=True))
    match, _ = Match.new(3, game_type="plakoto", options=options).start(RecordedDice([5, 3]))
    match = replace(match, position=parse_steps(Variant.PLAKOTO, "x 8:1p 2:14; o 24:14"))
    again = Match.from_json(match.to_json())
    assert again == match and again.options == options
    assert json.loads(match.to_json())["format"] == 2  # a Portes-only reader refuses it
    assert again.position.pins == match.position.pins  # type: ignore[attr-defined]
    assert match.gnubg_id() == ""


def test_a_match_stored_with_the_old_name_of_the_game_is_read_and_written_anew() -> None:
    # before the game being played was called game_key, rows named it "variant"
    match, _ = Match.new(3, game_type="tavli").start(RecordedDice([5, 3]))
    match = replace(match, position=parse_steps(Variant.FEVGA, "x 24:15; o 24:15"),
                    game_key=Variant.FEVGA, game=3)
    old = json.loads(match.to_json())
    old["variant"] = old.pop("game_key")
    again = Match.from_json(json.dumps(old))
    assert again == match and again.game_key == "fevga"
    assert "variant" not in json.loads(again.to_json())
    assert json.loads(again.to_json())["game_key"] == "fevga"


def test_a_portes_match_is_stored_as_before() -> None:
    match, _ = Match.new(3).start(RecordedDice([5, 3]))
    data = json.loads(match.to_json())
    keys = set(data)
    assert data["format"] == 1
    assert not keys & {"game_type", "game_key", "variant", "options", "pins", "winner_starts"}


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(InvalidAction):
        Match.new(3, game_type="backgammon")
