"""The bot's HTTP side: a GET, and a value read off /metrics."""

from __future__ import annotations

import httpx


async def get(port: int, path: str) -> httpx.Response:
    async with httpx.AsyncClient() as client:
        return await client.get(f"http://127.0.0.1:{port}{path}", timeout=10)


def value(text: str, series: str) -> float:
    """The value of one series (with its labels, if any) in a Prometheus text page."""
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    raise AssertionError(f"{series} not in the page:\n{text}")
