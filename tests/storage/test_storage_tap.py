"""A tap decided once: the action returns the chats whose places it wrote (the bot kicks
those, computing nothing again), and the board a message replies to is found in one query."""

from __future__ import annotations

from sqlalchemy import select

from storage.models import DeliveryRow
from storage.results import ActionResult
from storage.usecases import UseCases
from tests.storage.helpers import ALICE, BOB, new_match, players


async def written_chats(uc: UseCases, res: ActionResult) -> set[str]:
    """The chats of the outbox rows at the version the action produced (read back)."""
    assert res.match is not None
    with uc.kernel.sessions() as session:
        return set(session.scalars(select(DeliveryRow.chat_key).where(
            DeliveryRow.match_id == res.match.id, DeliveryRow.version == res.match.version)))


async def test_a_step_and_a_confirm_return_exactly_the_chats_they_wrote(uc: UseCases) -> None:
    # Given both players started the bot, and a match in a group (the mover plays privately)
    await players(uc)
    for who in (ALICE, BOB):
        await uc.set_can_message(who, True)
    mv = (await new_match(uc)).match
    assert mv is not None and mv.to_act is not None
    mover = mv.seats[mv.to_act].player
    assert mover is not None
    # When the mover takes a step inside the turn
    play = mv.state.legal_plays()[0]
    res = await uc.steps(mv.id, mover.id, mv.version, play.moves[:1])
    # Then it says it wrote the mover's private chat only, as the outbox holds
    assert res.ok and res.chat_keys == (str(mover.id),)
    assert await written_chats(uc, res) == {str(mover.id)}
    # When the rest of the play is made and confirmed
    assert res.match is not None
    res = await uc.steps(mv.id, mover.id, res.match.version, play.moves[1:])
    assert res.ok and res.match is not None
    res = await uc.confirm(mv.id, mover.id, res.match.version)
    # Then the turn changed: the group's board and both private chats, each once
    assert res.ok and res.chat_keys is not None
    assert sorted(res.chat_keys) == sorted({"-100", str(ALICE), str(BOB)})
    assert set(res.chat_keys) == await written_chats(uc, res)


async def test_a_refused_action_writes_and_returns_no_chat(uc: UseCases) -> None:
    # Given a match in a group
    mv = (await new_match(uc)).match
    assert mv is not None and mv.to_act is not None
    other = mv.seats[1 - mv.to_act].player
    assert other is not None
    # When the player not to move confirms
    res = await uc.confirm(mv.id, other.id, mv.version)
    # Then it is refused and names no chat
    assert not res.ok and res.chat_keys is None
