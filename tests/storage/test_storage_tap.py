"""A tap decided once: the player's intent goes to the use case, which checks, decides and
commits it once and returns the chats whose places it wrote (the bot kicks those, computing
nothing again)."""

from __future__ import annotations

from sqlalchemy import select

from rules.offers import Destination, destinations
from storage.models import DeliveryRow
from storage.results import ActionResult, MatchView
from storage.usecases import UseCases
from storage.usecases.turns import Checker, Intent, MoveTo, OfferedPlay, TappedBoard, Undo
from tests.storage.helpers import ALICE, BOB, CAROL, new_match, players


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


BOARD = TappedBoard(chat_id=-100, message_id=1, shows=None)


def on_its_board(mv: MatchView) -> TappedBoard:
    """A tap from a message showing this match's board buttons."""
    return TappedBoard(chat_id=-100, message_id=1, shows=mv.id)


def several_ways(mv: MatchView) -> tuple[int, list[Destination]]:
    """A checker with several destinations this turn, and them."""
    for move in mv.state.next_moves():
        dests = destinations(mv.state, move.from_point)
        if len(dests) > 1:
            return move.from_point, dests
    raise AssertionError("no checker with several destinations")


async def test_a_tap_is_the_players_intent_decided_by_the_use_case(uc: UseCases) -> None:
    # Given a match in a group, its first turn to play
    mv = (await new_match(uc)).match
    assert mv is not None and mv.to_act is not None
    mover = mv.seats[mv.to_act].player
    assert mover is not None
    point, dests = several_ways(mv)
    # When the mover taps a checker with several destinations
    res = await uc.tap(mv.id, mover.id, mv.version, Checker(point), on_its_board(mv))
    # Then nothing is played: the group's board is asked to show them, on its keyboard
    assert res.ok and res.match is not None and res.match.version == mv.version
    assert res.keyboard is not None and res.chat_keys == ("-100",)
    with uc.kernel.sessions() as session:
        row = session.scalars(select(DeliveryRow).where(DeliveryRow.match_id == mv.id)).one()
        assert (row.selected, row.selected_version, row.keyboard_asked) == (point, mv.version,
                                                                           True)
    # When they tap one of those destinations: its moves are played, as one step
    last = dests[-1]
    res = await uc.tap(mv.id, mover.id, mv.version, MoveTo(point, last.to_point, last.route),
                       on_its_board(mv))
    assert res.ok and res.match is not None and res.match.version == mv.version + 1
    assert res.match.state.chosen == last.moves and res.keyboard is None
    # And Undo takes the last single move back
    res = await uc.tap(mv.id, mover.id, res.match.version, Undo(), on_its_board(mv))
    assert res.ok and res.match is not None
    assert res.match.state.chosen == last.moves[:-1]


async def test_a_tap_refused_says_why_in_the_order_the_bot_always_said_it(
        uc: UseCases) -> None:
    # Given a match in a group, its first turn to play, and a second match
    mv = (await new_match(uc)).match
    other = (await new_match(uc)).match
    assert mv is not None and mv.to_act is not None and other is not None
    mover = mv.seats[mv.to_act].player
    waiting = mv.seats[1 - mv.to_act].player
    assert mover is not None and waiting is not None
    point, _ = several_ways(mv)

    async def code(actor: int, version: int, intent: Intent,
                   board: TappedBoard | None = None) -> str | None:
        assert mv is not None
        res = await uc.tap(mv.id, actor, version, intent, board or on_its_board(mv))
        assert not res.ok
        return res.code

    # someone else, even on an old board: not a player (before stale)
    assert await code(CAROL, mv.version - 1, Checker(point)) == "not_a_player"
    assert await code(mover.id, mv.version - 1, Checker(point)) == "stale"
    assert await code(waiting.id, mv.version, Checker(point)) == "not_your_turn"
    # a button of this match on another match's board, or on a message no board of it was
    shown_elsewhere = TappedBoard(chat_id=-100, message_id=1, shows=other.id)
    assert await code(mover.id, mv.version, Checker(point), shown_elsewhere) == "not_this_board"
    assert await code(mover.id, mv.version, Checker(point), BOARD) == "not_this_board"
    # no checker there, no such destination; a whole play no longer offered
    assert await code(mover.id, mv.version, Checker(7 if point != 7 else 9)) == "illegal_play"
    assert await code(mover.id, mv.version, MoveTo(point, 26)) == "illegal_play"
    assert await code(mover.id, mv.version, OfferedPlay(99, 6)) == "stale"
    # and nothing was written
    assert (await uc.load_match(mv.id)).match == mv
