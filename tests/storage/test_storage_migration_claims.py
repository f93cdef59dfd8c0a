"""Revision 0012: ``deliveries.claim_token``, the fencing token of delivery claims."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from storage import migrate
from tests.storage.helpers import sql_rows, table_columns


def test_revision_0012_adds_the_claim_token_keeping_the_places(empty_url: str) -> None:
    run = functools.partial(sql_rows, empty_url)
    # Given a database at 0011 with a match and a place claimed by a worker
    migrate.upgrade(empty_url, "0011")
    assert "claim_token" not in table_columns(empty_url, "deliveries")
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    run("INSERT INTO players (id, display_name, language, can_message, notices, created_at,"
        " updated_at) VALUES (7, 'Alice', 'el', true, true, :now, :now)", now=now)
    run("INSERT INTO matches (id, status, version, player0_id, length, no_triple, score0, score1,"
        " state, state_format, seed, commitment, dice_drawn, created_at, updated_at) VALUES"
        " (1, 'active', 4, 7, 1, false, 0, 0, '{}', 1, :seed, 'c0', 0, :now, :now)",
        now=now, seed=b"\x00" * 32)
    run("INSERT INTO deliveries (id, match_id, place, chat_key, chat_id, version, shown,"
        " pending, due_at, attempts, claimed_by, claimed_until, updated_at) VALUES"
        " (3, 1, 'chat:-100:g', '-100', -100, 4, 3, true, :now, 0, 'host:1:1', :now, :now)",
        now=now)
    # When it is upgraded to 0012: the place keeps its claim, with token 0
    migrate.upgrade(empty_url, "0012")
    assert run("SELECT id, version, shown, pending, claimed_by, claim_token FROM deliveries"
               ) == [(3, 4, 3, True, "host:1:1", 0)]
    run("UPDATE deliveries SET claim_token = claim_token + 1 WHERE id = 3")
    assert run("SELECT claim_token FROM deliveries") == [(1,)]
    # and downgraded again, only the token goes
    migrate.downgrade(empty_url, "0011")
    assert "claim_token" not in table_columns(empty_url, "deliveries")
    assert run("SELECT id, version, shown, claimed_by FROM deliveries") == [
        (3, 4, 3, "host:1:1")]
