"""A cup's bracket picture reaches its group through the outbox (issue 24): the delivery
worker posts it once the cup's first match opens, and its message is the cup's card from
then on. A send that fails with 502 is sent again; when only its answer was lost (the picture
posted all the same) the copy it left is found and deleted. Either way the group has the
picture exactly once, and that one is edited with the results (a board's own probe, after its
own 502, leaves the cup's card alone: it is a known message of the chat)."""

from __future__ import annotations

import pytest

from standin import Message, StandIn
from tests.bot.conftest import Running
from tests.bot.helpers.competitions import opened, showing, signed_up

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
