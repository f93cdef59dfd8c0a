"""Revision 0024: ``ladders``, a group's ladder as it was opened (its game, its length, its
card); the ladders played before it get Portes to 3 points, what they played until then."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from sqlalchemy import create_engine, inspect

from storage import migrate
from tests.storage.helpers import sql_rows


def tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_revision_0024_keeps_the_ladders_played(empty_url: str) -> None:
    run = functools.partial(sql_rows, empty_url)
    # Given a database at 0023 with two players on one group's ladder
    migrate.upgrade(empty_url, "0023")
    assert "ladders" not in tables(empty_url)
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    for pid in (7, 8):
        run("INSERT INTO players (id, display_name, language, can_message, notices, created_at,"
            " updated_at) VALUES (:id, 'P', 'el', true, true, :now, :now)", id=pid, now=now)
        run("INSERT INTO ladder_players (chat_id, player_id, rung, active, wins, losses,"
            " joined_at) VALUES (-100, :id, 1, true, 0, 0, :now)", id=pid, now=now)
    # When it is upgraded to 0024: that ladder plays what it played, Portes to 3 points
    migrate.upgrade(empty_url, "0024")
    assert run("SELECT chat_id, game_type, length, opened_by, card_message_id FROM ladders"
               ) == [(-100, "portes", 3, None, None)]
    run("INSERT INTO ladders (chat_id, game_type, length, opened_by, opened_at) VALUES"
        " (-200, 'tavli', 5, 7, :now)", now=now)
    assert len(run("SELECT * FROM ladders")) == 2
    # and downgraded again, only the table goes
    migrate.downgrade(empty_url, "0023")
    assert "ladders" not in tables(empty_url)
    assert len(run("SELECT * FROM ladder_players")) == 2
