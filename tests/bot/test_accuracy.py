"""The accuracy figure as players see it: a Plakoto match between people, judged in the
background once it is over, edited in under the end board through the outbox, then in /stats
and beside the opponent in a head to head."""

from __future__ import annotations

from typing import Any

from bot.accuracy_job import AccuracyJob
from standin import StandIn
from standin.players import ask, board_version, live_board, next_private_turn, play_turn
from tests.bot.conftest import Running
from tests.bot.helpers.review import resign_the_match
from tests.bot.helpers.tavli import private_game


async def test_a_plakoto_match_gets_its_accuracy_under_the_end_and_in_stats(
        standin: StandIn, bot: Running) -> None:
    alice, bob = await private_game(standin, "Plakoto")
    version = 0
    for _ in range(6):
        mover, board = await next_private_turn(standin, [alice, bob], version)
        version = board_version(board)
        # no figure while the match goes on
        assert "🎯" not in (board.caption or "")
        await play_turn(standin, mover, mover.private, wait=False)
    mover, board = await next_private_turn(standin, [alice, bob], version)
    await resign_the_match(standin, mover, bob if mover is alice else alice)
    await standin.idle()
    end = live_board(alice.private)
    assert end is not None and "wins the match" in (end.caption or "")
    # the end board came without the figure (not judged yet): read from what was sent, as the
    # periodic job may have judged the match, and edited the board, since
    ends = [c.result["caption"] for c in standin.calls(chat_id=alice.private.id, ok=True)
            if isinstance(c.result, dict) and c.result.get("message_id") == end.message_id
            and "wins the match" in (c.result.get("caption") or "")]
    assert ends and "🎯" not in ends[0], ends

    # the job judges it (the periodic job may get there first: stored once either way)
    portes: Any = bot.app.bot_data["portes"]
    await AccuracyJob(portes).run_once()
    judged = await bot.uc.match_accuracy(1)
    assert judged is not None
    first, second = judged
    assert first.decisions > 0 and second.decisions > 0
    assert first.evaluator == "the strong level's net 0-ply"
    # a second run stores nothing new
    assert await AccuracyJob(portes).run_once() == 0

    # the end board is edited in place with both figures
    def edited() -> Any:
        b = live_board(alice.private)
        return b is not None and "🎯" in (b.caption or "") and b
    shown = await standin.wait_for(edited, what="the end board with the accuracy")
    assert shown.message_id == end.message_id
    rate = f"{first.error_rate:.1f}‰ a move (PR {first.performance_rating:.1f})"
    assert f"🎯 Alice: {rate}" in shown.caption
    assert "Accuracy by the strong level's net 0-ply" in shown.caption
    greek = await standin.wait_for(
        lambda: (b := live_board(bob.private)) is not None and "🎯" in (b.caption or "") and b,
        what="Bob's end board with the accuracy")
    assert "ανά κίνηση" in greek.caption

    # /stats: the average of the last matches and the best one
    stats = await ask(alice, alice.private, "/stats plakoto", "📊")
    assert f"🎯 Accuracy, last 1 match: {rate}" in stats.text
    assert f"Best: {rate} in match #1" in stats.text
    # head to head: each beside the other
    h2h = await ask(alice, alice.private, "/stats @vasilis plakoto", "⚔️")
    assert f"🎯 Alice: {rate}" in h2h.text
    other = f"{second.error_rate:.1f}‰ a move (PR {second.performance_rating:.1f})"
    assert f"🎯 Βασίλης: {other}" in h2h.text
