"""Inline mode offers every game (issue 15): Portes, Plakoto, Fevga, Tavli and Long Nardy, each
with the match lengths, within Telegram's limits, in the language of the player who types; the
card's challenge plays the game chosen, and its Accept is checked on tap."""

from __future__ import annotations

from bot.views.callbacks import Action, encode
from standin import StandIn
from standin.players import live_board, start_the_bot
from tests.bot.conftest import Running


async def test_inline_mode_offers_every_game_with_its_lengths(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    # When Alice types only the bot's name
    results = await alice.inline_query("")
    # Then every game comes with every length (and "no triple" where a triple exists), within
    # the 50 results Telegram takes, each Accept's data within 64 bytes (the stand-in checks)
    assert results is not None and len(results) <= 50
    titles = [r["title"] for r in results]
    for game in ("Portes", "Plakoto", "Fevga", "Tavli", "Long Nardy"):
        for n in ("1 point", "3 points", "5 points", "7 points"):
            if (game, n) != ("Tavli", "1 point"):
                assert f"{game}: match to {n}" in titles, (game, n)
    # a tavli match is played to 3, 5 or 7 (its three games in turn), as on the /new card
    assert not [t for t in titles if t.startswith("Tavli: match to 1 point")]
    assert "Plakoto: match to 3 points · no triple" not in titles  # no triple there anyway
    assert "Tavli: match to 3 points · no triple" in titles
    assert len({r["id"] for r in results}) == len(results)
    tavli = next(r for r in results if r["title"] == "Tavli: match to 5 points")
    assert "Portes, Plakoto and Fevga in turn" in tavli["description"]
    # a game's name narrows them, in Greek too, and the titles are in the typer's language
    eleni = standin.user("Ελένη", language_code="el")
    greek = await eleni.inline_query("πλακωτο 5")
    assert greek is not None and [r["title"] for r in greek] == ["Πλακωτό: αγώνας στους 5 πόντους"]
    fevga = await alice.inline_query("fevga")
    assert fevga is not None and {r["id"] for r in fevga} == {"1tf", "3tf", "5tf", "7tf"}
    tavli = await alice.inline_query("tavli 1")
    assert tavli is not None and {r["id"] for r in tavli} == {"3tv", "5tv", "7tv", "3nv",
                                                               "5nv", "7nv"}


async def test_inline_mode_says_when_no_game_has_the_name_typed(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    # When Alice asks for a game the bot does not play
    query = alice.inline_query("chess")
    results = await query
    # Then a button above the cards says so, and the five games are offered
    assert query.button is not None, query.button
    assert query.button["text"] == "No game “chess” here: the five games are below"
    assert query.button["start_parameter"] == "help"
    titles = [r["title"] for r in results or []]
    assert {t.split(":")[0] for t in titles} == {"Portes", "Plakoto", "Fevga", "Tavli",
                                                  "Long Nardy"}
    # and a query the cards understand has no such button, in Greek too
    for text in ("plakoto 5", "no triple", "πλακωτό 3 πόντους", "5 points", ""):
        known = alice.inline_query(text)
        await known
        assert known.button is None, text


async def test_an_inline_tavli_card_starts_a_tavli_match(standin: StandIn, bot: Running) -> None:
    standin.set_inline_feedback(True)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(bob)
    chat = standin.direct_chat(alice, bob)
    # Given Alice posts the Tavli card for a match to 3
    query = alice.inline_query("tavli 3")
    await query
    card = alice.choose_inline_result(query, "3tv", chat)
    assert "challenges anyone to Tavli: a match to 3 points" in card.text
    # Then its challenge is a tavli match, the café start on as for every tavli match
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="commitment")
    assert "(café style)" in card.refresh().text
    challenge = await bot.uc.get_challenge(1)
    assert challenge is not None and challenge.game_type == "tavli" and challenge.winner_starts
    # When Bob accepts, the match starts with Portes, the first game of the rotation
    await bob.tap(card.refresh(), "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(bob.private), what="Bob's board")
    assert board.caption.startswith("🎲 Tavli · Portes")


async def test_an_inline_card_without_feedback_checks_its_game_on_tap(
        standin: StandIn, bot: Running) -> None:
    standin.set_inline_feedback(False)
    alice = standin.user("Alice")
    bob = standin.user("Bob")
    await start_the_bot(bob)
    chat = standin.direct_chat(alice, bob)
    query = alice.inline_query("long nardy 1")
    await query
    card = alice.choose_inline_result(query, "1tn", chat)
    assert "challenges anyone to Long Nardy" in card.text and "SHA-256" not in card.text
    # a forged Accept naming no game is refused and creates nothing
    answer = await bob.tap_data(card, encode(Action.ACCEPT, 0, 0, f"1t{alice.id}gz"))
    assert answer.show_alert and await bot.uc.get_challenge(1) is None
    # the card's own Accept makes the Long Nardy challenge and shows its commitment
    answer = await bob.tap(card, "🎲 Accept")
    assert answer.show_alert and "tap Accept again" in (answer.text or "")
    challenge = await bot.uc.get_challenge(1)
    assert challenge is not None and challenge.game_type == "nardy"
    assert not challenge.winner_starts
    await bob.tap(card.refresh(), "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(bob.private), what="Bob's board")
    assert board.caption.startswith("🎲 Long Nardy")
