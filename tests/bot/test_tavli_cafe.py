"""The café start on the /new card (issue 15): in the games of tavli the last game's winner may
roll first in the next game instead of an opening roll; on by default in a tavli match, off
elsewhere; shown on the cards and kept with the match; who rolls first in game 2 follows it."""

from __future__ import annotations

import urllib.parse

from standin import Message, StandIn, User
from standin.players import board_version, live_board, next_private_turn, play_turn
from tests.bot.conftest import Running
from tests.bot.helpers.tavli import resign_game

SWITCH = "The winner rolls first next game"
ON_LINE = "The winner of each game rolls first in the next (café style)."
OFF_LINE = "Each game starts with an opening roll."


async def card_for(standin: StandIn, alice: User, game: str, *, default: bool) -> Message:
    """/new in Alice's private chat with ``game`` ticked; the switch shows ``default``, and is
    tapped once to the other setting."""
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    assert not any(SWITCH in b for b in card.button_texts)  # Portes: the opening roll always
    await alice.tap(card, game)
    await standin.wait_for(lambda: f"✔ {game}" in card.refresh().button_texts, what="ticked")
    box = "☑ " if default else "☐ "
    assert box + SWITCH in card.refresh().button_texts
    assert (ON_LINE if default else OFF_LINE) in (card.refresh().text or "")
    await alice.tap(card.refresh(), box + SWITCH)
    other = "☐ " if default else "☑ "
    await standin.wait_for(lambda: other + SWITCH in card.refresh().button_texts,
                           what="the switch turned")
    assert (OFF_LINE if default else ON_LINE) in (card.refresh().text or "")
    assert f"✔ {game}" in card.refresh().button_texts  # the game stays chosen
    return card.refresh()


async def accepted(standin: StandIn, alice: User, card: Message, game: str, line: str,
                   greek: str) -> User:
    """Alice chooses 3 points (her challenge card says ``line``); Bob (Greek) follows the link,
    reads ``greek`` on the challenge, and accepts: Bob."""
    await alice.tap(card, "3 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    assert line in (card.refresh().text or "")
    share = card.refresh().button("📨 Send to a friend").url or ""
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(share).query)["text"] == [
        f"Play {game} with me!"]  # the game, not Portes
    bob = standin.user("Βασίλης", username="vasilis", language_code="el")
    link = next(e for e in (card.refresh().text or "").split() if e.startswith("https://t.me/"))
    opened = bob.follow(link)
    invite = await bob.private.wait_for_bot_message(after=opened)
    assert greek in invite.text
    await bob.tap(invite, "🎲 Αποδοχή")
    return bob


async def alice_resigns_game_1(standin: StandIn, alice: User, bob: User) -> tuple[User, str]:
    """Turns are played until Alice is on turn; she resigns the game for a point (Bob wins
    game 1): who is on turn in game 2 and what Alice reads there."""
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    while mover is not alice:
        await play_turn(standin, mover, mover.private, wait=False)
        mover, board = await next_private_turn(standin, [alice, bob], board_version(board))
    await resign_game(standin, alice, bob)
    mover, board = await next_private_turn(standin, [alice, bob], board_version(board))
    await standin.idle()
    mine = board if mover is alice else live_board(alice.private)
    assert mine is not None
    return mover, mine.caption or ""


async def test_a_tavli_match_with_the_cafe_start_off_opens_game_2_with_a_roll(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    # Given a tavli challenge with the café start (on by default) turned off
    card = await card_for(standin, alice, "Tavli", default=True)
    bob = await accepted(standin, alice, card, "Tavli", OFF_LINE, "Κάθε παρτίδα ξεκινά με ζαριά")
    # When Bob wins game 1 (Alice resigns it)
    _, caption = await alice_resigns_game_1(standin, alice, bob)
    # Then game 2 (Plakoto) begins with an opening roll, not with Bob rolling first
    assert caption.startswith("🎲 Tavli · Plakoto"), caption
    assert "Game 2: Alice rolled" in caption and "won the last game" not in caption
    state = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    assert not state.winner_starts and state.opening is not None


async def test_a_plakoto_match_with_the_cafe_start_on_lets_the_winner_roll_first(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    # Given a Plakoto challenge with the café start (off by default) turned on
    card = await card_for(standin, alice, "Plakoto", default=False)
    bob = await accepted(standin, alice, card, "Plakoto", ON_LINE,
                         "Ο νικητής κάθε παρτίδας ρίχνει πρώτος στην επόμενη")
    # When Bob wins game 1 (Alice resigns it)
    mover, caption = await alice_resigns_game_1(standin, alice, bob)
    # Then Bob, the winner, rolls first in game 2: no opening roll
    assert "Game 2: Βασίλης won the last game and rolls first." in caption
    assert mover is bob
    state = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    assert state.winner_starts and state.opening is None
