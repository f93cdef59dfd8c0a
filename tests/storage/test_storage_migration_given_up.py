"""Revision 0016: a match given up (resigned, or lost on time) before it is won with the points
still missing to its length, in its score columns and in its stored state; the others are left
as they are, and downgrading gives back the score the games made."""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from datetime import UTC, datetime

from rules.common.dice import SeededDice
from rules.match import Match, Phase
from storage import migrate
from tests.storage.helpers import sql_rows


def given_up_before(length: int, winner: int, reason: str) -> Match:
    """A match given up as the older code left it: one game resigned for 2 points to the player
    who then gives the match up, and the score where that game left it."""
    source = SeededDice(11)
    match, _ = Match.new(length).start(source)
    loser = 1 - winner
    while match.turn != winner:  # the winner offers the game, so the loser scores it
        match, _ = match.play(match.turn, match.legal_plays()[0], source)
    offered, _ = match.offer_resignation(winner, 2)
    match, _ = offered.accept_resignation(loser, source)
    return replace(match, phase=Phase.MATCH_OVER, winner=winner, end_reason=reason, chosen=(),
                   resign_offer=0)


def test_revision_0016_gives_a_match_given_up_the_points_missing(
        empty_url: str) -> None:
    run = functools.partial(sql_rows, empty_url)
    # Given a database at 0015 with matches given up (a 5-point match resigned by the player
    # leading 2-0, a 3-point one lost on time at 0-2 by the player leading), one won on the
    # board and one still played
    migrate.upgrade(empty_url, "0015")
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    for pid, name in ((7, "Alice"), (8, "Bob")):
        run("INSERT INTO players (id, display_name, can_message, notices, created_at,"
            " updated_at) VALUES (:id, :name, true, true, :now, :now)", id=pid, name=name, now=now)
    resigned = given_up_before(5, 0, "resigned")
    timed_out = given_up_before(3, 1, "timeout")
    won = replace(resigned, end_reason="score", score=(5, 2))
    playing, _ = Match.new(1).start(SeededDice(3))
    rows = [(1, "finished", resigned), (2, "abandoned", timed_out), (3, "finished", won),
            (4, "active", playing)]
    for match_id, status, state in rows:
        run("INSERT INTO matches (id, status, version, player0_id, player1_id, length,"
            " no_triple, score0, score1, winner, end_reason, state, state_format, seed,"
            " commitment, dice_drawn, created_at, updated_at) VALUES (:id, :status, 9, 7, 8,"
            " :length, false, :s0, :s1, :winner, :reason, :state, 1, :seed, 'c0', 0, :now,"
            " :now)", id=match_id, status=status, length=state.length, s0=state.score[0],
            s1=state.score[1], winner=state.winner, reason=state.end_reason,
            state=state.to_json(), seed=b"\x00" * 32, now=now)
    assert resigned.score == (0, 2) and timed_out.score == (2, 0)
    before = dict(run("SELECT id, state FROM matches"))
    # When it is upgraded to 0016
    migrate.upgrade(empty_url, "0016")
    # Then each match given up is won to its length, the loser's points kept, the columns and
    # the state alike (written as the rules core writes it), and the others are untouched
    scores = run("SELECT id, score0, score1, state FROM matches ORDER BY id")
    assert [(i, s0, s1) for i, s0, s1, _ in scores] == [
        (1, 5, 2), (2, 2, 3), (3, 5, 2), (4, 0, 0)]
    states = {i: state for i, _, _, state in scores}
    assert states[1] == replace(resigned, score=(5, 2)).to_json()
    assert states[2] == replace(timed_out, score=(2, 3)).to_json()
    assert Match.from_json(states[2]).score == (2, 3)
    assert states[3] == before[3] and states[4] == before[4]
    # and the games' results are as they were
    assert json.loads(states[1])["results"] == json.loads(before[1])["results"]
    # And downgraded again, the scores are the ones the games made
    migrate.downgrade(empty_url, "0015")
    assert dict(run("SELECT id, state FROM matches")) == before
    assert run("SELECT id, score0, score1 FROM matches ORDER BY id") == [
        (1, 0, 2), (2, 2, 0), (3, 5, 2), (4, 0, 0)]
