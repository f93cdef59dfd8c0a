from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from .fixtures import standin  # noqa: F401
from .server import StandIn


@pytest.fixture
async def api(standin: StandIn) -> AsyncIterator[httpx.AsyncClient]:  # noqa: F811
    """A raw HTTP client pointed at ``/bot<token>/``."""
    async with httpx.AsyncClient(base_url=standin.api_url, timeout=10) as client:
        yield client
