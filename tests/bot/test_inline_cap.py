"""An inline card and its author's cap on open challenges (issue 28, item 6): over the cap,
inline mode offers no card and says why; a card made before the cap was reached and posted
after says at once (or on its first Accept) that it cannot be opened, the tapper is told why,
and so is the author, in private."""

from __future__ import annotations

import pytest

from standin import StandIn, User
from standin.players import start_the_bot
from storage.results import ChallengeLimits
from tests.bot.conftest import Running

CAP = ChallengeLimits().overall
"""Open challenges one player may have anywhere (the default the bot's tests run with)."""
DEAD = "🚫 Alice has too many open challenges, so this challenge cannot be opened."
TOLD = ("Your challenge card could not be opened: you have too many open challenges. Withdraw "
        "one (Withdraw on its card), or wait until one is accepted or expires, then post a new "
        "card.")


async def fill_the_cap(bot: Running, author: User) -> None:
    """``author`` opens as many challenges as they may (as /new and a length tap do)."""
    for _ in range(CAP):
        assert (await bot.uc.create_challenge(author.id, length=1)).ok
    assert not (await bot.uc.create_challenge(author.id, length=1)).ok


async def test_over_the_cap_inline_mode_offers_no_card_and_says_why(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    await start_the_bot(alice)
    await fill_the_cap(bot, alice)
    # When Alice types the bot's name to post a challenge
    query = alice.inline_query("portes 3")
    results = await query
    # Then no card is offered, but a button saying why, which explains it in private
    assert results == []
    assert query.button is not None
    assert query.button["text"] == "You have too many open challenges"
    hello = alice.start_bot(query.button["start_parameter"])
    reply = await alice.private.wait_for_bot_message(after=hello)
    assert "too many open challenges" in reply.text and "withdraw one" in reply.text


@pytest.mark.parametrize("feedback", [False, True], ids=["on-accept", "on-posting"])
async def test_a_card_made_before_the_cap_was_reached_says_it_cannot_be_opened(
        standin: StandIn, bot: Running, feedback: bool) -> None:
    standin.set_inline_feedback(feedback)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    chat = standin.direct_chat(alice, bob)
    # Given Alice's cards were offered while she could still open a challenge
    query = alice.inline_query("portes 3")
    assert await query
    # and she reached the cap before posting one
    await fill_the_cap(bot, alice)
    card = alice.choose_inline_result(query, "3t", chat)
    if feedback:  # Then, with inline feedback, the card says so as soon as it is posted
        await standin.wait_for(lambda: card.refresh().text == DEAD, what="the card's refusal")
        assert not card.refresh().has_keyboard
    else:  # Else the first Accept is told why, and the card says so
        answer = await bob.tap(card, "🎲 Accept")
        assert answer.show_alert
        assert answer.text == ("Alice has too many open challenges right now, so this card "
                               "cannot be accepted.")
        assert card.refresh().text == DEAD and not card.refresh().has_keyboard
    # And Alice is told in private, once; no challenge was opened for the card
    told = await alice.private.wait_for_bot_message(predicate=lambda m: m.text == TOLD)
    assert told is not None
    await standin.idle()
    assert [m.text for m in alice.private.bot_messages()].count(TOLD) == 1
    assert await bot.uc.get_challenge(CAP + 1) is None
