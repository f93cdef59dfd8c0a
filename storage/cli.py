"""``python -m storage.cli``: the storage's commands for an operator.

``python -m storage.cli ratings rebuild [--database-url URL]`` recomputes every rating from the
finished matches in the order they ended (:func:`storage.usecases.rating_write.rebuild`), with
the formula of :mod:`storage.ratings`.
"""

from __future__ import annotations

import argparse
import time

from storage.db import Database, database_url
from storage.usecases.rating_write import rebuild


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m storage.cli")
    parser.add_argument("what", choices=["ratings"])
    parser.add_argument("action", choices=["rebuild"])
    parser.add_argument("--database-url", help="default: DATABASE_URL or the SQLite file")
    args = parser.parse_args(argv)
    db = Database.from_url(args.database_url or database_url())
    started = time.perf_counter()
    try:
        with db.engine.begin() as conn:
            count = rebuild(conn)
    finally:
        db.engine.dispose()
    print(f"rebuilt ratings from {count} matches in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
