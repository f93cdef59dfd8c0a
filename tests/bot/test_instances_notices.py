"""The ``closed`` notice on two instances sharing PostgreSQL (issue 22): a match whose record
cannot be read, closed by one player, tells the other by a notice written in the close's
transaction. Behind a round-robin proxy in webhook mode, every Close tap delivered twice (so
both instances handle it: one closes, the other is refused), the notices' sends failing (a 502,
or sent with the answer lost), and the instance that closed the first matches killed once every
match is closed: each opponent is told exactly once, none doubled, none lost. How long it takes
is not the test's business (the waits are hang guards)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from sqlalchemy import select, update

from bot.views.callbacks import Action
from standin import Chat, StandIn, User
from standin.cluster import Cluster, open_group_match
from storage.db import make_engine
from storage.models import DeliveryRow, MatchRow
from storage.results import MatchStatus
from tests.sampling import sample_or_full

PG = os.environ.get("PORTES_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="needs PORTES_TEST_POSTGRES_URL (.ci/postgres.sh)")
CLOSED = sample_or_full(1, 4)
"""Matches closed: one in the default run, four in CI's ``-m full``."""
CLOSE = f"{Action.CLOSE_UNREADABLE}:"
"""The Close button's callback data (its prefix)."""


def told(chat: Chat, closer: User) -> list[str]:
    """The closed notices the bot's messages in ``chat`` say (deleted ones not counted)."""
    mark = f"{closer.first_name} closed match #"
    return [m.content for m in chat.bot_messages() if m.photo_bytes is None and mark in m.content]


async def close_on_games(standin: StandIn, closer: User) -> int:
    """``/games`` in the closer's private chat, and its Close button tapped: the match id."""
    cmd = closer.send(closer.private, "/games")
    # (the answer: other messages may come to the chat meanwhile, e.g. a board being healed)
    games = await closer.private.wait_for_bot_message(
        after=cmd, timeout=60,
        predicate=lambda m: any(b.startswith("✖ Close #") for b in m.button_texts))
    [button] = [b for b in games.button_texts if b.startswith("✖ Close #")]
    await closer.tap(games, button).wait(60)
    return int(button.removeprefix("✖ Close #").split(":", 1)[0])


@pytest.mark.long
@pytest.mark.parametrize("matches", CLOSED)
async def test_two_instances_tell_each_closed_matchs_opponent_once(
        tmp_path: Path, matches: int) -> None:
    assert PG is not None
    with StandIn(recompress_photos=False) as standin:
        cluster = Cluster(standin, PG, tmp_path, n=2, duplicate_every=1,
                          duplicate_actions=(CLOSE,))
        try:
            await cluster.start()
            await closed_by_one_told_to_the_other(standin, cluster, matches)
        finally:
            cluster.stop()
            logs = cluster.log(0) + cluster.log(1)
            cluster.drop()
    assert "Traceback" not in logs, logs[max(0, logs.find("Traceback") - 600):][:5000]


async def closed_by_one_told_to_the_other(standin: StandIn, cluster: Cluster,
                                          matches: int) -> None:
    """Each fault in turn (a 502, a lost answer): two matches cover both."""
    tables: list[tuple[Chat, User, User]] = []
    for i in range(matches):
        a = standin.user(f"A{i}", username=f"a{i}")
        b = standin.user(f"B{i}", username=f"b{i}")
        tables.append((standin.group(f"Kafeneio {i}", a, b), a, b))
    await asyncio.gather(*(open_group_match(standin, g, a, b, started=True)
                           for g, a, b in tables))
    await standin.idle(quiet=0.5, timeout=60)
    # Given every match's stored record cannot be read any more
    engine = make_engine(cluster.url)
    try:
        with engine.begin() as conn:
            conn.execute(update(MatchRow).values(state="damaged"))
    finally:
        engine.dispose()
    # and each opponent's chat fails the next message: a 502 (nothing sent) or one sent and
    # its answer lost (the instance cannot know it was)
    for i, (_, a, _) in enumerate(tables):
        standin.inject_error("sendMessage", 502, chat_id=a.private.id, description="Bad Gateway",
                             applied=i % 2 == 1)
    # When each B closes their match (each tap delivered to both instances)
    ids = [await close_on_games(standin, b) for _, _, b in tables]
    await standin.wait_for(lambda: {s for (s,) in cluster.query(
        select(MatchRow.status).where(MatchRow.id.in_(ids)))} == {MatchStatus.CANCELLED},
        timeout=60, what="every match closed")
    # and the first instance is killed, whatever it was still sending
    cluster.kill(0)
    # Then each A is told once, by whichever instance
    await standin.wait_for(lambda: all(told(a.private, b) for _, a, b in tables), timeout=90,
                           what="every opponent told")
    await standin.wait_for(lambda: not cluster.query(select(DeliveryRow.id).where(
        DeliveryRow.pending.is_(True), DeliveryRow.place.like("note:%:closed"))),
        timeout=90, what="no notice left to send")
    await standin.idle(quiet=1.0, timeout=30)
    for (_, a, b), match_id in zip(tables, ids, strict=True):
        assert told(a.private, b) == [
            f"{b.first_name} closed match #{match_id}: its record could not be read. It counts "
            "for nobody."], (a.first_name, told(a.private, b))
        assert told(b.private, a) == []  # the closer is answered on the card, not told
    # the faults happened: each opponent's chat had a failed send
    for _, a, _ in tables:
        assert standin.calls("sendMessage", chat_id=a.private.id, ok=False)
    # and both instances handled Close taps (every tap came twice)
    closes = [c for c in standin.calls("answerCallbackQuery")]
    assert len(closes) >= 2 * matches
