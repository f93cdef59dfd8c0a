"""A new board asked for (a reminder's) that the match's end overtakes before it was posted:
a group match's private board is posted only for its player's turn, so the ended match is
drawn on the board that is live there, which loses its buttons. Found as the league deadline
test's flake: the deadline's two days fired the reminders and stopped the matches in one tick,
and a player's board kept its buttons for a match that was over. Here a cancellation ends the
match (a match given up is edited again anyway once its accuracy figure is ready; a match
stopped or cancelled has none)."""

from __future__ import annotations

from typing import Any

from standin import StandIn
from standin.cluster import match_id_of
from standin.players import live_board, private_players_match
from storage.db import Database
from storage.usecases import UseCases


async def test_a_reminder_overtaken_by_the_matchs_end_leaves_no_live_buttons(
        standin: StandIn, make_bot: Any, db_url: str) -> None:
    # Given a group match whose players play on their private boards, the mover's one live
    bot = await make_bot()
    mover, other, _group, _board = await private_players_match(standin)
    mine = await standin.wait_for(lambda: live_board(mover.private), what="the mover's board")
    assert mine.has_keyboard
    match_id = match_id_of(mine)
    await standin.idle()
    posted = len(standin.calls("sendPhoto", chat_id=mover.private.id, ok=True))
    # When the bot is down while an instance that dies before delivering anything writes the
    # reminder's new board, and then the other player's cancellation of the match
    app = bot.app
    await app.updater.stop()
    await app.stop()
    await app.post_stop(app)
    db = Database.from_url(db_url)
    try:
        uc = UseCases(db, clock=bot.clock)
        mv = (await uc.load_match(match_id)).match
        assert mv is not None and mv.to_act is not None
        remind = {"k": "remind", "seat": mv.to_act, "waited_s": 43_200, "left_s": 561_600,
                  "last": False}  # what the bot's timer tick writes for a reminder
        assert await uc.delivery.redeliver(match_id, seat=mv.to_act, shared=False,
                                           notes=[remind]) == [str(mover.id)]
        assert (await uc.cancel_match(match_id, other.id)).ok  # nobody has moved yet
    finally:
        await db.dispose()
    # Then, the bot back, the mover's live board shows the match's end, without buttons,
    # and no new board was posted for a turn that is not coming
    await make_bot()
    ended = await standin.wait_for(lambda: (m := mine.refresh()) and not m.has_keyboard and m,
                                   what="the mover's board without its buttons")
    assert "This match was cancelled." in ended.content.split("\n")
    await standin.idle()
    assert [m.message_id for m in mover.private.bot_messages()
            if m.photo_bytes and m.has_keyboard] == []
    assert len(standin.calls("sendPhoto", chat_id=mover.private.id, ok=True)) == posted
