"""Ratings, /top and /stats per game (issue 15), as players see them: a Plakoto match and a
Portes match between the same two players rate apart; /top and /stats name the game, default
to the one played last, take English and Greek names, and switch the game with their buttons;
wrong names and forged buttons get a clear answer and change nothing."""

from __future__ import annotations

from typing import Any

from bot.settings import Limits
from bot.views.callbacks import Action, encode
from standin import Chat, Message, StandIn, User
from standin.players import ask, live_board, resign_in, start_match
from tests.bot.conftest import Running
from tests.bot.helpers.tavli import challenge

GAMES = ["Portes", "Plakoto", "Fevga", "Tavli", "Long Nardy"]


def ticked(game: str) -> list[str]:
    """The switch buttons with ``game`` ticked."""
    return [("✔ " if g == game else "") + g for g in GAMES]


async def won_in(standin: StandIn, winner: User, loser: User, group: Chat, game: str) -> str:
    """A 1-point match of ``game`` in ``group`` that ``loser`` resigns: its last caption."""
    if game == "Portes":  # ticked on the card already
        return await resign_in(standin, loser, group,
                               await start_match(standin, winner, loser, group))
    card = await challenge(standin, winner, group, game)
    await loser.tap(card, "🎲 Accept")
    board = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and b.message_id > card.message_id and b,
        what="the first board")
    return await resign_in(standin, loser, group, board)


async def answer_after(standin: StandIn, chat: Chat, old: Message, mark: str) -> Message:
    """The bot's message in ``chat`` with ``mark``: ``old`` edited, or a newer one."""
    def find() -> Message | None:
        for m in reversed(chat.bot_messages()):
            if m.message_id >= old.message_id and mark in m.content:
                return m
        return None
    return await standin.wait_for(find, what=mark)


