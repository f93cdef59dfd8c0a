"""Migrations: upgrade from empty, down and up again (stairway), models == newest revision."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect

from storage import migrate
from storage.db import make_engine
from storage.models import Base
from tests.storage.helpers import (
    inspect_tables,
    sql_rows,
    table_columns,
)

TABLES = {
    "players",
    "matches",
    "games",
    "turns",
    "challenges",
    "board_messages",
    "timers",
    "chat_settings",
}




def autogenerate_diff(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            return list(compare_metadata(context, Base.metadata))
    finally:
        engine.dispose()


@pytest.mark.long
def test_upgrade_from_empty_stairway_and_autogenerate(empty_url: str) -> None:
    migrate.upgrade(empty_url)
    assert inspect_tables(empty_url) >= TABLES
    assert autogenerate_diff(empty_url) == []
    script = ScriptDirectory.from_config(migrate.alembic_config(empty_url))
    revisions = list(script.walk_revisions("base", "heads"))
    for revision in revisions:  # newest first: step down one at a time, then back up
        migrate.downgrade(empty_url, revision.down_revision or "base")
        migrate.upgrade(empty_url, revision.revision)
        migrate.downgrade(empty_url, revision.down_revision or "base")
    assert inspect_tables(empty_url) & TABLES == set()
    migrate.upgrade(empty_url)
    assert inspect_tables(empty_url) >= TABLES
    assert autogenerate_diff(empty_url) == []


async def test_upgrade_async_inside_the_event_loop(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'async.sqlite3'}"
    await migrate.upgrade_async(url)
    await migrate.upgrade_async(url)  # idempotent
    engine = create_engine(url)
    with engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) >= TABLES
        fks = {fk["name"] for fk in inspect(conn).get_foreign_keys("matches")}
        assert "fk_matches_player0_id_players" in fks
    engine.dispose()


def test_constraint_names_follow_the_convention() -> None:
    for table in Base.metadata.sorted_tables:
        for constraint in table.constraints:
            assert constraint.name, f"unnamed constraint on {table.name}"
            assert str(constraint.name).split("_")[0] in {"pk", "fk", "uq", "ck", "ix"}


def test_revision_0002_keeps_the_data_of_0001(empty_url: str) -> None:
    from datetime import UTC, datetime


    run = functools.partial(sql_rows, empty_url)

    # Given a database at 0001 with a player in it
    migrate.upgrade(empty_url, "0001")
    assert "chat_settings" not in inspect_tables(empty_url)
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    run(
        "INSERT INTO players (id, display_name, language, can_message, created_at, updated_at)"
        " VALUES (7, 'Alice', 'el', false, :now, :now)",
        now=now,
    )
    # When it is upgraded to 0002, a chat setting written, and it is downgraded again
    migrate.upgrade(empty_url, "0002")
    run(
        "INSERT INTO chat_settings (chat_id, language, updated_at) VALUES (-5, 'el', :now)",
        now=now,
    )
    assert run("SELECT chat_id, language FROM chat_settings") == [(-5, "el")]
    migrate.downgrade(empty_url, "0001")
    # Then the player was kept throughout, and only the new table went away
    assert "chat_settings" not in inspect_tables(empty_url)
    assert run("SELECT id, language FROM players") == [(7, "el")]


def test_revision_0006_turns_notices_on_for_every_player(empty_url: str) -> None:
    from datetime import UTC, datetime


    run = functools.partial(sql_rows, empty_url)

    columns = functools.partial(table_columns, empty_url, "players")

    # Given a database at 0005 with a player in it
    migrate.upgrade(empty_url, "0005")
    assert "notices" not in columns()
    now = datetime(2026, 12, 2, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    run("INSERT INTO players (id, display_name, language, can_message, created_at, updated_at)"
        " VALUES (7, 'Alice', 'el', true, :now, :now)", now=now)
    # When it is upgraded to 0006: the player has notices on, and a new player too
    migrate.upgrade(empty_url, "0006")
    run("INSERT INTO players (id, display_name, can_message, created_at, updated_at)"
        " VALUES (8, 'Bob', false, :now, :now)", now=now)
    assert [(i, bool(n)) for i, n in run("SELECT id, notices FROM players ORDER BY id")] == [
        (7, True), (8, True)]
    run("UPDATE players SET notices = false WHERE id = 8")
    # and downgraded again, only the column goes
    migrate.downgrade(empty_url, "0005")
    assert "notices" not in columns()
    assert run("SELECT id, display_name, language FROM players ORDER BY id") == [
        (7, "Alice", "el"), (8, "Bob", None)]


def test_revision_0009_adds_settings_and_time_per_move_keeping_the_data(empty_url: str) -> None:
    from datetime import UTC, datetime


    run = functools.partial(sql_rows, empty_url)

    columns = functools.partial(table_columns, empty_url)

    # Given a database at 0007 with a player who turned notices off and a match of theirs
    migrate.upgrade(empty_url, "0007")
    assert not {"theme", "home_side"} & columns("players")
    assert "move_seconds" not in columns("matches")
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None)
    run("INSERT INTO players (id, display_name, language, can_message, notices, created_at,"
        " updated_at) VALUES (7, 'Alice', 'el', true, false, :now, :now)", now=now)
    run("INSERT INTO matches (id, status, version, player0_id, length, no_triple, score0, score1,"
        " state, state_format, seed, commitment, dice_drawn, created_at, updated_at) VALUES"
        " (1, 'challenge', 1, 7, 5, false, 0, 0, '{}', 1, :seed, 'c0', 0, :now, :now)",
        now=now, seed=b"\x00" * 32)
    # When it is upgraded to 0009: the player keeps everything and gets the classic board with
    # the home on the right; the match keeps the operator's time per move (NULL)
    migrate.upgrade(empty_url, "0009")
    assert run("SELECT id, display_name, language, notices, theme, home_side FROM players") == [
        (7, "Alice", "el", False, "classic", "right")]
    assert run("SELECT id, length, move_seconds FROM matches") == [(1, 5, None)]
    run("UPDATE players SET theme = 'high-contrast', home_side = 'left' WHERE id = 7")
    run("UPDATE matches SET move_seconds = 3600 WHERE id = 1")
    # and downgraded again, only the new columns go
    migrate.downgrade(empty_url, "0007")
    assert not {"theme", "home_side"} & columns("players")
    assert "move_seconds" not in columns("matches")
    assert run("SELECT id, display_name, language, notices FROM players") == [
        (7, "Alice", "el", False)]
    assert run("SELECT id, length FROM matches") == [(1, 5)]
