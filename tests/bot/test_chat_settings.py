"""A group's language (set with /lang in the group) is kept in the database: a fresh Application
on the same database still writes that group's cards in it; players of every match in a group
are told when the bot is removed, even matches this process never saw."""

from __future__ import annotations

from typing import Any

from bot.views.callbacks import Action, encode, move_arg
from standin import StandIn
from standin.players import live_board, start_group_match, start_the_bot
from tests.bot.conftest import Running


async def stop(bot: Running) -> None:
    app = bot.app
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
    await app.shutdown()


async def test_a_groups_language_survives_a_fresh_application(
    standin: StandIn, make_bot: Any
) -> None:
    # Given English-speaking players, and the group's language set to Greek with /lang
    first: Running = await make_bot()
    alice = standin.user("Alice", username="alice", language_code="en")
    bob = standin.user("Bob", username="bob", language_code="en")
    group = standin.group("Kafeneio", alice, bob)
    cmd = alice.send(group, "/lang")
    choice = await group.wait_for_bot_message(after=cmd)
    assert choice.text == "Language of this group's match cards:"
    await alice.tap(choice, "Ελληνικά")
    await standin.wait_for(lambda: choice.refresh().text == "Γλώσσα: Ελληνικά")
    assert await first.uc.get_chat_language(group.id) == "el"
    await stop(first)
    # When a fresh Application starts on the same database
    second: Running = await make_bot()
    cmd = alice.send(group, "/lang")
    prompt = await group.wait_for_bot_message(after=cmd)
    # Then the group's prompt is in Greek
    assert prompt.text == "Γλώσσα για τους αγώνες αυτής της ομάδας:"
    # And a match's cards in the group are in Greek, although its players read English
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    await alice.tap(card, "1 πόντος")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    card = card.refresh()
    assert "καλεί" in card.text
    accept = next(b for b in card.button_texts if "🎲" in b)
    await bob.tap(card, accept)
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    assert "Πόρτες" in board.caption
    assert await second.uc.get_chat_language(group.id) == "el"


async def test_the_group_language_follows_an_upgrade_to_a_supergroup(
    standin: StandIn, bot: Running
) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    cmd = alice.send(group, "/lang")
    choice = await group.wait_for_bot_message(after=cmd)
    await alice.tap(choice, "Ελληνικά")
    await standin.wait_for(lambda: choice.refresh().text == "Γλώσσα: Ελληνικά")
    await standin.idle()
    supergroup = alice.upgrade_group(group)
    await standin.idle()
    assert await bot.uc.get_chat_language(supergroup.id) == "el"
    cmd = alice.send(supergroup, "/lang")
    prompt = await supergroup.wait_for_bot_message(after=cmd)
    assert prompt.text == "Γλώσσα για τους αγώνες αυτής της ομάδας:"


async def test_removed_from_a_group_every_match_there_is_told(
    standin: StandIn, make_bot: Any
) -> None:
    # Given two matches in a group, started before the bot restarted
    first: Running = await make_bot()
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol", username="carol")
    await start_the_bot(alice, bob, carol)
    group = standin.group("Kafeneio", alice, bob, carol)
    for author, acceptor in ((alice, bob), (carol, alice)):
        cmd = author.send(group, "/new")
        card = await group.wait_for_answer(cmd)
        await author.tap(card, "1 point")
        await standin.wait_for(lambda c=card: "SHA-256" in (c.refresh().text or ""))
        await acceptor.tap(card.refresh(), "🎲 Accept")
        await standin.idle()
    matches = await first.uc.active_matches_in_chat(group.id)
    assert len(matches) == 2
    await stop(first)
    # When a fresh Application (which has seen neither match) is removed from the group
    second: Running = await make_bot()
    assert not second.app.bot_data["portes"].views
    alice.remove_bot(group)
    # Then every player of both matches is told, once per match
    for user, count in ((alice, 2), (bob, 1), (carol, 1)):
        await standin.wait_for(
            lambda u=user, n=count: sum("removed from the group" in m.content
                                        for m in u.private.bot_messages()) == n,
            what=f"{user} told of {count} match(es)")


async def test_a_checker_moved_with_both_dice_is_one_step(standin: StandIn, make_bot: Any) -> None:
    from bot.views.turn_choices import destinations, sources

    # Given a group match on the tap-by-tap keyboard
    bot: Running = await make_bot(plays_direct=0, group_moves=0)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group)
    mover = alice if board.mentions(alice) else bob
    before = (await bot.uc.load_match(1)).match
    assert before is not None
    # a checker that can go on with the second die (e.g. 24/18/13 with 6-5)
    src, dest = next((s, d) for s in sources(before.state)
                     for d in destinations(before.state, s) if len(d.moves) == 2)
    # When the mover taps that checker, then the far destination
    def data(message: Any, wanted: str) -> str | None:
        return next((b.callback_data for row in message.buttons for b in row
                     if b.callback_data == wanted), None)

    v = before.version
    await mover.tap_data(board, encode(Action.FROM, 1, v, src))
    move_data = encode(Action.MOVE, 1, v, move_arg(src, dest.to_point))
    await standin.wait_for(lambda: data(board.refresh(), move_data), what="the destinations")
    answer = await mover.tap_data(board.refresh(), move_data)
    assert not answer.show_alert
    # Then both single moves were written as one step (one version)
    after = (await bot.uc.load_match(1)).match
    assert after is not None
    assert (after.version, after.state.chosen) == (v + 1, dest.moves)
    await standin.wait_for(lambda: "So far:" in board.refresh().caption)