def kafeneio(standin: StandIn) -> tuple[User, User, User, Chat]:
    """Alice, Bob and Carol, and the group the three are in."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol", username="carol")
    return alice, bob, carol, standin.group("Kafeneio", alice, bob, carol)


async def test_plakoto_and_portes_rate_apart_and_top_switches_the_game(
    standin: StandIn, make_bot: Any
) -> None:
    # six matches started in one group within a minute: past the group's /new cap (5 a minute,
    # a crowd's guard), which this test is not about
    await make_bot(limits=Limits(new_per_group_minute=0))
    alice, bob, carol, group = kafeneio(standin)
    # Alice wins three Portes matches, Bob three Plakoto ones, between the same two players
    captions = [await won_in(standin, alice, bob, group, "Portes") for _ in range(3)]
    assert "📈 Alice +9.7 → 1529.6" in captions[-1]
    captions = [await won_in(standin, bob, alice, group, "Plakoto") for _ in range(3)]
    # Plakoto starts afresh: Bob is a newcomer at 1500 there although he lost Portes thrice
    # (by hand as test_social's: +10, +9.87, +9.73 for three 1-point wins)
    assert "📈 Bob +10.0 → 1510.0" in captions[0] and "📈 Alice -10.0 → 1490.0" in captions[0]
    assert "📈 Bob +9.7 → 1529.6" in captions[-1] and "📈 Alice -9.7 → 1470.4" in captions[-1]

    # /top plakoto lists Plakoto's ratings only, and names the game in the caption
    top = await ask(carol, group, "/top plakoto", "🏆")
    assert top.photo_bytes is not None
    assert top.content.splitlines()[:3] == ["🏆 Plakoto · Leaderboard of Kafeneio",
                                            "1. Bob · 1529.6* · 3 matches",
                                            "2. Alice · 1470.4* · 3 matches"]
    assert top.button_texts == ticked("Plakoto")
    # without a name: the game the caller played last (Alice: Plakoto; Carol never played:
    # Portes)
    top = await ask(alice, group, "/top", "🏆")
    assert top.content.startswith("🏆 Plakoto · Leaderboard of Kafeneio\n")
    top = await ask(carol, group, "/top PORTES", "🏆")
    assert top.content.splitlines()[:2] == ["🏆 Portes · Leaderboard of Kafeneio",
                                            "1. Alice · 1529.6* · 3 matches"]

    # the buttons switch the game in place (a picture stays a picture), for the one who asked
    await carol.tap(top, "Plakoto")
    await standin.wait_for(lambda: top.refresh().button_texts == ticked("Plakoto"),
                           what="Plakoto ticked")
    switched = top.refresh()
    assert switched.photo_bytes is not None and switched.edit_count == 1
    assert switched.content.splitlines()[:2] == ["🏆 Plakoto · Leaderboard of Kafeneio",
                                                 "1. Bob · 1529.6* · 3 matches"]
    # a game nobody is listed in: text only, so a new message replaces the picture
    await carol.tap(switched, "Fevga")
    fevga = await answer_after(standin, group, switched, "🏆 Fevga ·")
    assert fevga.photo_bytes is None and fevga.button_texts == ticked("Fevga")
    assert "Nobody is listed yet" in fevga.text
    await standin.wait_for(lambda: all(m.message_id != switched.message_id
                                       for m in group.bot_messages()), what="the old deleted")
    # and back to a picture from there
    await carol.tap(fevga, "Portes")
    portes = await answer_after(standin, group, fevga, "🏆 Portes ·")
    assert portes.photo_bytes is not None and "1. Alice · 1529.6* · 3 matches" in portes.content
    # anyone else tapping gets a leaderboard of their own, and Carol's stays as it is
    await bob.tap(portes, "Plakoto")
    bobs = await answer_after(standin, group, portes, "🏆 Plakoto ·")
    assert bobs.message_id > portes.message_id and bobs.photo_bytes is not None
    assert bobs.content.splitlines()[:2] == ["🏆 Plakoto · Leaderboard of Kafeneio",
                                             "1. Bob · 1529.6* · 3 matches"]
    assert (portes.refresh().content, portes.refresh().edit_count) == (portes.content, 0)

    # the global leaderboard in private, per game too, in Greek names
    top = await ask(bob, bob.private, "/top Πλακωτό", "🏆")
    assert top.content.startswith("🏆 Plakoto · Global leaderboard\n1. Bob · 1529.6*")


async def test_stats_and_head_to_head_per_game_with_their_buttons(
    standin: StandIn, bot: Running
) -> None:
    alice, bob, carol, group = kafeneio(standin)
    await won_in(standin, alice, bob, group, "Portes")
    await won_in(standin, bob, alice, group, "Fevga")

    # /stats: the game played last (Fevga), its record and rating only
    stats = await ask(alice, group, "/stats", "📊")
    lines = stats.text.splitlines()
    assert lines[:2] == ["📊 Alice · Fevga", "👥 Against people: 1 match · 0 won · 1 lost"]
    assert "📈 Rating: 1490.0* (1 rated match)" in lines
    assert stats.button_texts == ticked("Fevga")
    # the buttons switch it in place for the player whose record it is; anyone else tapping
    # gets their own record in a message of their own
    await bob.tap(stats, "Portes")
    bobs = await answer_after(standin, group, stats, "📊 Bob · Portes")
    assert bobs.text.splitlines()[1] == "👥 Against people: 1 match · 0 won · 1 lost"
    assert bobs.button_texts == ticked("Portes")
    assert stats.refresh().text == stats.text
    await alice.tap(stats, "Portes")
    await standin.wait_for(lambda: (stats.refresh().text or "").startswith("📊 Alice · Portes"),
                           what="Portes's record")
    assert "👥 Against people: 1 match · 1 won · 0 lost" in stats.refresh().text
    assert "📈 Rating: 1510.0* (1 rated match)" in stats.refresh().text
    assert stats.refresh().button_texts == ticked("Portes")

    # head to head per game: named in Greek, then switched
    h2h = await ask(alice, group, "/stats φευγα @bob", "⚔️")
    assert h2h.text.splitlines() == ["⚔️ Alice vs Bob · Fevga",
                                     "1 match: Alice won 0, Bob won 1", "Points: Alice 0 · Bob 1"]
    await alice.tap(h2h, "Portes")
    await standin.wait_for(lambda: "· Portes" in (h2h.refresh().text or ""), what="Portes")
    assert h2h.refresh().text.splitlines()[1] == "1 match: Alice won 1, Bob won 0"
    await alice.tap(h2h.refresh(), "Long Nardy")
    await standin.wait_for(lambda: "· Long Nardy" in (h2h.refresh().text or ""), what="Nardy")
    assert "No finished match against each other in this game yet." in h2h.refresh().text

    # /stats μακρύ νάρδι, in any case: a game nobody played
    stats = await ask(bob, bob.private, "/stats ΜΑΚΡΥ ΝΑΡΔΙ", "📊")
    assert stats.text.splitlines() == ["📊 Bob · Long Nardy",
                                       "No finished match in this game yet."]

    # Alice then plays Plakoto with Carol: her own last game is Plakoto, but head to head with
    # Bob (by reply) shows the game the two played last, Fevga
    await won_in(standin, carol, alice, group, "Plakoto")
    assert (await ask(alice, group, "/stats", "📊")).text.startswith("📊 Alice · Plakoto\n")
    h2h = await ask(alice, group, "/stats", "⚔️", reply_to=bob.send(group, "again?"))
    assert h2h.text.startswith("⚔️ Alice vs Bob · Fevga\n")
    assert h2h.button_texts == ticked("Fevga")


async def test_wrong_game_names_and_forged_buttons(standin: StandIn, bot: Running) -> None:
    eleni = standin.user("Eleni", username="eleni", language_code="el")
    zoe = standin.user("Zoe", username="zoe")
    answer = await ask(zoe, zoe.private, "/top chess", "chess")
    assert answer.text == ('I do not know the game "chess". The games: Portes, Plakoto, Fevga, '
                           "Tavli, Long Nardy (for example /top plakoto).")
    answer = await ask(eleni, eleni.private, "/top σκάκι", "σκάκι")
    assert answer.text == ("Δεν ξέρω το παιχνίδι «σκάκι». Τα παιχνίδια: Πόρτες, Πλακωτό, Φεύγα, "
                           "Τάβλι, Μακρύ νάρδι (π.χ. /top πλακωτό).")
    # /top hide and show still work beside the games
    assert "/top show" in (await ask(zoe, zoe.private, "/top hide", "hidden")).text
    await ask(zoe, zoe.private, "/top show", "listed")

    top = await ask(zoe, zoe.private, "/top", "🏆")
    stats = await ask(zoe, zoe.private, "/stats", "📊")
    # data the cards do not carry is refused before it is read (bot.handlers.guard)
    for message, data in (
            (top, encode(Action.TOP_GAME, 0, 0, "z", owner=zoe.id)),  # no such game
            (top, encode(Action.TOP_GAME, 5, 0, "k", owner=zoe.id)),  # ids where none go
            (top, "lb:0:0:k"),  # malformed on purpose: no owner (encode refuses to make it)
            (stats, encode(Action.STATS_GAME, zoe.id, 0, "q", owner=zoe.id)),
            (stats, encode(Action.STATS_GAME, zoe.id, 0, "k-x", owner=zoe.id)),
            (stats, encode(Action.STATS_GAME, 12345, 0, "k",  # someone else's record
                           owner=zoe.id))):
        refused = await zoe.tap_data(message, data)
        assert refused.show_alert
        assert refused.text == "This button is not on this message; use the buttons it shows now."
        assert message.refresh().content == message.content and message.refresh().edit_count == 0
    refused = await zoe.tap_data(top, "lb:0:0:k\n")  # malformed on purpose: not our shape
    assert refused.show_alert and stats.refresh().edit_count == 0
