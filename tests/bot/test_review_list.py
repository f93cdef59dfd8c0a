"""/review lists what can be reviewed (issues 27 and 26). Every game has a review now (GNU
Backgammon's in Portes, the game's own evaluation in Plakoto, Fevga and Long Nardy), so a
Plakoto match is listed with its button beside a Portes one, in the reader's language."""

from __future__ import annotations

from standin import Message, StandIn, User
from standin.players import next_private_turn
from tests.bot.conftest import Running
from tests.bot.helpers.review import resign_the_match
from tests.bot.helpers.tavli import private_game


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
    # the invitation, not the last match's seed reveal that may reach him meanwhile
    invite = await bob.private.wait_for_bot_message(
        after=opened, predicate=lambda m: "🎲 Αποδοχή" in m.button_texts)
    await bob.tap(invite, "🎲 Αποδοχή")


async def test_a_plakoto_match_is_listed_for_review_in_both_languages(
        standin: StandIn, bot: Running) -> None:
    # Given Alice (English) and Βασίλης (Greek) finished a Plakoto match, their only match
    alice, bob = await private_game(standin, "Plakoto")
    await next_private_turn(standin, [alice, bob], 0)
    await resign_the_match(standin, bob, alice)
    # When each asks for /review
    for user, title in ((alice, "Your finished matches (tap one for its review):"),
                        (bob, "Οι αγώνες σου που τελείωσαν (πάτα έναν για την ανάλυσή του):")):
        answer = await review(standin, user)
        # Then each gets the list in their language, with the match's Review button
        assert answer.text.splitlines()[0] == title
        assert "#1" in answer.text
        assert [b for b in answer.button_texts if b.startswith("📊 #1")]


async def test_review_lists_the_portes_and_the_plakoto_matches(
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
    # Then both are listed, each with its Review button, the newest first
    assert answer.text.splitlines()[0] == "Your finished matches (tap one for its review):"
    assert "#2" in answer.text and "#1" in answer.text
    reviews = [b for b in answer.button_texts if b.startswith("📊 #")]
    assert [r[:4] for r in reviews] == ["📊 #2", "📊 #1"]
    assert all("Βασίλης" in r for r in reviews)
