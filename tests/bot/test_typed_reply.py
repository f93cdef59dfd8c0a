"""A play typed as a reply to a board: the board's match is found in one query, however many
matches the player has (not by loading each of them), and the player's last typed play is
read once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event

from standin import StandIn
from tests.bot.conftest import Running
from tests.bot.helpers.several import (
    a_legal_play,
    alice_to_move,
    board_of,
    challenge_by_link,
    version,
)


@contextmanager
def statements(bot: Running) -> Iterator[list[str]]:
    """Every SQL statement the bot's database runs meanwhile (a real SQLite engine)."""
    seen: list[str] = []

    def note(_conn, _cursor, statement, _params, _context, _many) -> None:  # type: ignore[no-untyped-def]
        seen.append(" ".join(statement.split()))

    engine = bot.uc.kernel.db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


async def test_a_play_replying_to_a_board_finds_its_match_in_one_query(
        standin: StandIn, bot: Running) -> None:
    # Given Alice plays three private matches, one of them waiting for her
    alice = standin.user("Alice")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    opponents = [standin.user(name) for name in ("Bob", "Carol", "Dave")]
    ids = [await challenge_by_link(standin, bot, alice, o) for o in opponents]
    await alice_to_move(standin, bot, alice, ids[0], opponents[0])
    board = board_of(alice, ids[0])
    assert board is not None
    play = await a_legal_play(bot, ids[0])
    before = [await version(bot, m) for m in ids]
    await standin.idle()
    # When she types a play as a reply to that match's board
    with statements(bot) as seen:
        alice.reply(alice.private, board, play)
        await standin.idle()
    # Then it is played in that match only
    played = (await bot.uc.load_match(ids[0])).match
    assert played is not None and played.version > before[0]
    assert played.to_act != played.seat_of(alice.id)
    assert [await version(bot, m) for m in ids[1:]] == before[1:]
    # and her boards were looked up once, in one query; no match was loaded but the one
    # played (its compare-and-swap read); her last typed play was read once (with her matches)
    lookups = [s for s in seen
               if "FROM board_messages" in s and "board_messages.message_id = ?" in s]
    assert len(lookups) == 1, lookups
    loads = [s for s in seen if s.startswith("SELECT") and "FROM matches LEFT OUTER JOIN" in s]
    assert len(loads) == 1, loads
    reads_of_last_typed = [s for s in seen if s.startswith("SELECT players.last_typed")]
    assert len(reads_of_last_typed) == 1, reads_of_last_typed
