"""Reading a resignation (issue 27, item 10): /resign in the private chat finds a group match
played there, the card names the opponent and the score and offers in words only what its
buttons offer, and a declined offer is told to both players and on the group's board."""

from __future__ import annotations

from standin import StandIn
from standin.players import live_board, private_players_match, start_group_match, start_the_bot
from tests.bot.conftest import Running


async def test_a_declined_resignation_is_told_everywhere(standin: StandIn, bot: Running) -> None:
    # Given a group match between two players who started the bot (they play in private)
    mover, other, group, _board = await private_players_match(standin)
    await standin.idle()
    # When the player who waits types /resign in the private chat holding their board
    cmd = other.send(other.private, "/resign")
    card = await other.private.wait_for_bot_message(after=cmd)
    # Then the card names the match by opponent and score, and offers only the whole match
    # (and cancelling: nobody has moved yet), in words as in buttons
    assert card.text.splitlines()[0] == (
        f"Match #1 against {mover.first_name}: 0–0, match to 3 points.")
    assert "Resign the current game" not in card.text and "Resign the whole match?" in card.text
    assert "cancel the match" in card.text
    assert card.button_texts == ["🏳 Resign the match", "Cancel the match"]
    # When the player to move offers the game for a point from their private chat
    cmd = mover.send(mover.private, "/resign")
    card = await mover.private.wait_for_bot_message(after=cmd)
    assert "Resign the current game" in card.text and "Game: 1 point" in card.button_texts
    await mover.tap(card, "Game: 1 point")
    offer = await standin.wait_for(
        lambda: (b := live_board(other.private)) is not None and "Decline" in b.button_texts
        and b, what="the offer on the other's board")
    # And the other declines it
    await other.tap(offer, "Decline")
    declined = f"✋ {other.first_name} declined the resignation."
    # Then both private boards and the group's board say so
    for chat in (mover.private, other.private, group):
        shown = await standin.wait_for(
            lambda c=chat: (b := live_board(c)) is not None and declined in b.caption and b,
            what=f"the decline on the board in {chat.title or chat.id}")
        assert shown.caption.count(declined) == 1
    loaded = await bot.uc.load_match(1)
    assert loaded.match is not None and loaded.match.state.score == (0, 0)


async def test_resign_in_private_finds_the_only_group_match(
        standin: StandIn, bot: Running) -> None:
    # Given a group match, played privately
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob", language_code="el")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "3 points")
    await standin.idle()
    # When Bob (in Greek) resigns it from his private chat
    cmd = bob.send(bob.private, "/resign")
    card = await bob.private.wait_for_bot_message(after=cmd)
    assert card.text.startswith("Αγώνας #1 με αντίπαλο Alice: 0–0")
    await bob.tap(card, next(b for b in card.button_texts if b.startswith("🏳")))
    # Then the match is over, Alice the winner
    final = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "wins the match" in b.caption and b,
        what="the end")
    assert "Alice wins the match" in final.caption
