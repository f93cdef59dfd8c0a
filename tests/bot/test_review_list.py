"""/review lists what can be reviewed (issue 27). Reviews are GNU Backgammon's, so only Portes
matches have one: a player whose finished matches are all of the other games is told so, in
their language, with no keyboard (the answer used to carry a keyboard without buttons, which
Telegram refuses, so no answer came at all); a Portes match among them is listed with its
button, and the others are not."""

from __future__ import annotations

from standin import Message, StandIn, User
from standin.players import next_private_turn
from tests.bot.conftest import Running
from tests.bot.helpers.review import resign_the_match
from tests.bot.helpers.tavli import private_game

NO_REVIEW = ("Reviews are for Portes matches: GNU Backgammon, which writes them, does not play "
             "the other games. You have no finished Portes match yet.")
NO_REVIEW_EL = ("Οι αναλύσεις είναι μόνο για αγώνες Πόρτες: το GNU Backgammon, που τις γράφει, "
                "δεν παίζει τα άλλα παιχνίδια. Δεν έχεις ακόμα τελειωμένο αγώνα Πόρτες.")




async def review(standin: StandIn, user: User) -> Message:
    await standin.idle()  # the match's end (its board, the seed) told first
    cmd = user.send(user.private, "/review")
    return await user.private.wait_for_bot_message(  # the answer, not a board posted meanwhile
        after=cmd, predicate=lambda m: m.photo_bytes is None and "seed" not in m.content)


async def a_portes_match_by_link(standin: StandIn, alice: User, bob: User) -> None:
    """Alice challenges to a 1-point Portes match by link in her private chat; Bob accepts."""
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    await alice.tap(card, "1 point")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    link = next(e for e in card.refresh().text.split() if e.startswith("https://t.me/"))
    opened = bob.follow(link)
    invite = await bob.private.wait_for_bot_message(after=opened)
    await bob.tap(invite, "🎲 Αποδοχή")


async def test_review_of_only_other_games_says_reviews_are_for_portes_in_both_languages(
        standin: StandIn, bot: Running) -> None:
    # Given Alice (English) and Βασίλης (Greek) finished a Plakoto match, their only match
    alice, bob = await private_game(standin, "Plakoto")
    await next_private_turn(standin, [alice, bob], 0)
    await resign_the_match(standin, bob, alice)
    # When each asks for /review
    for user, expected in ((alice, NO_REVIEW), (bob, NO_REVIEW_EL)):
        answer = await review(standin, user)
        # Then each is told, in their language, that reviews are for Portes, with no buttons
        assert answer.text == expected
        assert not answer.has_keyboard


async def test_review_lists_the_portes_matches_and_leaves_the_others_out(
        standin: StandIn, bot: Running) -> None:
    # Given Alice finished a Plakoto match (#1), then a Portes match (#2), with Βασίλης
    alice, bob = await private_game(standin, "Plakoto")
    await next_private_turn(standin, [alice, bob], 0)
    await resign_the_match(standin, bob, alice)
    await a_portes_match_by_link(standin, alice, bob)
    await standin.wait_for(lambda: (m := bot.app.bot_data["portes"].views.get(2)) is not None
                           and m.status.value == "active", what="the Portes match begun")
    await resign_the_match(standin, alice, bob)
    # When she asks for /review
    answer = await review(standin, alice)
    # Then the Portes match is listed with its Review button, and the Plakoto match is not
    assert answer.text.splitlines()[0] == "Your finished Portes matches (tap one for its review):"
    assert "#2" in answer.text and "#1" not in answer.text
    reviews = [b for b in answer.button_texts if b.startswith("📊 #")]
    assert len(reviews) == 1 and reviews[0].startswith("📊 #2 Βασίλης")
