"""Ratings as players see them: the end-of-match board tells each player's change."""

from __future__ import annotations

from standin import Chat, StandIn, User
from standin.players import live_board, start_group_match
from tests.bot.conftest import Running


async def resign_in(standin: StandIn, loser: User, group: Chat) -> str:
    cmd = loser.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    await loser.tap(menu, "🏳 Resign the match")
    final = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "📈" in b.caption and b,
        what="the end with ratings")
    return final.caption


async def test_the_last_board_tells_the_rating_changes_of_two_groups(
    standin: StandIn, bot: Running
) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol", username="carol")
    first = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, first)
    caption = await resign_in(standin, bob, first)
    # newcomers, equal ratings, 1 point: 4 * K 5 * sqrt 1 * P 0.5 = 10
    assert "📈 Alice +10.0 → 1510.0" in caption
    assert "📈 Bob -10.0 → 1490.0" in caption

    second = standin.group("Taverna", alice, carol)
    await start_group_match(standin, alice, carol, second)
    caption = await resign_in(standin, alice, second)
    # global: Alice 1510 (experience 1) against Carol 1500 (0), 1 point, the underdog wins:
    # P_upset = 1 / (10 ** (10 / 2000) + 1) = 0.497122, P = 0.502878, 4 * P = 2.011511;
    # Carol K 5: +10.06 -> 1510.06; Alice K 4.99: -10.04 -> 1499.96
    assert "📈 Carol +10.1 → 1510.1" in caption
    assert "📈 Alice -10.0 → 1500.0" in caption
