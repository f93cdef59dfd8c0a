"""/settings (issue 13): one card whose buttons edit it in place. The board theme and home side
apply to the player's private boards (a group's board keeps the standard look), the language to
their private chat (a group's language wins in the group), notices as with /notices; taps from
elsewhere, on an older card, or forged change nothing and say so."""

from __future__ import annotations

from bot.views.board_image import DEFAULT_LOOK, Look, draw_board_async
from bot.views.callbacks import Action as A
from bot.views.callbacks import decode, encode
from rendering.theme import CLASSIC, HIGH_CONTRAST, Colour
from standin import Chat, Message, StandIn, User
from standin.players import (
    board_version,
    live_board,
    next_private_turn,
    play_turn,
    start_group_match,
    start_the_bot,
)
from tests.bot.conftest import Running

FRAME_PIXEL = (20, 20)
"""On the wooden frame, whichever side the home board is on."""


async def open_settings(user: User) -> Message:
    cmd = user.send(user.private, "/settings")
    return await user.private.wait_for_bot_message(after=cmd)


async def choose(standin: StandIn, user: User, card: Message, button: str) -> Message:
    """Tap a button of the card; the card, once edited in place."""
    before = card.refresh()
    answer = await user.tap(before, button)
    assert answer is None or not answer.show_alert, answer
    return await standin.wait_for(
        lambda: (now := card.refresh()).edit_count > before.edit_count and now,
        what=f"the card after {button!r}")


def near(colour: tuple[int, ...], expected: Colour, tolerance: int = 14) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], expected, strict=True))


async def alices_turn(standin: StandIn, alice: User, bob: User, group: Chat) -> Message:
    """Alice's private board offering her a turn (Bob plays first if the dice said so)."""
    user, board = await next_private_turn(standin, [alice, bob], -1)
    if user is bob:
        version = board_version(board)
        await play_turn(standin, bob, group)
        user, board = await next_private_turn(standin, [alice], version)
    assert user is alice
    return board


async def test_theme_and_home_side_draw_the_players_private_boards(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    # Given Alice chose the high-contrast board with her home on the left
    card = await open_settings(alice)
    assert "Board: Classic" in card.content and "Home board: on the right" in card.content
    assert "✔ 🎨 Classic" in card.button_texts
    card = await choose(standin, alice, card, "🎨 High contrast")
    assert "Board: High contrast" in card.content and "✔ 🎨 High contrast" in card.button_texts
    card = await choose(standin, alice, card, "◧ Home left")
    assert "Home board: on the left" in card.content and "✔ ◧ Home left" in card.button_texts
    assert len(alice.private.bot_messages()) == 2  # the welcome and the one card, edited
    # When she plays a match in a group
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "3 points")
    board = await alices_turn(standin, alice, bob, group)
    # Then her private board is the high-contrast one, mirrored: the renderer's drawing of the
    # match with those options, and not the standard one
    loaded = await bot.uc.load_match(1)
    mv = loaded.match
    assert mv is not None and mv.version == board_version(board)
    seat = mv.seat_of(alice.id)
    assert seat is not None
    assert board.uploaded_bytes == await draw_board_async(mv.state, seat,
                                                          Look("high-contrast", "left"))
    assert board.uploaded_bytes != await draw_board_async(mv.state, seat, DEFAULT_LOOK)
    frame = board.image().convert("RGB").getpixel(FRAME_PIXEL)
    assert near(frame, HIGH_CONTRAST.frame) and not near(frame, CLASSIC.frame)
    # and the group's board keeps the standard look (the group's settings win there)
    shared = live_board(group)
    assert shared is not None
    assert near(shared.image().convert("RGB").getpixel(FRAME_PIXEL), CLASSIC.frame)
    # Bob, who changed nothing, gets the standard board in private
    await play_turn(standin, alice, group)
    _, bobs = await next_private_turn(standin, [bob], board_version(board))
    assert near(bobs.image().convert("RGB").getpixel(FRAME_PIXEL), CLASSIC.frame)


