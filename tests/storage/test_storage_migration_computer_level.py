"""Revision 0017: ``players.computer_level``, the computer's level a player chose last on a /new
card (a length tapped on the card as it was before its redraw starts a match at that level)."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from storage import migrate
from tests.storage.helpers import sql_rows, table_columns


def test_revision_0017_adds_computer_level_keeping_the_players(
        empty_url: str) -> None:
    run = functools.partial(sql_rows, empty_url)
    # Given a database at 0016 with two players
    migrate.upgrade(empty_url, "0016")
    assert "computer_level" not in table_columns(empty_url, "players")
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    for pid, name in ((7, "Alice"), (8, "Bob")):
        run("INSERT INTO players (id, display_name, language, can_message, notices, created_at,"
            " updated_at, last_typed) VALUES (:id, :name, 'el', true, false, :now, :now, 41)",
            id=pid, name=name, now=now)
    # When it is upgraded to 0017: every player is kept, none has chosen a level yet
    migrate.upgrade(empty_url, "0017")
    assert run("SELECT id, display_name, last_typed, computer_level FROM players ORDER BY id"
               ) == [(7, "Alice", 41, None), (8, "Bob", 41, None)]
    run("UPDATE players SET computer_level = 1 WHERE id = 7")
    assert run("SELECT computer_level FROM players WHERE id = 7") == [(1,)]
    # and downgraded again, only the column goes
    migrate.downgrade(empty_url, "0016")
    assert "computer_level" not in table_columns(empty_url, "players")
    assert run("SELECT id, display_name, last_typed FROM players ORDER BY id") == [
        (7, "Alice", 41), (8, "Bob", 41)]
