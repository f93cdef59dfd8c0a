"""One lock per match, kept only while someone holds it or waits for it.

A tap, the computer's move and a timer on the same match must not interleave their "decide,
commit, show" steps; taps on different matches must not wait for each other. A plain
``defaultdict(asyncio.Lock)`` would keep a lock for every match ever tapped, so each entry here
counts its holders and waiters and is dropped when the count falls to zero.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field


@dataclass
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Tasks holding the lock or waiting for it."""


class MatchLocks:
    """Per-key mutual exclusion (a key is a match id) whose table holds only keys in use."""

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __len__(self) -> int:
        """How many keys have a holder or a waiter."""
        return len(self._entries)

    @asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        """Hold ``key``'s lock for the ``async with`` block (waiting for it first if taken)."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            # also when cancelled while waiting: a waiter that gave up no longer uses the entry
            entry.users -= 1
            if entry.users == 0:
                del self._entries[key]
