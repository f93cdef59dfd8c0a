"""Commands: the menu in two languages, /help, /rules, /lang, /games, /resign, groups' upgrades."""

from __future__ import annotations

from sqlalchemy import update

from bot.views.callbacks import Action, encode
from standin import StandIn
from standin.players import (
    board_version,
    live_board,
    play_turn,
    private_players_match,
    start_group_match,
    start_the_bot,
)
from storage.models import MatchRow
from tests.bot.conftest import Running


async def test_command_menu_in_greek_and_english(standin: StandIn, bot: Running) -> None:
    english = {c["command"]: c["description"] for c in standin.commands()}
    greek = {c["command"]: c["description"] for c in standin.commands(language_code="el")}
    assert set(english) == set(greek) >= {"start", "help", "rules", "new", "games", "resign",
                                          "lang"}
    assert greek["rules"] == "Οι κανόνες κάθε παιχνιδιού"


async def test_rules_and_help_in_the_users_language(standin: StandIn, bot: Running) -> None:
    nikos = standin.user("Νίκος", language_code="el")
    cmd = nikos.send(nikos.private, "/rules")
    rules = await nikos.private.wait_for_bot_message(after=cmd)
    assert "Πόρτες" in rules.text and "πόρτα" in rules.text
    cmd = nikos.send(nikos.private, "/lang")
    choice = await nikos.private.wait_for_bot_message(after=cmd)
    await nikos.tap(choice, "English")
    await standin.wait_for(lambda: choice.refresh().text == "Language: English")
    # the choice is kept in the database (a restarted bot, or /start again, keeps it)
    player = await bot.uc.get_player(nikos.id)
    assert player is not None and player.language == "en"
    hello = nikos.start_bot()
    await nikos.private.wait_for_bot_message(after=hello)
    player = await bot.uc.get_player(nikos.id)
    assert player is not None and player.language == "en"
    cmd = nikos.send(nikos.private, "/help")
    help_text = await nikos.private.wait_for_bot_message(after=cmd)
    assert "Playing a turn" in help_text.text and len(help_text.text) <= 4096


