"""A group league at Telegram's limits (issue 24): every match of a league is opened at once
in its group and they all end at once, against a stand-in that enforces Telegram's flood
limits (20 calls a minute in a group, about one a second in a chat, 30 a second overall), the
bot with its rates as shipped and its limiter on the stand-in's clock (a wait for room moves
that clock on, nothing sleeps). The group is never answered 429, and the test counts its calls
per finished match: the boards posted and ended, the seeds revealed, the standings card.

Half the players started the bot (they play on private boards, the group's board follows each
turn), half did not (they play on the group's board). The matches are 1 point and end by
resignation through the use cases (what /resign does) all at once; the sample is a 5-player
league (10 matches), the whole 12-player league (66 matches) runs in CI (``-m full``)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from standin import StandIn
from standin.players import start_the_bot
from tests.bot.helpers.budget import group_calls, telegram_limits, throttled
from tests.bot.helpers.competitions import opened, showing, signed_up
from tests.sampling import sample_or_full


@pytest.mark.parametrize("players", sample_or_full(5, 12))
async def test_a_league_playing_all_its_matches_at_once_stays_in_the_groups_budget(
        standin: StandIn, make_bot: Any, players: int) -> None:
    bot, _gate = await telegram_limits(standin, make_bot)
    people = [standin.user(f"Player{i}", username=f"player{i}") for i in range(1, players + 1)]
    await start_the_bot(*people[::2])
    group = standin.group("Kafeneio", *people)
    card = await signed_up(standin, group, people[0], people[1:], ("1", "Matches to 1 point"))
    comp = await bot.uc.open_competition(group.id)
    assert comp is not None
    before = len(group_calls(standin, group))
    await people[0].tap(card.refresh(), "▶ Start now")
    matches = players * (players - 1) // 2
    comp = await opened(bot, comp.id, tries=2400)
    assert len(comp.pairings) == matches
    await standin.idle(quiet=0.5, timeout=120)  # every board shown in the group
    # all at once: every match ends in the same moment
    results = await asyncio.gather(*(bot.uc.resign_match(p.match_id, p.player1)
                                     for p in comp.pairings))
    assert all(r.ok for r in results)
    await showing(standin, card, "wins!", timeout=120)
    await standin.wait_for(lambda: any("wins the Round robin league" in m.content
                                       for m in group.bot_messages()),
                           timeout=120, what="the winner told")
    await standin.idle(quiet=1.0, timeout=120)
    done = await bot.uc.get_competition(comp.id)
    assert done is not None and done.status == "finished"
    finished = [p for p in done.pairings if p.match_status == "finished"]
    assert len(finished) == matches
    calls = group_calls(standin, group)[before:]
    per_match = len(calls) / len(finished)
    print(f"league of {players}: {len(finished)} matches, {len(calls)} group calls, "
          f"{per_match:.2f} per finished match: {dict(Counter(calls))}")
    assert throttled(standin) == []
    # each match: its board posted, its end posted and the board before it deleted, its
    # seed revealed; the standings card's edits (coalesced) and the winner's message besides
    assert len(calls) - calls.count("editMessageText") <= 4 * matches + 1
    assert calls.count("editMessageText") <= matches
