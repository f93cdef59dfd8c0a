"""A league that reaches its deadline (issue 24) ends with the standings as they are, and the
matches still going are stopped there: their boards, in the group and in the private chat of
a player who started the bot, are redrawn as ended (no buttons, the deadline said) through
the outbox, as for any match that ends; the use cases' clock is moved, nothing sleeps. A
league started by its sign-up's end shows its standings through the outbox too."""

from __future__ import annotations

import contextlib

from standin import StandIn, StandInError
from standin.players import board_version, start_the_bot
from tests.bot.conftest import Running
from tests.bot.helpers.competitions import opened, showing, signed_up

STOPPED = "deadline has passed: this match was stopped"


async def test_the_deadline_ends_the_boards_of_the_matches_still_going(
        standin: StandIn, bot: Running) -> None:
    people = [standin.user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol")]
    alice = people[0]
    await start_the_bot(alice)  # she plays on private boards, the others on the group's
    group = standin.group("Kafeneio", *people)
    card = await signed_up(standin, group, alice, [])
    comp = await bot.uc.open_competition(group.id)
    assert comp is not None
    # a league of two days (the operator's time per move is longer: nobody loses on time);
    # the joins that follow redraw the card with its buttons at this version
    assert (await bot.uc.configure_competition(comp.id, alice.id, comp.version,
                                               {"round_seconds": 2 * 86_400})).ok
    for n, p in enumerate(people[1:], 2):
        await p.tap(card.refresh(), "➕ Join")
        card = await showing(standin, card, f"Signed up ({n} of ")
    await alice.tap(card.refresh(), "▶ Start now")
    comp = await opened(bot, comp.id)
    await standin.idle(quiet=0.3)
    [first] = [p for p in comp.pairings if alice.id not in (p.player0, p.player1)]
    going = [p for p in comp.pairings if p is not first]
    assert (await bot.uc.resign_match(first.match_id, first.player1)).ok  # type: ignore[arg-type]
    await showing(standin, card, "2 matches left")
    await standin.idle(quiet=0.3)
    # Alice's board of her turn, if it is hers in one of her matches (the dice decide)
    live = [m for m in alice.private.bot_messages() if m.photo_bytes and m.has_keyboard]
    bot.clock.advance(days=2, minutes=1)
    await showing(standin, card, "wins!", timeout=30)
    done = await bot.uc.get_competition(comp.id)
    assert done is not None and done.status == "finished"
    for pairing in going:
        mv = (await bot.uc.load_match(pairing.match_id)).match  # type: ignore[arg-type]
        assert mv is not None and mv.state.end_reason == "deadline"

    def redrawn() -> bool:
        boards = [m for m in group.bot_messages() if m.photo_bytes is not None]
        return sum(STOPPED in m.content and not m.has_keyboard for m in boards) == len(going)

    # (hang guards: on a loaded machine the reviews computed for the ended matches, which go
    # before her other deliveries, take their time)
    await standin.wait_for(redrawn, timeout=120, what="the group boards ended")
    def her_live_boards() -> list[str]:
        return [f"#{m.message_id} v{board_version(m)}: {m.content[:160]!r}"
                for m in alice.private.bot_messages() if m.photo_bytes and m.has_keyboard]

    try:
        await standin.wait_for(lambda: not her_live_boards(), timeout=120,
                               what="Alice's boards ended")
    except StandInError as err:
        sent = [(c.method, c.params.get("message_id"), c.error_code, c.description)
                for c in standin.calls(chat_id=alice.private.id)]
        raise AssertionError(f"{err}: still live {her_live_boards()}; her chat's calls "
                             f"{sent}") from err
    # her board of her turn: taken down, or edited to the match's end, as any match's end
    for board in live:
        with contextlib.suppress(StandInError):
            assert STOPPED in board.refresh().content



async def test_a_league_started_by_its_sign_ups_end_shows_through_the_outbox(
        standin: StandIn, bot: Running) -> None:
    """No tap answers a start by the sign-up's end: its card becomes the standings through
    the outbox (the notice written when its first match opens), so a failed edit is tried
    again."""
    people = [standin.user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol")]
    group = standin.group("Kafeneio", *people)
    card = await signed_up(standin, group, people[0], people[1:])
    await standin.idle(quiet=0.3)
    standin.inject_error("editMessageText", code=502, chat_id=group.id, times=2)
    bot.clock.advance(days=1, minutes=1)  # the sign-up's end (a day by default)
    card = await showing(standin, card, "3 matches left", timeout=30)
    assert not card.has_keyboard
    assert [c.error_code for c in standin.calls("editMessageText", chat_id=group.id, ok=False)
            ] == [502, 502]
