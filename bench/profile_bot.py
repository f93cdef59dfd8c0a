"""``python -m bench.profile_bot OUT`` (from the checkout): the bot under cProfile, every thread.

``python -m cProfile`` sees the main thread only, and the bot's CPU is spread over it (the
event loop: handlers, the delivery worker, the HTTP client), the database's worker threads and
the drawing thread. Here each thread gets its own profiler on its thread's CPU clock (time
spent waiting for the GIL, a lock or a socket is not counted); at exit each thread's stats go
to ``OUT.<thread name>`` and all of them merged to ``OUT`` (read with :mod:`pstats`).
``bench/turns.py --profile OUT`` runs the bot this way. The profiler slows the bot several
times over: its figures say where the CPU goes, not how fast it is.
"""

from __future__ import annotations

import atexit
import cProfile
import pstats
import runpy
import sys
import threading
import time
from typing import Any

PROFILES: list[tuple[str, cProfile.Profile]] = []
_LOCK = threading.Lock()
_bootstrap_inner: Any = threading.Thread._bootstrap_inner  # type: ignore[attr-defined]


def _profiled_bootstrap(self: threading.Thread) -> None:
    profile = cProfile.Profile(time.thread_time)
    with _LOCK:
        PROFILES.append((self.name, profile))
    profile.enable()
    try:
        _bootstrap_inner(self)
    finally:
        profile.disable()


def dump(out: str) -> None:
    merged: pstats.Stats | None = None
    for name, profile in list(PROFILES):
        profile.disable()
        profile.create_stats()
        if not profile.stats:  # type: ignore[attr-defined]
            continue
        profile.dump_stats(f"{out}.{name.replace('/', '_')}")
        if merged is None:
            merged = pstats.Stats(profile)
        else:
            merged.add(profile)
    if merged is not None:
        merged.dump_stats(out)


def main(out: str) -> None:
    threading.Thread._bootstrap_inner = _profiled_bootstrap  # type: ignore[attr-defined]
    main_profile = cProfile.Profile(time.thread_time)
    PROFILES.append(("main", main_profile))
    atexit.register(dump, out)
    sys.argv = ["bot"]
    main_profile.enable()
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1])