async def test_help_and_welcome_tell_of_the_computer_and_the_review(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice")
    nikos = standin.user("Νίκος", language_code="el")
    for user, new_line, review_line, computer, details in (
            (alice, "or a match against the computer)", "/review: review a finished match",
             "<b>Against the computer</b>", ("🤖 Against the computer", "Easy, Medium, Strong",
                                             "▶ Start", "💡 Hint", "/review 12")),
            (nikos, "ή αγώνας με τον υπολογιστή)", "/review: ανάλυση ενός τελειωμένου αγώνα",
             "<b>Με τον υπολογιστή</b>", ("🤖 Με τον υπολογιστή", "Εύκολο, Μέτριο, Δυνατό",
                                          "▶ Αρχή", "💡 Υπόδειξη", "/review 12"))):
        hello = user.start_bot()
        welcome = await user.private.wait_for_bot_message(after=hello)
        assert new_line in welcome.text and review_line in welcome.text
        cmd = user.send(user.private, "/help")
        shown = await user.private.wait_for_bot_message(after=cmd)
        assert new_line in shown.text and review_line in shown.text
        assert len(shown.text) <= 4096
        # the bold heading as the user sees it: an entity over plain text
        assert computer.removeprefix("<b>").removesuffix("</b>") in shown.text
        assert any(e["type"] == "bold" for e in shown.entities)
        for detail in details:
            assert detail in shown.text, detail


async def test_games_and_review_show_names_with_html_characters_as_typed(
        standin: StandIn, bot: Running) -> None:
    # Given a match against a player whose name holds "&" and "<", then a finished one
    alice = standin.user("Alice")
    tom = standin.user("Tom & <Jerry>")
    await start_the_bot(alice, tom)
    for _ in range(2):
        created = await bot.uc.create_challenge(tom.id, length=1)
        assert created.challenge is not None
        started = await bot.uc.accept_challenge(created.challenge.id, alice.id, mix="m")
        assert started.match is not None
    ended = await bot.uc.resign_match(started.match.id, alice.id, None)
    assert ended.ok
    # When Alice lists her matches (/games) and her finished ones (/review)
    for command, marker in (("/games", "#"), ("/review", "📊 #")):
        cmd = alice.send(alice.private, command)
        listing = await alice.private.wait_for_bot_message(after=cmd)
        # Then the HTML text and the plain button texts both show the name as typed
        assert "Tom & <Jerry>" in listing.text, command
        buttons = [b for b in listing.button_texts if b.startswith(marker)]
        assert buttons and all("Tom & <Jerry>" in b for b in buttons), (command, buttons)
        assert not any("&amp;" in b or "&lt;" in b for b in listing.button_texts), command


async def test_games_resign_and_rematch_in_a_group(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    # a challenge for the replied-to user only
    hello = bob.send(group, "who plays?")
    cmd = alice.reply(group, hello, "/new")
    card = await group.wait_for_answer(cmd)
    await alice.tap(card, "☐ No triple (backgammon counts 2)")
    await standin.wait_for(lambda: "☑" in " ".join(card.refresh().button_texts))
    await alice.tap(card.refresh(), "3 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    card = card.refresh()
    assert "Bob" in card.text and "No triple" in card.text
    carol = standin.user("Carol")
    standin.join(group, carol)
    answer = await carol.tap(card, "🎲 Accept")
    assert answer.show_alert and "someone else" in (answer.text or "")
    await bob.tap(card, "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
    # /games lists it
    cmd = mover.send(mover.private, "/games")
    games = await mover.private.wait_for_bot_message(after=cmd)
    assert "your move" in games.text
    # the player to move offers to resign the game for 2 points (no triple: at most 2)
    cmd = mover.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    assert "Game: 3 points" not in menu.button_texts
    await mover.tap(menu, "Game: 2 points")
    offer = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "offers to resign" in b.caption and b,
        what="the offer")
    answer = await mover.tap(offer, "Accept")
    assert answer.show_alert
    await other.tap(offer, "Accept")
    await standin.wait_for(lambda: "Game 2" in (live_board(group) or offer).caption,
                           what="game 2")
    board = live_board(group)
    assert board is not None and ("2 – 0" in board.caption or "0 – 2" in board.caption)
    # resign the match: the opponent wins, Rematch offered, the seed revealed
    cmd = alice.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    await alice.tap(menu, "🏳 Resign the match")
    final = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "wins the match" in b.caption and b,
        what="the end")
    assert "Bob wins the match" in final.caption and "Alice resigned" in final.caption
    await standin.wait_for(lambda: any("🔐 The dice seed was" in m.content
                                       for m in group.bot_messages()))
    await bob.tap(final, "🔁 Rematch")
    rematch = await standin.wait_for(
        lambda: next((m for m in group.bot_messages() if "Bob challenges Alice" in m.content),
                     None), what="the rematch card")
    assert "🎲 Accept" in rematch.button_texts


async def test_cancel_before_any_play_and_withdraw(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice")
    bob = standin.user("Bob")
    group = standin.group("Kafeneio", alice, bob)
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    answer = await bob.tap(card, "1 point")
    assert answer.show_alert
    await alice.tap(card, "1 point")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    answer = await bob.tap(card.refresh(), "Withdraw")
    assert answer.show_alert
    await alice.tap(card.refresh(), "Withdraw")
    await standin.wait_for(lambda: card.refresh().text == "Challenge withdrawn.")
    # Accept is gone with the challenge: a tap that still sends it is refused
    answer = await bob.tap_data(card.refresh(), encode(Action.ACCEPT, 1, 0))
    assert answer.show_alert and "not on this message" in (answer.text or "")
    assert (await bot.uc.get_challenge(1)).status == "cancelled"  # type: ignore[union-attr]


async def test_group_upgrade_to_supergroup_is_followed(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group)
    await standin.idle()
    supergroup = alice.upgrade_group(group)
    await standin.idle()
    match = (await bot.uc.load_match(1)).match
    assert match is not None and match.place.chat_id == supergroup.id


async def test_removed_from_a_group_the_match_goes_on_in_private(
    standin: StandIn, bot: Running
) -> None:
    # Given a group match between two players who started the bot
    mover, other, group, board = await private_players_match(standin)
    # When the bot is removed, and then banned (a second removal notice)
    mover.remove_bot(group)
    await standin.idle()
    mover.remove_bot(group, ban=True)
    await standin.idle()
    # Then each player is told once, and gets the board in private
    for user in (mover, other):
        told = [m for m in user.private.bot_messages() if "removed from the group" in m.content]
        assert len(told) == 1, [m.content for m in user.private.bot_messages()]
        assert live_board(user.private) is not None
    # And the player to move plays there, and the match can be resigned there
    await play_turn(standin, mover, mover.private, wait=False)
    await standin.wait_for(lambda: board_version(live_board(other.private)) > 0,  # type: ignore[arg-type]
                           what="the opponent's turn in private")
    cmd = other.send(other.private, "/resign")
    menu = await other.private.wait_for_bot_message(after=cmd)
    await other.tap(menu, "🏳 Resign the match")
    await standin.wait_for(
        lambda: "wins the match" in (live_board(mover.private) or board).caption,
        what="the end in private")
    assert not any("removed" in m.content for m in group.bot_messages())


async def test_a_match_that_cannot_be_read_is_shown_so_and_closed(
    standin: StandIn, bot: Running
) -> None:
    # Given a group match whose stored state was damaged
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group)
    await standin.idle()
    with bot.uc.db.sessions.begin() as session:
        session.execute(update(MatchRow).values(state="damaged"))
    # When Bob asks for his matches
    cmd = bob.send(bob.private, "/games")
    games = await bob.private.wait_for_bot_message(after=cmd)
    # Then the match shows as unreadable, not as someone's move, with a button to close it
    assert "cannot be read" in games.text and "your move" not in games.text
    await bob.tap(games, "✖ Close #1: it cannot be read")
    await standin.wait_for(lambda: "It counts for nobody" in games.refresh().text)
    # And it has ended for both: Alice is told, and neither has an active match
    await standin.wait_for(lambda: any("Bob closed match #1" in m.content
                                       for m in alice.private.bot_messages()), what="the notice")
    for user in (alice, bob):
        cmd = user.send(user.private, "/games")
        reply = await user.private.wait_for_bot_message(after=cmd)
        assert "no active match" in reply.text
    # And the old button does nothing more
    answer = await bob.tap(games.refresh(), "✖ Close #1: it cannot be read") if (
        games.refresh().has_keyboard) else None
    assert answer is None or answer.show_alert


async def test_ids_past_64_bits_are_not_found(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    for text, expected in (("/review 99999999999999999999999", "There is no such match."),
                           ("/start m" + "9" * 40, "This match no longer exists."),
                           ("/review #12", "There is no match #12."),
                           ("/start m12", "This match no longer exists.")):
        cmd = alice.send(alice.private, text)
        answer = await alice.private.wait_for_bot_message(after=cmd)
        assert answer.text == expected, text
    assert (await bot.uc.load_match(10**23)).code == "not_found"
    assert await bot.uc.get_challenge(-(10**30)) is None
    assert await bot.uc.fairness(2**63) is None


async def test_an_edited_message_runs_nothing(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice")
    bob = standin.user("Bob")
    group = standin.group("Kafeneio", alice, bob)
    hello = alice.send(group, "hello")
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    # an old message edited into a command, in a group and in private: nothing answers
    alice.edit(hello, "/new")
    alice.edit(cmd, "/games")
    hi = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hi)
    alice.edit(hi, "/help")
    mine = alice.send(alice.private, "hello")
    await alice.private.wait_for_bot_message(after=mine)  # "type a play such as..."
    alice.edit(mine, "24/18 13/11")
    await standin.idle(quiet=0.5)
    assert [m.message_id for m in group.bot_messages()] == [card.message_id]
    assert len(alice.private.bot_messages()) == 2
