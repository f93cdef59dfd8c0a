"""Revision 0015: ``handled_updates``, the update ids of commands being handled or handled
(each command handled once, whichever instance gets it)."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from storage import migrate
from tests.storage.helpers import inspect_tables, sql_rows


def test_revision_0015_adds_handled_updates_keeping_the_rest(empty_url: str) -> None:
    run = functools.partial(sql_rows, empty_url)
    # Given a database at 0014 with a player
    migrate.upgrade(empty_url, "0014")
    assert "handled_updates" not in inspect_tables(empty_url)
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    run("INSERT INTO players (id, display_name, language, can_message, notices, created_at,"
        " updated_at) VALUES (7, 'Alice', 'el', true, true, :now, :now)", now=now)
    # When it is upgraded to 0015: the table is there, empty, and takes update ids past 32 bits
    migrate.upgrade(empty_url, "0015")
    assert run("SELECT count(*) FROM handled_updates") == [(0,)]
    run("INSERT INTO handled_updates (update_id, claimed_by, claimed_until, done)"
        " VALUES (:id, 'host:1:ab', :now, false)", id=2**40 + 1, now=now)
    assert run("SELECT update_id, claimed_by, done FROM handled_updates") == [
        (2**40 + 1, "host:1:ab", False)]
    assert run("SELECT id, display_name FROM players") == [(7, "Alice")]
    # and downgraded again, only the table goes
    migrate.downgrade(empty_url, "0014")
    assert "handled_updates" not in inspect_tables(empty_url)
    assert run("SELECT id, display_name FROM players") == [(7, "Alice")]
