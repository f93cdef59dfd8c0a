"""The bot's start-up migration check (:mod:`storage.schema`): a database at head is read and
left alone, one behind or new is migrated by the child process, and the head read from the
scripts is Alembic's own."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from storage import migrate
from storage.schema import bring_to_head, database_revision, script_head


def test_the_head_read_from_the_scripts_is_alembics() -> None:
    assert script_head() == migrate.head()


def test_a_script_it_cannot_read_gives_no_head(tmp_path: Path) -> None:
    (tmp_path / "0001_first.py").write_text('revision = "0001"\ndown_revision = None\n')
    (tmp_path / "0002_odd.py").write_text('revision = compute()\ndown_revision = "0001"\n')
    assert script_head(tmp_path) == ""
    (tmp_path / "0002_odd.py").write_text("revision: str = '0002'\ndown_revision = '0001'\n")
    assert script_head(tmp_path) == "0002"


async def test_a_new_database_is_migrated_and_one_at_head_only_read(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    url = f"sqlite:///{tmp_path / 'portes.sqlite3'}"
    assert database_revision(url) == ""
    caplog.set_level(logging.INFO, logger="storage.schema")
    assert await bring_to_head(url) == script_head()
    assert database_revision(url) == script_head()
    assert any("Running upgrade" in r.getMessage() for r in caplog.records)  # the child's
    caplog.clear()
    assert await bring_to_head(url) == script_head()
    assert [r.getMessage() for r in caplog.records] == [
        f"database at the newest revision {script_head()}"]


async def test_a_database_one_behind_is_brought_to_head(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'portes.sqlite3'}"
    migrate.upgrade(url)
    head = script_head()
    migrate.downgrade(url, "-1")
    assert database_revision(url) not in ("", head)
    assert await bring_to_head(url) == head
    assert database_revision(url) == head
