"""Game names read one way everywhere (issue 27, items 12 and 13): /rules and /new read a game
as /top and /stats do (English or Greek, any case, with or without accents, "long nardy"), a
name nobody knows is answered with the games, and /new reads its game and length."""

from __future__ import annotations

from standin import StandIn
from standin.players import live_board, start_the_bot
from tests.bot.conftest import Running


async def test_rules_reads_the_names_top_and_stats_read(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice")
    for asked, heading in (("/rules Φεύγα", "Fevga (Φεύγα): the rules on one page"),
                           ("/rules τάβλι", "Tavli: the three games in turn"),
                           ("/rules long nardy", "Long Nardy: the rules on one page"),
                           ("/rules PLAKOTO", "Plakoto (Πλακωτό): the rules on one page")):
        cmd = alice.send(alice.private, asked)
        answer = await alice.private.wait_for_bot_message(after=cmd)
        assert answer.text.startswith(heading), asked
    # a name it does not know: the games listed, no rule sheet
    cmd = alice.send(alice.private, "/rules chess")
    answer = await alice.private.wait_for_bot_message(after=cmd)
    assert answer.text == ('I do not know the game "chess". The games: Portes, Plakoto, Fevga, '
                           'Tavli, Long Nardy (for example /rules plakoto).')


async def test_rules_shows_a_spectator_the_game_played_in_the_group(
        standin: StandIn, bot: Running) -> None:
    # Given a Plakoto match in a group, started with /new plakoto 1
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol", username="carol")
    group = standin.group("Kafeneio", alice, bob, carol)
    cmd = alice.send(group, "/new plakoto 1")
    card = await group.wait_for_answer(cmd)
    assert "challenges anyone to Plakoto: a match to 1 point" in card.text
    await bob.tap(card, "🎲 Accept")
    await standin.wait_for(lambda: live_board(group), what="the first board")
    # When Carol, who only watches, asks for the rules there
    cmd = carol.send(group, "/rules")
    answer = await group.wait_for_bot_message(after=cmd)
    # Then she reads Plakoto's
    assert answer.text.startswith("Plakoto (Πλακωτό): the rules on one page")


async def test_new_reads_its_game_and_length(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice")
    nikos = standin.user("Νίκος", language_code="el")
    await start_the_bot(alice, nikos)
    # a game and a length: the challenge itself, made with them
    cmd = alice.send(alice.private, "/new plakoto 5")
    card = await alice.private.wait_for_answer(cmd)
    assert "challenges" in card.text and "Plakoto: a match to 5 points" in card.text
    assert "Send this link to a friend" in card.text
    challenge = await bot.uc.get_challenge(1)
    assert challenge is not None and (challenge.game_type, challenge.length) == ("plakoto", 5)
    # a game in Greek, without its accent: the /new card with that game chosen
    cmd = nikos.send(nikos.private, "/new φευγα")
    card = await nikos.private.wait_for_answer(cmd)
    assert "✔ Φεύγα" in card.button_texts
    # words that are neither: a clear answer, nothing made
    for bad in ("/new plakoto 4", "/new chess", "/new 3 5"):
        cmd = alice.send(alice.private, bad)
        answer = await alice.private.wait_for_bot_message(after=cmd)
        assert answer.text.startswith("I do not understand"), bad
        assert "/new plakoto 5" in answer.text and "1, 3, 5, 7" in answer.text
    assert await bot.uc.get_challenge(2) is None
