"""Revision 0019: ``matches.in_group``, a group match stored as one (its chat's kind is not
read off the sign of its id any more)."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from storage import migrate
from tests.storage.helpers import sql_rows, table_columns


def test_revision_0019_marks_the_group_matches_keeping_the_matches(
        empty_url: str) -> None:
    run = functools.partial(sql_rows, empty_url)
    # Given a database at 0018 with a group match, a private one and an inline one
    migrate.upgrade(empty_url, "0018")
    assert "in_group" not in table_columns(empty_url, "matches")
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    run("INSERT INTO players (id, display_name, language, can_message, notices, created_at,"
        " updated_at) VALUES (7, 'Alice', 'el', true, true, :now, :now)", now=now)
    for match_id, chat_id in ((1, -100), (2, 7), (3, None)):
        run("INSERT INTO matches (id, status, version, player0_id, length, no_triple, score0,"
            " score1, chat_id, state, state_format, seed, commitment, dice_drawn, created_at,"
            " updated_at) VALUES (:id, 'active', 4, 7, 1, false, 0, 0, :chat, '{}', 1, :seed,"
            " 'c0', 0, :now, :now)", id=match_id, chat=chat_id, now=now, seed=b"\x00" * 32)
    # When it is upgraded to 0019: only the group's match is in a group
    migrate.upgrade(empty_url, "0019")
    assert run("SELECT id, chat_id, version, in_group FROM matches ORDER BY id") == [
        (1, -100, 4, True), (2, 7, 4, False), (3, None, 4, False)]
    # and a new row gets "not in a group" unless it says otherwise
    run("INSERT INTO matches (id, status, version, player0_id, length, no_triple, score0,"
        " score1, state, state_format, seed, commitment, dice_drawn, created_at, updated_at)"
        " VALUES (4, 'active', 1, 7, 1, false, 0, 0, '{}', 1, :seed, 'c0', 0, :now, :now)",
        now=now, seed=b"\x00" * 32)
    assert run("SELECT in_group FROM matches WHERE id = 4") == [(False,)]
    # and downgraded again, only the column goes
    migrate.downgrade(empty_url, "0018")
    assert "in_group" not in table_columns(empty_url, "matches")
    assert run("SELECT id, chat_id FROM matches ORDER BY id") == [
        (1, -100), (2, 7), (3, None), (4, None)]
