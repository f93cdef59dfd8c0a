"""Revision 0014: ``players.last_typed``, the message id of a player's last typed play that was
played (a copy of it delivered again is not played twice)."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from storage import migrate
from tests.storage.helpers import sql_rows, table_columns


def test_revision_0014_adds_last_typed_keeping_the_players(empty_url: str) -> None:
    run = functools.partial(sql_rows, empty_url)
    # Given a database at 0013 with two players and a match between them
    migrate.upgrade(empty_url, "0013")
    assert "last_typed" not in table_columns(empty_url, "players")
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    for pid, name in ((7, "Alice"), (8, "Bob")):
        run("INSERT INTO players (id, display_name, language, can_message, notices, created_at,"
            " updated_at) VALUES (:id, :name, 'el', true, false, :now, :now)",
            id=pid, name=name, now=now)
    run("INSERT INTO matches (id, status, version, player0_id, player1_id, length, no_triple,"
        " score0, score1, state, state_format, seed, commitment, dice_drawn, created_at,"
        " updated_at) VALUES (1, 'active', 4, 7, 8, 1, false, 0, 0, '{}', 1, :seed, 'c0', 0,"
        " :now, :now)", now=now, seed=b"\x00" * 32)
    # When it is upgraded to 0014: every player is kept, with no typed play yet
    migrate.upgrade(empty_url, "0014")
    assert run("SELECT id, display_name, notices, last_typed FROM players ORDER BY id") == [
        (7, "Alice", False, None), (8, "Bob", False, None)]
    # and a message id beyond 32 bits fits
    run("UPDATE players SET last_typed = :big WHERE id = 7", big=2**40 + 5)
    assert run("SELECT last_typed FROM players WHERE id = 7") == [(2**40 + 5,)]
    assert run("SELECT id, version FROM matches") == [(1, 4)]
    # and downgraded again, only the column goes
    migrate.downgrade(empty_url, "0013")
    assert "last_typed" not in table_columns(empty_url, "players")
    assert run("SELECT id, display_name FROM players ORDER BY id") == [(7, "Alice"), (8, "Bob")]
    assert run("SELECT id, version FROM matches") == [(1, 4)]
