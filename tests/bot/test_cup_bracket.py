"""A cup's bracket picture reaches its group through the outbox (issue 24): the delivery
worker posts it once the cup's first match opens, and its message is the cup's card from
then on. A send that fails with 502 is sent again; when only its answer was lost (the picture
posted all the same) the copy it left is found and deleted. Either way the group has the
picture exactly once, and that one is edited with the results (a board's own probe, after its
own 502, leaves the cup's card alone: it is a known message of the chat). The real process
killed right after the picture's send (``notice-sent:bracket``) is restarted, and the group
ends with the picture once too, the one the cup's card names."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from sqlalchemy import select

from standin import Message, StandIn
from standin.forked import Process
from storage.db import make_engine
from storage.models import CompetitionRow
from tests.bot.conftest import Running
from tests.bot.helpers.competitions import opened, showing, signed_up
from tests.bot.helpers.processes import start_at

CUP = "Knockout cup"


def brackets(group: object) -> list[Message]:
    return [m for m in group.bot_messages()  # type: ignore[attr-defined]
            if m.photo_bytes is not None and CUP in m.content]


@pytest.mark.parametrize("applied", [True, False], ids=["lost answer", "502"])
async def test_the_bracket_arrives_once_after_a_fault(standin: StandIn, bot: Running,
                                                     applied: bool) -> None:
    people = [standin.user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol")]
    group = standin.group("Kafeneio", *people)
    card = await signed_up(standin, group, people[0], people[1:], ("Cup", CUP))
    # the next two pictures sent to the group (the first match's board, the bracket) fail
    # with 502: posted all the same, their answers lost (``applied``), or not posted
    standin.inject_error("sendPhoto", code=502, applied=applied, chat_id=group.id, times=2)
    await people[0].tap(card.refresh(), "▶ Start now")
    await showing(standin, card, "The cup has started")
    comp = await opened(bot, (await bot.uc.open_competition(group.id)).id, 1)  # type: ignore[union-attr]
    await standin.wait_for(lambda: len(brackets(group)) == 1 and all(
        c.ok for c in standin.calls("sendPhoto", chat_id=group.id)[-1:]), timeout=30,
        what="the bracket posted again")
    await standin.idle(quiet=0.5)
    lost = [c for c in standin.calls("sendPhoto", chat_id=group.id, ok=False)]
    assert len(lost) == 2 and any(CUP in str(c.params.get("caption")) for c in lost)
    [picture] = brackets(group)  # the copy the lost answer left is gone
    assert "Round 1 of 2" in picture.content
    done = await bot.uc.get_competition(comp.id)
    assert done is not None and done.card_message_id == picture.message_id
    [match] = [p for p in comp.pairings if p.match_status == "active"]
    assert (await bot.uc.resign_match(match.match_id, match.player1)).ok  # type: ignore[arg-type]
    picture = await showing(standin, picture, "Round 2 of 2", timeout=30)
    assert len(brackets(group)) == 1


@pytest.mark.long
async def test_killed_once_the_bracket_is_sent_it_is_there_once(
        standin: StandIn, tmp_path: Path, bot_process: list[Process]) -> None:
    """The process ends itself right after Telegram took the picture, before it knew its
    message id: the restarted one posts it again and deletes the copy."""
    proc = start_at(standin, tmp_path, None)
    bot_process.append(proc)
    alice, bob = standin.user("Alice", username="alice"), standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    card = await group.wait_for_answer(alice.send(group, "/tournament"), timeout=60)
    await alice.tap(card, "Cup").wait(30)
    card = await showing(standin, card, CUP, timeout=30)
    await bob.tap(card, "➕ Join").wait(30)
    card = await showing(standin, card, "Signed up (2 of ", timeout=30)
    await standin.idle()
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    proc = start_at(standin, tmp_path, "notice-sent:bracket")
    bot_process.append(proc)
    alice.tap(card, "▶ Start now")
    assert proc.wait(timeout=60) == 70
    assert len(brackets(group)) == 1  # sent, its message id never known
    proc = start_at(standin, tmp_path, None)
    bot_process.append(proc)
    await standin.wait_for(lambda: len(standin.calls("sendPhoto", chat_id=group.id)) >= 3,
                           timeout=60, what="the bracket sent again")
    await standin.idle(quiet=1.0, timeout=60)
    [picture] = brackets(group)
    engine = make_engine(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    try:
        with engine.connect() as conn:
            card_id = conn.execute(select(CompetitionRow.card_message_id)).scalar()
    finally:
        engine.dispose()
    assert card_id == picture.message_id
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-3000:]