async def test_language_and_notices_from_the_card(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    await start_the_bot(alice)
    card = await open_settings(alice)
    assert "🔔 Notices: on" in card.content and "Language: English" in card.content
    # the language: the card itself switches, and so does everything in her private chat
    card = await choose(standin, alice, card, "Ελληνικά")
    assert "Οι ρυθμίσεις σου" in card.content and "Γλώσσα: Ελληνικά" in card.content
    assert "✔ Ελληνικά" in card.button_texts and "🎨 Κλασικό" in " ".join(card.button_texts)
    cmd = alice.send(alice.private, "/new")
    new = await alice.private.wait_for_answer(cmd)
    assert new.content.startswith("Νέος αγώνας") and "⏱ 7 μέρες ανά κίνηση" in new.content
    card = await choose(standin, alice, card, "English")
    assert "Your settings" in card.content
    # notices: off on the card, and /notices says the same
    card = await choose(standin, alice, card, "🔕 Notices off")
    assert "🔕 Notices: off" in card.content and "✔ 🔕 Notices off" in card.button_texts
    cmd = alice.send(alice.private, "/notices")
    notices = await alice.private.wait_for_bot_message(after=cmd)
    assert notices.content.startswith("🔕 Your notices are off")
    player = await bot.uc.get_player(alice.id)
    assert player is not None and not player.notices and player.language == "en"
    # the command is in the menu, in both languages, and /help tells of it
    menus = [str(c.params.get("commands")) for c in standin.calls("setMyCommands")]
    assert any("Your settings: board, language, notices" in m for m in menus)
    assert any("Οι ρυθμίσεις σου: ταμπλό, γλώσσα, ειδοποιήσεις" in m for m in menus)
    cmd = alice.send(alice.private, "/help")
    help_text = await alice.private.wait_for_bot_message(after=cmd)
    assert "Settings: /settings chooses your board" in help_text.content


async def test_in_a_group_the_groups_language_wins(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    card = await open_settings(alice)
    assert "✔ English" in card.button_texts
    group = standin.group("Kafeneio", alice, bob)
    cmd = alice.send(group, "/lang")
    choice = await group.wait_for_bot_message(after=cmd)
    await alice.tap(choice, "Ελληνικά")
    await standin.wait_for(lambda: choice.refresh().text == "Γλώσσα: Ελληνικά")
    # /settings in the group points to the private chat, in the group's language
    cmd = alice.send(group, "/settings")
    answer = await group.wait_for_bot_message(after=cmd)
    assert answer.content.startswith("Οι ρυθμίσεις σου είναι στην ιδιωτική")
    link = answer.buttons[0][0].url
    assert link is not None and link.endswith("?start=settings")
    hello = alice.start_bot("settings")
    deep = await alice.private.wait_for_bot_message(after=hello)
    assert deep.content.startswith("⚙️ Your settings")  # her own language in private
    # the group's cards and board are Greek, her private board English
    cmd = alice.send(group, "/new")
    new = await group.wait_for_answer(cmd)
    assert new.content.startswith("Νέος αγώνας")
    await alice.tap(new, "1 πόντος")
    await standin.wait_for(lambda: "SHA-256" in (new.refresh().text or ""))
    assert "⏱ 7 μέρες ανά κίνηση" in new.refresh().content
    await bob.tap(new.refresh(), "🎲 Αποδοχή")
    shared = await standin.wait_for(lambda: live_board(group), what="the group's board")
    assert shared.content.startswith("🎲 Πόρτες") and "αγώνας στον 1" in shared.content
    board = await alices_turn(standin, alice, bob, group)
    assert board.content.startswith("🎲 Portes") and "Your turn" in board.content


async def test_taps_from_elsewhere_on_an_old_card_or_forged_change_nothing(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    old = await open_settings(alice)
    card = await open_settings(alice)
    await choose(standin, alice, card, "🎨 High contrast")
    # an older card: refused, and drawn again as the settings are now
    answer = await alice.tap(old.refresh(), "◧ Home left")
    assert answer is not None and answer.show_alert
    assert answer.text == "Your settings had changed since this card; here they are now."
    await standin.wait_for(lambda: "Board: High contrast" in old.refresh().content)
    assert "Home board: on the right" in old.refresh().content
    # forged changes on the current card
    code = decode(card.refresh().buttons[0][0].callback_data).version  # type: ignore[union-attr]
    for data in (encode(A.SETTINGS, 0, code, "th-purple", owner=alice.id),
                 encode(A.SETTINGS, 0, code, "xx-on", owner=alice.id),
                 encode(A.SETTINGS, 0, code, "home-left", owner=bob.id),
                 # malformed on purpose (a newline, a version that is no number): by hand
                 f"st:0:{code}:home-left@{alice.id}\n", "st:0:x:home-left"):
        answer = await alice.tap_data(card.refresh(), data)
        assert answer is not None and answer.show_alert, data
    # a settings button tapped from a group (someone else's data): not on that message
    group = standin.group("Kafeneio", alice, bob)
    cmd = bob.send(group, "/settings")
    where = await group.wait_for_bot_message(after=cmd)
    answer = await bob.tap_data(where, encode(A.SETTINGS, 0, code, "th-classic", owner=alice.id))
    assert answer is not None and answer.show_alert
    assert answer.text == "This button is not on this message; use the buttons it shows now."
    player = await bot.uc.get_player(alice.id)
    assert player is not None and (player.theme, player.home) == ("high-contrast", "right")
    bob_player = await bot.uc.get_player(bob.id)
    assert bob_player is not None and bob_player.theme == "classic"
