"""Is the database at the newest migration, and bring it there: what the bot asks at start,
without Alembic in its own process.

Alembic (about 9 MB once imported, and a second of CPU for a fresh interpreter to load it with
SQLAlchemy) runs only in a child process (``python -m storage.migrate upgrade``), and only
when the database is behind: a restart of an instance whose database is already at head, the
usual case, reads one row and starts. The head is read from the migration scripts themselves
(each declares ``revision`` and ``down_revision``), which is what Alembic reads too.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

import migrations
from storage.db import make_engine

log = logging.getLogger("storage.schema")
VERSIONS = Path(next(iter(migrations.__path__))).resolve() / "versions"
_DECLARED = re.compile(r'^(revision|down_revision)\s*(?::[^=]*)?=\s*(None|"[^"]*"|\'[^\']*\')',
                       re.MULTILINE)


def script_head(versions: Path = VERSIONS) -> str:
    """The newest revision of the migration scripts (several heads joined by commas, as
    :func:`storage.migrate.head` says it): every revision no other script names as its
    ``down_revision``. Empty when a script cannot be read so (the caller then migrates)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in versions.glob("*.py"):
        if script.name.startswith("_"):
            continue
        found = dict(_DECLARED.findall(script.read_text(encoding="utf-8")))
        if "revision" not in found or "down_revision" not in found:
            return ""
        revisions.add(found["revision"].strip("'\""))
        if found["down_revision"] != "None":
            parents.add(found["down_revision"].strip("'\""))
    return ",".join(sorted(revisions - parents))


def database_revision(url: str) -> str:
    """The revision the database is at (several joined by commas); empty when it has none
    or cannot be read (a new database: the caller migrates)."""
    engine = make_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            found = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except SQLAlchemyError:
        return ""
    finally:
        engine.dispose()
    return ",".join(sorted(found))


async def upgrade_in_child(url: str) -> str:
    """``python -m storage.migrate upgrade`` in a child process; returns the head revision.
    The URL goes through the environment, not the command line (``ps`` shows that). Raises
    ``RuntimeError`` with the child's last lines when it fails."""
    env = dict(os.environ, DATABASE_URL=url)
    here = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage.migrate", "upgrade", "--say-head", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await child.communicate()
    for line in err.decode(errors="replace").splitlines():
        if line.strip() and child.returncode == 0:
            log.info("%s", line)  # Alembic's "Running upgrade 0006 -> 0007, ..."
    if child.returncode != 0:
        lines = [x for x in err.decode(errors="replace").splitlines() if x.strip()]
        raise RuntimeError("\n".join(lines[-3:]) or f"exit status {child.returncode}")
    said = [x for x in out.decode().splitlines() if x.startswith("head: ")]
    return said[-1].removeprefix("head: ") if said else ""


async def bring_to_head(url: str) -> str:
    """The database at the newest revision; returns it. At head already: one read, no child
    (instances restarted together read it at once, and none migrates). Behind, new, or not
    readable: the child migrates under the migration lock (instances started together on a
    new database wait for the one that migrates)."""
    head = script_head()
    if head and await asyncio.to_thread(database_revision, url) == head:
        log.info("database at the newest revision %s", head)
        return head
    return await upgrade_in_child(url)
