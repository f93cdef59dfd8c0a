"""Storage of the other games (issue 15): revision 0011 adds ``matches.game_type`` keeping
every match Portes; a match of Plakoto is stored in format 2 and read back; a drawn game is
logged without a winner."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bot.views.reveal import rolls_after_opening, winner_rolls
from rules.common.fairdice import FairDice, games_of
from rules.games import Variant
from rules.match import GameDrawn
from storage import migrate
from storage.db import Database
from storage.replay import replay
from storage.results import MatchStatus
from storage.usecases import UseCases
from storage.usecases.eventlog import DRAW, event_steps
from tests.storage.conftest import FakeClock
from tests.storage.helpers import new_match, play_to_end, sql_rows, table_columns

SEED_BYTE = 6
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)


def test_revision_0011_makes_every_existing_match_portes(empty_url: str) -> None:
    # Given a database at 0009 with a player and a match of theirs
    migrate.upgrade(empty_url, "0010")
    assert "game_type" not in table_columns(empty_url, "matches")
    sql_rows(empty_url, "INSERT INTO players (id, display_name, can_message, created_at,"
             " updated_at) VALUES (7, 'Alice', true, :t, :t)", t=NOW)
    sql_rows(empty_url, "INSERT INTO matches (id, status, version, player0_id, length, no_triple,"
        " score0, score1, state, state_format, seed, commitment, dice_drawn, created_at,"
        " updated_at) VALUES (1, 'challenge', 1, 7, 5, false, 0, 0, '{}', 1, :seed, 'c0', 0,"
        " :t, :t)", t=NOW, seed=bytes(32))
    # When it is upgraded: the match plays Portes and keeps everything else
    migrate.upgrade(empty_url, "0011")
    assert sql_rows(empty_url, "SELECT id, length, state_format, game_type FROM matches") == [
        (1, 5, 1, "portes")]
    sql_rows(empty_url, "UPDATE matches SET game_type = 'plakoto' WHERE id = 1")
    # and downgraded, only the column goes
    migrate.downgrade(empty_url, "0010")
    assert "game_type" not in table_columns(empty_url, "matches")
    assert sql_rows(empty_url, "SELECT id, length FROM matches") == [(1, 5)]


def test_a_drawn_game_is_logged_with_no_winner_and_no_points() -> None:
    # Given both mothers pinned in game 2 of a Plakoto match
    steps = event_steps(5, [GameDrawn(game=2, game_key="plakoto")], NOW)
    # Then the games row of game 2 ends as a draw: nobody won, nothing scored
    assert len(steps) == 1
    _, params = steps[0]
    assert isinstance(params, dict)
    assert (params["b_number"], params["winner"], params["kind"], params["points"]) == (
        2, None, DRAW, 0)


SEED = bytes([SEED_BYTE]) * 32
"""A dice seed with which the random plays below make the match last three games."""


async def test_a_tavli_match_is_stored_replayed_and_its_dice_split_by_game(
        db: Database, clock: FakeClock) -> None:
    # Given a tavli match to 3 where each game's winner rolls first in the next, played out
    uc = UseCases(db, clock=clock, seeds=lambda: SEED)
    start = (await new_match(uc, length=3, mix="cbq-77", game_type="tavli",
                             winner_starts=True)).match
    assert start is not None and start.state.game_key == Variant.PORTES
    final = await play_to_end(uc, start, seed=5)
    assert final.status == MatchStatus.FINISHED
    # Then it is read back in format 2 as the same match, and replays from its log
    record = await uc.match_record(final.id)
    assert record is not None and record.match.state == final.state
    assert run_format(record.match.state.to_json()) == 2
    assert [r.game_key for r in final.state.results] == ["portes", "plakoto", "fevga"]
    seed_hex, mix = record.match.seed_hex, record.match.mix
    assert seed_hex is not None and mix is not None
    assert replay(record, FairDice(seed_hex, mix)) == final.state
    # and the revealed dice split into games the way they were drawn: every game after the
    # first starts with its winner's roll, which is the logged first turn's roll
    fair = await uc.fairness(final.id)
    assert fair is not None and fair.dice is not None
    games = games_of(fair.dice, rolls_after_opening(record), winner_rolls(record))
    assert len(games) == len(record.games) and len(games) >= 2
    assert [g.winner_rolls for g in games] == [False] + [True] * (len(games) - 1)
    for game, logged in zip(games, sorted(record.games, key=lambda g: g.number), strict=True):
        first = next(t for t in record.turns if t.game == logged.number)
        assert (first.dice.die1, first.dice.die2) == game.first


def run_format(state: str) -> int:
    return int(json.loads(state)["format"])
