"""A group as its players meet the bot (issue 27, item 16): a welcome when the bot is added, one
language for the whole group (the first one used, until an admin changes it with /lang), and a
short /help with a button to the full help in private."""

from __future__ import annotations

from standin import StandIn
from tests.bot.conftest import Running


async def test_only_a_groups_admins_change_its_language(standin: StandIn, bot: Running) -> None:
    # Given a group made by Alice, where Carol is an admin and Bob a plain member
    alice = standin.user("Alice", language_code="en")
    bob = standin.user("Bob", language_code="en")
    carol = standin.user("Carol", language_code="en")
    group = standin.group("Kafeneio", alice, bob, carol)
    group.promote(carol)
    # When Bob sends /lang
    cmd = bob.send(group, "/lang")
    answer = await group.wait_for_bot_message(after=cmd)
    # Then he is told who may change it, and gets no buttons
    assert answer.text == ("This group's language is English. Only the group's admins can "
                           "change it."), answer.text
    assert not answer.has_keyboard
    # And when he taps the buttons Alice's /lang brought, nothing changes
    cmd = alice.send(group, "/lang")
    choice = await group.wait_for_bot_message(after=cmd)
    assert choice.text == "Language of this group's match cards:"
    refused = await bob.tap(choice, "Ελληνικά")
    assert refused.show_alert and refused.text == answer.text, refused
    await standin.idle()
    assert choice.refresh().text == "Language of this group's match cards:"
    assert await bot.uc.get_chat_language(group.id) == "en"
    # But Carol, an admin, changes it
    await carol.tap(choice, "Ελληνικά")
    await standin.wait_for(lambda: choice.refresh().text == "Γλώσσα: Ελληνικά")
    assert await bot.uc.get_chat_language(group.id) == "el"


async def test_a_mixed_group_gets_its_cards_in_one_language(
        standin: StandIn, bot: Running) -> None:
    # Given a group of a Greek and an English player, with no language set
    nikos = standin.user("Nikos", language_code="el")
    alice = standin.user("Alice", language_code="en")
    group = standin.group("Kafeneio", nikos, alice)
    # When Nikos sends /new first, then Alice
    cmd = nikos.send(group, "/new")
    first = await group.wait_for_answer(cmd)
    cmd = alice.send(group, "/new")
    second = await group.wait_for_answer(cmd)
    # Then both cards are in Greek, the first language used there
    assert first.text.startswith("Νέος αγώνας"), first.text
    assert second.text.startswith("Νέος αγώνας"), second.text
    assert await bot.uc.get_chat_language(group.id) == "el"


async def test_the_bot_added_to_a_group_says_how_to_start(
        standin: StandIn, bot: Running) -> None:
    # Given a Greek player's group the bot is not in
    nikos = standin.user("Nikos", language_code="el")
    alice = standin.user("Alice", language_code="en")
    group = standin.group("Kafeneio", nikos, alice, bot=False)
    # When Nikos adds the bot
    nikos.add_bot(group)
    welcome = await group.wait_for_bot_message()
    # Then it says how to start, in two lines of his language, which becomes the group's
    lines = welcome.text.split("\n")
    assert len(lines) == 2, welcome.text
    assert "/new" in lines[1] and "/help" in lines[1], welcome.text
    assert "Πόρτες" in lines[0], welcome.text
    assert await bot.uc.get_chat_language(group.id) == "el"


async def test_help_in_a_group_is_short_with_a_button_to_the_full_help(
        standin: StandIn, bot: Running) -> None:
    # Given a group
    alice = standin.user("Alice", language_code="en")
    bob = standin.user("Bob", language_code="en")
    group = standin.group("Kafeneio", alice, bob)
    # When Bob sends /help there
    cmd = bob.send(group, "/help")
    short = await group.wait_for_bot_message(after=cmd)
    await standin.idle()
    # Then a few lines come, one message, with a button to the full help in private
    assert [m.message_id for m in group.bot_messages()] == [short.message_id]
    assert len(short.text) < 500 and len(short.text.split("\n")) <= 6, short.text
    assert "/new" in short.text and "/lang" in short.text
    button = short.buttons[0][0]
    assert button.text == "📖 Full help" and button.url is not None
    # And the button opens the full help in his private chat
    opened = bob.follow(button.url)
    full = await bob.private.wait_for_bot_message(after=opened)
    await standin.idle()
    text = "\n".join(m.text for m in bob.private.bot_messages())
    assert full.text.startswith("/new: challenge someone"), full.text
    assert "Playing a turn" in text
    assert len(text) > 2000
