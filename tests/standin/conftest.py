from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from standin.clock import ManualClock
from standin.server import StandIn


@pytest.fixture
def standin() -> Iterator[StandIn]:
    """A running stand-in on a manual clock, so that no outcome depends on the machine's speed
    (test_ptb.py, which runs python-telegram-bot in real time, has its own on the real clock)."""
    with StandIn(clock=ManualClock()) as server:
        yield server


@pytest.fixture
async def api(standin: StandIn) -> AsyncIterator[httpx.AsyncClient]:
    """A raw HTTP client pointed at ``/bot<token>/``."""
    async with httpx.AsyncClient(base_url=standin.api_url, timeout=10) as client:
        yield client
