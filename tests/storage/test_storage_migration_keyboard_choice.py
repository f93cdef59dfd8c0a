"""Revision 0018: ``deliveries.selected``, ``selected_version`` and ``keyboard_asked``, a
checker chosen on a board's keyboard as a request to its place."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from storage import migrate
from tests.storage.helpers import sql_rows, table_columns

CHOICE = {"selected", "selected_version", "keyboard_asked"}


def test_revision_0018_adds_the_keyboard_choice_keeping_the_places(empty_url: str) -> None:
    run = functools.partial(sql_rows, empty_url)
    # Given a database at 0017 with a match and a place still to deliver
    migrate.upgrade(empty_url, "0017")
    assert not CHOICE & table_columns(empty_url, "deliveries")
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    run("INSERT INTO players (id, display_name, language, can_message, notices, created_at,"
        " updated_at) VALUES (7, 'Alice', 'el', true, true, :now, :now)", now=now)
    run("INSERT INTO matches (id, status, version, player0_id, length, no_triple, score0, score1,"
        " state, state_format, seed, commitment, dice_drawn, created_at, updated_at) VALUES"
        " (1, 'active', 4, 7, 1, false, 0, 0, '{}', 1, :seed, 'c0', 0, :now, :now)",
        now=now, seed=b"\x00" * 32)
    run("INSERT INTO deliveries (id, match_id, place, chat_key, chat_id, version, shown,"
        " pending, due_at, attempts, claim_token, updated_at) VALUES"
        " (3, 1, 'chat:-100:g', '-100', -100, 4, 3, true, :now, 0, 2, :now)", now=now)
    # When it is upgraded to 0018: the place is kept, with no checker chosen
    migrate.upgrade(empty_url, "0018")
    assert run("SELECT id, version, shown, pending, claim_token, selected, selected_version,"
               " keyboard_asked FROM deliveries") == [(3, 4, 3, True, 2, None, None, False)]
    run("UPDATE deliveries SET selected = 13, selected_version = 4, keyboard_asked = true")
    assert run("SELECT selected, selected_version, keyboard_asked FROM deliveries") == [
        (13, 4, True)]
    # and downgraded again, only the choice goes
    migrate.downgrade(empty_url, "0017")
    assert not CHOICE & table_columns(empty_url, "deliveries")
    assert run("SELECT id, version, shown, claim_token FROM deliveries") == [(3, 4, 3, 2)]
