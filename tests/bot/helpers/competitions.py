"""A group's league or cup through the stand-in: the sign-up card filled by taps, the
competition once its matches are opened, a message once it shows some words."""

from __future__ import annotations

import asyncio

from standin import Chat, Message, StandIn, User
from storage.usecases.competition_views import CompetitionView
from tests.bot.conftest import Running


async def opened(bot: Running, comp_id: int, count: int | None = None,
                 tries: int = 400) -> CompetitionView:
    """The competition once the matches of its round are all opened (``count`` of them, or
    every pairing's)."""
    for _ in range(tries):
        comp = await bot.uc.get_competition(comp_id)
        assert comp is not None
        live = [p for p in comp.pairings if p.match_status == "active"]
        if (count is None and comp.pairings
                and all(p.match_status == "active" for p in comp.pairings)) or \
                (count is not None and len(live) == count):
            return comp
        await asyncio.sleep(0.05)
    raise AssertionError("the matches were not opened")


async def showing(standin: StandIn, message: Message, words: str,
                  timeout: float = 10.0) -> Message:
    """The message once it shows ``words`` (text or caption)."""
    def now() -> Message | None:
        fresh = message.refresh()
        return fresh if words in fresh.content else None
    found: Message = await standin.wait_for(now, timeout=timeout, what=f"{words!r} shown")
    return found


async def signed_up(standin: StandIn, group: Chat, organiser: User, others: list[User],
                    *taps: tuple[str, str]) -> Message:
    """``/tournament`` by ``organiser``, its settings tapped (``(button, shown)``: the card
    shows ``shown`` once it took), then every one of ``others`` joined."""
    card = await group.wait_for_answer(organiser.send(group, "/tournament"))
    for button, shown in taps:
        await organiser.tap(card.refresh(), button)
        card = await showing(standin, card, shown)
    for n, p in enumerate(others, 2):
        await p.tap(card.refresh(), "➕ Join")
        card = await showing(standin, card, f"Signed up ({n} of ")
    return card
